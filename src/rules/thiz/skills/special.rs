//! The calculations printed in individual skill texts: what a level of success earns for
//! particular skills, and the numbers some skills derive from a rating.
//!
//! Source: thiz-rulebook.md, chapter 2 (each function names its skill). Owns only arithmetic on
//! levels and ratings that no other module applies (the Strength melee bonus, Dual-Wield and
//! Unarmed Combat against armour are combat's); never rolls dice (callers roll checks through
//! `thiz::check`) and never decides what the referee decides (required levels of Persuasion,
//! Perception ranges…).

use crate::rules::thiz::Level;

/// The 0..4 a check earns toward a score (Hide Score, Forgery Score, searches): 0 for a failure,
/// 1 Green up to 4 Black (chapter 2, "Stealth", "Forgery", "Perception", "Scrutiny").
pub fn level_points(level: Level) -> u32 {
    level.index() as u32
}

/// Picks one of four values by level, Green first; `None` on a failure.
fn by_level<T: Copy>(level: Level, green_to_black: [T; 4]) -> Option<T> {
    level.index().checked_sub(1).map(|i| green_to_black[i])
}

/// Reflexes: a delayed action may go before the awaited event on Yellow or better.
pub fn reflexes_acts_first(level: Level) -> bool {
    level >= Level::Yellow
}

/// Strength: pounds lifted overhead, 100 plus 10 per point.
pub fn overhead_lift_lb(strength: i32) -> i32 {
    (100 + 10 * strength).max(0)
}

/// Strength: pounds lifted off the ground, twice the overhead lift.
pub fn ground_lift_lb(strength: i32) -> i32 {
    2 * overhead_lift_lb(strength)
}

/// Strength: a load of 90% or more of the maximum moves the lifter as if Speed were 0.
pub fn load_slows_to_speed_zero(load_lb: i32, strength: i32) -> bool {
    // 10 × load ≥ 9 × maximum, in integers.
    10 * i64::from(load_lb) >= 9 * i64::from(ground_lift_lb(strength))
}

/// Tactics: the bonus allies get on their next turn, +1 Green to +4 Black.
pub fn tactics_bonus(level: Level) -> i32 {
    level.index() as i32
}

// Not reached: which craft skill fits the thing appraised is the referee's call at the table;
// /check takes the rating they give for it (rating:N).
/// Appraise: with both Appraise and a fitting craft skill, the higher of the two plus 2.
pub fn appraise_rating(appraise: i32, craft: Option<i32>) -> i32 {
    match craft {
        Some(c) => appraise.max(c) + 2,
        None => appraise,
    }
}

/// Appraise: the width of the estimate, ± percent of the true value (0 = exact); `None` on a
/// failure.
pub fn appraise_margin_percent(level: Level) -> Option<u32> {
    by_level(level, [20, 10, 5, 0])
}

/// Forgery: one check per full 4 hours of work, at least 1 and at most 6.
pub fn forgery_checks(hours: u32) -> u32 {
    (hours / 4).clamp(1, 6)
}

/// Stealth: one hiding check per full minute, at least 1 and at most 6.
pub fn hiding_checks(minutes: u32) -> u32 {
    minutes.clamp(1, 6)
}

// Not reached: a Hide or Forgery Score sums checks made over minutes or hours, which the table
// keeps; each /check shows the points it adds (`level_points`).
/// The sum of [`level_points`] over a series of checks: a Hide Score or Forgery Score. Zero means
/// the attempt failed.
pub fn score(levels: &[Level]) -> u32 {
    levels.iter().map(|&l| level_points(l)).sum()
}

/// Perception: a single look finds a hidden thing when its points exceed the Hide Score.
pub fn perception_finds(level: Level, hide_score: u32) -> bool {
    level_points(level) > hide_score
}

/// Scrutiny: the search difficulty left after one check; the search succeeds at 0 or below.
pub fn scrutiny_remaining(difficulty: i32, level: Level) -> i32 {
    difficulty - level_points(level) as i32
}

/// Stealth: how many walking moves a sneaking character covers before checking again.
pub fn stealth_moves(level: Level) -> u32 {
    level_points(level)
}

/// Lock-picking: seconds to set one pin (a Black may be quicker at the referee's word); `None`
/// on a failure.
pub fn lock_pin_seconds(level: Level) -> Option<u32> {
    by_level(level, [60, 45, 30, 10])
}

/// What a run of consecutive failures on a lock does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockFailure {
    /// Try the same pin again.
    Retry,
    /// Every pin set so far drops.
    PinsReset,
    /// Pins drop, and an alarm may go off where the setting has them.
    Alarm,
}

