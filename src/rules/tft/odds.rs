//! Exact odds of TFT rolls, by enumeration.
//!
//! Owns the distribution of the sum of N six-sided dice (by convolution, not by walking 6^N
//! rolls) and, from it, the exact chance of each to-hit outcome and each roll-to-miss outcome.
//! Never simulates and never rolls: every figure is a count over 6^N.

use crate::rules::tft::attack::{
    AttackOutcome, AttackSetup, AttackTableSettings, CriticalRange, MAX_ATTACK_DICE,
    MIN_ATTACK_DICE, MissOutcome, RollTable, classify_miss,
};

/// The most dice [`sum_counts`] handles (6^N must fit a `u64`).
pub const MAX_DICE: u32 = MAX_ATTACK_DICE;

/// Why odds cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OddsError {
    #[error("odds are for {min} to {max} dice; you asked for {given}")]
    DiceOutOfRange { min: u32, max: u32, given: u32 },
}

/// How many ways N dice make each total.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SumCounts {
    dice: u32,
    counts: [u64; 6 * MAX_DICE as usize + 1],
}

impl SumCounts {
    /// The number of dice.
    pub const fn dice(&self) -> u32 {
        self.dice
    }

    /// Ways to roll `total` (0 outside N..=6N).
    pub fn ways(&self, total: u32) -> u64 {
        self.counts.get(total as usize).copied().unwrap_or(0)
    }

    /// All the rolls: 6^N.
    pub fn outcomes(&self) -> u64 {
        6u64.pow(self.dice)
    }

    /// (total, ways) for every possible total, lowest first.
    pub fn iter(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        (self.dice..=6 * self.dice).map(|t| (t, self.counts[t as usize]))
    }
}

/// The distribution of the sum of `dice` d6 (0 to [`MAX_DICE`] dice).
pub fn sum_counts(dice: u32) -> Result<SumCounts, OddsError> {
    if dice > MAX_DICE {
        return Err(OddsError::DiceOutOfRange {
            min: 0,
            max: MAX_DICE,
            given: dice,
        });
    }
    let mut counts = [0u64; 6 * MAX_DICE as usize + 1];
    counts[0] = 1;
    // Convolve one die at a time: after k dice, totals k..=6k are filled. Walking totals
    // downwards lets the array be updated in place.
    for k in 1..=dice as usize {
        for total in (k..=6 * k).rev() {
            counts[total] = (1..=6)
                .filter(|face| *face <= total)
                .map(|face| counts[total - face])
                .sum();
        }
        // Totals below k are no longer reachable with k dice.
        for low in counts.iter_mut().take(k) {
            *low = 0;
        }
    }
    Ok(SumCounts { dice, counts })
}

/// The exact odds of every to-hit outcome of one attack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HitOdds {
    pub table: RollTable,
    pub adj_dx: i32,
    /// Ways to get each outcome, indexed by [`AttackOutcome::index`].
    pub counts: [u64; 8],
    /// All the rolls: 6^N.
    pub outcomes: u64,
}

impl HitOdds {
    /// Ways to get `outcome`.
    pub fn count(&self, outcome: AttackOutcome) -> u64 {
        self.counts[outcome.index()]
    }

    /// The chance of `outcome`, 0 to 1.
    pub fn probability(&self, outcome: AttackOutcome) -> f64 {
        self.count(outcome) as f64 / self.outcomes as f64
    }

    /// The chance of `outcome` in percent.
    pub fn percent(&self, outcome: AttackOutcome) -> f64 {
        100.0 * self.probability(outcome)
    }

    /// Ways to land the blow at all.
    pub fn hit_count(&self) -> u64 {
        AttackOutcome::ALL
            .iter()
            .filter(|o| o.is_hit())
            .map(|o| self.count(*o))
            .sum()
    }

    /// The chance of landing the blow, in percent.
    pub fn hit_percent(&self) -> f64 {
        100.0 * self.hit_count() as f64 / self.outcomes as f64
    }
}

