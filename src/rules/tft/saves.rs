//! TFT saving rolls ("3d/IQ", "5d/ST"), their exact odds, and the common checks of the summary.
//!
//! Owns: the automatic success/failure bands for N dice (rules/README.md, "Saving rolls with N
//! dice"), rolling N dice against a target, the exact distribution of an N-dice sum (by
//! convolution, used by the odds and by the campaign tables), and the common checks as data.
//! Must never: read a character sheet (targets come in as numbers), format text for players, or
//! roll dice other than through the [`DieSource`] it is given.

mod checks;

pub use checks::{
    COMMON_CHECKS, CheckActivity, CommonCheck, MORE_CHECKS, TalentCondition, checks_for,
    recognize_spell_modifier, roll_common_check,
};

use thiserror::Error;

use crate::rules::dice::DieSource;

/// The fewest dice a saving roll may use.
pub const MIN_SAVE_DICE: u32 = 1;
/// The most dice a saving roll may use (no TFT rule asks for more; 6^12 still fits a `u64`).
pub const MAX_SAVE_DICE: u32 = 12;
/// Targets beyond this magnitude are certainly typing mistakes (attributes stay well under 100).
pub const MAX_TARGET_MAGNITUDE: i32 = 200;

/// Why a saving roll could not be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SaveError {
    #[error("a saving roll uses between {MIN_SAVE_DICE} and {MAX_SAVE_DICE} dice; you gave {0}")]
    DiceCount(u32),
    #[error(
        "the number to roll against must be between -{MAX_TARGET_MAGNITUDE} and {MAX_TARGET_MAGNITUDE}; you gave {0}"
    )]
    Target(i32),
}

/// How a saving roll came out, worst for the roller last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SaveResult {
    /// So low that it succeeds whatever the target.
    AutomaticSuccess,
    /// At or under the target.
    Success,
    /// Over the target.
    Failure,
    /// So high that it fails whatever the target.
    AutomaticFailure,
}

impl SaveResult {
    /// All results, best first.
    pub const ALL: [SaveResult; 4] = [
        SaveResult::AutomaticSuccess,
        SaveResult::Success,
        SaveResult::Failure,
        SaveResult::AutomaticFailure,
    ];

    /// True for both kinds of success.
    pub fn is_success(self) -> bool {
        matches!(self, SaveResult::AutomaticSuccess | SaveResult::Success)
    }
}

/// The automatic bands of one dice count: totals at or under `success_max` always succeed, totals
/// at or over `failure_min` always fail. A band that no total can reach is simply never met.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SaveBands {
    pub dice: u32,
    /// Highest total that succeeds automatically (0: none, as no total is that low).
    pub success_max: u32,
    /// Lowest total that fails automatically (above 6 × dice: none).
    pub failure_min: u32,
}

// rules/README.md, "Saving rolls with N dice": 3 dice succeed automatically on 3..5 and fail on
// 16..18; for N dice the default is at or under 3N-4 and at or over 4N+4 (4 dice: 8 and 20).
// Decision: 1 and 2 dice follow the same formula. For 1 die it gives -1 and 8, so nothing is
// automatic; for 2 dice a 2 always succeeds and a 12 always fails, which is what a table expects
// of a "2d/IQ" roll by a clever character.
/// The automatic bands for 1 to 12 dice, indexed by dice - 1.
pub const SAVE_BANDS: [SaveBands; MAX_SAVE_DICE as usize] = [
    SaveBands {
        dice: 1,
        success_max: 0,
        failure_min: 8,
    },
    SaveBands {
        dice: 2,
        success_max: 2,
        failure_min: 12,
    },
    SaveBands {
        dice: 3,
        success_max: 5,
        failure_min: 16,
    },
    SaveBands {
        dice: 4,
        success_max: 8,
        failure_min: 20,
    },
    SaveBands {
        dice: 5,
        success_max: 11,
        failure_min: 24,
    },
    SaveBands {
        dice: 6,
        success_max: 14,
        failure_min: 28,
    },
    SaveBands {
        dice: 7,
        success_max: 17,
        failure_min: 32,
    },
    SaveBands {
        dice: 8,
        success_max: 20,
        failure_min: 36,
    },
    SaveBands {
        dice: 9,
        success_max: 23,
        failure_min: 40,
    },
    SaveBands {
        dice: 10,
        success_max: 26,
        failure_min: 44,
    },
    SaveBands {
        dice: 11,
        success_max: 29,
        failure_min: 48,
    },
    SaveBands {
        dice: 12,
        success_max: 32,
        failure_min: 52,
    },
];