/// Lock-picking: the effect of `in_a_row` consecutive failures (1 or more).
pub fn lock_failures(in_a_row: u32) -> LockFailure {
    match in_a_row {
        0 | 1 => LockFailure::Retry,
        2 => LockFailure::PinsReset,
        _ => LockFailure::Alarm,
    }
}

/// The kind of jump of Acrobatics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Jump {
    /// Long jump from standing, in feet.
    StandingLong,
    /// Long jump after a run of at least the jogging distance, in feet.
    RunningLong,
    /// High jump from standing, in inches.
    StandingHigh,
    /// High jump after a run, in inches.
    RunningHigh,
}

/// Acrobatics: the distance of a jump (feet for long jumps, inches for high jumps).
pub fn jump_distance(jump: Jump, level: Level) -> Option<u32> {
    let table = match jump {
        Jump::StandingLong => [8, 9, 10, 11],
        Jump::RunningLong => [20, 22, 24, 26],
        Jump::StandingHigh => [32, 34, 36, 38],
        Jump::RunningHigh => [60, 68, 76, 84],
    };
    by_level(level, table)
}

/// Throwing: inches an object of `weight_lb` flies (16 lb: 64..76 inches, halved per doubling
/// of weight); a quarter of that when thrown as an improvised combat attack.
pub fn throw_distance_inches(level: Level, weight_lb: f64, improvised_combat: bool) -> Option<f64> {
    let base = f64::from(by_level(level, [64u32, 68, 72, 76])?);
    if weight_lb <= 0.0 || !weight_lb.is_finite() {
        return None;
    }
    let distance = base * 16.0 / weight_lb;
    Some(if improvised_combat {
        distance / 4.0
    } else {
        distance
    })
}

/// Animal Handling: a frightened mount approaches at this fraction of its speed, as
/// (numerator, denominator): 1/4 Green, 1/2 Yellow, 1 Red, 2 Black.
pub fn mount_speed_fraction(level: Level) -> Option<(u32, u32)> {
    by_level(level, [(1, 4), (1, 2), (1, 1), (2, 1)])
}

/// Fast Talk: a duped character sees through the lie after 10 + 1d10 minutes.
pub fn fast_talk_minutes(d10: u32) -> u32 {
    10 + d10
}

/// Magic Sense: feet within which magic is felt, 10 per point of rating.
pub fn magic_sense_range_ft(rating: i32) -> i32 {
    10 * rating.max(0)
}

/// Magic Sense: does a check of `level` reveal a character whose best magic skill is
/// `best_magic_skill` and whose Magical rating is `magical`?
// Decision: the text gives Black 1, Yellow 5, Red 9, Green 15; a better level finding less makes no
// sense at a table, so the two middle numbers are read in order of level: Red 5, Yellow 9.
pub fn magic_sense_detects(level: Level, best_magic_skill: i32, magical: i32) -> bool {
    match level {
        Level::Failure => false,
        Level::Green => best_magic_skill >= 15 || magical >= 1,
        Level::Yellow => best_magic_skill >= 9,
        Level::Red => best_magic_skill >= 5,
        Level::Black => best_magic_skill >= 1,
    }
}

/// The result of a Pocket-Picking attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PocketPicking {
    /// The level after the detection rule (a detected attempt is a failure).
    pub level: Level,
    /// The mark noticed the attempt.
    pub detected: bool,
    /// Percent of the mark's coin taken; 0 on a failure.
    pub coin_percent: u32,
}

/// Pocket-Picking: a roll of 96..100 (98..100 with Light Touch) fails and is noticed; otherwise
/// coin taken is 40/60/80/100% for Green to Black.
// Decision: a roll in the noticed band is a failure even on the few rows where the chart would
// call it a Green, as the text says such a roll fails.
pub fn pocket_picking(level: Level, roll: u32, light_touch: bool) -> PocketPicking {
    let detected = roll >= crate::rules::thiz::traits::pocket_picking_detection_roll(light_touch);
    let level = if detected { Level::Failure } else { level };
    PocketPicking {
        level,
        detected,
        coin_percent: by_level(level, [40, 60, 80, 100]).unwrap_or(0),
    }
}

/// The level of success a Seduce attempt needs, by how the target feels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attitude {
    Friendly,
    Acquaintance,
    Stranger,
    Dislikes,
    /// Deep hatred, or fighting the seducer: cannot be seduced.
    HatesOrFighting,
}

/// Seduce: the level needed, or `None` when it cannot work.
pub fn seduce_needs(attitude: Attitude) -> Option<Level> {
    match attitude {
        Attitude::Friendly => Some(Level::Green),
        Attitude::Acquaintance => Some(Level::Yellow),
        Attitude::Stranger => Some(Level::Red),
        Attitude::Dislikes => Some(Level::Black),
        Attitude::HatesOrFighting => None,
    }
}

