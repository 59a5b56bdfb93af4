//! What luck is spent on ([`SpendKind`]), and the custom ids of the luck buttons.
//!
//! A leaf of the family: it imports none of luck's use cases; luck's own parser ([`super`])
//! reads the ids made here back.
//!
//! Seam: THIZ's checks, hazards, magic and dying rolls (`thiz`) put [`reroll_button`] on their
//! replies.

use std::str::FromStr;

use crate::app::reply::Button;
use crate::rules::thiz::Location;
use crate::store::{CharacterId, RollId};

/// What luck is spent on (thiz-rulebook.md, chapter 10 "Luck"; chapter 4 "Berserk", "Sleepless").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpendKind {
    /// Roll an earlier check again: a `/check`, or an attack's hit roll.
    Reroll,
    /// Roll again the Toughness check against a hit the character took.
    Toughness,
    /// Lower a wound on the sheet by one colour, whatever made it.
    Wound,
    /// A feat only luck could pull off; the referee rolls for it in secret.
    Stunt,
    /// Berserk: keep fighting past a fatal blow.
    Berserk,
    /// Sleepless: rouse from the long sleep.
    Rouse,
}

impl SpendKind {
    const ALL: [SpendKind; 6] = [
        SpendKind::Reroll,
        SpendKind::Toughness,
        SpendKind::Wound,
        SpendKind::Stunt,
        SpendKind::Berserk,
        SpendKind::Rouse,
    ];

    pub(super) fn name(self) -> &'static str {
        match self {
            SpendKind::Reroll => "reroll",
            SpendKind::Toughness => "toughness",
            SpendKind::Wound => "wound",
            SpendKind::Stunt => "stunt",
            SpendKind::Berserk => "berserk",
            SpendKind::Rouse => "rouse",
        }
    }

    /// Whether the spend applies to an earlier roll (`roll:`).
    pub(super) fn takes_roll(self) -> bool {
        matches!(
            self,
            SpendKind::Reroll | SpendKind::Toughness | SpendKind::Wound
        )
    }
}

impl FromStr for SpendKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let key = s.trim().to_ascii_lowercase();
        SpendKind::ALL
            .into_iter()
            .find(|k| k.name() == key)
            .ok_or_else(|| {
                format!(
                    "kind must be reroll, toughness, wound, stunt, berserk or rouse; you gave {:?}",
                    crate::app::text::truncate(&key, 40)
                )
            })
    }
}

/// The "Spend luck: reroll" button every logged resolution check carries for its owner.
pub fn reroll_button(roll: RollId) -> Button {
    Button {
        custom_id: button_id(SpendKind::Reroll, roll),
        label: "Spend luck: reroll".to_owned(),
        disabled: false,
    }
}

/// The custom id of a "Spend luck" button for `roll`.
pub fn button_id(kind: SpendKind, roll: RollId) -> String {
    format!("luck:{}:{}", kind.name(), roll.0)
}

/// The longest tag a "lower again" button carries (Discord allows 100 characters in an id).
pub(super) const MAX_TAG: usize = 60;

/// The custom id of a "Spend luck: lower again" button; `tag` (the interaction that made the
/// button) makes it spend at most once however often it is pressed.
pub fn lower_again_id(character: CharacterId, location: Location, tag: &str) -> String {
    let slot = Location::ALL
        .iter()
        .position(|l| *l == location)
        .unwrap_or_default();
    let tag: String = tag
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(MAX_TAG)
        .collect();
    format!("luck:lower:{}:{slot}:{tag}", character.0)
}