/// Exact odds of each outcome of `dice` dice against `adj_dx`.
///
/// `dice` is 3 to [`MAX_DICE`]; `criticals` is the 3-dice double/triple range (see
/// [`CriticalRange`]). The result names the table used, so interpretations can be shown.
pub fn hit_odds(
    dice: u32,
    adj_dx: i32,
    criticals: CriticalRange,
    settings: AttackTableSettings,
) -> Result<HitOdds, OddsError> {
    if !(MIN_ATTACK_DICE..=MAX_DICE).contains(&dice) {
        return Err(OddsError::DiceOutOfRange {
            min: MIN_ATTACK_DICE,
            max: MAX_DICE,
            given: dice,
        });
    }
    let sums = sum_counts(dice)?;
    let table = RollTable::new(dice, criticals, settings);
    let mut counts = [0u64; 8];
    for (total, ways) in sums.iter() {
        counts[table.classify(total, adj_dx).index()] += ways;
    }
    Ok(HitOdds {
        table,
        adj_dx,
        counts,
        outcomes: sums.outcomes(),
    })
}

/// Exact odds of a checked attack (its dice, adjDX and double/triple range).
pub fn attack_odds(
    setup: &AttackSetup,
    settings: AttackTableSettings,
) -> Result<HitOdds, OddsError> {
    hit_odds(setup.dice, setup.adj_dx, setup.criticals, settings)
}