/// The automatic bands for a dice count.
pub fn bands(dice: u32) -> Result<SaveBands, SaveError> {
    check_dice(dice)?;
    Ok(SAVE_BANDS[(dice - 1) as usize])
}

fn check_dice(dice: u32) -> Result<(), SaveError> {
    if (MIN_SAVE_DICE..=MAX_SAVE_DICE).contains(&dice) {
        Ok(())
    } else {
        Err(SaveError::DiceCount(dice))
    }
}

fn check_target(target: i32) -> Result<(), SaveError> {
    if target.abs() <= MAX_TARGET_MAGNITUDE {
        Ok(())
    } else {
        Err(SaveError::Target(target))
    }
}

/// What a total means against a target with `dice` dice.
pub fn classify(dice: u32, total: u32, target: i32) -> Result<SaveResult, SaveError> {
    let b = bands(dice)?;
    Ok(classify_with(b, total, target))
}

fn classify_with(b: SaveBands, total: u32, target: i32) -> SaveResult {
    // The automatic bands win over the target both ways: a hero with IQ 20 still fails on 16+.
    if total <= b.success_max {
        SaveResult::AutomaticSuccess
    } else if total >= b.failure_min {
        SaveResult::AutomaticFailure
    } else if total as i32 <= target {
        SaveResult::Success
    } else {
        SaveResult::Failure
    }
}

/// One saving roll: the faces, their sum, the target and what it meant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveOutcome {
    pub dice: u32,
    pub faces: Vec<u32>,
    pub total: u32,
    pub target: i32,
    pub result: SaveResult,
}

impl SaveOutcome {
    /// True when the roll succeeded, automatically or not.
    pub fn succeeded(&self) -> bool {
        self.result.is_success()
    }
}

/// Rolls `dice` d6 against `target` (an attribute with its modifiers already added, or a bare
/// number).
pub fn save_roll(
    dice: u32,
    target: i32,
    source: &mut impl DieSource,
) -> Result<SaveOutcome, SaveError> {
    let b = bands(dice)?;
    check_target(target)?;
    let faces = source.d6s(dice);
    let total = faces.iter().sum();
    Ok(SaveOutcome {
        dice,
        result: classify_with(b, total, target),
        faces,
        total,
        target,
    })
}

/// How many of the 6^dice equally likely rolls give each total: index = total (0..=6 × dice).
///
/// Built by convolving one die at a time, so it is exact.
pub fn sum_counts(dice: u32) -> Vec<u64> {
    // One convolution for the crate: the attack odds' (tft::odds), which allows up to 20 dice,
    // more than any saving roll (callers check the dice count first).
    match super::odds::sum_counts(dice) {
        Ok(counts) => (0..=6 * dice).map(|total| counts.ways(total)).collect(),
        Err(_) => Vec::new(),
    }
}

/// The exact chances of each result of `dice` d6 against `target`, as counts over 6^dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SaveOdds {
    pub dice: u32,
    pub target: i32,
    /// 6^dice: every roll, equally likely.
    pub outcomes: u64,
    pub automatic_success: u64,
    pub success: u64,
    pub failure: u64,
    pub automatic_failure: u64,
}

impl SaveOdds {
    /// How many rolls give `result`.
    pub fn count(&self, result: SaveResult) -> u64 {
        match result {
            SaveResult::AutomaticSuccess => self.automatic_success,
            SaveResult::Success => self.success,
            SaveResult::Failure => self.failure,
            SaveResult::AutomaticFailure => self.automatic_failure,
        }
    }

