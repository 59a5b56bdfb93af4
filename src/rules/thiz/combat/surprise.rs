//! Surprise: Preparedness at the start of a fight, and for a fighter who joins late.

use super::{CombatError, check};
use crate::rules::dice::DieSource;
use crate::rules::thiz::{Level, Rating, resolve};

/// The most tie-break rounds rolled before the referee is left to decide.
const MAX_TIE_BREAKS: usize = 100;

/// Preparedness points for a level: 0 for Failure up to 4 for Black (thiz-rulebook.md,
/// "Determine Surprise").
pub fn preparedness_points(level: Level) -> u8 {
    level.index() as u8
}

/// One combatant's Preparedness check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PreparednessRoll {
    /// Speed + Perception.
    pub rating: Rating,
    pub roll: u32,
    pub level: Level,
    pub points: u8,
}

/// Rolls Preparedness against Speed + Perception.
pub fn roll_preparedness(
    speed_plus_perception: Rating,
    dice: &mut impl DieSource,
) -> PreparednessRoll {
    let roll = dice.d100();
    let level = resolve(speed_plus_perception, roll);
    PreparednessRoll {
        rating: speed_plus_perception,
        roll,
        level,
        points: preparedness_points(level),
    }
}

/// One of the two sides of a fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    First,
    Second,
}

/// What a side gets before initiative is rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opening {
    /// The side that won surprise acts for one full Turn.
    FreeTurn(Side),
    /// An ambush declared by the referee: the side acts for a full Initiative Pass.
    FreeInitiativePass(Side),
    /// Ties could not be broken within the bound; the referee decides.
    Undecided,
}

/// How surprise was settled, with every roll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SurpriseResult {
    pub first: Vec<PreparednessRoll>,
    pub second: Vec<PreparednessRoll>,
    /// Re-checks of the best-prepared combatants on each side, one pair per round, when the
    /// highest and the totals tied.
    pub tie_breaks: Vec<(Vec<PreparednessRoll>, Vec<PreparednessRoll>)>,
    pub opening: Opening,
}

fn compare(first: &[PreparednessRoll], second: &[PreparednessRoll]) -> Option<Side> {
    let best = |rolls: &[PreparednessRoll]| rolls.iter().map(|r| r.points).max().unwrap_or(0);
    let total = |rolls: &[PreparednessRoll]| rolls.iter().map(|r| u32::from(r.points)).sum::<u32>();
    let order = best(first)
        .cmp(&best(second))
        .then(total(first).cmp(&total(second)));
    match order {
        std::cmp::Ordering::Greater => Some(Side::First),
        std::cmp::Ordering::Less => Some(Side::Second),
        std::cmp::Ordering::Equal => None,
    }
}

fn top_ratings(rolls: &[PreparednessRoll]) -> Vec<Rating> {
    let best = rolls.iter().map(|r| r.points).max().unwrap_or(0);
    rolls
        .iter()
        .filter(|r| r.points == best)
        .map(|r| r.rating)
        .collect()
}

fn validate(side: &[i32]) -> Result<Vec<Rating>, CombatError> {
    if side.is_empty() {
        return Err(CombatError::EmptySide);
    }
    if side.len() > super::MAX_COMBATANTS {
        return Err(CombatError::TooManyCombatants {
            count: side.len(),
            max: super::MAX_COMBATANTS,
        });
    }
    side.iter()
        .map(|&r| check("Speed + Perception", r).map(Rating))
        .collect()
}

/// Determines surprise between two sides, given each combatant's Speed + Perception.
///
/// Source: thiz-rulebook.md, "Determine Surprise": the side with the best Preparedness takes a
/// full Turn; a tie compares the sides' totals; a further tie has the best-prepared combatants
/// check again until it breaks. Decision: each tie-break round compares the re-checks the same way
/// (best, then total); after 100 tied rounds the referee decides ([`Opening::Undecided`]).
pub fn surprise(
    first: &[i32],
    second: &[i32],
    dice: &mut impl DieSource,
) -> Result<SurpriseResult, CombatError> {
    let (first_ratings, second_ratings) = (validate(first)?, validate(second)?);
    let roll_all = |ratings: &[Rating], dice: &mut _| -> Vec<PreparednessRoll> {
        ratings
            .iter()
            .map(|&r| roll_preparedness(r, dice))
            .collect()
    };
    let first = roll_all(&first_ratings, dice);
    let second = roll_all(&second_ratings, dice);
    let mut result = SurpriseResult {
        opening: Opening::Undecided,
        first,
        second,
        tie_breaks: Vec::new(),
    };
    let mut current = (result.first.clone(), result.second.clone());
    for _ in 0..=MAX_TIE_BREAKS {
        if let Some(side) = compare(&current.0, &current.1) {
            result.opening = Opening::FreeTurn(side);
            break;
        }
        if result.tie_breaks.len() == MAX_TIE_BREAKS {
            break;
        }
        let again = (
            roll_all(&top_ratings(&current.0), dice),
            roll_all(&top_ratings(&current.1), dice),
        );
        result.tie_breaks.push(again.clone());
        current = again;
    }
    Ok(result)
}

