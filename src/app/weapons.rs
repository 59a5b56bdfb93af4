//! The weapon an attack uses when none is named: one rule for `/attack` (THIZ), `/tft attack`
//! and the encounter status message's Attack buttons, so the three never disagree (issue 32).
//!
//! Owns which carried weapons a figure can use, and the words for why one was passed over:
//! - THIZ: whatever the sheet says: every carried weapon (an item of kind `weapon`) is usable;
//!   the rulebook ties no weapon to a Strength or a hand count.
//! - TFT: a weapon is usable when it is not broken or dropped, is a row of the weapon table with
//!   damage dice of its own, needs no more ST than the figure has for this attack (its sheet's
//!   ST, less the multiple-actions penalty), and, if two-handed, the sheet lists no shield
//!   (tft-rules-summary.md, "WEAPONS": the dagger mark is a two-handed weapon; the shield arm
//!   is taken).
//!
//! The default is the first usable weapon in the order carried; bare hands only when the figure
//! carries no weapon at all. A figure that carries weapons but can use none is refused with each
//! weapon's reason and the fix (`weapon:hands`, or another weapon), never handed bare fists
//! silently. Reads only the sheet and equipment it is given: no store, no dice.

use super::sheet::{ItemStats, Sheet, TftSheet};
use super::text::escape;
use super::{AppResult, user};
use crate::rules::tft::gear::{self, Hands, Weapon};
use crate::store::characters::{Character, Item};
use crate::store::guilds::System;

/// What `weapon:` accepts for fighting bare-handed, in both systems.
pub const BARE_HANDS: [&str; 5] = ["hands", "bare hands", "fists", "unarmed", "none"];

/// Whether `name` asks for bare hands.
pub fn is_bare_hands(name: &str) -> bool {
    BARE_HANDS.contains(&name.trim().to_ascii_lowercase().as_str())
}

/// The weapon chosen for an attack that named none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pick {
    /// The carried weapon; `None`: bare hands (the figure carries no weapon).
    pub item: Option<Item>,
    /// The carried weapons passed over before it, each with why ("Longbow: needs ST 11").
    pub passed: Vec<String>,
    /// How many weapons the figure carries.
    pub carried: usize,
}

impl Pick {
    /// How the reply says why this weapon was used, when there was a choice: "the first weapon
    /// carried it can use (passed over: Longbow needs ST 11 …)"; `None` for the only weapon
    /// carried (the reply names it).
    pub fn note(&self) -> Option<String> {
        match (&self.item, self.passed.is_empty()) {
            (None, _) => Some("no weapon carried, so bare hands".to_owned()),
            (Some(_), true) if self.carried == 1 => None,
            (Some(_), true) => Some(format!(
                "the first of {} weapons carried; choose with weapon:",
                self.carried
            )),
            (Some(_), false) => Some(format!(
                "the first weapon carried it can use (passed over: {}); choose with weapon:",
                self.passed.join("; ")
            )),
        }
    }
}

/// Why a TFT figure cannot use a carried weapon now (a phrase that follows the weapon's name,
/// with the fix where there is one), or the weapon's table row. `st` is the sheet's ST,
/// `st_less` what this attack takes off it; `shield` whether the sheet lists a shield.
pub fn tft_usable(
    item: &Item,
    (st, st_less): (i32, i32),
    shield: bool,
) -> Result<&'static Weapon, String> {
    let stats: ItemStats = serde_json::from_str(&item.stats_json).unwrap_or_default();
    if stats.broken {
        return Err(
            "is broken (a GM repairs it with /tft repair, or replace it with /character gear)"
                .to_owned(),
        );
    }
    if stats.dropped {
        return Err(
            "was dropped (pick it up first with /tftkit pickup, which takes the turn)".to_owned(),
        );
    }
    let weapon =
        gear::weapon(&item.name).map_err(|_| "is not a row of the weapon table".to_owned())?;
    if weapon.dice().is_none() {
        return Err("has no damage dice of its own".to_owned());
    }
    if let Some(needs) = weapon.st
        && st - st_less < needs
    {
        let less = if st_less > 0 {
            format!(" (ST {st}, less {st_less} for multiple actions)")
        } else {
            String::new()
        };
        return Err(format!(
            "needs ST {needs} and this attack has ST {}{less}",
            st - st_less
        ));
    }
    if weapon.hands == Hands::Two && shield {
        return Err("is two-handed, and the sheet lists a shield".to_owned());
    }
    Ok(weapon)
}

