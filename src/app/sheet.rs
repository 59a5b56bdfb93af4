//! The public sheet stored with each character (`characters.sheet_json`), per system.
//!
//! Skills (THIZ), equipment and wounds have tables of their own; this is the rest of the sheet.
//! Nothing hidden lives here: luck, hidden keys and GM notes are in the hidden tables.

use serde::{Deserialize, Serialize};

use super::{AppResult, user};
use crate::store::characters::Character;
use crate::store::guilds::System;

/// A THIZ character's sheet beyond skills, equipment and wounds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ThizSheet {
    pub homeland: Option<String>,
    pub parents: Option<String>,
    /// The skill of a parent's or mentor's profession (creation rule).
    pub parent_skill: Option<String>,
    /// Weakness names as in the rulebook, with a subject where one applies ("Phobia (spiders)").
    pub weaknesses: Vec<String>,
    pub quirks: Vec<String>,
    /// Which limb, for Missing Limb ("left arm").
    pub missing_limb: Option<String>,
    /// The better hand, "right" or "left": the arm a one-handed skill uses unless the check names
    /// another (right when unset).
    pub handedness: Option<String>,
    /// Public notes the owner keeps on the sheet.
    pub notes: Option<String>,
    /// Sessions played. 0 while the character is being made: the creation limits apply. From the
    /// first session on, skills grow by advancement (chapter 10) and validation checks that.
    pub sessions: u32,
    /// Specials gained by training with a tutor, each "Skill: its narrow use"
    /// ("Artisan (Goldsmithing): rings"): +3 to that use (chapter 10, "Training").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub specials: Vec<String>,
}

impl ThizSheet {
    /// The stage the rules check the sheet at: in play once a session has been played.
    pub fn stage(&self) -> crate::rules::thiz::creation::Stage {
        use crate::rules::thiz::creation::Stage;
        if self.sessions > 0 {
            Stage::InPlay
        } else {
            Stage::Creation
        }
    }
}

/// A TFT character's sheet beyond equipment and hits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TftSheet {
    pub st: i32,
    pub dx: i32,
    pub iq: i32,
    /// Skill points (house rules: IQ + 2×SP talent capacity).
    pub sp: i32,
    /// Movement allowance when it differs from the rule's default.
    pub ma: Option<i32>,
    pub talents: Vec<String>,
    pub spells: Vec<String>,
    pub xp: i64,
    /// Worn armor and carried shield, by the names of the armor table.
    pub armor: Option<String>,
    pub shield: Option<String>,
    pub notes: Option<String>,
    /// On the ground after a knockdown (or a fall unconscious) until it stands (`/tft stand`).
    #[serde(skip_serializing_if = "is_false")]
    pub knocked_down: bool,
    /// Killed: failed the roll to live, or died unaided. Only a GM undoes it (`/tft condition`).
    #[serde(skip_serializing_if = "is_false")]
    pub dead: bool,
    /// Lived through the roll to live: out cold at 0 ST, no further roll until hurt again.
    #[serde(skip_serializing_if = "is_false")]
    pub stable: bool,
    /// The mana the figure's staff holds at most (tft-rules-summary.md, "SECONDARY ATTRIBUTES",
    /// MANA); 0: no staff. The GM's number: the sources give no staff's size.
    #[serde(skip_serializing_if = "is_zero")]
    pub mana: u32,
    /// Mana spent from the staff and not yet put back (`/tftkit cast mana:`, `/tftkit staff`).
    #[serde(skip_serializing_if = "is_zero")]
    pub mana_spent: u32,
}

impl TftSheet {
    /// The figure's staff, for `rules::tft::mana`.
    pub fn staff(&self) -> crate::rules::tft::mana::Staff {
        crate::rules::tft::mana::Staff {
            mana: self.mana,
            spent: self.mana_spent,
        }
    }
}

// serde's skip_serializing_if takes a reference.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(n: &u32) -> bool {
    *n == 0
}

// serde's skip_serializing_if takes a reference.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(b: &bool) -> bool {
    !*b
}

