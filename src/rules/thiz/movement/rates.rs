//! The Movement Rate table: how far a character crawls, walks, jogs or sprints, per combat turn
//! and per minute, by the better of Speed and General Physical.

// Missing Limb's Speed is one rule for moving and for fighting; combat owns the number.
use crate::rules::thiz::combat::MISSING_LEG_SPEED;

/// A way of moving on foot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gait {
    Crawl,
    Walk,
    Jog,
    Sprint,
}

impl Gait {
    /// All gaits, slowest first.
    pub const ALL: [Gait; 4] = [Gait::Crawl, Gait::Walk, Gait::Jog, Gait::Sprint];
}

/// A rate of movement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    /// Feet per combat turn (5 seconds).
    pub per_turn: u32,
    /// Feet per minute.
    pub per_minute: u32,
}

// A filled table cell; the Option is the cell's type (an empty cell is written `None`).
#[allow(clippy::unnecessary_wraps)]
const fn r(per_turn: u32, per_minute: u32) -> Option<Rate> {
    Some(Rate {
        per_turn,
        per_minute,
    })
}

/// One row of the table: the ratings it covers and each gait's rate (`None` where the gait is
/// not possible).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateBand {
    pub min: i32,
    pub max: i32,
    pub crawl: Option<Rate>,
    pub walk: Option<Rate>,
    pub jog: Option<Rate>,
    pub sprint: Option<Rate>,
}

impl RateBand {
    /// The rate of one gait in this band.
    pub fn gait(&self, gait: Gait) -> Option<Rate> {
        match gait {
            Gait::Crawl => self.crawl,
            Gait::Walk => self.walk,
            Gait::Jog => self.jog,
            Gait::Sprint => self.sprint,
        }
    }
}

const fn band(
    min: i32,
    max: i32,
    crawl: Option<Rate>,
    walk: Option<Rate>,
    jog: Option<Rate>,
    sprint: Option<Rate>,
) -> RateBand {
    RateBand {
        min,
        max,
        crawl,
        walk,
        jog,
        sprint,
    }
}

/// The Movement Rate Table of chapter 8, slowest band first. The first band reaches down to any
/// rating and the last up to any.
pub const MOVEMENT_RATES: [RateBand; 13] = [
    band(i32::MIN, -10, r(1, 10), None, None, None),
    band(-9, -5, r(2, 25), r(5, 60), None, None),
    band(-4, -3, r(2, 25), r(10, 120), r(20, 250), None),
    band(-2, 0, r(3, 35), r(20, 250), r(25, 300), r(55, 650)),
    band(1, 3, r(5, 60), r(20, 250), r(30, 350), r(60, 750)),
    band(4, 6, r(5, 60), r(20, 250), r(40, 500), r(65, 800)),
    band(7, 10, r(5, 60), r(25, 300), r(40, 500), r(70, 850)),
    band(11, 13, r(10, 120), r(25, 300), r(40, 500), r(75, 900)),
    band(14, 17, r(10, 120), r(25, 300), r(40, 500), r(80, 950)),
    band(18, 21, r(10, 120), r(25, 300), r(45, 550), r(85, 1000)),
    band(22, 25, r(15, 180), r(25, 300), r(45, 550), r(85, 1000)),
    band(26, 29, r(15, 180), r(30, 350), r(45, 550), r(90, 1050)),
    band(
        30,
        i32::MAX,
        r(15, 180),
        r(30, 350),
        r(50, 600),
        r(95, 1150),
    ),
];

/// The table row for a movement rating.
pub fn rate_band(rating: i32) -> &'static RateBand {
    // The bands cover every i32 (tested), so the search always finds one; the fallback is the
    // fastest band only to avoid a panic path.
    MOVEMENT_RATES
        .iter()
        .find(|b| (b.min..=b.max).contains(&rating))
        .unwrap_or(&MOVEMENT_RATES[MOVEMENT_RATES.len() - 1])
}

/// How fast a character moves in `gait` at movement rating `rating`; `None` when that gait is
/// beyond them.
pub fn movement_rate(rating: i32, gait: Gait) -> Option<Rate> {
    rate_band(rating).gait(gait)
}

/// Something that overrides a character's movement rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Hindrance {
    #[default]
    None,
    /// Carrying or lifting 90% or more of the maximum load: moves as Speed 0 (chapter 2,
    /// Strength), for as long as they could sprint.
    HeavyLoad,
    /// Missing a leg with no working prosthetic: Speed -2 whatever the skill (Missing Limb).
    MissingLeg,
}

/// Speed 0 under a heavy load.
pub const HEAVY_LOAD_RATING: i32 = 0;

/// The movement rating: the better of Speed and General Physical, unless a hindrance fixes it.
// Decision: "considered to have a Speed of -2 (or 0)" replaces the whole rating, so a good
// General Physical does not lift a one-legged or overloaded character back up.
pub fn movement_rating(speed: i32, general_physical: i32, hindrance: Hindrance) -> i32 {
    match hindrance {
        Hindrance::None => speed.max(general_physical),
        Hindrance::HeavyLoad => HEAVY_LOAD_RATING,
        Hindrance::MissingLeg => MISSING_LEG_SPEED,
    }
}