/// The weapon `c` attacks with when none is named (see the module docs). `st_less` is what the
/// attack takes off a TFT figure's ST (multiple actions); THIZ ignores it.
// Decision: bare hands only for a figure that carries no weapon; one that carries weapons but can
// use none is refused with each weapon's reason and the fix, since a player who put a weapon on
// the sheet expects to fight with it and would not notice a silent switch to fists.
pub fn default_weapon(c: &Character, items: &[Item], st_less: i32) -> AppResult<Pick> {
    first_usable(c, items, st_less).map_err(|passed| {
        user(format!(
            "{} carries no weapon it can use for this attack ({}). Name one with weapon:…, or fight bare-handed with weapon:hands.",
            escape(&c.name),
            passed.join("; ")
        ))
    })
}

/// [`default_weapon`], or, when the figure carries weapons but can use none, each with why.
pub fn first_usable(c: &Character, items: &[Item], st_less: i32) -> Result<Pick, Vec<String>> {
    let carried: Vec<&Item> = items
        .iter()
        .filter(|i| i.kind.eq_ignore_ascii_case("weapon"))
        .collect();
    let usable = |item: &Item| -> Result<(), String> {
        match c.system {
            System::Thiz => Ok(()),
            System::Tft => {
                let sheet = tft_sheet(c);
                let shield = sheet
                    .shield
                    .as_deref()
                    .is_some_and(|s| !s.trim().is_empty());
                tft_usable(item, (sheet.st, st_less), shield).map(|_| ())
            }
        }
    };
    let mut passed = Vec::new();
    for item in &carried {
        match usable(item) {
            Ok(()) => {
                return Ok(Pick {
                    item: Some((*item).clone()),
                    passed,
                    carried: carried.len(),
                });
            }
            Err(why) => passed.push(format!("{} {why}", escape(&item.name))),
        }
    }
    if carried.is_empty() {
        return Ok(Pick {
            item: None,
            passed,
            carried: 0,
        });
    }
    Err(passed)
}

