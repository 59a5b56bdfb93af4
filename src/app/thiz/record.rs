//! What the THIZ commands write to the roll log (`rolls.public_json`, or the hidden table for
//! blind rolls), and how a wound sheet is stored in the `wounds` table.
//!
//! The roll log's JSON is [`ThizRecord`], tagged by `"kind"`: enough to reroll a check with luck
//! ([`CheckRecord::input`]) and to lower the wound an attack left ([`AttackRecord::wound`]).
//! Names of levels and locations are stored as players read them ("Yellow", "Right Arm") and read
//! back with [`parse_level`] and [`Location::parse`]. Nothing hidden is ever stored here: the
//! Unlucky mishap flag is not kept (it follows from `unlucky` and the roll, for the GM).
//!
//! Seam: THIZ's record is read by the families that act on THIZ rolls and sheets: `luck` rerolls
//! and lowers what was logged, the `encounter`'s GM view and `/character show` (`characters`)
//! word a wound sheet as THIZ does.

use serde::{Deserialize, Serialize};

use crate::app::{AppError, AppResult};
use crate::rules::dice::DieSource;
use crate::rules::thiz::check::{self, CheckError, CheckInput, CheckOutcome};
use crate::rules::thiz::wounds::{LocationWounds, WoundSheet};
use crate::rules::thiz::{Level, Location, Rating};
use crate::store::CharacterId;
use crate::store::characters::WoundRow;

/// One THIZ roll as logged.
// Written once per roll and read once per reroll: boxing the attack would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ThizRecord {
    /// `/check` (and a luck reroll of one).
    Check(CheckRecord),
    /// `/attack`.
    Attack(AttackRecord),
    /// `/wound rest`.
    Rest(RestRecord),
    /// `/maneuver …`.
    Maneuver(ManeuverRecord),
    /// `/wound dying` and the dying button: a dying character's Toughness check.
    Dying(DyingRecord),
    /// `/wound firstaid`.
    FirstAid(TreatmentRecord),
    /// `/wound surgery`.
    Surgery(TreatmentRecord),
    /// `/hazard fall|fire|water|suffocation|poison`.
    Hazard(HazardRecord),
    /// `/magic cast|terror`.
    Magic(MagicRecord),
    /// `/move …` with dice: a climb, a navigation, a pilot's check, a collision.
    Move(ActionRecord),
    /// `/advance …` with dice: a week's work, a crafting attempt, the Sleepless countdown.
    Advance(ActionRecord),
}

impl ThizRecord {
    /// Reads a logged result; `None` when it is not a THIZ record.
    pub fn from_json(json: &str) -> Option<ThizRecord> {
        serde_json::from_str(json).ok()
    }
}

/// A maneuver as logged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManeuverRecord {
    pub maneuver: String,
    pub actor_id: CharacterId,
    pub actor: String,
    pub target_id: Option<CharacterId>,
    pub target: Option<String>,
    /// The check's rating, d100 and level (the first check, for a sunder).
    pub rating: i32,
    pub roll: u32,
    pub level: String,
    pub success: bool,
    /// What came of it, as the reply says.
    pub outcome: String,
}

/// A `/check` as logged: its input whole (to reroll it) and the outcome read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckRecord {
    /// The character who rolled, if any (a bare rating has none).
    pub character_id: Option<CharacterId>,
    pub character: Option<String>,
    /// What was checked, as shown: "Stealth", "Weapon Skill (Sword)", or "rating 4".
    pub subject: String,
    /// The canonical skill name, when a skill was checked.
    pub skill: Option<String>,
    pub base: i32,
    pub modifier: i32,
    pub wound_penalty: i32,
    pub unlucky: bool,
    pub shifty: bool,
    /// The d100, 1..=100.
    pub roll: u32,
    /// base + modifier + wound penalty.
    pub adjusted: i32,
    /// The chart row read (`adjusted` clamped to -30..=30).
    pub row_rating: i32,
    /// The level the chart gave, before Shifty.
    pub chart_level: String,
    /// The level the player got (after Shifty and the skill's special result).
    pub level: String,
    /// The character had Light Touch, so Pocket-Picking is noticed only on 98..100: kept so a
    /// reroll reads its new roll as the check was read (`special::of_record`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub light_touch: bool,
}

