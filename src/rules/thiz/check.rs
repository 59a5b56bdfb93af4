//! A THIZ check: a d100 against the resolution chart at a rating adjusted by modifiers, wounds and
//! the weaknesses that change a check.
//!
//! Source: thiz-rulebook.md, chapter 5 "The Resolution Chart", chapter 2 (the base rating, see
//! `skills::base_rating`) and chapter 3 ("Unlucky", "Shifty"). Owns [`CheckInput`],
//! [`CheckOutcome`], [`roll_check`] and [`resolve_check`] (the same check with a known roll, for
//! rerolls and odds). Allocation-free. Must never decide the base rating from a sheet (callers
//! pass it), spend luck, or format a message.

use thiserror::Error;

use super::chart::{self, Level, Rating, Row};
use super::skills::BaseRating;
use super::traits;
use crate::rules::dice::DieSource;

/// The largest magnitude accepted for a base rating or a single modifier.
pub const MAX_INPUT: i32 = 40;

/// What a check is made with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CheckInput {
    /// The base rating: a skill or general rating (see `skills::base_rating`), or a bare number.
    pub base: Rating,
    /// The situational modifier the referee or a rule gives (quirk bonuses included).
    pub modifier: i32,
    /// The wound penalty, zero or negative (see the wounds module).
    pub wound_penalty: i32,
    /// The character is Unlucky: a roll of 98..100 flags a mishap for the referee.
    pub unlucky: bool,
    /// The character is Shifty and the skill is Persuasion, Fast Talk or Seduce
    /// (`traits::shifty_applies`): the level is read one lower, Green staying Green.
    pub shifty: bool,
}

impl CheckInput {
    /// A plain check at `rating` with no modifier.
    pub fn at(rating: i32) -> Self {
        CheckInput {
            base: Rating(rating),
            ..CheckInput::default()
        }
    }

    // Not reached: a shorthand for the rules' own tests; /check builds its input field by field
    // (modifier, wound penalty, Unlucky, Shifty) from the sheet.
    /// A check on a skill, from the rating `skills::base_rating` chose.
    pub fn from_base(base: &BaseRating) -> Self {
        CheckInput {
            base: base.rating,
            ..CheckInput::default()
        }
    }

    /// The rating whose chart row is read: base + modifier + wound penalty.
    pub fn adjusted(&self) -> Rating {
        self.base + self.modifier + self.wound_penalty
    }

    /// Checks the numbers a player could have typed.
    pub fn validate(&self) -> Result<(), CheckError> {
        let within = |v: i32| (-MAX_INPUT..=MAX_INPUT).contains(&v);
        if !within(self.base.0) {
            return Err(CheckError::Rating(self.base.0));
        }
        if !within(self.modifier) {
            return Err(CheckError::Modifier(self.modifier));
        }
        if !(-MAX_INPUT..=0).contains(&self.wound_penalty) {
            return Err(CheckError::WoundPenalty(self.wound_penalty));
        }
        Ok(())
    }
}

/// Why a check cannot be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum CheckError {
    #[error("rating must be between -{MAX_INPUT} and {MAX_INPUT}; you gave {0}")]
    Rating(i32),
    #[error("modifier must be between -{MAX_INPUT} and {MAX_INPUT}; you gave {0}")]
    Modifier(i32),
    #[error("wound penalty must be between -{MAX_INPUT} and 0; it was {0}")]
    WoundPenalty(i32),
    #[error("a d100 roll is between 1 and 100; {0} is not")]
    Roll(u32),
}

/// Everything a check produced, for the player to see and the log to keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckOutcome {
    /// The d100 face, 1..=100.
    pub roll: u32,
    /// The input this outcome came from.
    pub input: CheckInput,
    /// base + modifier + wound penalty.
    pub adjusted: Rating,
    /// The chart row read (ratings beyond ±30 read the ±30 row).
    pub row: Row,
    /// The rating of the row read, `adjusted` clamped to -30..=30.
    pub row_rating: i32,
    /// The level the chart gives.
    pub chart_level: Level,
    /// The level after Shifty (equal to `chart_level` otherwise).
    pub level: Level,
    /// Shifty changed the level.
    pub shifty_lowered: bool,
    /// Unlucky and the roll was 98..100: the referee should hear of a mishap.
    pub unlucky_flag: bool,
}

impl CheckOutcome {
    pub fn is_success(&self) -> bool {
        self.level.is_success()
    }
}

/// Rolls a check: one d100 from `dice`.
pub fn roll_check(
    input: &CheckInput,
    dice: &mut impl DieSource,
) -> Result<CheckOutcome, CheckError> {
    input.validate()?;
    let roll = dice.d100();
    Ok(resolve_unchecked(input, roll))
}

/// Resolves a check whose d100 is already known (a reroll made elsewhere, a physical die, odds).
pub fn resolve_check(input: &CheckInput, roll: u32) -> Result<CheckOutcome, CheckError> {
    input.validate()?;
    if !(1..=100).contains(&roll) {
        return Err(CheckError::Roll(roll));
    }
    Ok(resolve_unchecked(input, roll))
}

