//! Fatigue: how long a character can jog, sprint, swim fast or haul a heavy load, and the rest
//! that follows.

/// Nobody jogs more than this many hours in a day, Marathon Runner or not.
pub const MAX_JOG_HOURS: u32 = 16;
/// The Marathon Runner quirk: three more hours of jogging, three more minutes of sprinting.
pub const MARATHON_BONUS: u32 = 3;
/// Weak Constitution sprints as if Toughness were this much lower.
pub const WEAK_CONSTITUTION_SPRINT_PENALTY: i32 = 3;
/// Rest after jogging the full allowance, in minutes.
pub const JOG_REST_MINUTES: u32 = 60;
/// Rest after sprinting (or hauling a heavy load) the full allowance, in minutes.
pub const SPRINT_REST_MINUTES: u32 = 30;
/// Sleep needed once the jogging allowance has been exceeded, in hours.
pub const SLEEP_HOURS: u32 = 8;

/// How long a character can keep a pace up, step by step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Endurance {
    /// The rating used: the better of Toughness (adjusted) and General Physical.
    pub rating: i32,
    /// What the rating allows alone (at least 1).
    pub base: u32,
    /// Marathon Runner's extra (0 or 3).
    pub marathon_bonus: u32,
    /// The allowance, in hours for jogging and minutes for sprinting or swimming.
    pub total: u32,
    /// Rest due after using it all, in minutes.
    pub rest_minutes: u32,
}

/// What a rating allows: its value, and at least 1 even at zero or below.
// Decision: the rulebook gives 1 for a rating of zero; a negative rating allows no less.
fn allowance(rating: i32) -> u32 {
    rating.max(1) as u32
}

/// Hours of jogging a day: Toughness or General Physical (at least 1), +3 for Marathon Runner,
/// at most 16. Then an hour's rest; beyond it, no jogging until 8 hours' sleep.
pub fn jog_endurance(toughness: i32, general_physical: i32, marathon_runner: bool) -> Endurance {
    let rating = toughness.max(general_physical);
    let base = allowance(rating);
    let marathon_bonus = if marathon_runner { MARATHON_BONUS } else { 0 };
    Endurance {
        rating,
        base,
        marathon_bonus,
        total: base.saturating_add(marathon_bonus).min(MAX_JOG_HOURS),
        rest_minutes: JOG_REST_MINUTES,
    }
}

/// Minutes of sprinting: Toughness (3 lower with Weak Constitution) or General Physical, at
/// least 1, +3 for Marathon Runner. Then 30 minutes' rest. Hauling 90% of one's maximum load
/// lasts as long.
// Decision: Weak Constitution lowers Toughness only, so a better General Physical still counts.
pub fn sprint_endurance(
    toughness: i32,
    general_physical: i32,
    marathon_runner: bool,
    weak_constitution: bool,
) -> Endurance {
    let toughness = if weak_constitution {
        toughness.saturating_sub(WEAK_CONSTITUTION_SPRINT_PENALTY)
    } else {
        toughness
    };
    let rating = toughness.max(general_physical);
    let base = allowance(rating);
    let marathon_bonus = if marathon_runner { MARATHON_BONUS } else { 0 };
    Endurance {
        rating,
        base,
        marathon_bonus,
        total: base.saturating_add(marathon_bonus),
        rest_minutes: SPRINT_REST_MINUTES,
    }
}

/// Minutes a trained swimmer can swim at jogging pace: Toughness or General Physical.
// Decision: Marathon Runner names jogging and sprinting only, so it does not lengthen swims;
// the rulebook names no rest, so none is set here.
pub fn swim_jog_endurance(toughness: i32, general_physical: i32) -> Endurance {
    let rating = toughness.max(general_physical);
    let base = allowance(rating);
    Endurance {
        rating,
        base,
        marathon_bonus: 0,
        total: base,
        rest_minutes: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jogging_hours() {
        // thiz-rulebook.md, "Jogging": Toughness or General Physical hours, 1 at zero, at most
        // 16; "Marathon Runner": three more, still at most 16.
        let cases = [
            (0, 0, false, 1),
            (-3, -1, false, 1),
            (1, 0, false, 1),
            (2, 5, false, 5),
            (15, 0, false, 15),
            (16, 0, false, 16),
            (17, 0, false, 16),
            (0, 0, true, 4),
            (10, 0, true, 13),
            (12, 0, true, 15),
            (13, 0, true, 16),
            (14, 0, true, 16),
        ];
        for (t, p, m, hours) in cases {
            assert_eq!(
                jog_endurance(t, p, m).total,
                hours,
                "T{t} P{p} marathon {m}"
            );
        }
        assert_eq!(jog_endurance(3, 0, false).rest_minutes, 60);
    }

    #[test]
    fn sprinting_minutes() {
        // thiz-rulebook.md, "Sprinting": Toughness or General Physical minutes, 1 at zero, then
        // 30 minutes' rest; "Marathon Runner" +3; "Weak Constitution" Toughness 3 lower.
        let cases = [
            (0, 0, false, false, 1),
            (6, 2, false, false, 6),
            (6, 2, true, false, 9),
            (6, 2, false, true, 3),
            (6, 4, false, true, 4),
            (3, 0, false, true, 1),
            (5, 0, false, true, 2),
            (6, 2, true, true, 6),
            (20, 0, false, false, 20),
        ];
        for (t, p, m, w, minutes) in cases {
            let e = sprint_endurance(t, p, m, w);
            assert_eq!(e.total, minutes, "T{t} P{p} marathon {m} weak {w}");
            assert_eq!(e.rest_minutes, 30);
        }
    }

    #[test]
    fn swimming_at_jogging_pace() {
        // thiz-rulebook.md, "Swimming": jogging speed for Toughness or General Physical minutes.
        assert_eq!(swim_jog_endurance(4, 2).total, 4);
        assert_eq!(swim_jog_endurance(0, 0).total, 1);
    }
}
