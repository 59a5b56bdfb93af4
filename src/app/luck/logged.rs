//! What luck reads back from the roll log: the parts of a logged `/check` and `/attack` that a
//! luck reroll or a lowered wound needs, and the wound sheet as stored.
//!
//! The shape is `thiz`'s `ThizRecord` (`app/thiz/record.rs`): a JSON object tagged by `"kind"`;
//! a check (`"kind": "check"`) carries its input and d100 at the top level, an attack
//! (`"kind": "attack"`) carries `target_id` and `wound: {location, inflicted, recorded}`. Luck
//! reads only the fields named here and ignores the rest, and writes a reroll as a copy of the
//! original record with the new roll and level, so both modules read every check alike. Must
//! never write the roll log or decide who may spend luck.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::rules::thiz::check::{CheckInput, CheckOutcome};
use crate::rules::thiz::wounds::{LocationWounds, WoundSheet};
use crate::rules::thiz::{Level, Location, Rating};
use crate::store::CharacterId;
use crate::store::characters::WoundRow;

/// The command names a check and an attack are logged under (with or without the slash).
pub const CHECK_COMMANDS: [&str; 2] = ["check", "/check"];
pub const ATTACK_COMMANDS: [&str; 2] = ["attack", "/attack"];

/// A logged check, as far as a reroll needs it: the input (not the sheet, which may have changed
/// since) and the d100 it got. The same field names as `thiz`'s `CheckRecord`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RerollableCheck {
    /// What was checked, as shown ("Stealth", "rating 4").
    #[serde(default)]
    pub subject: Option<String>,
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

    /// How a reply names the check.
    pub fn what(&self) -> &str {
        self.subject
            .as_deref()
            .or(self.skill.as_deref())
            .unwrap_or("check")
    }
}

/// The wound an attack left, read from the attack's record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WoundOnRoll {
    /// The wounded character.
    pub target: CharacterId,
    /// The body section, in any spelling `Location::parse` reads.
    pub location: String,
    /// The colour recorded on the sheet (after stacking).
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

#[derive(Deserialize)]
struct AttackShape {
    target_id: CharacterId,
    #[serde(default)]
    wound: Option<WoundShape>,
}

#[derive(Deserialize)]
struct WoundShape {
    location: String,
    recorded: String,
}

/// The record's object, if it is of `kind`.
fn record(json: &str, kind: &str) -> Option<Map<String, Value>> {
    match serde_json::from_str(json).ok()? {
        Value::Object(map) if map.get("kind").and_then(Value::as_str) == Some(kind) => Some(map),
        _ => None,
    }
}

/// The check in a logged result, if it is a check.
pub fn check_of(json: &str) -> Option<RerollableCheck> {
    serde_json::from_value(Value::Object(record(json, "check")?)).ok()
}

/// The wound in a logged result, if it is an attack that wounded.
pub fn wound_of(json: &str) -> Option<WoundOnRoll> {
    let attack: AttackShape =
        serde_json::from_value(Value::Object(record(json, "attack")?)).ok()?;
    let wound = attack.wound?;
    Some(WoundOnRoll {
        target: attack.target_id,
        location: wound.location,
        level: wound.recorded,
    })
}

/// The record of a reroll: the original check's record with the new d100 and what it read, so
/// every other field (character, subject…) carries over as `thiz` wrote it.
pub fn rerolled_record(json: &str, outcome: &CheckOutcome, parent: i64) -> Option<String> {
    let mut map = record(json, "check")?;
    map.insert("roll".into(), outcome.roll.into());
    map.insert("adjusted".into(), outcome.adjusted.0.into());
    map.insert("row_rating".into(), outcome.row_rating.into());
    map.insert("chart_level".into(), outcome.chart_level.name().into());
    map.insert("level".into(), outcome.level.name().into());
    map.insert("rerolls".into(), parent.into());
    serde_json::to_string(&Value::Object(map)).ok()
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
        .map_or_else(
            || location.name().to_ascii_lowercase(),
            |r| r.location.clone(),
        );
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

    /// A check as `thiz` logs it (its `ThizRecord::Check`).
    fn check_json() -> String {
        serde_json::json!({
            "kind": "check", "character_id": 3, "character": "Vexa", "subject": "Swimming",
            "skill": "Swimming", "base": 4, "modifier": -2, "wound_penalty": 0, "unlucky": false,
            "shifty": true, "roll": 40, "adjusted": 2, "row_rating": 2, "chart_level": "Yellow",
            "level": "Green",
        })
        .to_string()
    }

    #[test]
    fn checks_are_read_from_the_thiz_record() {
        let back = check_of(&check_json()).unwrap();
        let input = CheckInput {
            modifier: -2,
            shifty: true,
            ..CheckInput::at(4)
        };
        assert_eq!(back.input(), input);
        assert_eq!((back.roll, back.what()), (40, "Swimming"));
        assert!(check_of("{}").is_none());
        assert!(check_of("not json").is_none());
        assert!(check_of(r#"{"kind": "attack", "base": 1, "roll": 2}"#).is_none());
    }

    #[test]
    fn a_reroll_keeps_the_record_and_changes_the_roll() {
        let input = check_of(&check_json()).unwrap().input();
        let out = resolve_check(&input, 95).unwrap();
        let json = rerolled_record(&check_json(), &out, 7).unwrap();
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["kind"], "check");
        assert_eq!(v["character"], "Vexa");
        assert_eq!(v["roll"], 95);
        assert_eq!(v["level"], out.level.name());
        assert_eq!(v["rerolls"], 7);
        assert_eq!(check_of(&json).unwrap().roll, 95);
    }

    #[test]
    fn wounds_are_read_from_the_attack_record() {
        let json = r#"{"kind": "attack", "target_id": 3, "attacker_id": 1,
            "wound": {"location": "Left Arm", "inflicted": "Yellow", "recorded": "Red"}}"#;
        let w = wound_of(json).unwrap();
        assert_eq!(w.target, CharacterId(3));
        assert_eq!(w.location(), Some(Location::LeftArm));
        assert_eq!(w.level(), Some(Level::Red));
        assert!(wound_of(r#"{"kind": "attack", "target_id": 3, "wound": null}"#).is_none());
        assert!(wound_of(r#"{"kind": "check", "target_id": 3}"#).is_none());
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
