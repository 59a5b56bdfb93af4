//! Movement, travel and vehicles (THIZ rulebook, chapter 8, with the Marathon Runner, Weak
//! Constitution, Missing Limb, Celestial Guidance, Night-Blind and Street-Smarts texts).
//!
//! Owns the movement rate table and the vehicle rate table, fatigue limits, climbing, swimming
//! rates, long-distance travel, boats, and the vehicle rules (chases, near collisions, attacks
//! from and against vehicles, collision wounds, losing control). Returns feet, miles, minutes,
//! ratings and wound colours as [`crate::rules::thiz::Level`]s; applying wounds, Toughness soaks
//! and initiative belong to the combat and wounds modules. Must never do I/O nor roll through
//! anything but the [`crate::rules::dice::DieSource`] it is given.

pub mod climbing;
pub mod fatigue;
pub mod rates;
pub mod travel;
pub mod vehicles;

pub use climbing::{Climb, climb, climb_checkpoints, climb_rate_feet};
pub use fatigue::{Endurance, jog_endurance, sprint_endurance, swim_jog_endurance};
pub use rates::{Gait, Hindrance, MOVEMENT_RATES, Rate, movement_rate, movement_rating};
pub use travel::{Load, Miles, Terrain, TravelDay, daily_miles, travel_day};
pub use vehicles::{SpeedCategory, VEHICLE_RATES, VehicleScale, vehicle_rate};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    #[test]
    fn extreme_numbers_do_not_overflow() {
        // Ratings come from players; absurd ones must give an answer, not a crash.
        for n in [i32::MIN, -1000, 1000, i32::MAX] {
            assert!(movement_rate(n, Gait::Crawl).is_some());
            assert!(jog_endurance(n, n, true).total <= fatigue::MAX_JOG_HOURS);
            assert!(sprint_endurance(n, n, true, true).total >= 1);
            let _ = climb_rate_feet(n);
            let _ = travel_day(n, n, Load::Rider, Terrain::Mountains, u32::MAX);
            let _ = vehicles::pilot_rating(n, n, SpeedCategory::FlatOut);
            let _ = vehicles::crash_rating(n, -n.saturating_add(1), n);
            let hit = vehicles::Collision::HeadOn {
                first_speed: n,
                second_speed: n,
            };
            let mut dice = ScriptedDice::new([50]);
            let _ = vehicles::collide(hit, &mut dice);
            assert!(vehicle_rate(n, VehicleScale::Spacecraft).is_ok() || n > 53);
        }
        let far = travel_day(i32::MAX, 0, Load::Unladen, Terrain::Open, 0);
        assert!(far.total > Miles::whole(1000));
    }
}