    /// The chance of `result` in percent.
    pub fn percent(&self, result: SaveResult) -> f64 {
        100.0 * self.count(result) as f64 / self.outcomes as f64
    }

    /// Rolls that succeed, automatically or not.
    pub fn successes(&self) -> u64 {
        self.automatic_success + self.success
    }

    /// The chance of any success in percent.
    pub fn success_percent(&self) -> f64 {
        100.0 * self.successes() as f64 / self.outcomes as f64
    }
}

/// Exact odds of every result of `dice` d6 against `target`, by enumeration of the sums.
pub fn save_odds(dice: u32, target: i32) -> Result<SaveOdds, SaveError> {
    let b = bands(dice)?;
    check_target(target)?;
    let mut odds = SaveOdds {
        dice,
        target,
        outcomes: 6_u64.pow(dice),
        automatic_success: 0,
        success: 0,
        failure: 0,
        automatic_failure: 0,
    };
    for (total, ways) in sum_counts(dice).into_iter().enumerate() {
        match classify_with(b, total as u32, target) {
            SaveResult::AutomaticSuccess => odds.automatic_success += ways,
            SaveResult::Success => odds.success += ways,
            SaveResult::Failure => odds.failure += ways,
            SaveResult::AutomaticFailure => odds.automatic_failure += ways,
        }
    }
    Ok(odds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    #[test]
    fn bands_cover_every_dice_count_in_order_and_match_the_formula() {
        // rules/README.md, "Saving rolls with N dice": 3N-4 and 4N+4 for N dice.
        for (i, b) in SAVE_BANDS.iter().enumerate() {
            let n = i as i64 + 1;
            assert_eq!(i64::from(b.dice), n);
            assert_eq!(i64::from(b.success_max), (3 * n - 4).max(0));
            assert_eq!(i64::from(b.failure_min), 4 * n + 4);
        }
    }

    #[test]
    fn three_and_four_dice_bands_are_the_readme_ones() {
        // rules/README.md: 3 dice 3..5 automatic success, 16..18 automatic failure; 4 dice 8 and 20.
        assert_eq!(
            bands(3).unwrap(),
            SaveBands {
                dice: 3,
                success_max: 5,
                failure_min: 16
            }
        );
        assert_eq!(
            bands(4).unwrap(),
            SaveBands {
                dice: 4,
                success_max: 8,
                failure_min: 20
            }
        );
    }

    #[test]
    fn edges_both_sides_for_three_to_six_dice() {
        use SaveResult::{
            AutomaticFailure as AF, AutomaticSuccess as AS, Failure as F, Success as S,
        };
        // rules/README.md, "Saving rolls with N dice". Target 3 (hopeless) shows the automatic
        // success band; target 40 (certain) shows the automatic failure band.
        let cases: &[(u32, u32, i32, SaveResult)] = &[
            (3, 5, 3, AS),
            (3, 6, 3, F),
            (3, 6, 40, S),
            (3, 15, 40, S),
            (3, 16, 40, AF),
            (4, 8, 3, AS),
            (4, 9, 3, F),
            (4, 19, 40, S),
            (4, 20, 40, AF),
            (5, 11, 3, AS),
            (5, 12, 3, F),
            (5, 23, 40, S),
            (5, 24, 40, AF),
            (6, 14, 3, AS),
            (6, 15, 3, F),
            (6, 27, 40, S),
            (6, 28, 40, AF),
            // The plain target, both sides: at or under succeeds.
            (3, 12, 12, S),
            (3, 13, 12, F),
            (5, 20, 20, S),
            (5, 21, 20, F),
            // 1 die: nothing is automatic; 2 dice: 2 and 12 are.
            (1, 1, 0, F),
            (1, 6, 6, S),
            (2, 2, 0, AS),
            (2, 3, 0, F),
            (2, 11, 20, S),
            (2, 12, 20, AF),
        ];
        for &(dice, total, target, want) in cases {
            assert_eq!(
                classify(dice, total, target).unwrap(),
                want,
                "{dice}d total {total} vs {target}"
            );
        }
    }

    #[test]
    fn save_roll_reports_faces_total_and_result() {
        let out = save_roll(3, 11, &mut ScriptedDice::new([4, 4, 3])).unwrap();
        assert_eq!(
            (out.faces.clone(), out.total, out.target),
            (vec![4, 4, 3], 11, 11)
        );
        assert_eq!(out.result, SaveResult::Success);
        let out = save_roll(3, 11, &mut ScriptedDice::new([4, 4, 4])).unwrap();
        assert_eq!(out.result, SaveResult::Failure);
        assert!(!out.succeeded());
        let out = save_roll(5, 30, &mut ScriptedDice::new([6, 6, 6, 3, 3])).unwrap();
        assert_eq!(out.result, SaveResult::AutomaticFailure);
    }

    #[test]
    fn bad_dice_counts_and_targets_are_errors_at_both_limits() {
        assert_eq!(bands(0), Err(SaveError::DiceCount(0)));
        assert!(bands(1).is_ok());
        assert!(bands(12).is_ok());
        assert_eq!(bands(13), Err(SaveError::DiceCount(13)));
        assert_eq!(save_odds(3, 201), Err(SaveError::Target(201)));
        assert!(save_odds(3, 200).is_ok());
        assert!(save_odds(3, -200).is_ok());
        assert_eq!(save_odds(3, -201), Err(SaveError::Target(-201)));
        assert!(SaveError::DiceCount(0).to_string().contains("you gave 0"));
    }

    #[test]
    fn sum_counts_are_the_known_distributions() {
        assert_eq!(sum_counts(1), vec![0, 1, 1, 1, 1, 1, 1]);
        let three = sum_counts(3);
        assert_eq!(
            three[3..=18],
            [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1]
        );
        for n in 1..=MAX_SAVE_DICE {
            assert_eq!(sum_counts(n).iter().sum::<u64>(), 6_u64.pow(n));
        }
    }

    #[test]
    fn exact_odds_three_dice_against_twelve() {
        // 3..5 = 1+3+6 = 10; 6..12 = 10+15+21+25+27+27+25 = 150 (with 3..5: 160/216, the well-known
        // 74.1%); 13..15 = 21+15+10 = 46; 16..18 = 10.
        let o = save_odds(3, 12).unwrap();
        assert_eq!(
            (
                o.outcomes,
                o.automatic_success,
                o.success,
                o.failure,
                o.automatic_failure
            ),
            (216, 10, 150, 46, 10)
        );
        assert!((o.success_percent() - 100.0 * 160.0 / 216.0).abs() < 1e-9);
    }

    #[test]
    fn exact_odds_four_dice_bands() {
        // 4 dice: totals 4..8 = 1+4+10+20+35 = 70; totals 20..24 = 35+20+10+4+1 = 70.
        let o = save_odds(4, 14).unwrap();
        assert_eq!(
            (o.automatic_success, o.automatic_failure, o.outcomes),
            (70, 70, 1296)
        );
        assert_eq!(
            o.automatic_success + o.success + o.failure + o.automatic_failure,
            1296
        );
        // Against a target of 3 only the automatic band succeeds.
        assert_eq!(save_odds(4, 3).unwrap().successes(), 70);
    }

    #[test]
    fn odds_agree_with_classify_for_every_single_roll_of_three_dice() {
        // Brute force over all 216 rolls as a check on the convolution.
        let mut counts = [0_u64; 4];
        for a in 1..=6 {
            for b in 1..=6 {
                for c in 1..=6 {
                    let r = classify(3, a + b + c, 9).unwrap();
                    counts[r as usize] += 1;
                }
            }
        }
        let o = save_odds(3, 9).unwrap();
        for r in SaveResult::ALL {
            assert_eq!(o.count(r), counts[r as usize], "{r:?}");
        }
    }
}
