//! What a `/check` of a skill means at the table beyond its colour: the numbers the skills chapter
//! ties to a level or a rating (how much a Strength lifts, how far an Acrobatics jump goes, how
//! fast a pin is set…), as one line under the result.
//!
//! Source: thiz-rulebook.md, chapter 2 (each skill's own text). The arithmetic is
//! `rules::thiz::skills::special`; this module picks the rule a skill has and phrases it. Where a
//! rule needs a number the check does not have (a load's weight, a hidden thing's Hide Score), the
//! line gives the rule for the level rolled as a short table. Never rolls, never writes: the one
//! die a line needs (Fast Talk's minutes) is rolled by the caller.

use std::fmt::Write as _;

use crate::rules::thiz::Level;
use crate::rules::thiz::skills::SkillKind;
use crate::rules::thiz::skills::special::{
    Attitude, Jump, LockFailure, appraise_margin_percent, can_swim_distance, fast_talk_minutes,
    forgery_checks, ground_lift_lb, hiding_checks, jump_distance, level_points,
    load_slows_to_speed_zero, lock_failures, lock_pin_seconds, magic_sense_detects,
    magic_sense_range_ft, may_pilot, mount_speed_fraction, overhead_lift_lb, perception_finds,
    reflexes_acts_first, scrutiny_remaining, seduce_needs, stealth_moves, tactics_bonus,
    throw_distance_inches, tracking_speed_percent, weather_sense,
};

/// The name of the reply's field that carries the line.
pub const FIELD: &str = "Effect";

/// What a skill's effect line needs to know of the check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checked {
    pub kind: SkillKind,
    /// The level the player gets (after Shifty and the special results).
    pub level: Level,
    /// The rating the check was made on, before modifiers: the skill's, or its general rating's.
    pub rating: i32,
    /// The character's own rating in the skill, when learned.
    pub learned: Option<i32>,
    /// Fast Talk's d10, rolled by the caller on a success.
    pub d10: Option<u32>,
}

/// "the pins set so far drop" for the effect of a run of failures on a lock.
fn lock_failure_text(f: LockFailure) -> &'static str {
    match f {
        LockFailure::Retry => "try the pin again",
        LockFailure::PinsReset => "every pin set so far drops",
        LockFailure::Alarm => "the pins drop and an alarm may sound",
    }
}

/// "1/2", "1", "2" for a fraction.
fn fraction((n, d): (u32, u32)) -> String {
    if d == 1 {
        n.to_string()
    } else {
        format!("{n}/{d}")
    }
}

