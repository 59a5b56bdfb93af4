//! Travel over days: the daily march, loads on animals, terrain and fords, boats, commanding
//! animals, and the quirks and weaknesses that touch finding the way.

use thiserror::Error;

use crate::rules::dice::DieSource;
use crate::rules::thiz::Rating;
use crate::rules::thiz::hazards::ChartRoll;

/// A distance in miles, kept exactly in 72nds of a mile so the halves and thirds of
/// travel never round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Miles {
    pub seventy_seconds: u32,
}

impl Miles {
    /// Whole miles.
    pub fn whole(miles: u32) -> Miles {
        Miles {
            seventy_seconds: miles.saturating_mul(72),
        }
    }

    /// The distance as a decimal, for display.
    pub fn as_f64(self) -> f64 {
        f64::from(self.seventy_seconds) / 72.0
    }

    fn times(self, num: u32, den: u32) -> Miles {
        // Exact for every chain used here: a base of whole half-miles (36 72nds) takes at most one
        // load factor (2/3 or 1/2) and one terrain factor (1/2 or 2/3).
        Miles {
            seventy_seconds: self.seventy_seconds.saturating_mul(num) / den,
        }
    }
}

/// Everyone marches this many miles a day, plus half their rating.
pub const BASE_DAILY_MILES: i32 = 15;
/// Each river forded costs half a mile of the day.
pub const FORD_COST: Miles = Miles {
    seventy_seconds: 36,
};

/// The day's march before anything slows it: 15 + half the better of Speed and General Physical
/// (animals may have ratings above 30).
// Decision: the half point is kept (a rating of 7 marches 18.5 miles); a rating of -30 or lower
// marches nothing rather than a negative distance.
pub fn daily_miles(speed: i32, general_physical: i32) -> Miles {
    let halves = (2 * BASE_DAILY_MILES)
        .saturating_add(speed.max(general_physical))
        .max(0) as u32;
    Miles {
        seventy_seconds: halves.saturating_mul(36),
    }
}

/// What the traveller carries or pulls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Load {
    #[default]
    Unladen,
    /// An animal carrying a rider: two thirds of the distance.
    Rider,
    /// An animal pulling a vehicle: half the distance.
    Vehicle,
}

/// The country crossed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Terrain {
    #[default]
    Open,
    /// Desert: the distance is halved.
    Desert,
    /// Mountains: a third of the distance is lost.
    Mountains,
}

/// A day's travel, step by step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TravelDay {
    pub base: Miles,
    pub after_load: Miles,
    pub after_terrain: Miles,
    pub fords: u32,
    pub total: Miles,
}

/// The miles covered in a day: the march, cut for a rider or a vehicle, then for terrain, less
/// half a mile per river forded (never below zero).
// Decision: the rulebook calls the mountain figure a "reduction" of 1/3, so mountains keep two
// thirds (the desert's 1/2 is the same either way). Load applies before terrain and fords last.
pub fn travel_day(
    speed: i32,
    general_physical: i32,
    load: Load,
    terrain: Terrain,
    fords: u32,
) -> TravelDay {
    let base = daily_miles(speed, general_physical);
    let after_load = match load {
        Load::Unladen => base,
        Load::Rider => base.times(2, 3),
        Load::Vehicle => base.times(1, 2),
    };
    let after_terrain = match terrain {
        Terrain::Open => after_load,
        Terrain::Desert => after_load.times(1, 2),
        Terrain::Mountains => after_load.times(2, 3),
    };
    let total = Miles {
        seventy_seconds: after_terrain
            .seventy_seconds
            .saturating_sub(FORD_COST.seventy_seconds.saturating_mul(fords)),
    };
    TravelDay {
        base,
        after_load,
        after_terrain,
        fords,
        total,
    }
}

/// A kind of boat and the miles a day the rulebook gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoatKind {
    pub name: &'static str,
    /// The printed figures, lowest first (the most is the last).
    pub miles_per_day: &'static [u32],
}