/// The exact odds of a roll to miss (3 dice), indexed like [`MissOutcome::ALL`], over 216.
pub fn miss_odds(adj_dx: i32) -> [u64; 6] {
    let mut counts = [0u64; 6];
    // Three dice are always within MAX_DICE, so the error arm cannot happen.
    if let Ok(sums) = sum_counts(3) {
        for (total, ways) in sums.iter() {
            let outcome = classify_miss(total, adj_dx);
            if let Some(i) = MissOutcome::ALL.iter().position(|o| *o == outcome) {
                counts[i] += ways;
            }
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use AttackOutcome::*;

    /// Brute force over every roll, for checking the convolution on small N.
    fn brute(dice: u32) -> Vec<u64> {
        let mut counts = vec![0u64; 6 * dice as usize + 1];
        for n in 0..6u64.pow(dice) {
            let mut rest = n;
            let mut total = 0;
            for _ in 0..dice {
                total += (rest % 6) as usize + 1;
                rest /= 6;
            }
            counts[total] += 1;
        }
        counts
    }

    #[test]
    fn convolution_matches_brute_force() {
        for dice in 0..=6 {
            let s = sum_counts(dice).unwrap();
            let b = brute(dice);
            for (total, want) in b.iter().enumerate() {
                assert_eq!(s.ways(total as u32), *want, "{dice} dice, total {total}");
            }
            assert_eq!(s.iter().map(|(_, w)| w).sum::<u64>(), s.outcomes());
        }
        // Known figures: 3 dice make 10 in 27 ways; 8 dice total 6^8.
        assert_eq!(sum_counts(3).unwrap().ways(10), 27);
        let eight = sum_counts(8).unwrap();
        assert_eq!(eight.iter().map(|(_, w)| w).sum::<u64>(), 1_679_616);
        let top = sum_counts(MAX_DICE).unwrap();
        assert_eq!(top.iter().map(|(_, w)| w).sum::<u64>(), 6u64.pow(MAX_DICE));
        assert!(sum_counts(MAX_DICE + 1).is_err());
    }

    #[test]
    fn readme_three_dice_against_12() {
        // README.md, "Reference figures": 3 dice against adjDX 12.
        let o = hit_odds(3, 12, CriticalRange::NORMAL, AttackTableSettings::default()).unwrap();
        assert_eq!(o.outcomes, 216);
        let want = [
            (Triple, 1),
            (Double, 3),
            (AutomaticHit, 6),
            (Hit, 150),
            (AutomaticMiss, 6),
            (DropWeapon, 3),
            (WeaponBreaks, 1),
        ];
        for (outcome, count) in want {
            assert_eq!(o.count(outcome), count, "{outcome:?}");
        }
        assert_eq!(o.count(Miss), 216 - 170);
        assert_eq!(o.hit_count(), 160);
        assert!((o.percent(Triple) - 100.0 / 216.0).abs() < 1e-12);
        assert!((o.hit_percent() - 16000.0 / 216.0).abs() < 1e-9);
    }

    #[test]
    fn readme_four_dice() {
        // README.md, "Reference figures": 4 dice, defending.
        let o = hit_odds(4, 12, CriticalRange::NORMAL, AttackTableSettings::default()).unwrap();
        assert_eq!(o.outcomes, 1296);
        assert_eq!(o.count(AutomaticHit), 5);
        assert_eq!(o.count(AutomaticMiss), 35);
        assert_eq!(o.count(DropWeapon), 30);
        assert_eq!(o.count(WeaponBreaks), 5);
        assert_eq!((o.count(Triple), o.count(Double)), (0, 0));
        // With the guild setting: 4 is triple (1 way), 5 double (4 ways).
        let s = AttackTableSettings {
            four_dice_specials: true,
            ..AttackTableSettings::default()
        };
        let o = hit_odds(4, 12, CriticalRange::NORMAL, s).unwrap();
        assert_eq!(
            (o.count(Triple), o.count(Double), o.count(AutomaticHit)),
            (1, 4, 0)
        );
    }

    #[test]
    fn every_roll_is_counted_once() {
        for dice in 3..=8 {
            for adj_dx in [-5, 0, 9, 14, 30, 60] {
                let o = hit_odds(
                    dice,
                    adj_dx,
                    CriticalRange::WEAPON_MASTER,
                    AttackTableSettings::default(),
                )
                .unwrap();
                assert_eq!(o.counts.iter().sum::<u64>(), 6u64.pow(dice));
            }
        }
    }

    #[test]
    fn widened_ranges_in_odds() {
        // A weapon master: triple on 3-4 (1 + 3 ways), double on 5-7 (6 + 10 + 15 ways).
        let o = hit_odds(
            3,
            12,
            CriticalRange::WEAPON_MASTER,
            AttackTableSettings::default(),
        )
        .unwrap();
        assert_eq!(
            (o.count(Triple), o.count(Double), o.count(AutomaticHit)),
            (4, 31, 0)
        );
    }

    #[test]
    fn dice_limits() {
        let s = AttackTableSettings::default();
        assert!(hit_odds(2, 10, CriticalRange::NORMAL, s).is_err());
        assert!(hit_odds(3, 10, CriticalRange::NORMAL, s).is_ok());
        assert!(hit_odds(MAX_DICE, 10, CriticalRange::NORMAL, s).is_ok());
        assert_eq!(
            hit_odds(MAX_DICE + 1, 10, CriticalRange::NORMAL, s),
            Err(OddsError::DiceOutOfRange {
                min: 3,
                max: MAX_DICE,
                given: MAX_DICE + 1
            })
        );
    }

    #[test]
    fn miss_odds_against_10() {
        // tft-rules-summary.md, "ROLLING TO MISS": 3 → 1 way; 4..=10 → 107 ways; 11..=13 → 73;
        // 14 → 15; 15-16 → 10 + 6; 17-18 → 3 + 1.
        assert_eq!(miss_odds(10), [1, 107, 73, 15, 16, 4]);
        assert_eq!(miss_odds(10).iter().sum::<u64>(), 216);
    }

    #[test]
    fn odds_of_a_setup() {
        use crate::rules::tft::attack::{Adjustment, AttackSpec};
        let setup = AttackSpec {
            dx: 12,
            adjustments: vec![Adjustment::TargetDefending],
            ..AttackSpec::default()
        }
        .setup()
        .unwrap();
        let o = attack_odds(&setup, AttackTableSettings::default()).unwrap();
        assert_eq!((o.outcomes, o.count(AutomaticMiss)), (1296, 35));
    }
}