impl CheckRecord {
    /// The record of `outcome`.
    pub fn new(
        character: Option<(CharacterId, &str)>,
        subject: &str,
        skill: Option<&str>,
        outcome: &CheckOutcome,
    ) -> Self {
        let input = outcome.input;
        CheckRecord {
            character_id: character.map(|(id, _)| id),
            character: character.map(|(_, name)| name.to_owned()),
            subject: subject.to_owned(),
            skill: skill.map(str::to_owned),
            base: input.base.0,
            modifier: input.modifier,
            wound_penalty: input.wound_penalty,
            unlucky: input.unlucky,
            shifty: input.shifty,
            roll: outcome.roll,
            adjusted: outcome.adjusted.0,
            row_rating: outcome.row_rating,
            chart_level: outcome.chart_level.name().to_owned(),
            level: outcome.level.name().to_owned(),
            light_touch: false,
        }
    }

    /// The check's input, as it was rolled.
    pub fn input(&self) -> CheckInput {
        CheckInput {
            base: Rating(self.base),
            modifier: self.modifier,
            wound_penalty: self.wound_penalty,
            unlucky: self.unlucky,
            shifty: self.shifty,
        }
    }

    /// The outcome again, from the stored input and roll.
    pub fn outcome(&self) -> Result<CheckOutcome, CheckError> {
        check::resolve_check(&self.input(), self.roll)
    }

    /// The same check with a fresh d100 (a luck reroll): the new outcome and its record.
    pub fn reroll(
        &self,
        dice: &mut impl DieSource,
    ) -> Result<(CheckOutcome, CheckRecord), CheckError> {
        let outcome = check::roll_check(&self.input(), dice)?;
        let character = self.character_id.zip(self.character.as_deref());
        let record = CheckRecord::new(character, &self.subject, self.skill.as_deref(), &outcome);
        Ok((outcome, record))
    }

    /// Whether the roll brought an Unlucky mishap (for the GM's eyes only).
    pub fn unlucky_flag(&self) -> bool {
        crate::rules::thiz::traits::unlucky_mishap(self.unlucky, self.roll)
    }
}

/// A `/move` or `/advance` roll: what was done, each d100 check with its input whole (so luck
/// can later reroll one), any other dice, and what it came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionRecord {
    /// The subcommand: "climb", "navigate", "pilot", "collide", "work", "craft", "sleepless"…
    pub action: String,
    pub character_id: Option<CharacterId>,
    pub character: Option<String>,
    /// The d100 checks, in the order rolled.
    pub checks: Vec<CheckRecord>,
    /// Other dice, in the order rolled (a climber's d10 on a fall, the Sleepless d8).
    #[serde(default)]
    pub dice: Vec<u32>,
    /// What it came to, as shown: "fell 30 feet from 200", "Lavish", "12 days".
    pub outcome: String,
}

/// The Toughness check a hit called for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToughnessRecord {
    /// The rating checked, wound penalties included.
    pub rating: i32,
    pub roll: u32,
    pub level: String,
}

/// A wound written on a sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WoundRecord {
    pub location: String,
    /// The colour the hit left.
    pub inflicted: String,
    /// The colour written down (stepped up past colours already there).
    pub recorded: String,
}