/// The one line a check of this skill earns, or `None` when the skill's text ties no number to
/// the check.
pub fn line(c: &Checked) -> Option<String> {
    let level = c.level;
    let name = level.name();
    let points = level_points(level);
    match c.kind {
        SkillKind::Strength => Some(strength(c.rating)),
        SkillKind::Reflexes => Some(if reflexes_acts_first(level) {
            format!("Reflexes {name}: a delayed action goes before the event it waited for.")
        } else {
            format!("Reflexes {name}: a delayed action goes at the end of the Initiative Pass.")
        }),
        SkillKind::Tactics => level.is_success().then(|| {
            format!(
                "Tactics {name}: allies get +{} on their next turn.",
                tactics_bonus(level)
            )
        }),
        SkillKind::Appraise => appraise_margin_percent(level).map(|m| match m {
            0 => format!("Appraise {name}: the exact value."),
            m => format!("Appraise {name}: the value to within ±{m}%."),
        }),
        SkillKind::Forgery => Some(format!(
            "Forgery {name}: +{points} to the Forgery Score (one check per 4 hours of work, {} at most).",
            forgery_checks(u32::MAX)
        )),
        SkillKind::Stealth => Some(format!(
            "Stealth {name}: sneaks {} walking moves before checking again; hiding, +{points} to the Hide Score (one check a minute, {} at most).",
            stealth_moves(level),
            hiding_checks(u32::MAX)
        )),
        SkillKind::Perception => Some(match (0..points).rev().find(|&h| perception_finds(level, h)) {
            Some(h) => format!(
                "Perception {name}: one look finds what is hidden with a Hide Score of {h} or less."
            ),
            None => format!("Perception {name}: one look finds nothing hidden."),
        }),
        SkillKind::Scrutiny => Some(format!(
            "Scrutiny {name}: takes {} off the search's difficulty (found at 0).",
            -scrutiny_remaining(0, level)
        )),
        SkillKind::LockPicking => Some(match lock_pin_seconds(level) {
            Some(s) => format!("Lock-Picking {name}: one pin set in {s} seconds."),
            None => format!(
                "Lock-Picking failure: {}; a 2nd failure in a row, {}; a 3rd, {}.",
                lock_failure_text(lock_failures(1)),
                lock_failure_text(lock_failures(2)),
                lock_failure_text(lock_failures(3))
            ),
        }),
        SkillKind::Acrobatics => acrobatics(level),
        SkillKind::Throwing => throwing(level),
        SkillKind::AnimalHandling => mount_speed_fraction(level).map(|f| {
            format!(
                "Animal Handling {name}: a frightened mount comes on at {} of its speed.",
                fraction(f)
            )
        }),
        SkillKind::FastTalk => c.d10.filter(|_| level.is_success()).map(|d| {
            format!(
                "Fast Talk {name}: the mark sees through it after {} minutes (10 + d10 {d}).",
                fast_talk_minutes(d)
            )
        }),
        SkillKind::MagicSense => Some(magic_sense(level, c.rating)),
        SkillKind::Seduce => seduce(level),
        SkillKind::Tracking => tracking_speed_percent(level).map(|p| {
            format!("Tracking {name}: follows or hides the trail at {p}% of normal speed.")
        }),
        SkillKind::WeatherSense => weather(level),
        SkillKind::Pilot => (!may_pilot(c.learned.is_some(), true)).then(|| {
            "Untrained in this class: only a vehicle the referee does not call complicated."
                .to_owned()
        }),
        SkillKind::Swimming => (!can_swim_distance(c.learned)).then(|| {
            "Without Swimming above 0: treads water, but cannot swim a distance or stay afloat long."
                .to_owned()
        }),
        _ => None,
    }
}

fn strength(rating: i32) -> String {
    let ground = ground_lift_lb(rating);
    let mut text = format!(
        "Strength {rating}: lifts {} lb overhead, {ground} lb from the ground",
        overhead_lift_lb(rating)
    );
    if let Some(slow) = (0..=ground).find(|&load| load_slows_to_speed_zero(load, rating)) {
        let _ = write!(text, "; {slow} lb or more moves them as if Speed were 0");
    }
    text.push('.');
    text
}

fn acrobatics(level: Level) -> Option<String> {
    let d = |j| jump_distance(j, level);
    Some(format!(
        "Acrobatics {}: long jump {} ft standing, {} ft running; high jump {} in standing, {} in running.",
        level.name(),
        d(Jump::StandingLong)?,
        d(Jump::RunningLong)?,
        d(Jump::StandingHigh)?,
        d(Jump::RunningHigh)?
    ))
}

fn throwing(level: Level) -> Option<String> {
    let far = throw_distance_inches(level, 16.0, false)?;
    let combat = throw_distance_inches(level, 16.0, true)?;
    Some(format!(
        "Throwing {}: a 16 lb object flies {far:.0} in ({combat:.0} in as an improvised attack), half as far for each doubling of weight.",
        level.name()
    ))
}

fn magic_sense(level: Level, rating: i32) -> String {
    let range = magic_sense_range_ft(rating);
    let name = level.name();
    match (1..=30).find(|&best| magic_sense_detects(level, best, 0)) {
        None => format!("Magic Sense {name} (within {range} ft): nothing is felt."),
        Some(best) => {
            let mut text = format!(
                "Magic Sense {name} (within {range} ft): feels anyone whose best Magic Skill is {best} or more"
            );
            if magic_sense_detects(level, 0, 1) {
                text.push_str(", or who has any Magical rating");
            }
            text.push('.');
            text
        }
    }
}

