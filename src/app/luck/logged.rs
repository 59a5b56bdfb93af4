//! What luck reads back from the roll log: the shape a logged `/check` and a logged `/attack`
//! must have for a luck reroll or a lowered wound, and the wound sheet as stored.
//!
//! `thiz` writes these shapes when it logs a roll (as fields of its result JSON: `check` on a
//! check, `wound` on an attack that wounded); luck reads them back. Extra fields are ignored, so
//! the rest of a result is `thiz`'s own business. Must never write the roll log or decide who
//! may spend luck.

use serde::{Deserialize, Serialize};

use crate::rules::thiz::check::{CheckInput, CheckOutcome};
use crate::rules::thiz::wounds::{LocationWounds, WoundSheet};
use crate::rules::thiz::{Level, Location, Rating};
use crate::store::CharacterId;
use crate::store::characters::WoundRow;

/// The command names a check and an attack are logged under (with or without the slash).
pub const CHECK_COMMANDS: [&str; 2] = ["check", "/check"];
pub const ATTACK_COMMANDS: [&str; 2] = ["attack", "/attack"];

/// A check as logged, with what a reroll needs to resolve it again: the input (not the sheet,
/// which may have changed since) and the d100 it got. Stored under the key `check` of the roll's
/// result JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RerollableCheck {
    /// The skill's name, when the check was on a skill.
    #[serde(default)]
    pub skill: Option<String>,
    /// The base rating (skill or general rating, or a bare number).
    pub base: i32,
    #[serde(default)]
    pub modifier: i32,
    #[serde(default)]
    pub wound_penalty: i32,
    #[serde(default)]
    pub unlucky: bool,
    #[serde(default)]
    pub shifty: bool,
    /// The d100 the check got.
    pub roll: u32,
}

impl RerollableCheck {
    /// What `thiz` logs for a check it rolled.
    pub fn from_outcome(outcome: &CheckOutcome, skill: Option<&str>) -> Self {
        Self {
            skill: skill.map(str::to_owned),
            base: outcome.input.base.0,
            modifier: outcome.input.modifier,
            wound_penalty: outcome.input.wound_penalty,
            unlucky: outcome.input.unlucky,
            shifty: outcome.input.shifty,
            roll: outcome.roll,
        }
    }

    /// The input to resolve again.
    pub fn input(&self) -> CheckInput {
        CheckInput {
            base: Rating(self.base),
            modifier: self.modifier,
            wound_penalty: self.wound_penalty,
            unlucky: self.unlucky,
            shifty: self.shifty,
        }
    }
}

/// The wound an attack left, as logged under the key `wound` of the attack's result JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WoundOnRoll {
    /// The wounded character.
    pub target: CharacterId,
    /// The body section, as `Location::name` writes it ("Left Arm"); any spelling
    /// `Location::parse` reads is accepted.
    pub location: String,
    /// The colour recorded on the sheet (after stacking): green, yellow, red or black.
    pub level: String,
}

impl WoundOnRoll {
    pub fn location(&self) -> Option<Location> {
        Location::parse(&self.location)
    }

    pub fn level(&self) -> Option<Level> {
        parse_level(&self.level).filter(|l| *l != Level::Failure)
    }
}

/// The two shapes, read from a result JSON.
#[derive(Debug, Default, Deserialize)]
struct Logged {
    #[serde(default)]
    check: Option<RerollableCheck>,
    #[serde(default)]
    wound: Option<WoundOnRoll>,
}

fn logged(json: &str) -> Logged {
    serde_json::from_str(json).unwrap_or_default()
}

/// The check in a logged result, if it has one.
pub fn check_of(json: &str) -> Option<RerollableCheck> {
    logged(json).check
}

/// The wound in a logged result, if it has one.
pub fn wound_of(json: &str) -> Option<WoundOnRoll> {
    logged(json).wound
}

/// A colour as stored (`green`) or typed (`Green`).
pub fn parse_level(text: &str) -> Option<Level> {
    Level::ALL
        .into_iter()
        .find(|l| l.name().eq_ignore_ascii_case(text.trim()))
}

/// The stored name of a colour (the `wounds.level` column).
pub fn level_key(level: Level) -> String {
    level.name().to_ascii_lowercase()
}