/// An `/attack` as logged. The roll is logged under the attacker; the wound is on the target.
// A log record: its flags are independent facts about one attack, not a state machine.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackRecord {
    pub attacker_id: CharacterId,
    pub attacker: String,
    pub target_id: CharacterId,
    pub target: String,
    /// The weapon item used; `None` for bare hands.
    pub weapon: Option<String>,
    pub missile: bool,
    /// A missile aimed at a named location (needs Black).
    pub called_shot: bool,
    /// The adjusted attack rating the hit was read at (with the armour where it landed).
    pub rating: i32,
    pub roll: u32,
    pub level: String,
    /// The hit's level, when it hit.
    pub hit: Option<String>,
    pub location: Option<String>,
    /// The d100 on the location table, for a missile that hit.
    pub location_roll: Option<u32>,
    pub toughness: Option<ToughnessRecord>,
    pub wound: Option<WoundRecord>,
    pub mook_defeated: bool,
    pub incapacitated: bool,
    /// The target's condition after the attack: "dying", "stable", "unconscious" or "dead".
    #[serde(default)]
    pub condition: Option<String>,
    /// What the attack read from both sheets, so a luck reroll can replay it (absent in attacks
    /// logged before rerolls of attacks existed; those cannot be rerolled).
    #[serde(default)]
    pub plan: Option<AttackPlan>,
    /// Wounds a burst added beside the first, each on a rolled location.
    #[serde(default)]
    pub burst_wounds: Vec<WoundRecord>,
    /// Every section the attack wrote, before and after, to undo its wounds on a reroll.
    #[serde(default)]
    pub changes: Vec<SectionChange>,
    /// The roll this one rerolled with luck, and which check of it ("hit" or "toughness").
    #[serde(default)]
    pub rerolls: Option<i64>,
    #[serde(default)]
    pub rerolled: Option<String>,
}

/// What `/attack` read from the two sheets before rolling: enough to resolve it again with new
/// dice, whatever has changed on the sheets since.
// A log record: its flags are independent facts, not a state machine.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackPlan {
    /// The attacker's skill as shown: "Weapon Skill (Sword) 3".
    pub skill_text: String,
    pub skill: i32,
    pub weapon_bonus: i32,
    /// The attacker's Strength rating itself (the melee bonus is +1 per 10 full points).
    pub strength: i32,
    /// The target's Speed with its wound penalties.
    pub defence: i32,
    /// The typed modifier plus the attacker's wound penalty, less a Defending target's bonus.
    pub modifier: i32,
    /// A Defending target's bonus (its weapon skill), counted in `modifier` above; kept apart
    /// so the reply shows it as the target's number, not as part of the attacker's modifier.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub defend: i32,
    pub missile: bool,
    /// The location aimed at (melee, or a called shot); `None` for a missile's random location.
    pub aimed: Option<String>,
    /// Melee with no location named: the Chest was assumed.
    #[serde(default)]
    pub chest_assumed: bool,
    /// The target's armour on each section, in body order (`Location::ALL`).
    pub armor: [i32; 7],
    pub bare_hands: bool,
    pub mook: bool,
    /// The target's Toughness rating (before wound penalties).
    pub toughness: i32,
    pub attacker_unlucky: bool,
    pub target_unlucky: bool,
    /// The attacker is Berserk: its wounds ignored, +1 melee per 5 full points of Strength.
    #[serde(default)]
    pub berserk: bool,
    /// How each side sees: "clear", "night-blind" or "blind".
    #[serde(default)]
    pub attacker_sight: Option<String>,
    #[serde(default)]
    pub target_sight: Option<String>,
    #[serde(default)]
    pub target_prone: bool,
    /// Burst fire: "three-round" or "full-auto".
    #[serde(default)]
    pub burst: Option<String>,
    /// Lines the reply shows about the plan (two weapons, Berserk…).
    #[serde(default)]
    pub notes: Vec<String>,
}

/// One body section an attack wrote: as it was, and as the attack left it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionChange {
    pub location: String,
    pub before: SectionRecord,
    pub after: SectionRecord,
}

impl AttackPlan {
    /// The target's armour on `location`.
    pub fn armor_at(&self, location: Location) -> i32 {
        Location::ALL
            .iter()
            .position(|l| *l == location)
            .map_or(0, |i| self.armor[i])
    }

    /// The location aimed at, read back.
    pub fn aimed_at(&self) -> Option<Location> {
        self.aimed.as_deref().and_then(Location::parse)
    }
}

/// One body section's wounds as logged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SectionRecord {
    pub greens: u32,
    pub yellow: bool,
    pub red: bool,
    pub black: bool,
}