fn seduce(level: Level) -> Option<String> {
    const ATTITUDES: [(Attitude, &str); 4] = [
        (Attitude::Friendly, "a friend"),
        (Attitude::Acquaintance, "an acquaintance"),
        (Attitude::Stranger, "a stranger"),
        (Attitude::Dislikes, "someone who dislikes them"),
    ];
    let won: Vec<&str> = ATTITUDES
        .iter()
        .filter(|(a, _)| seduce_needs(*a).is_some_and(|needs| level >= needs))
        .map(|(_, who)| *who)
        .collect();
    let last = won.last()?;
    Some(format!(
        "Seduce {}: enough for {last} or anyone warmer (never someone who hates them or is fighting them).",
        level.name()
    ))
}

fn weather(level: Level) -> Option<String> {
    let w = weather_sense(level);
    let mut told = Vec::new();
    if w.precipitation_kind {
        told.push("the kind of precipitation");
    }
    if w.wind {
        told.push("the wind");
    }
    if w.precipitation_amount {
        told.push("how much will fall");
    }
    (!told.is_empty()).then(|| {
        format!(
            "Weather Sense {}: over the next 12 hours, {}.",
            level.name(),
            told.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(kind: SkillKind, level: Level, rating: i32) -> Option<String> {
        line(&Checked {
            kind,
            level,
            rating,
            learned: Some(rating),
            d10: Some(7),
        })
    }

    #[test]
    #[allow(clippy::too_many_lines)] // one table, a row per threshold
    fn each_skill_line_at_both_sides_of_its_level() {
        use Level::{Black, Failure, Green, Red, Yellow};
        use SkillKind as K;
        // (skill, level, rating, a piece of the line; "" for no line). thiz-rulebook.md, chapter
        // 2, each skill's own text.
        let cases: &[(SkillKind, Level, i32, &str)] = &[
            // "Strength": 100 + 10 per point overhead, twice that from the ground, 90% slows.
            (
                K::Strength,
                Failure,
                0,
                "lifts 100 lb overhead, 200 lb from the ground; 180 lb",
            ),
            (
                K::Strength,
                Black,
                20,
                "lifts 300 lb overhead, 600 lb from the ground; 540 lb",
            ),
            (
                K::Strength,
                Green,
                -10,
                "lifts 0 lb overhead, 0 lb from the ground; 0 lb",
            ),
            // "Reflexes": Yellow or better goes first.
            (K::Reflexes, Green, 3, "end of the Initiative Pass"),
            (K::Reflexes, Yellow, 3, "goes before"),
            // "Tactics": +1 Green to +4 Black; nothing on a failure.
            (K::Tactics, Failure, 3, ""),
            (K::Tactics, Green, 3, "+1 on their next turn"),
            (K::Tactics, Black, 3, "+4 on their next turn"),
            // "Appraise": ±20% Green to exact on Black.
            (K::Appraise, Failure, 3, ""),
            (K::Appraise, Green, 3, "±20%"),
            (K::Appraise, Red, 3, "±5%"),
            (K::Appraise, Black, 3, "the exact value"),
            // "Forgery", "Stealth": points 0..4 toward a score, at most 6 checks.
            (K::Forgery, Failure, 3, "+0 to the Forgery Score"),
            (
                K::Forgery,
                Black,
                3,
                "+4 to the Forgery Score (one check per 4 hours of work, 6 at most)",
            ),
            (K::Stealth, Yellow, 3, "sneaks 2 walking moves"),
            (
                K::Stealth,
                Red,
                3,
                "+3 to the Hide Score (one check a minute, 6 at most)",
            ),
            // "Perception": finds when its points exceed the Hide Score.
            (K::Perception, Failure, 3, "finds nothing hidden"),
            (K::Perception, Green, 3, "Hide Score of 0 or less"),
            (K::Perception, Black, 3, "Hide Score of 3 or less"),
            (K::Scrutiny, Yellow, 3, "takes 2 off"),
            // "Lock-Picking": 60 s Green to 10 s Black; failures in a row.
            (
                K::LockPicking,
                Failure,
                3,
                "try the pin again; a 2nd failure in a row, every pin set so far drops; a 3rd, the pins drop and an alarm may sound",
            ),
            (K::LockPicking, Green, 3, "60 seconds"),
            (K::LockPicking, Black, 3, "10 seconds"),
            // "Acrobatics": the jump table.
            (K::Acrobatics, Failure, 3, ""),
            (
                K::Acrobatics,
                Green,
                3,
                "8 ft standing, 20 ft running; high jump 32 in standing, 60 in",
            ),
            (
                K::Acrobatics,
                Black,
                3,
                "11 ft standing, 26 ft running; high jump 38 in standing, 84 in",
            ),
            // "Throwing": 64..76 in for 16 lb, a quarter as an attack.
            (K::Throwing, Failure, 3, ""),
            (
                K::Throwing,
                Green,
                3,
                "flies 64 in (16 in as an improvised attack)",
            ),
            (K::Throwing, Black, 3, "flies 76 in (19 in"),
            // "Animal Handling": 1/4 of the speed on Green to twice on Black.
            (K::AnimalHandling, Failure, 3, ""),
            (K::AnimalHandling, Green, 3, "at 1/4 of its speed"),
            (K::AnimalHandling, Red, 3, "at 1 of its speed"),
            (K::AnimalHandling, Black, 3, "at 2 of its speed"),
            // "Fast Talk": 10 + 1d10 minutes, on a success only.
            (K::FastTalk, Failure, 3, ""),
            (K::FastTalk, Green, 3, "after 17 minutes (10 + d10 7)"),
            // "Magic Sense": 10 ft a point; Green 15 or any Magical rating, Black 1.
            (K::MagicSense, Failure, 4, "(within 40 ft): nothing is felt"),
            (
                K::MagicSense,
                Green,
                4,
                "is 15 or more, or who has any Magical rating",
            ),
            (K::MagicSense, Yellow, 4, "is 9 or more."),
            (
                K::MagicSense,
                Black,
                0,
                "(within 0 ft): feels anyone whose best Magic Skill is 1 or more.",
            ),
            // "Seduce": Green a friend up to Black someone who dislikes them.
            (K::Seduce, Failure, 3, ""),
            (K::Seduce, Green, 3, "enough for a friend or"),
            (K::Seduce, Red, 3, "enough for a stranger"),
            (K::Seduce, Black, 3, "enough for someone who dislikes them"),
            // "Tracking": 25% of normal speed a level.
            (K::Tracking, Failure, 3, ""),
            (K::Tracking, Green, 3, "at 25% of normal"),
            (K::Tracking, Black, 3, "at 100% of normal"),
            // "Weather Sense": Green the kind, Yellow the wind, Red the amount.
            (K::WeatherSense, Failure, 3, ""),
            (K::WeatherSense, Green, 3, "the kind of precipitation."),
            (
                K::WeatherSense,
                Yellow,
                3,
                "the kind of precipitation, the wind.",
            ),
            (K::WeatherSense, Red, 3, "the wind, how much will fall."),
            (K::Climbing, Black, 3, ""),
        ];
        for &(kind, level, rating, want) in cases {
            let got = at(kind, level, rating);
            if want.is_empty() {
                assert_eq!(got, None, "{kind:?} {level:?}");
            } else {
                let got = got.unwrap_or_default();
                assert!(got.contains(want), "{kind:?} {level:?}: {got}");
            }
        }
    }

    #[test]
    fn pilot_and_swimming_speak_only_when_untrained() {
        // thiz-rulebook.md, chapter 2 "Pilot" (a complicated vehicle needs the class) and
        // "Swimming" (above 0 to swim a distance).
        let of = |kind, learned| {
            line(&Checked {
                kind,
                level: Level::Green,
                rating: 2,
                learned,
                d10: None,
            })
        };
        assert!(
            of(SkillKind::Pilot, None)
                .unwrap()
                .contains("not call complicated")
        );
        assert_eq!(of(SkillKind::Pilot, Some(1)), None);
        for (learned, says) in [(None, true), (Some(0), true), (Some(1), false)] {
            assert_eq!(
                of(SkillKind::Swimming, learned).is_some(),
                says,
                "{learned:?}"
            );
        }
    }
}