/// Boats and ships of chapter 8, slowest first. Sailing is "up to" 30 on good winds; powered
/// craft go 80, 100 or more as the referee allows.
pub const BOATS: [BoatKind; 4] = [
    BoatKind {
        name: "rowed boat",
        miles_per_day: &[10],
    },
    BoatKind {
        name: "sailing boat on good winds",
        miles_per_day: &[30],
    },
    BoatKind {
        name: "larger ship",
        miles_per_day: &[50, 65],
    },
    BoatKind {
        name: "powered ship",
        miles_per_day: &[80, 100],
    },
];

/// A command to an animal to move or act out of the ordinary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnimalCommand {
    pub check: ChartRoll,
    /// Any success: the animal complies.
    pub obeys: bool,
}

/// Check Animal Handling (or General Mental, whichever is better) to make an animal obey.
pub fn command_animal(
    animal_handling: i32,
    general_mental: i32,
    dice: &mut impl DieSource,
) -> AnimalCommand {
    let check = ChartRoll::roll(Rating(animal_handling.max(general_mental)), dice);
    AnimalCommand {
        check,
        obeys: check.level.is_success(),
    }
}

/// Day or night.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeOfDay {
    Day,
    Night,
}

/// Why a character cannot navigate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum TravelError {
    #[error("a Night-Blind character cannot navigate at night")]
    NightBlind,
}

/// The Celestial Guidance bonus to Navigation.
pub const CELESTIAL_GUIDANCE_BONUS: i32 = 3;
/// The Street-Smarts bonus to Perception in a city.
pub const STREET_SMARTS_BONUS: i32 = 3;

/// The modifier to a Navigation check from quirks and weaknesses: +3 with Celestial Guidance
/// for the chosen time when the sky can be seen; a Night-Blind character cannot navigate at night.
pub fn navigation_modifier(
    time: TimeOfDay,
    sky_visible: bool,
    celestial_guidance: Option<TimeOfDay>,
    night_blind: bool,
) -> Result<i32, TravelError> {
    if night_blind && time == TimeOfDay::Night {
        return Err(TravelError::NightBlind);
    }
    Ok(if sky_visible && celestial_guidance == Some(time) {
        CELESTIAL_GUIDANCE_BONUS
    } else {
        0
    })
}

