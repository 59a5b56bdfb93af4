//! The bounded dice language of `/roll`: parsing, limits, rolling, exact distributions.
//!
//! A small room per step, as Avrae's d20 keeps it: [`tree`] is the parsed message and its
//! canonical spelling ("read as"); `parse` reads text into it, checking every bound while it
//! reads; `roll` rolls the tree into an [`Outcome`]; `dist` is one more reader of the same
//! tree, giving the exact distribution of a roll's total. `alias` knows the system aliases
//! players type (`dndstats`, `4cod`, `+d20`).
//!
//! Must never format Discord messages (the `app` layer renders an [`Outcome`]), never create a
//! random generator (dice come in as `&mut impl DieSource`), and never panic or allocate in
//! proportion to untrusted input: the length is checked before anything else, and every count is
//! checked against [`Limits`] while it is read.
//!
//! # Grammar
//!
//! ```text
//! message   = roll { ";" roll }
//! roll      = ws { flag ws } [ "(" label ")" ws ] [ repeat ws ] value [ ws "!" comment ]
//! flag      = "s" | "nr" | "p" | "ul"
//! value     = compare
//! compare   = sum { ("==" | "!=" | ">=" | "<=" | ">" | "<") sum }
//! sum       = product { ("+" | "-") product }
//! product   = unary { ("*" | "/" | "//" | "%") unary }
//! unary     = ("-" | "+") unary | atom { "[" note "]" }
//! atom      = dice | number | alias | "(" value ")" | set
//! set       = "(" [ value { "," value } [","] ] ")" { setop }
//! dice      = [number] "d" (number | "%" | "F") { [ws] op }
//! op        = ("k" | "p" | "d") selector          keep / drop
//!           | ("r" | "ro" | "rr" | "ir" | "ra") selector     reroll once / until / and add
//!           | ("e" | "ie") [selector] | "!"      explode
//!           | ("mi" | "ma") number               minimum / maximum per die
//!           | ("t" | "tl" | "f") selector        successes / failures
//!           | "ds" selector                      double successes
//!           | ("i" | "b") [selector]             implode / count botches
//!           | "c"                                highest faces cancel failures
//!           | ("adv" | "dis") [number]           advantage / disadvantage
//! selector  = ["h" | "l" | "m" | "<" | ">"] number
//! ```
//!
//! Letters are case-insensitive. The decisions on spellings the references read differently are
//! written beside the parser (`parse.rs`).

mod alias;
mod dist;
mod parse;
mod pool;
mod roll;
#[cfg(test)]
mod tests;
mod tree;

use std::fmt;

pub use dist::{Distribution, WORK_BUDGET, distribution, distribution_within};
pub use parse::parse;
pub use roll::{DieOutcome, Outcome, RollOutcome, ValueOutcome};
pub use tree::{BinOp, Dice, Expr, Node, Op, Reroll, Roll, Selector, SetOp, Sides};

/// The largest whole number (added or subtracted) an expression may contain.
///
/// Not configurable: it only keeps totals far from overflow; no table needs more.
pub const MAX_CONSTANT: u32 = 1_000_000;

/// The longest number, in digits, that is read before it is refused outright; 19 digits always
/// fit in a `u64`, so every number up to that length can be quoted back exactly in an error.
pub const MAX_DIGITS: usize = 19;

/// Bounds on one `/roll` expression. `config.rs` ([dice]) carries the same names and defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Dice rolled by the whole expression, counted before rerolls and explosions.
    pub max_dice: u32,
    /// Faces on any one die.
    pub max_sides: u32,
    /// Dice groups and numbers in one message.
    pub max_terms: u32,
    /// Extra dice added by explosions, and rerolls made until a face stands, across the message.
    pub max_explosions: u32,
    /// Characters in the expression as typed.
    pub max_length: usize,
    /// Times one roll may be repeated (`6 4d6`).
    pub max_repeats: u32,
    /// Rolls in one message (`1d20; 2d6`).
    pub max_rolls: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_dice: 100,
            max_sides: 1000,
            max_terms: 20,
            max_explosions: 100,
            max_length: 200,
            max_repeats: 20,
            max_rolls: 4,
        }
    }
}