impl From<LocationWounds> for SectionRecord {
    fn from(w: LocationWounds) -> Self {
        SectionRecord {
            greens: w.greens,
            yellow: w.yellow,
            red: w.red,
            black: w.black,
        }
    }
}

impl From<SectionRecord> for LocationWounds {
    fn from(s: SectionRecord) -> Self {
        LocationWounds {
            greens: s.greens,
            yellow: s.yellow,
            red: s.red,
            black: s.black,
        }
    }
}

impl AttackRecord {
    /// The wound the attack recorded: the target, where, and the colour now on the sheet.
    pub fn wound(&self) -> Option<(CharacterId, Location, Level)> {
        let w = self.wound.as_ref()?;
        Some((
            self.target_id,
            Location::parse(&w.location)?,
            parse_level(&w.recorded)?,
        ))
    }
}

/// One day of `/wound rest`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RestDayRecord {
    /// The Toughness roll and its level, on a day that needed one.
    pub roll: Option<u32>,
    pub level: Option<String>,
    /// "Green on Gut", or `None` when nothing healed.
    pub healed: Option<String>,
}

/// A `/wound rest` as logged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RestRecord {
    pub character_id: CharacterId,
    pub character: String,
    pub toughness: i32,
    pub days_asked: u32,
    pub days: Vec<RestDayRecord>,
}

/// A dying character's Toughness check as logged: its input whole (Toughness, the Head and Gut
/// penalty) and what it read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DyingRecord {
    pub character_id: CharacterId,
    pub character: String,
    /// Toughness before wounds.
    pub toughness: i32,
    pub wound_penalty: i32,
    /// The rating checked: toughness + wound penalty (kept within ±40).
    pub rating: i32,
    pub roll: u32,
    pub level: String,
    /// "dies", "still dying" or "stable".
    pub outcome: String,
}

/// A First Aid or Knowledge (Surgery) check on a patient, as logged under the one who treats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TreatmentRecord {
    pub healer_id: CharacterId,
    pub healer: String,
    pub patient_id: CharacterId,
    pub patient: String,
    /// The skill before wounds, and the healer's own wound penalty.
    pub skill: i32,
    pub wound_penalty: i32,
    /// Triage Specialist's +3, or 0.
    pub triage_bonus: i32,
    /// The rating read: skill + wound penalty + triage bonus.
    pub rating: i32,
    pub roll: u32,
    pub level: String,
    /// First Aid: whether the patient was stabilised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stabilised: Option<bool>,
    /// Surgery: the location asked for, the wound healed ("Yellow on the Gut"), and the patient's
    /// day it counts on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub healed: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub day: Option<i64>,
}

/// A d100 a hazard rolls against its own rating (a fall, a fire, a suffocation), not a check of
/// the character's: no wound penalty or Unlucky applies, so there is no check input to keep.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HazardRoll {
    pub rating: i32,
    pub roll: u32,
    pub level: String,
}

/// A `/hazard …` as logged, under the character who met the hazard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HazardRecord {
    /// "fall", "fire", "water", "suffocation" or "poison".
    pub hazard: String,
    pub character_id: CharacterId,
    pub character: String,
    /// The hazard's own roll, where it makes one.
    pub hazard_roll: Option<HazardRoll>,
    /// The character's own check (staying afloat, resisting a poison), its input whole so luck
    /// can roll it again.
    pub check: Option<CheckRecord>,
    pub location: Option<String>,
    /// The d100 on the location table, when the location was rolled.
    pub location_roll: Option<u32>,
    /// The Toughness check against the hazard's hit (fire).
    pub toughness: Option<ToughnessRecord>,
    pub wound: Option<WoundRecord>,
    /// What else it left, as the reply said it: "stunned 3 turns", "under water".
    pub outcome: String,
}

