//! Wounds and recovery: the per-location wound sheet, the Toughness check against a hit, dying and
//! stabilising, daily healing and Surgery.
//!
//! Owns the THIZ rulebook's chapter 6 sections "Damage" and "Recovering from Damage", the random
//! body-location table of "Attack" (used by missiles, burst fire, blind attacks and healing order),
//! and the wound penalties decided in rules/README.md ("Wound penalties"). Spending luck to lower a
//! wound belongs to the luck module; this one only offers [`WoundSheet::lower`] for it to call.
//!
//! Must never do I/O, format messages, or read a character sheet: callers pass ratings (already
//! adjusted for anything outside this module, such as quirks) and a [`WoundSheet`], and every
//! roll comes through a [`crate::rules::dice::DieSource`].

mod damage;
mod dying;
mod limbs;
mod locations;
mod recovery;
mod sheet;

pub use damage::{HitOutcome, ToughnessCheck, resist_hit, take_hit, wound_from_hit};
pub use dying::{
    Condition, DamageKind, DyingCheck, DyingOutcome, FirstAid, Incapacitation,
    TRIAGE_SPECIALIST_BONUS, condition_after, current_condition, dying_check, first_aid,
    incapacitation,
};
pub use limbs::{ArmUse, LimbError, ONE_ARM_SKILLS, TWO_ARM_SKILLS, arm_penalty, arm_use};
pub use locations::{LocationRoll, MISSILE_LOCATIONS, location_for_roll, random_location};
pub use recovery::{
    HEALING_PRIORITY, MAX_EXTREMITY_ROLLS, MAX_REST_DAYS, RestDay, RestOutcome, Surgery,
    SurgeryDay, rest, rest_day, surgery,
};
pub use sheet::{
    AddedWound, LocationStatus, LocationWounds, WOUND_PENALTIES, WoundEffects, WoundSheet,
    penalty_for,
};

use crate::rules::thiz::{Level, Location};

/// What a player can get wrong when recording or healing wounds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WoundError {
    /// Failure is no wound colour.
    #[error("a wound is Green, Yellow, Red or Black; {0} is not a wound")]
    NotAWound(Level),
    /// The location has no wound of that colour to heal or lower.
    #[error("the {location} has no {level} wound")]
    NoSuchWound { location: Location, level: Level },
    /// A rating outside the range the bot accepts.
    #[error("{what} must be between -40 and 40; you gave {value}")]
    RatingOutOfRange { what: &'static str, value: i32 },
    /// Too many days of rest asked for at once.
    #[error("rest lasts 1 to {max} days at a time; you asked for {days}")]
    DaysOutOfRange { days: u32, max: u32 },
    /// A location already treated by Surgery today.
    #[error("the {0} has already been treated by Surgery today")]
    AlreadyTreated(Location),
}

/// The largest rating (in size) a player may enter.
pub const RATING_LIMIT: i32 = 40;

/// Checks that a rating entered by a player is within ±[`RATING_LIMIT`].
pub(crate) fn check_rating(what: &'static str, value: i32) -> Result<i32, WoundError> {
    if (-RATING_LIMIT..=RATING_LIMIT).contains(&value) {
        Ok(value)
    } else {
        Err(WoundError::RatingOutOfRange { what, value })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_are_accepted_inside_forty_and_refused_outside() {
        for (value, ok) in [
            (-41, false),
            (-40, true),
            (0, true),
            (40, true),
            (41, false),
        ] {
            assert_eq!(check_rating("Toughness", value).is_ok(), ok, "{value}");
        }
        let err = check_rating("Toughness", 99).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Toughness must be between -40 and 40; you gave 99"
        );
    }
}
