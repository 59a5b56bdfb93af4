//! The bounds of the injury rules ([`MAX_ST`]) and what they refuse ([`InjuryError`]).
//!
//! A leaf of the injury rules: [`super`] and its parts return it; it imports none of them.

/// The highest ST these tables accept; far above any creature in the books, and keeps the
/// arithmetic small.
pub const MAX_ST: i32 = 1000;

/// A number outside what the injury rules can use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InjuryError {
    #[error("ST must be between 1 and {MAX_ST}; you gave {0}")]
    St(i32),
    #[error("hits must be between 0 and 10000; you gave {0}")]
    Hits(i32),
    #[error("only a figure at 0 ST or below rolls for dying; this one has {0} ST left")]
    NotDying(i32),
    #[error("a figure can have at most 6 neighbours on the hex grid; you gave {0}")]
    Neighbours(u32),
    #[error("the modifier \"{0}\" was given twice or clashes with another")]
    HthModifierClash(&'static str),
}