/// Where an extended casting stands after one check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CastingRecord {
    /// Partial results held, by level index (Failure, Green, Yellow, Red, Black).
    pub held: [u32; 5],
    /// Checks made so far, this one included.
    pub checks: u32,
    pub cast: bool,
    /// Reagent used so far, in percent of one casting.
    pub reagent_percent: u32,
    /// The roll this check continued, if any.
    pub continues: Option<i64>,
}

/// A `/magic cast` or `/magic terror` as logged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MagicRecord {
    /// "cast", "terror" or "approach".
    pub action: String,
    pub character_id: CharacterId,
    pub character: String,
    /// The Magic Skill cast with.
    pub skill: Option<String>,
    /// The level the effect needs (cast) or needed (the effect witnessed, for Terror).
    pub required: Option<String>,
    /// The check itself, its input whole.
    pub check: CheckRecord,
    /// The Void-Touched penalty taken off the casting rating.
    pub void_penalty: i32,
    pub casting: Option<CastingRecord>,
    /// The Willpower check after a wound during an extended casting, and whether it lost the
    /// progress.
    pub concentration: Option<CheckRecord>,
    pub progress_lost: bool,
    /// The wound the casting cost (Necromancy).
    pub wound: Option<WoundRecord>,
    /// A failed Terror check: the d4 and the turns of Terror.
    pub terror_d4: Option<u32>,
    pub terror_turns: Option<u32>,
    /// A Reiki strike's Unarmed Combat check to touch the target, when it hit and the Reiki check
    /// (`check`) followed; a strike whose touch missed logs that check as `check` alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub touch: Option<CheckRecord>,
}

/// Reads a level as players write it ("green", "Black"); `None` for anything else.
pub fn parse_level(text: &str) -> Option<Level> {
    let key = text.trim().to_ascii_lowercase();
    Level::ALL
        .into_iter()
        .find(|l| l.name().eq_ignore_ascii_case(&key))
}

/// Reads a wound colour: Green, Yellow, Red or Black.
pub fn parse_wound_level(text: &str) -> Option<Level> {
    parse_level(text).filter(|l| *l != Level::Failure)
}

/// The `wounds` table's name of a location ("right arm").
fn location_key(location: Location) -> String {
    location.name().to_ascii_lowercase()
}

/// The `wounds` table's name of a colour ("yellow").
fn level_key(level: Level) -> String {
    level.name().to_ascii_lowercase()
}

/// A stored wound sheet (rows of `store::characters::wounds`) as the rules' [`WoundSheet`].
pub fn sheet_from_rows(rows: &[WoundRow]) -> AppResult<WoundSheet> {
    let corrupt = |what: String| AppError::Internal(anyhow::anyhow!("stored wound: {what}"));
    let mut sheet = WoundSheet::new();
    for row in rows {
        let location = Location::parse(&row.location)
            .ok_or_else(|| corrupt(format!("location {:?}", row.location)))?;
        let level = parse_wound_level(&row.level)
            .ok_or_else(|| corrupt(format!("level {:?}", row.level)))?;
        let count = u32::try_from(row.count).unwrap_or(0);
        let mut at: LocationWounds = sheet.at(location);
        match level {
            Level::Green => at.greens = at.greens.saturating_add(count),
            Level::Yellow => at.yellow |= count > 0,
            Level::Red => at.red |= count > 0,
            Level::Black => at.black |= count > 0,
            Level::Failure => {}
        }
        sheet.set_at(location, at);
    }
    Ok(sheet)
}

/// A wound sheet as rows for `store::characters::set_wounds`.
pub fn rows_from_sheet(sheet: &WoundSheet) -> Vec<WoundRow> {
    let mut rows = Vec::new();
    for location in Location::ALL {
        let at = sheet.at(location);
        for level in [Level::Green, Level::Yellow, Level::Red, Level::Black] {
            let count = if level == Level::Green {
                i64::from(at.greens)
            } else {
                i64::from(at.has(level))
            };
            if count > 0 {
                rows.push(WoundRow {
                    location: location_key(location),
                    level: level_key(level),
                    count,
                });
            }
        }
    }
    rows
}