/// Tracking: the modifier of a trail `hours_cold` full hours old, -1 per hour (Expert Tracker
/// treats it as 3 hours fresher, never younger than new).
pub fn trail_modifier(hours_cold: u32, expert_tracker: bool) -> i32 {
    let age = if expert_tracker {
        hours_cold.saturating_sub(3)
    } else {
        hours_cold
    };
    -(age.min(1000) as i32)
}

/// Tracking: percent of normal speed while following or hiding a trail, 25 per level.
pub fn tracking_speed_percent(level: Level) -> Option<u32> {
    by_level(level, [25, 50, 75, 100])
}

/// What a Weather Sense check tells of the next 12 hours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WeatherInsight {
    pub precipitation_kind: bool,
    pub wind: bool,
    pub precipitation_amount: bool,
}

/// Weather Sense: Green tells the kind of precipitation, Yellow adds the wind and Red adds the
/// amount.
pub fn weather_sense(level: Level) -> WeatherInsight {
    WeatherInsight {
        precipitation_kind: level >= Level::Green,
        wind: level >= Level::Yellow,
        precipitation_amount: level >= Level::Red,
    }
}

/// Pilot: may the character try to pilot this vehicle? Vehicles the referee calls complicated
/// need the Pilot skill for their class; anything else may be tried at the general rating.
pub fn may_pilot(trained_for_class: bool, referee_calls_it_complicated: bool) -> bool {
    trained_for_class || !referee_calls_it_complicated
}

/// Swimming: only a rating above 0 lets a character swim any real distance or stay afloat long;
/// below that they tread water.
pub fn can_swim_distance(swimming: Option<i32>) -> bool {
    swimming.is_some_and(|r| r > 0)
}

/// Summoning: a roll of 96..100 maddens whatever answers, which hunts the summoner.
pub fn summoning_backfires(roll: u32) -> bool {
    roll >= 96
}

#[cfg(test)]
mod tests {
    use super::*;
    use Level::{Black, Failure, Green, Red, Yellow};

    #[test]
    fn points_per_level() {
        // thiz-rulebook.md, "Stealth"/"Forgery": write 1..4 for Green..Black; failure adds 0.
        for (level, p) in [(Failure, 0), (Green, 1), (Yellow, 2), (Red, 3), (Black, 4)] {
            assert_eq!(level_points(level), p);
        }
        assert_eq!(score(&[Green, Black, Failure]), 5);
        assert_eq!(score(&[Failure, Failure]), 0);
    }

    #[test]
    fn strength_numbers() {
        // "Strength": 100 lb + 10 per point overhead, double off the ground; 90% of the maximum
        // slows to Speed 0. (The melee bonus is `combat::strength_bonus`, tested there.)
        assert_eq!(overhead_lift_lb(0), 100);
        assert_eq!(overhead_lift_lb(5), 150);
        assert_eq!(ground_lift_lb(5), 300);
        // Strength 0 can lift 200 lb off the ground: 180 is 90%, 179 is not.
        assert!(load_slows_to_speed_zero(180, 0));
        assert!(!load_slows_to_speed_zero(179, 0));
    }

    #[test]
    fn thresholds_of_levels() {
        // "Reflexes": Yellow or better; "Tactics": +1..+4. ("Unarmed Combat" against armour is
        // `combat::unarmed_can_damage`, tested there with the same cases.)
        assert!(!reflexes_acts_first(Green));
        assert!(reflexes_acts_first(Yellow));
        assert_eq!(tactics_bonus(Failure), 0);
        assert_eq!(tactics_bonus(Black), 4);
    }

    #[test]
    fn appraise() {
        // "Appraise": higher of the two +2; ±20/10/5/exact.
        assert_eq!(appraise_rating(3, None), 3);
        assert_eq!(appraise_rating(3, Some(5)), 7);
        assert_eq!(appraise_rating(6, Some(5)), 8);
        assert_eq!(appraise_margin_percent(Failure), None);
        assert_eq!(appraise_margin_percent(Green), Some(20));
        assert_eq!(appraise_margin_percent(Black), Some(0));
    }

    #[test]
    fn check_counts() {
        // "Forgery": per full 4 hours, 1 (under 8 hours) to 6 (24 hours or more).
        for (h, n) in [
            (0, 1),
            (7, 1),
            (8, 2),
            (11, 2),
            (12, 3),
            (23, 5),
            (24, 6),
            (100, 6),
        ] {
            assert_eq!(forgery_checks(h), n, "{h} hours");
        }
        // "Stealth": per full minute, 1 (under 2 minutes) to 6 (6 minutes or more).
        for (m, n) in [(0, 1), (1, 1), (2, 2), (5, 5), (6, 6), (60, 6)] {
            assert_eq!(hiding_checks(m), n, "{m} minutes");
        }
    }