/// A TFT figure's sheet, or the default one if it cannot be read (a corrupt sheet is refused by
/// the attack itself, with its own answer).
fn tft_sheet(c: &Character) -> TftSheet {
    Sheet::of(c)
        .ok()
        .and_then(|s| s.tft().ok().cloned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{CharacterId, GuildId, UserId};

    fn figure(system: System, sheet: &str) -> Character {
        Character {
            guild_id: GuildId(1),
            id: CharacterId(1),
            name: "Kit".to_owned(),
            system,
            owner_id: UserId(1),
            npc: false,
            sheet_json: sheet.to_owned(),
            created_at: 0,
            updated_at: 0,
        }
    }

    fn weapon(id: i64, name: &str, stats: &str) -> Item {
        Item {
            id,
            kind: "weapon".to_owned(),
            name: name.to_owned(),
            stats_json: stats.to_owned(),
        }
    }

    fn picked(c: &Character, items: &[Item], st_less: i32) -> Option<String> {
        default_weapon(c, items, st_less)
            .unwrap()
            .item
            .map(|i| i.name)
    }

    /// tft-rules-summary.md, "WEAPONS": the Longbow needs ST 11. At ST 10 it is passed over for
    /// the Dagger; at ST 11 it is the first carried and is used.
    #[test]
    fn tft_passes_over_a_weapon_too_heavy_for_the_figure() {
        let items = [weapon(1, "Longbow", "{}"), weapon(2, "Dagger", "{}")];
        for (st, expected) in [(10, "Dagger"), (11, "Longbow")] {
            let c = figure(System::Tft, &format!(r#"{{"st":{st},"dx":12,"iq":8}}"#));
            assert_eq!(picked(&c, &items, 0).as_deref(), Some(expected), "ST {st}");
        }
        let c = figure(System::Tft, r#"{"st":10,"dx":12,"iq":8}"#);
        let pick = default_weapon(&c, &items, 0).unwrap();
        assert!(
            pick.note()
                .unwrap()
                .contains("Longbow needs ST 11 and this attack has ST 10")
        );
    }

    /// tft-multiple-actions.txt, "Action Segment": several actions take ST off each attack, so a
    /// Broadsword (ST 12) is out of reach of a ST 15 figure taking 4 off (11), not of one at 16.
    #[test]
    fn tft_counts_the_multiple_actions_penalty() {
        let items = [weapon(1, "Broadsword", "{}"), weapon(2, "Dagger", "{}")];
        for (st, expected) in [(15, "Dagger"), (16, "Broadsword")] {
            let c = figure(System::Tft, &format!(r#"{{"st":{st},"dx":12,"iq":8}}"#));
            assert_eq!(picked(&c, &items, 4).as_deref(), Some(expected), "ST {st}");
        }
    }

    /// A two-handed weapon is passed over while the sheet lists a shield; without one it is used.
    #[test]
    fn tft_two_handed_weapons_need_the_shield_arm() {
        let items = [weapon(1, "Battle Axe", "{}"), weapon(2, "Mace", "{}")];
        let shield = figure(
            System::Tft,
            r#"{"st":16,"dx":12,"iq":8,"shield":"Small Shield"}"#,
        );
        assert_eq!(picked(&shield, &items, 0).as_deref(), Some("Mace"));
        let free = figure(System::Tft, r#"{"st":16,"dx":12,"iq":8}"#);
        assert_eq!(picked(&free, &items, 0).as_deref(), Some("Battle Axe"));
    }

    #[test]
    fn tft_broken_dropped_and_unknown_weapons_are_passed_over() {
        let c = figure(System::Tft, r#"{"st":12,"dx":12,"iq":8}"#);
        let items = [
            weapon(1, "Mace", r#"{"broken":true}"#),
            weapon(2, "Club", r#"{"dropped":true}"#),
            weapon(3, "Laser Sword", "{}"),
            weapon(4, "Molotail", "{}"),
            weapon(5, "Hatchet", "{}"),
        ];
        let pick = default_weapon(&c, &items, 0).unwrap();
        assert_eq!(pick.item.map(|i| i.name).as_deref(), Some("Hatchet"));
        assert_eq!(pick.passed.len(), 4, "{:?}", pick.passed);
    }

    /// Bare hands only when no weapon is carried; weapons carried but none usable is a refusal
    /// that names each and the fix.
    #[test]
    fn bare_hands_only_without_weapons() {
        let c = figure(System::Tft, r#"{"st":9,"dx":12,"iq":8}"#);
        let pick = default_weapon(&c, &[], 0).unwrap();
        assert_eq!(pick.item, None);
        assert_eq!(
            pick.note().as_deref(),
            Some("no weapon carried, so bare hands")
        );
        let err = default_weapon(&c, &[weapon(1, "Longbow", "{}")], 0)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("Longbow needs ST 11 and this attack has ST 9"),
            "{err}"
        );
        assert!(err.contains("weapon:hands"), "{err}");
    }

    /// THIZ: whatever the sheet says: the first weapon carried, whatever it is; items of other
    /// kinds are not weapons.
    #[test]
    fn thiz_takes_the_first_weapon_carried() {
        let c = figure(System::Thiz, "{}");
        let club = weapon(2, "Club", r#"{"attack_bonus":1}"#);
        let rope = Item {
            kind: "item".to_owned(),
            ..weapon(1, "Rope", "{}")
        };
        let items = [rope, club, weapon(3, "Spear", "{}")];
        let pick = default_weapon(&c, &items, 0).unwrap();
        assert!(
            pick.note()
                .unwrap()
                .contains("the first of 2 weapons carried")
        );
        // The only weapon carried needs no word: the reply names it.
        let alone = default_weapon(&c, &[weapon(3, "Spear", "{}")], 0).unwrap();
        assert_eq!(alone.note(), None);
        assert_eq!(pick.item.map(|i| i.name).as_deref(), Some("Club"));
    }

    #[test]
    fn bare_hands_words() {
        for w in ["hands", " Fists ", "UNARMED", "none", "bare hands"] {
            assert!(is_bare_hands(w), "{w}");
        }
        assert!(!is_bare_hands("Dagger"));
    }
}