/// The wounds stored for one section as the rules see them. Rows of other sections, and rows
/// whose names do not parse, are skipped.
pub fn section_of(rows: &[WoundRow], location: Location) -> LocationWounds {
    let mut section = LocationWounds::default();
    for row in rows
        .iter()
        .filter(|r| Location::parse(&r.location) == Some(location))
    {
        match parse_level(&row.level) {
            Some(Level::Green) => section.greens += row.count.max(0) as u32,
            Some(Level::Yellow) => section.yellow = row.count > 0,
            Some(Level::Red) => section.red = row.count > 0,
            Some(Level::Black) => section.black = row.count > 0,
            _ => {}
        }
    }
    section
}

/// Lowers one wound on a stored wound sheet: the new rows (other sections' rows untouched, the
/// section's own spelling kept) and the colour now recorded (`None`: the wound is gone). `None`
/// overall when that wound is no longer on the sheet.
pub fn lower_in_rows(
    rows: &[WoundRow],
    location: Location,
    from: Level,
) -> Option<(Vec<WoundRow>, Option<Level>)> {
    let mut sheet = WoundSheet::new();
    sheet.set_at(location, section_of(rows, location));
    let to = sheet.lower(location, from).ok()?;
    let section = sheet.at(location);
    let spelling = rows
        .iter()
        .find(|r| Location::parse(&r.location) == Some(location))
        .map_or_else(|| location.name().to_owned(), |r| r.location.clone());
    let mut out: Vec<WoundRow> = rows
        .iter()
        .filter(|r| Location::parse(&r.location) != Some(location))
        .cloned()
        .collect();
    let counts = [
        (Level::Green, i64::from(section.greens)),
        (Level::Yellow, i64::from(section.yellow)),
        (Level::Red, i64::from(section.red)),
        (Level::Black, i64::from(section.black)),
    ];
    for (level, count) in counts {
        if count > 0 {
            out.push(WoundRow {
                location: spelling.clone(),
                level: level_key(level),
                count,
            });
        }
    }
    Some((out, to))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::thiz::check::resolve_check;

    fn row(location: &str, level: &str, count: i64) -> WoundRow {
        WoundRow {
            location: location.into(),
            level: level.into(),
            count,
        }
    }

    #[test]
    fn a_check_round_trips_through_the_log_shape() {
        let input = CheckInput {
            modifier: -2,
            shifty: true,
            ..CheckInput::at(4)
        };
        let out = resolve_check(&input, 40).unwrap();
        let logged = RerollableCheck::from_outcome(&out, Some("Swimming"));
        let json = serde_json::json!({ "check": logged, "level": "Yellow" }).to_string();
        let back = check_of(&json).unwrap();
        assert_eq!(back.input(), input);
        assert_eq!(back.roll, 40);
        assert_eq!(back.skill.as_deref(), Some("Swimming"));
        assert!(check_of("{}").is_none());
        assert!(check_of("not json").is_none());
    }

    #[test]
    fn wounds_read_in_any_spelling() {
        let json = r#"{"wound": {"target": 3, "location": "left arm", "level": "red"}}"#;
        let w = wound_of(json).unwrap();
        assert_eq!(w.target, CharacterId(3));
        assert_eq!(w.location(), Some(Location::LeftArm));
        assert_eq!(w.level(), Some(Level::Red));
        assert_eq!(parse_level("failure"), Some(Level::Failure));
        assert!(
            WoundOnRoll {
                level: "failure".into(),
                ..w
            }
            .level()
            .is_none()
        );
    }

    #[test]
    fn lowering_keeps_other_sections_and_the_spelling() {
        let rows = [
            row("Left Arm", "red", 1),
            row("Left Arm", "green", 2),
            row("Head", "yellow", 1),
        ];
        let (out, to) = lower_in_rows(&rows, Location::LeftArm, Level::Red).unwrap();
        assert_eq!(to, Some(Level::Yellow));
        assert!(out.contains(&row("Head", "yellow", 1)));
        assert!(out.contains(&row("Left Arm", "yellow", 1)));
        assert!(out.contains(&row("Left Arm", "green", 2)));
        assert!(!out.iter().any(|r| r.level == "red"));
        // A Green goes away; a wound no longer there is refused.
        let (out, to) = lower_in_rows(&rows, Location::Head, Level::Yellow).unwrap();
        assert_eq!(to, Some(Level::Green));
        assert!(out.contains(&row("Head", "green", 1)));
        let (out, to) =
            lower_in_rows(&[row("Gut", "green", 1)], Location::Gut, Level::Green).unwrap();
        assert_eq!((out, to), (vec![], None));
        assert!(lower_in_rows(&rows, Location::Gut, Level::Black).is_none());
    }
}