/// A wound sheet in a line a player reads: "Gut: Yellow · Left Leg: 2× Green", or "no wounds".
pub fn describe_wounds(sheet: &WoundSheet) -> String {
    let parts = wound_lines(sheet);
    if parts.is_empty() {
        "no wounds".to_owned()
    } else {
        parts.join(" · ")
    }
}

/// One "Location: colours" entry per wounded location, worst colour first, in body order: the
/// words both `/wound` and the sheet use.
pub fn wound_lines(sheet: &WoundSheet) -> Vec<String> {
    let mut parts = Vec::new();
    for location in Location::ALL {
        let at = sheet.at(location);
        let mut colours = Vec::new();
        for level in [Level::Black, Level::Red, Level::Yellow] {
            if at.has(level) {
                colours.push(level.name().to_owned());
            }
        }
        match at.greens {
            0 => {}
            1 => colours.push("Green".to_owned()),
            n => colours.push(format!("{n}× Green")),
        }
        if !colours.is_empty() {
            parts.push(format!("{location}: {}", colours.join(", ")));
        }
    }
    parts
}

/// Whether a number is zero (a field left out of the record when it is).
#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &i32) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    #[test]
    fn wound_rows_round_trip() {
        let mut sheet = WoundSheet::new();
        sheet.add(Location::Gut, Level::Yellow).unwrap();
        sheet.add(Location::Gut, Level::Yellow).unwrap();
        sheet.add(Location::LeftLeg, Level::Green).unwrap();
        sheet.add(Location::LeftLeg, Level::Green).unwrap();
        sheet.add(Location::Head, Level::Black).unwrap();
        let rows = rows_from_sheet(&sheet);
        assert!(
            rows.iter()
                .any(|r| r.location == "left leg" && r.level == "green" && r.count == 2)
        );
        assert!(rows.iter().all(|r| r.level == r.level.to_lowercase()));
        assert_eq!(sheet_from_rows(&rows).unwrap(), sheet);
        assert_eq!(
            describe_wounds(&sheet),
            "Head: Black · Gut: Red, Yellow · Left Leg: 2× Green"
        );
        assert_eq!(describe_wounds(&WoundSheet::new()), "no wounds");
    }

    #[test]
    fn corrupt_wound_rows_are_internal_errors() {
        let rows = [WoundRow {
            location: "tail".into(),
            level: "green".into(),
            count: 1,
        }];
        assert!(matches!(sheet_from_rows(&rows), Err(AppError::Internal(_))));
    }

    #[test]
    fn levels_parse_as_typed() {
        assert_eq!(parse_level("BLACK"), Some(Level::Black));
        assert_eq!(parse_level(" green "), Some(Level::Green));
        assert_eq!(parse_level("failure"), Some(Level::Failure));
        assert_eq!(parse_wound_level("failure"), None);
        assert_eq!(parse_level("purple"), None);
    }

    #[test]
    fn check_records_round_trip_and_reroll() {
        let input = CheckInput {
            modifier: -1,
            unlucky: true,
            ..CheckInput::at(5)
        };
        let out = check::resolve_check(&input, 99).unwrap();
        let rec = CheckRecord::new(
            Some((CharacterId(3), "Vexa")),
            "Stealth",
            Some("Stealth"),
            &out,
        );
        assert_eq!(rec.input(), input);
        assert_eq!(rec.outcome().unwrap(), out);
        assert!(rec.unlucky_flag());
        let json = serde_json::to_string(&ThizRecord::Check(rec.clone())).unwrap();
        assert!(json.contains(r#""kind":"check""#), "{json}");
        assert_eq!(
            ThizRecord::from_json(&json),
            Some(ThizRecord::Check(rec.clone()))
        );
        let (again, rerolled) = rec.reroll(&mut ScriptedDice::new([40])).unwrap();
        assert_eq!((again.roll, again.level), (40, Level::Yellow));
        assert_eq!(rerolled.character.as_deref(), Some("Vexa"));
        assert_eq!(rerolled.level, "Yellow");
        assert_eq!(ThizRecord::from_json("{}"), None);
    }
}
