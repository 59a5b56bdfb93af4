//! THIZ, the d100 resolution-chart system: every part of the rulebook that is a calculation or a roll.
//!
//! Owns the resolution chart ([`chart`]), body locations ([`body`]), skills and ratings, creation
//! rules, weaknesses and quirks, luck, checks and their exact odds, combat, wounds and recovery,
//! magic, movement, hazards, advancement and crafting. Pure: takes numbers and a
//! [`crate::rules::dice::DieSource`], returns outcomes; the ambiguities of the rulebook are decided
//! as `rules/README.md` (of the shared folder) records, each named where it is coded.

pub mod advancement;
pub mod bars;
pub mod body;
pub mod chart;
pub mod check;
pub mod combat;
pub mod creation;
pub mod hazards;
pub mod luck;
pub mod magic;
pub mod movement;
pub mod odds;
pub mod skills;
pub mod traits;
pub mod wounds;

pub use body::Location;
pub use chart::{Level, Rating, resolve};
