//! The equipment a `/character gear` change names: what kind of row an item is, the numbers
//! given with it, and the change itself.
//!
//! A leaf of the family: the parser ([`super`]) makes these, `edit` applies them and `transfer`
//! reads and writes them in an export; it imports none of those.

use crate::app::text::escape;

/// What kind of equipment row an item is (`app::sheet::ItemStats` says which numbers each keeps).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    Weapon,
    Armor,
    Shield,
    Item,
}

impl ItemKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ItemKind::Weapon => "weapon",
            ItemKind::Armor => "armor",
            ItemKind::Shield => "shield",
            ItemKind::Item => "item",
        }
    }

    pub fn parse(s: &str) -> Option<ItemKind> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "weapon" => ItemKind::Weapon,
            "armor" | "armour" => ItemKind::Armor,
            "shield" => ItemKind::Shield,
            "item" => ItemKind::Item,
            _ => return None,
        })
    }
}

impl std::str::FromStr for ItemKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        ItemKind::parse(s).ok_or_else(|| {
            format!(
                "kind must be weapon, armor, shield or item; you gave \"{}\"",
                escape(s.trim())
            )
        })
    }
}

/// The numbers given with `gear action:add` (each `None` when not given).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GearNumbers {
    pub attack_bonus: Option<i32>,
    pub armor_bonus: Option<i32>,
    pub locations: Option<String>,
    pub missile: Option<bool>,
    /// A THIZ weapon's family (Trained for War).
    pub family: Option<String>,
    /// What a THIZ missile weapon shoots: low, piercing, high or armour-piercing.
    pub missile_kind: Option<String>,
    /// A THIZ weapon made to be thrown.
    pub thrown: Option<bool>,
    /// How well a TFT weapon was made: plain, good, fine, fine+1, fine+2, fine-dx+1, fine-dx+2
    /// (tft-house-rules.txt, "Fine Weapons", "Good Weapons").
    pub quality: Option<String>,
}

/// A change to the equipment list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GearChange {
    Add {
        item: String,
        kind: ItemKind,
        numbers: GearNumbers,
    },
    Remove {
        item: String,
    },
}

/// The most bonus a THIZ weapon or armor can carry; a limit against typing errors.
pub const MAX_BONUS: i64 = 20;