/// An animal's rate: particularly fast animals read the table in yards instead of feet, which
/// this returns converted to feet.
pub fn animal_rate(rating: i32, gait: Gait, fast_animal: bool) -> Option<Rate> {
    let factor = if fast_animal { 3 } else { 1 };
    movement_rate(rating, gait).map(|rate| Rate {
        per_turn: rate.per_turn * factor,
        per_minute: rate.per_minute * factor,
    })
}

/// A swimmer's rate: the walking rate, or the jogging rate for a short while; only for
/// characters with a Swimming rating above 0 (the rest tread water).
// Decision: the rulebook gives swimmers only walking and jogging paces, so crawling and
// sprinting in water have no rate.
pub fn swim_rate(swimming: i32, movement_rating: i32, gait: Gait) -> Option<Rate> {
    if swimming <= 0 {
        return None;
    }
    match gait {
        Gait::Walk | Gait::Jog => movement_rate(movement_rating, gait),
        Gait::Crawl | Gait::Sprint => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_bands_are_contiguous_and_cover_every_rating() {
        // thiz-rulebook.md, "Movement Rate Table": "-10 or less" up to "30+".
        assert_eq!(MOVEMENT_RATES[0].min, i32::MIN);
        assert_eq!(MOVEMENT_RATES[12].max, i32::MAX);
        for pair in MOVEMENT_RATES.windows(2) {
            assert_eq!(pair[0].max + 1, pair[1].min);
        }
    }

    #[test]
    fn table_rates_never_fall_as_rating_rises() {
        for gait in Gait::ALL {
            let mut prev: Option<Rate> = None;
            for band in MOVEMENT_RATES {
                let rate = band.gait(gait);
                if let (Some(p), Some(c)) = (prev, rate) {
                    assert!(c.per_turn >= p.per_turn && c.per_minute >= p.per_minute);
                }
                assert!(prev.is_none() || rate.is_some(), "{gait:?} reappears");
                prev = rate.or(prev);
            }
        }
    }

    #[test]
    fn printed_cells_at_band_edges() {
        // thiz-rulebook.md, "Movement Rate Table": both edges of several bands.
        let cases = [
            (-10, Gait::Crawl, r(1, 10)),
            (-10, Gait::Walk, None),
            (-9, Gait::Walk, r(5, 60)),
            (-5, Gait::Jog, None),
            (-4, Gait::Jog, r(20, 250)),
            (-3, Gait::Sprint, None),
            (-2, Gait::Sprint, r(55, 650)),
            (0, Gait::Crawl, r(3, 35)),
            (1, Gait::Crawl, r(5, 60)),
            (3, Gait::Jog, r(30, 350)),
            (4, Gait::Jog, r(40, 500)),
            (10, Gait::Sprint, r(70, 850)),
            (11, Gait::Sprint, r(75, 900)),
            (17, Gait::Jog, r(40, 500)),
            (18, Gait::Jog, r(45, 550)),
            (21, Gait::Crawl, r(10, 120)),
            (22, Gait::Crawl, r(15, 180)),
            (25, Gait::Walk, r(25, 300)),
            (26, Gait::Walk, r(30, 350)),
            (29, Gait::Jog, r(45, 550)),
            (30, Gait::Jog, r(50, 600)),
            (45, Gait::Sprint, r(95, 1150)),
        ];
        for (rating, gait, want) in cases {
            assert_eq!(movement_rate(rating, gait), want, "{rating} {gait:?}");
        }
    }

    #[test]
    fn movement_rating_takes_the_better_unless_hindered() {
        // thiz-rulebook.md, "Movement Rate Table": the higher of Speed and General Physical;
        // "Missing Limb": Speed -2; "Strength": 90% load moves as Speed 0.
        assert_eq!(movement_rating(3, 5, Hindrance::None), 5);
        assert_eq!(movement_rating(6, 5, Hindrance::None), 6);
        assert_eq!(movement_rating(12, 5, Hindrance::MissingLeg), -2);
        assert_eq!(movement_rating(12, 5, Hindrance::HeavyLoad), 0);
    }

    #[test]
    fn fast_animals_read_yards_and_swimmers_need_training() {
        // thiz-rulebook.md, "Animals" (movement): yards for particularly fast animals;
        // "Swimming": walking rate, jogging rate, only with the Swimming skill.
        assert_eq!(animal_rate(30, Gait::Sprint, true), r(285, 3450));
        assert_eq!(animal_rate(30, Gait::Sprint, false), r(95, 1150));
        assert_eq!(swim_rate(0, 5, Gait::Walk), None);
        assert_eq!(swim_rate(1, 5, Gait::Walk), r(20, 250));
        assert_eq!(swim_rate(1, 5, Gait::Jog), r(40, 500));
        assert_eq!(swim_rate(1, 5, Gait::Sprint), None);
    }
}