impl Default for TftSheet {
    fn default() -> Self {
        // The starting figure of the summary: 8 in each attribute before points are spent.
        Self {
            st: 8,
            dx: 8,
            iq: 8,
            sp: 0,
            ma: None,
            talents: Vec::new(),
            spells: Vec::new(),
            xp: 0,
            armor: None,
            shield: None,
            notes: None,
            knocked_down: false,
            dead: false,
            stable: false,
            mana: 0,
            mana_spent: 0,
        }
    }
}

/// A sheet of either system.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sheet {
    Thiz(ThizSheet),
    Tft(TftSheet),
}

impl Sheet {
    /// An empty sheet for a new character.
    pub fn new(system: System) -> Self {
        match system {
            System::Thiz => Sheet::Thiz(ThizSheet::default()),
            System::Tft => Sheet::Tft(TftSheet::default()),
        }
    }

    /// The stored sheet of `c`.
    pub fn of(c: &Character) -> AppResult<Self> {
        let bad = |e: serde_json::Error| {
            AppError::Internal(anyhow::anyhow!(
                "sheet of character {} is corrupt: {e}",
                c.id
            ))
        };
        Ok(match c.system {
            System::Thiz => Sheet::Thiz(serde_json::from_str(&c.sheet_json).map_err(bad)?),
            System::Tft => Sheet::Tft(serde_json::from_str(&c.sheet_json).map_err(bad)?),
        })
    }

    pub fn to_json(&self) -> String {
        // Both sheets are plain data: serialising cannot fail.
        match self {
            Sheet::Thiz(s) => serde_json::to_string(s),
            Sheet::Tft(s) => serde_json::to_string(s),
        }
        .unwrap_or_else(|_| "{}".to_owned())
    }

    pub fn thiz(&self) -> AppResult<&ThizSheet> {
        match self {
            Sheet::Thiz(s) => Ok(s),
            Sheet::Tft(_) => Err(user("That is a TFT character; this command is for THIZ.")),
        }
    }

    pub fn tft(&self) -> AppResult<&TftSheet> {
        match self {
            Sheet::Tft(s) => Ok(s),
            Sheet::Thiz(_) => Err(user("That is a THIZ character; this command is for TFT.")),
        }
    }
}

use super::AppError;

/// Equipment kinds in the `equipment` table, with the numbers each keeps in `stats_json`.
///
/// THIZ: `weapon` {"attack_bonus": i32, "missile": bool, "thrown": bool}; `armor` {"armor_bonus": i32,
/// "locations": ["head", "chest", …]}; `shield` {"armor_bonus": i32}.
/// TFT: `weapon` (the name is a row of the weapon table; {"quality": "fine+2"…, "broken": bool,
/// "dropped": bool});
/// armor and shield are on the sheet. Anything else is `item` {}.
// One flag per stat the stored JSON keeps; each kind of item reads its own.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ItemStats {
    pub attack_bonus: i32,
    pub missile: bool,
    pub armor_bonus: i32,
    pub locations: Vec<String>,
    pub quality: Option<String>,
    /// THIZ weapon: its family (one-handed blades, pole weapons…), for Trained for War.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// THIZ missile weapon: what it shoots (low, piercing, high, armour-piercing), whose
    /// suggested Attack Bonus stands when none is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missile_kind: Option<String>,
    /// THIZ weapon made to be thrown (a javelin, a throwing knife): a missile attack with it is a
    /// thrown attack, which Psychokinesis helps (thiz-rulebook.md, chapter 2).
    #[serde(skip_serializing_if = "is_false")]
    pub thrown: bool,
    /// TFT weapon broken by an attack's break result: refused until replaced or repaired
    /// (`/tft repair`).
    #[serde(skip_serializing_if = "is_false")]
    pub broken: bool,
    /// TFT weapon dropped by an attack's drop result (17 on 3 dice): refused until picked up
    /// (`/tftkit pickup`, an action of its own).
    #[serde(skip_serializing_if = "is_false")]
    pub dropped: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sheets_round_trip_and_refuse_unknown_fields() {
        let s = Sheet::Tft(TftSheet {
            st: 12,
            ..TftSheet::default()
        });
        let json = s.to_json();
        let back: TftSheet = serde_json::from_str(&json).unwrap();
        assert_eq!(Sheet::Tft(back), s);
        assert!(serde_json::from_str::<ThizSheet>(r#"{"luck": 5}"#).is_err());
    }
}
