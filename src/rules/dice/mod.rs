//! Dice: where randomness enters the rules, and the bounded dice-expression language of `/roll`.
//!
//! Owns the [`DieSource`] seam (production, seeded and scripted sources) and [`expr`], the
//! parser and roller for expressions like `4d6kh3+2`. Never formats messages for players beyond
//! error text, and never creates a random generator of its own outside [`ThreadDice`].

mod source;

pub mod expr;

pub use source::{DieSource, ScriptedDice, SeededDice, ThreadDice};
