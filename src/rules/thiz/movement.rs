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
pub use travel::{Load, Miles, Terrain, TravelDay, travel_day};
pub use vehicles::{SpeedCategory, VEHICLE_RATES, VehicleScale, vehicle_rate};