/// A fighter joining a fight already under way, against the target they named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LateArrival {
    pub newcomer: PreparednessRoll,
    pub target: PreparednessRoll,
    /// Who gets a free action against the other: [`Side::First`] is the newcomer.
    pub free_action: Option<Side>,
}

/// Preparedness for a late arrival and their named target (thiz-rulebook.md, "Determine
/// Surprise"). Decision: on equal Preparedness neither gets the free action.
pub fn late_arrival(
    newcomer: i32,
    target: i32,
    dice: &mut impl DieSource,
) -> Result<LateArrival, CombatError> {
    let newcomer = roll_preparedness(Rating(check("Speed + Perception", newcomer)?), dice);
    let target = roll_preparedness(Rating(check("Speed + Perception", target)?), dice);
    let free_action = match newcomer.points.cmp(&target.points) {
        std::cmp::Ordering::Greater => Some(Side::First),
        std::cmp::Ordering::Less => Some(Side::Second),
        std::cmp::Ordering::Equal => None,
    };
    Ok(LateArrival {
        newcomer,
        target,
        free_action,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    #[test]
    fn points_run_from_zero_to_four() {
        // thiz-rulebook.md, "Determine Surprise": 0..4 for Failure..Black.
        let points: Vec<u8> = Level::ALL.into_iter().map(preparedness_points).collect();
        assert_eq!(points, [0, 1, 2, 3, 4]);
    }

    #[test]
    fn best_preparedness_wins() {
        // Rating 0: Black ≤7, Red ≤17, Yellow ≤33, Green ≤54.
        // First: Red (3) and Failure (0); second: Yellow (2) and Yellow (2). Best 3 > 2.
        let mut dice = ScriptedDice::new([17, 100, 33, 33]);
        let r = surprise(&[0, 0], &[0, 0], &mut dice).unwrap();
        assert_eq!(r.opening, Opening::FreeTurn(Side::First));
        assert!(r.tie_breaks.is_empty());
    }

    #[test]
    fn equal_best_goes_to_the_larger_total() {
        // Both best Yellow (2); second side's total 2+1 beats 2+0.
        let mut dice = ScriptedDice::new([33, 100, 33, 54]);
        let r = surprise(&[0, 0], &[0, 0], &mut dice).unwrap();
        assert_eq!(r.opening, Opening::FreeTurn(Side::Second));
        // Move the second side's Green (54) one up to Failure (55): totals tie, best tie → reroll.
        let mut dice = ScriptedDice::new([33, 100, 33, 55, 7, 8]);
        let r = surprise(&[0, 0], &[0, 0], &mut dice).unwrap();
        assert_eq!(r.tie_breaks.len(), 1);
        // Only the best-prepared (one per side) rolled again: Black beats Red.
        assert_eq!(r.tie_breaks[0].0.len(), 1);
        assert_eq!(r.tie_breaks[0].1.len(), 1);
        assert_eq!(r.opening, Opening::FreeTurn(Side::First));
    }

    #[test]
    fn endless_ties_are_left_to_the_referee() {
        let mut dice = ScriptedDice::new([1; 2 + 2 * MAX_TIE_BREAKS]);
        let r = surprise(&[0], &[0], &mut dice).unwrap();
        assert_eq!(r.opening, Opening::Undecided);
        assert_eq!(r.tie_breaks.len(), MAX_TIE_BREAKS);
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn bad_sides_are_refused() {
        let mut dice = ScriptedDice::new([]);
        assert_eq!(surprise(&[], &[1], &mut dice), Err(CombatError::EmptySide));
        assert!(surprise(&[41], &[1], &mut dice).is_err());
        let crowd = vec![0; super::super::MAX_COMBATANTS + 1];
        assert!(matches!(
            surprise(&crowd, &[1], &mut dice),
            Err(CombatError::TooManyCombatants { .. })
        ));
    }

    #[test]
    fn late_arrival_free_action_to_the_better_prepared() {
        for (rolls, want) in [
            ([7, 8], Some(Side::First)),
            ([8, 7], Some(Side::Second)),
            ([8, 8], None),
        ] {
            let r = late_arrival(0, 0, &mut ScriptedDice::new(rolls)).unwrap();
            assert_eq!(r.free_action, want, "{rolls:?}");
        }
    }
}