/// The work of [`resolve_check`] once inputs are known to be valid.
pub(super) fn resolve_unchecked(input: &CheckInput, roll: u32) -> CheckOutcome {
    let adjusted = input.adjusted();
    let row = *chart::row(adjusted);
    let chart_level = row.level(roll);
    let level = if input.shifty {
        traits::shifty_level(chart_level)
    } else {
        chart_level
    };
    CheckOutcome {
        roll,
        input: *input,
        adjusted,
        row,
        row_rating: adjusted.row_rating(),
        chart_level,
        level,
        shifty_lowered: level != chart_level,
        unlucky_flag: traits::unlucky_mishap(input.unlucky, roll),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    #[test]
    fn swimming_example() {
        // thiz-rulebook.md, chapter 5 "Reading the Resolution Chart": Swimming 4, roll 40 → Yellow.
        let mut dice = ScriptedDice::new([40]);
        let out = roll_check(&CheckInput::at(4), &mut dice).unwrap();
        assert_eq!(
            (out.roll, out.level, out.row_rating),
            (40, Level::Yellow, 4)
        );
        assert!(out.is_success());
    }

    #[test]
    fn modifiers_and_wounds_move_the_row() {
        // Chapter 5 with the chart of data/thiz-resolution-chart.csv: rating 4 green is 66,
        // rating 2 green is 60; a -2 modifier or a -2 wound moves rating 4 to row 2.
        let cases = [
            (4, 0, 0, 66, Level::Green),
            (4, 0, 0, 67, Level::Failure),
            (4, -2, 0, 60, Level::Green),
            (4, -2, 0, 61, Level::Failure),
            (4, 0, -2, 61, Level::Failure),
            (4, 1, -1, 66, Level::Green),
            (40, 0, 0, 96, Level::Green),
            (-40, 0, 0, 31, Level::Failure),
        ];
        for (base, modifier, wound, roll, want) in cases {
            let input = CheckInput {
                base: Rating(base),
                modifier,
                wound_penalty: wound,
                ..CheckInput::default()
            };
            let out = resolve_check(&input, roll).unwrap();
            assert_eq!(out.level, want, "{base}{modifier:+}{wound:+} roll {roll}");
            assert_eq!(out.adjusted, Rating(base + modifier + wound));
        }
    }

    #[test]
    fn unlucky_flag_from_98() {
        // Chapter 3, "Unlucky": 98..100 flags the referee, whatever the level.
        for (roll, unlucky, flag) in [
            (97, true, false),
            (98, true, true),
            (100, true, true),
            (99, false, false),
        ] {
            let input = CheckInput {
                unlucky,
                ..CheckInput::at(30)
            };
            assert_eq!(
                resolve_check(&input, roll).unwrap().unlucky_flag,
                flag,
                "{roll}"
            );
        }
    }

    #[test]
    fn shifty_reads_one_level_lower() {
        // Chapter 3, "Shifty"; README: Green stays Green. Rating 4: 1..9 Black, 10..21 Red,
        // 22..41 Yellow, 42..66 Green.
        let input = CheckInput {
            shifty: true,
            ..CheckInput::at(4)
        };
        let cases = [
            (9, Level::Black, Level::Red),
            (10, Level::Red, Level::Yellow),
            (41, Level::Yellow, Level::Green),
            (42, Level::Green, Level::Green),
            (67, Level::Failure, Level::Failure),
        ];
        for (roll, chart_level, level) in cases {
            let out = resolve_check(&input, roll).unwrap();
            assert_eq!((out.chart_level, out.level), (chart_level, level), "{roll}");
            assert_eq!(out.shifty_lowered, chart_level != level);
        }
    }

    #[test]
    fn skill_checks_start_from_the_better_rating() {
        // thiz-rulebook.md, chapter 2 introduction: no Unarmed Combat, Physical 4 → base 4.
        use crate::rules::thiz::skills::{GeneralRatings, SkillId, base_rating};
        let generals = GeneralRatings {
            physical: 4,
            ..GeneralRatings::default()
        };
        let skill = SkillId::parse("unarmed combat").unwrap();
        let base = base_rating(&skill, None, &generals).unwrap();
        let out = resolve_check(&CheckInput::from_base(&base), 41).unwrap();
        assert_eq!((out.input.base, out.level), (Rating(4), Level::Yellow));
        let out = resolve_check(&CheckInput::from_base(&base), 42).unwrap();
        assert_eq!(out.level, Level::Green);
    }

    #[test]
    fn bad_inputs_are_refused() {
        let ok = CheckInput::at(40);
        assert!(resolve_check(&ok, 1).is_ok());
        assert!(resolve_check(&ok, 100).is_ok());
        assert_eq!(resolve_check(&ok, 0), Err(CheckError::Roll(0)));
        assert_eq!(resolve_check(&ok, 101), Err(CheckError::Roll(101)));
        assert_eq!(
            resolve_check(&CheckInput::at(41), 5),
            Err(CheckError::Rating(41))
        );
        assert!(resolve_check(&CheckInput::at(-40), 5).is_ok());
        assert_eq!(
            resolve_check(&CheckInput::at(-41), 5),
            Err(CheckError::Rating(-41))
        );
        let m = CheckInput {
            modifier: -41,
            ..ok
        };
        assert_eq!(resolve_check(&m, 5), Err(CheckError::Modifier(-41)));
        let w = CheckInput {
            wound_penalty: 1,
            ..ok
        };
        assert_eq!(resolve_check(&w, 5), Err(CheckError::WoundPenalty(1)));
        assert_eq!(
            CheckError::Rating(99).to_string(),
            "rating must be between -40 and 40; you gave 99"
        );
    }
}