/// Why an expression was refused. Every message is meant to be shown to the player as is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    #[error("a roll can be at most {limit} characters long; yours has {asked}")]
    TooLong { limit: usize, asked: usize },
    #[error("could not read `{input}` at position {position}: expected {expected}")]
    Syntax {
        input: String,
        /// 1-based, in characters; one past the end when the expression stopped too early.
        position: usize,
        expected: Expected,
    },
    #[error("the number at position {position} has {digits} digits; that is far too big")]
    NumberTooLong { position: usize, digits: usize },
    #[error("at most {limit} dice per message, repeats included; you asked for {asked}")]
    TooManyDice { limit: u32, asked: u64 },
    #[error("a dice group needs at least 1 die; you asked for 0d{sides}")]
    NoDice { sides: u64 },
    #[error("at most {limit} sides per die; you asked for d{asked}")]
    TooManySides { limit: u32, asked: u64 },
    #[error("dice need at least 2 sides; you asked for d{asked}")]
    TooFewSides { asked: u64 },
    #[error("at most {limit} dice groups and numbers per message; yours has at least {asked}")]
    TooManyTerms { limit: u32, asked: u32 },
    #[error("numbers in a roll can be at most {limit}; you wrote {asked}")]
    ConstantTooBig { limit: u32, asked: u64 },
    #[error("`{op}` on {count}: you can keep at most all {count} of them")]
    KeepTooMany { op: String, count: String },
    #[error("`{op}` on {count}: you can drop at most {max} of them")]
    DropTooMany { op: String, count: String, max: u32 },
    #[error("`{op}` does nothing useful; keep or drop at least 1")]
    KeepZero { op: String },
    #[error("`{op}` on a d{sides} would reroll every face, so it could never stop")]
    RerollEverything { op: String, sides: String },
    #[error("`{op}` on a d{sides} matches no face, so it does nothing; {hint}")]
    SelectsNothing {
        op: String,
        sides: String,
        hint: &'static str,
    },
    #[error("`{op}` on a d{sides} explodes on every face, so it could never stop")]
    ExplodesForever { op: String, sides: String },
    #[error("`{op}` can't pick the highest or lowest dice; give a face, like {example}")]
    RankNotAllowed { op: String, example: &'static str },
    #[error("`{op}` on a d{sides}: the value must be a face of the die, from {low} to {high}")]
    OutsideFaces {
        op: String,
        sides: String,
        low: i64,
        high: i64,
    },
    #[error("a roll can be repeated at most {limit} times; you asked for {asked}")]
    TooManyRepeats { limit: u32, asked: u64 },
    #[error("a repeat needs at least 1 roll; you asked for 0")]
    NoRepeats,
    #[error("at most {limit} rolls in one message (separated by ;); yours has {asked}")]
    TooManyRolls { limit: u32, asked: u32 },
    #[error("parentheses and signs can nest at most {limit} deep")]
    TooDeep { limit: u32 },
    #[error("only whole numbers can be rolled; `{text}` has a decimal point")]
    Decimal { text: String },
    #[error("`()` is an empty set; put values in it, like (1d6, 3)")]
    EmptySet,
    #[error("a label in parentheses can be at most {limit} characters")]
    LabelTooLong { limit: usize },
    #[error("division by zero")]
    DivisionByZero,
    #[error("a number in the roll grew past what can be counted")]
    Overflow,
    #[error("`{op}`: the middle can only be kept, as in km2; drop from an end with dl1 or dh1")]
    DropMiddle { op: String },
    #[error("advantage or disadvantage (adv, dis) can be given once on the same dice")]
    ExtraTwice,
    #[error("`{op}` appears twice on the same dice; once is enough")]
    RepeatedOp { op: String },
    #[error("no exact odds for this roll: {why}")]
    NoOdds { why: String },
    #[error("`{alias}` {why}")]
    BadAlias { alias: String, why: String },
    #[error("`{op}` {why}")]
    NeedsOther { op: String, why: &'static str },
}

/// What the parser would have accepted where it stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    /// The start of a term: a die or a number.
    Term,
    /// The sides after `d`.
    Sides,
    /// After a complete dice group: a modifier, an operator or the end.
    AfterDice,
    /// After a number: `d`, an operator or the end.
    AfterNumber,
    /// The count after `k`, `kh`, `kl`, `dh` or `dl`.
    KeepCount,
    /// The number after an operation's letters (`kh3`, `r1`, `t7`, `mi2`).
    OpValue,
    /// A closing parenthesis or a comma inside one.
    CloseParen,
    /// The `]` closing an annotation.
    CloseNote,
    /// An operator, a comment or the end after a complete value.
    AfterValue,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Term => "dice or a number, like 2d6, d20 or 3",
            Self::Sides => "a number of sides, like 2d6 (or d% for d100)",
            Self::AfterDice => {
                "an operator (+ - * /), a comment (! …), ; or the end, or after the dice one of kh3, kl1, dl1, r1, rr<2, !, e6, mi2, t7, f1"
            }
            Self::AfterNumber => {
                "an operator (+ - * /), a comment (! …), ; or the end (or d right after a number, as in 2d6)"
            }
            Self::KeepCount => "how many to keep or drop, like 4d6kh3 or (1d4, 3)kh1",
            Self::OpValue => "a number after the letters, like kh3, r1, e6, t7 or mi2",
            Self::CloseParen => "a comma or a closing parenthesis",
            Self::CloseNote => "] to close the note",
            Self::AfterValue => "an operator (+ - * / < > ==), a comment (! …), ; or the end",
        })
    }
}