    #[test]
    fn searching() {
        // "Perception": points must exceed the Hide Score; "Scrutiny": subtract until 0 or less.
        assert!(!perception_finds(Yellow, 2));
        assert!(perception_finds(Red, 2));
        assert_eq!(scrutiny_remaining(3, Red), 0);
        assert_eq!(scrutiny_remaining(4, Red), 1);
        assert_eq!(stealth_moves(Black), 4);
    }

    #[test]
    fn locks() {
        // "Lock-picking": 60/45/30/10 seconds; 2 failures reset, 3 raise an alarm.
        assert_eq!(lock_pin_seconds(Green), Some(60));
        assert_eq!(lock_pin_seconds(Red), Some(30));
        assert_eq!(lock_pin_seconds(Failure), None);
        assert_eq!(lock_failures(1), LockFailure::Retry);
        assert_eq!(lock_failures(2), LockFailure::PinsReset);
        assert_eq!(lock_failures(3), LockFailure::Alarm);
    }

    #[test]
    fn jumps_and_throws() {
        // "Acrobatics" and "Throwing".
        assert_eq!(jump_distance(Jump::StandingLong, Green), Some(8));
        assert_eq!(jump_distance(Jump::RunningLong, Black), Some(26));
        assert_eq!(jump_distance(Jump::StandingHigh, Yellow), Some(34));
        assert_eq!(jump_distance(Jump::RunningHigh, Red), Some(76));
        assert_eq!(jump_distance(Jump::RunningHigh, Failure), None);
        assert_eq!(throw_distance_inches(Green, 16.0, false), Some(64.0));
        assert_eq!(throw_distance_inches(Black, 32.0, false), Some(38.0));
        assert_eq!(throw_distance_inches(Black, 16.0, true), Some(19.0));
        assert_eq!(throw_distance_inches(Black, 0.0, false), None);
        assert_eq!(throw_distance_inches(Failure, 16.0, false), None);
    }

    #[test]
    fn awareness_skills() {
        // "Animal Handling", "Fast Talk", "Magic Sense", "Pocket-Picking", "Seduce", "Tracking",
        // "Weather Sense", "Summoning".
        assert_eq!(mount_speed_fraction(Green), Some((1, 4)));
        assert_eq!(mount_speed_fraction(Black), Some((2, 1)));
        assert_eq!(fast_talk_minutes(1), 11);
        assert_eq!(fast_talk_minutes(10), 20);
        assert_eq!(magic_sense_range_ft(3), 30);
        let detect = [
            (Black, 1, 0, true),
            (Black, 0, 0, false),
            (Red, 5, 0, true),
            (Red, 4, 0, false),
            (Yellow, 9, 0, true),
            (Yellow, 8, 0, false),
            (Green, 15, 0, true),
            (Green, 14, 0, false),
            (Green, 1, 1, true),
            (Failure, 30, 3, false),
        ];
        for (level, best, magical, want) in detect {
            assert_eq!(
                magic_sense_detects(level, best, magical),
                want,
                "{level} {best} {magical}"
            );
        }
        let picks = [
            (Green, 95, false, Green, false, 40),
            (Green, 96, false, Failure, true, 0),
            (Green, 96, true, Green, false, 40),
            (Failure, 97, true, Failure, false, 0),
            (Failure, 98, true, Failure, true, 0),
            (Black, 5, false, Black, false, 100),
        ];
        for (level, roll, light, got_level, detected, coin) in picks {
            let p = pocket_picking(level, roll, light);
            assert_eq!(
                (p.level, p.detected, p.coin_percent),
                (got_level, detected, coin),
                "{roll} {light}"
            );
        }
        assert_eq!(seduce_needs(Attitude::Friendly), Some(Green));
        assert_eq!(seduce_needs(Attitude::Dislikes), Some(Black));
        assert_eq!(seduce_needs(Attitude::HatesOrFighting), None);
        assert_eq!(trail_modifier(5, false), -5);
        assert_eq!(trail_modifier(5, true), -2);
        assert_eq!(trail_modifier(2, true), 0);
        assert_eq!(tracking_speed_percent(Yellow), Some(50));
        assert_eq!(weather_sense(Failure), WeatherInsight::default());
        let y = weather_sense(Yellow);
        assert!(y.precipitation_kind && y.wind && !y.precipitation_amount);
        assert!(weather_sense(Red).precipitation_amount);
        assert!(may_pilot(false, false));
        assert!(!may_pilot(false, true));
        assert!(may_pilot(true, true));
        assert!(!can_swim_distance(None));
        assert!(!can_swim_distance(Some(0)));
        assert!(can_swim_distance(Some(1)));
        assert!(!summoning_backfires(95));
        assert!(summoning_backfires(96));
    }
}