/// The Street-Smarts modifier to a Perception check: +3 in a city.
pub fn street_smarts_modifier(street_smarts: bool, in_city: bool) -> i32 {
    if street_smarts && in_city {
        STREET_SMARTS_BONUS
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    fn halves(n: u32) -> Miles {
        Miles {
            seventy_seconds: n * 36,
        }
    }

    #[test]
    fn daily_march_is_fifteen_plus_half_the_rating() {
        // thiz-rulebook.md, "Long-Distance Travel": 15 + 1/2 Speed or General Physical miles.
        assert_eq!(daily_miles(0, 0), Miles::whole(15));
        assert_eq!(daily_miles(7, 2), halves(37));
        assert_eq!(daily_miles(2, 10), Miles::whole(20));
        assert_eq!(daily_miles(40, 0), Miles::whole(35)); // a fast animal
        assert_eq!(daily_miles(-4, -9), Miles::whole(13));
        assert_eq!(daily_miles(-30, -30), Miles::whole(0));
        assert_eq!(daily_miles(-40, -40), Miles::whole(0));
    }

    #[test]
    fn loads_terrain_and_fords() {
        // thiz-rulebook.md, "Long-Distance Travel": rider 2/3, vehicle 1/2, desert 1/2,
        // mountains lose 1/3, half a mile per river.
        let day = travel_day(6, 0, Load::Unladen, Terrain::Open, 0);
        assert_eq!(day.total, Miles::whole(18));
        let day = travel_day(6, 0, Load::Rider, Terrain::Open, 0);
        assert_eq!(day.total, Miles::whole(12));
        let day = travel_day(6, 0, Load::Vehicle, Terrain::Desert, 1);
        assert_eq!(day.after_load, Miles::whole(9));
        assert_eq!(day.after_terrain, halves(9));
        assert_eq!(day.total, Miles::whole(4));
        let day = travel_day(6, 0, Load::Rider, Terrain::Mountains, 2);
        assert_eq!(day.after_terrain, Miles::whole(8));
        assert_eq!(day.total, Miles::whole(7));
        let day = travel_day(0, 0, Load::Unladen, Terrain::Open, 31);
        assert_eq!(day.total, Miles::whole(0));
        let day = travel_day(0, 0, Load::Unladen, Terrain::Open, 30);
        assert_eq!(day.total, Miles::whole(0));
        let day = travel_day(0, 0, Load::Unladen, Terrain::Open, 29);
        assert_eq!(day.total, halves(1));
        assert!((day.total.as_f64() - 0.5).abs() < 1e-9);
    }

    #[test]
    fn travel_fractions_never_round() {
        // Every load and terrain over a wide range of ratings: each step is an exact fraction of
        // the one before (so 72nds of a mile are fine enough).
        for rating in -40..=80 {
            for load in [Load::Unladen, Load::Rider, Load::Vehicle] {
                for terrain in [Terrain::Open, Terrain::Desert, Terrain::Mountains] {
                    let day = travel_day(rating, rating, load, terrain, 0);
                    let (ln, ld) = match load {
                        Load::Unladen => (1, 1),
                        Load::Rider => (2, 3),
                        Load::Vehicle => (1, 2),
                    };
                    let (tn, td) = match terrain {
                        Terrain::Open => (1, 1),
                        Terrain::Desert => (1, 2),
                        Terrain::Mountains => (2, 3),
                    };
                    assert_eq!(
                        day.after_load.seventy_seconds * ld,
                        day.base.seventy_seconds * ln
                    );
                    assert_eq!(
                        day.after_terrain.seventy_seconds * td,
                        day.after_load.seventy_seconds * tn
                    );
                }
            }
        }
    }

    #[test]
    fn boats_are_ordered() {
        // thiz-rulebook.md, "Boats": 10 rowed, up to 30 sailing, 50 or 65 large, 80/100 powered.
        let all: Vec<u32> = BOATS
            .iter()
            .flat_map(|b| b.miles_per_day.iter().copied())
            .collect();
        assert_eq!(all, [10, 30, 50, 65, 80, 100]);
        assert!(all.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn animals_obey_on_any_success() {
        // thiz-rulebook.md, "Animals": any level of success and the animal complies.
        let mut dice = ScriptedDice::new([60, 61]);
        let yes = command_animal(2, 1, &mut dice);
        assert_eq!(yes.check.rating, Rating(2));
        assert!(yes.obeys);
        assert!(!command_animal(2, 1, &mut dice).obeys);
    }

    #[test]
    fn navigation_and_perception_quirks() {
        // thiz-rulebook.md, "Celestial Guidance": +3 in the chosen period with the sky visible;
        // "Night-Blind": no Navigation at night; "Street-Smarts": +3 Perception in a city.
        use TimeOfDay::{Day, Night};
        assert_eq!(navigation_modifier(Night, true, Some(Night), false), Ok(3));
        assert_eq!(navigation_modifier(Night, false, Some(Night), false), Ok(0));
        assert_eq!(navigation_modifier(Day, true, Some(Night), false), Ok(0));
        assert_eq!(navigation_modifier(Day, true, Some(Day), true), Ok(3));
        assert_eq!(
            navigation_modifier(Night, true, Some(Night), true),
            Err(TravelError::NightBlind)
        );
        assert_eq!(street_smarts_modifier(true, true), 3);
        assert_eq!(street_smarts_modifier(true, false), 0);
        assert_eq!(street_smarts_modifier(false, true), 0);
    }
}
