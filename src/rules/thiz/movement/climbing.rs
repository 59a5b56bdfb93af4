//! Climbing: the rate up a wall, where the checks fall, and how far a failed climber drops.
//!
//! The damage of the drop is [`crate::rules::thiz::hazards::fall`]'s to work out; the caller
//! passes it the distance fallen.

use crate::rules::dice::DieSource;
use crate::rules::thiz::Rating;
use crate::rules::thiz::hazards::ChartRoll;

/// Feet climbed per turn before the skill's share.
pub const BASE_CLIMB_FEET: i32 = 5;
/// A check is due every this many feet.
pub const CHECK_INTERVAL_FEET: u32 = 100;

/// Feet climbed per combat turn: 5 + half the Climbing skill.
// Decision: half a point is dropped (rounded down), and a very poor climber moves no less than 0.
pub fn climb_rate_feet(climbing: i32) -> u32 {
    BASE_CLIMB_FEET
        .saturating_add(climbing.div_euclid(2))
        .max(0) as u32
}

/// The heights at which a climb of `height` feet is checked: every 100 feet and at the top, or
/// halfway and at the top for a short climb, so that every climb has at least two.
// Decision: a climb of exactly 100 feet counts as short (checks at 50 and 100), since one check
// would break the "at least two checks" rule; a longer one is checked at each hundred and at the
// top when the top is not itself a hundred.
pub fn climb_checkpoints(height: u32) -> Vec<u32> {
    if height == 0 {
        return Vec::new();
    }
    if height <= CHECK_INTERVAL_FEET {
        return vec![height / 2, height];
    }
    let mut points: Vec<u32> = (1..=height / CHECK_INTERVAL_FEET)
        .map(|n| n * CHECK_INTERVAL_FEET)
        .collect();
    if !height.is_multiple_of(CHECK_INTERVAL_FEET) {
        points.push(height);
    }
    points
}

/// How far a climber who lost their grip drops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CatchRoll {
    pub d10: u32,
    /// The d10 times ten.
    pub rolled_feet: u32,
    /// The distance actually fallen.
    pub fallen_feet: u32,
    /// True when the roll beat the height, so they fell all the way down.
    pub hit_bottom: bool,
}

/// Roll 1d10 x 10: more than the height above ground and they fall all the way; otherwise they
/// catch themselves after falling that far.
pub fn catch_roll(height_above_ground: u32, dice: &mut impl DieSource) -> CatchRoll {
    let d10 = dice.roll(10);
    let rolled_feet = d10 * 10;
    let hit_bottom = rolled_feet > height_above_ground;
    CatchRoll {
        d10,
        rolled_feet,
        fallen_feet: if hit_bottom {
            height_above_ground
        } else {
            rolled_feet
        },
        hit_bottom,
    }
}

/// A climb as rolled: the checks made, and the fall if one failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Climb {
    /// Each check made, with the height it was made at.
    pub checks: Vec<(u32, ChartRoll)>,
    /// The failed check's height and the drop that followed, if a check failed.
    pub fall: Option<(u32, CatchRoll)>,
    /// True when the climber reached the top.
    pub reached_top: bool,
}

/// Roll a whole climb of `height` feet against `rating` (Climbing or General Physical, with the
/// referee's bonus or penalty for the surface). It stops at the first failure.
pub fn climb(height: u32, rating: Rating, dice: &mut impl DieSource) -> Climb {
    let mut checks = Vec::new();
    for at in climb_checkpoints(height) {
        let check = ChartRoll::roll(rating, dice);
        checks.push((at, check));
        if !check.level.is_success() {
            let drop = catch_roll(at, dice);
            return Climb {
                checks,
                fall: Some((at, drop)),
                reached_top: false,
            };
        }
    }
    Climb {
        checks,
        fall: None,
        reached_top: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    #[test]
    fn climbing_rate() {
        // thiz-rulebook.md, "Climbing" (movement): 5 feet + half the Climbing skill per turn.
        for (skill, feet) in [(0, 5), (1, 5), (2, 6), (7, 8), (30, 20), (-1, 4), (-20, 0)] {
            assert_eq!(climb_rate_feet(skill), feet, "Climbing {skill}");
        }
    }

    #[test]
    fn checkpoints_every_hundred_feet_and_at_least_two() {
        // thiz-rulebook.md, "Climbing": every 100 feet; under 100, halfway and at the top; at
        // least two checks.
        let cases: [(u32, &[u32]); 6] = [
            (0, &[]),
            (40, &[20, 40]),
            (99, &[49, 99]),
            (100, &[50, 100]),
            (101, &[100, 101]),
            (300, &[100, 200, 300]),
        ];
        for (height, want) in cases {
            assert_eq!(climb_checkpoints(height), want, "{height} feet");
        }
    }

    #[test]
    fn catching_oneself() {
        // thiz-rulebook.md, "Climbing": 1d10 x 10 greater than the height means falling all the
        // way; otherwise the climber falls that far and holds on.
        let mut dice = ScriptedDice::new([5, 6, 4]);
        let equal = catch_roll(50, &mut dice);
        assert_eq!((equal.fallen_feet, equal.hit_bottom), (50, false));
        let over = catch_roll(50, &mut dice);
        assert_eq!(
            (over.rolled_feet, over.fallen_feet, over.hit_bottom),
            (60, 50, true)
        );
        let under = catch_roll(50, &mut dice);
        assert_eq!((under.fallen_feet, under.hit_bottom), (40, false));
    }

    #[test]
    fn a_climb_stops_at_the_first_failure() {
        let mut dice = ScriptedDice::new([1, 100, 3]);
        let c = climb(300, Rating(2), &mut dice);
        assert_eq!(c.checks.len(), 2);
        assert!(!c.reached_top);
        let (at, drop) = c.fall.expect("fell");
        assert_eq!((at, drop.fallen_feet), (200, 30));
        let mut dice = ScriptedDice::new([1, 1]);
        assert!(climb(60, Rating(2), &mut dice).reached_top);
    }
}
