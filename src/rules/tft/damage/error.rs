//! What the damage rules refuse ([`DamageError`]).
//!
//! A leaf of the damage rules: [`super`] and [`super::shield`] return it; it imports neither.

use crate::rules::tft::Dice;
use crate::rules::tft::gear::GearError;
use crate::rules::tft::injury::{InjuryError, MAX_ST};

/// Something about a blow the damage rules cannot work with.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DamageError {
    #[error(transparent)]
    Gear(#[from] GearError),
    #[error(transparent)]
    Injury(#[from] InjuryError),
    #[error("ST must be between 1 and {MAX_ST}; you gave {0}")]
    St(i32),
    #[error("a {weapon} needs ST {needs}; this attacker has ST {st}")]
    TooWeak {
        weapon: &'static str,
        needs: i32,
        st: i32,
    },
    #[error("a {0} does no damage dice of its own; see its description")]
    NoDice(&'static str),
    #[error("a pike is too clumsy to charge with; it can only receive a charge")]
    PikeCannotCharge,
    #[error("parrying or defending with a shield needs a shield")]
    NeedsShield,
    #[error("a figure can have at most 6 neighbours on the hex grid; you gave {0}")]
    Neighbours(u32),
    #[error("natural armor must be between 0 and 100; you gave {0}")]
    Natural(i32),
    #[error("dice must be 1 to 100 with adds within ±1000; you gave {0}")]
    Dice(Dice),
}
