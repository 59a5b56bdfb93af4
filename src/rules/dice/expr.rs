//! The bounded dice-expression language of `/roll`: parsing, limits, rolling.
//!
//! Owns the grammar players type (`2d6+1`, `d%`, `4d6kh3`, `3d6!`, `2d6r1`, sums and differences
//! of dice groups and whole numbers), the [`Limits`] that keep one message from making the bot
//! roll forever or allocate without bound, the errors a player reads when an expression is
//! refused, and the roller that turns a parsed [`Expr`] into a [`RollResult`] showing every die.
//!
//! Must never format Discord messages (the `bot` layer renders a [`RollResult`]), never create a
//! random generator (dice come in as `&mut impl DieSource`), and never panic or allocate in
//! proportion to untrusted input: the length is checked before anything else, and every count is
//! checked against [`Limits`] while it is read.
//!
//! # Grammar
//!
//! ```text
//! expr      = ws ["-" ws] term { ws ("+" | "-") ws term } ws
//! term      = dice | number
//! dice      = [number] ("d" | "D") (number | "%") { modifier }
//! modifier  = "!" | "r" number | "k" ["h" | "l"] number | "d" ("h" | "l") number
//! ws        = { " " | "\t" }
//! ```
//!
//! Letters are case-insensitive. Each modifier may appear once per dice group, in any order; the
//! normalized form ([`Expr`]'s `Display`) writes them as reroll, explode, keep/drop.

mod parse;
mod roll;
#[cfg(test)]
mod tests;

use std::fmt;

pub use parse::parse;
pub use roll::{DieResult, RollResult, TermOutcome, TermResult};

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
    /// Dice groups and numbers added or subtracted.
    pub max_terms: u32,
    /// Extra dice added by explosions across the whole roll.
    pub max_explosions: u32,
    /// Characters in the expression as typed.
    pub max_length: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_dice: 100,
            max_sides: 1000,
            max_terms: 20,
            max_explosions: 100,
            max_length: 200,
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
    #[error("at most {limit} dice per roll; you asked for {asked}")]
    TooManyDice { limit: u32, asked: u64 },
    #[error("a dice group needs at least 1 die; you asked for 0d{sides}")]
    NoDice { sides: u64 },
    #[error("at most {limit} sides per die; you asked for d{asked}")]
    TooManySides { limit: u32, asked: u64 },
    #[error("dice need at least 2 sides; you asked for d{asked}")]
    TooFewSides { asked: u64 },
    #[error("at most {limit} dice groups and numbers per roll; yours has at least {asked}")]
    TooManyTerms { limit: u32, asked: u32 },
    #[error("numbers in a roll can be at most {limit}; you wrote {asked}")]
    ConstantTooBig { limit: u32, asked: u64 },
    #[error("`{rule}{asked}` on {count} dice: you can keep at most all {count} of them")]
    KeepTooMany {
        rule: KeepRule,
        asked: u64,
        count: u32,
    },
    #[error("`{rule}{asked}` on {count} dice: you can drop at most {max} of them", max = count.saturating_sub(1))]
    DropTooMany {
        rule: KeepRule,
        asked: u64,
        count: u32,
    },
    #[error("`{rule}0` does nothing useful; keep or drop at least 1 die")]
    KeepZero { rule: KeepRule },
    #[error("`r{asked}` on a d{sides} would reroll every die; use a value below {sides}")]
    RerollEverything { asked: u64, sides: u32 },
    #[error("`r0` rerolls nothing; use r1 or more")]
    RerollZero,
    #[error("`{modifier}` appears twice in one dice group (position {position}); use it once")]
    RepeatedModifier {
        modifier: &'static str,
        position: usize,
    },
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
    /// `h` or `l` after a drop's `d`.
    DropSide,
    /// The highest face to reroll, after `r`.
    RerollValue,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Term => "dice or a number, like 2d6, d20 or 3",
            Self::Sides => "a number of sides, like 2d6 (or d% for d100)",
            Self::AfterDice => "+, -, the end, or one of kh3, kl1, dh1, dl1, r1, ! after the dice",
            Self::AfterNumber => "+, - or the end (or d right after a number, as in 2d6)",
            Self::KeepCount => "how many dice to keep or drop, like 4d6kh3",
            Self::DropSide => "h or l after d, like 4d6dl1 (drop the lowest)",
            Self::RerollValue => "the highest face to reroll, like 2d6r1",
        })
    }
}

/// Add or subtract a term.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sign {
    Plus,
    Minus,
}

impl Sign {
    /// Applies the sign to an amount.
    pub const fn apply(self, amount: i64) -> i64 {
        match self {
            Self::Plus => amount,
            Self::Minus => -amount,
        }
    }
}

/// Which dice of a group count toward its sum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeepRule {
    KeepHighest,
    KeepLowest,
    DropHighest,
    DropLowest,
}

impl KeepRule {
    /// Whether the count names the dice kept (rather than dropped).
    pub const fn is_keep(self) -> bool {
        matches!(self, Self::KeepHighest | Self::KeepLowest)
    }
}

impl fmt::Display for KeepRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::KeepHighest => "kh",
            Self::KeepLowest => "kl",
            Self::DropHighest => "dh",
            Self::DropLowest => "dl",
        })
    }
}

/// A keep or drop modifier: the rule and how many dice it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Keep {
    pub rule: KeepRule,
    pub count: u32,
}

impl Keep {
    /// How many of `dice` dice count toward the sum.
    pub const fn counted(self, dice: u32) -> u32 {
        if self.rule.is_keep() {
            self.count
        } else {
            dice.saturating_sub(self.count)
        }
    }
}

/// One group of identical dice with its modifiers, as in `4d6kh3` or `2d6r1!`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DiceTerm {
    /// How many dice, at least 1.
    pub count: u32,
    /// Faces per die, at least 2 (`d%` is 100).
    pub sides: u32,
    /// Faces at or below this are rerolled once (`r1`); below `sides`.
    pub reroll: Option<u32>,
    /// A die showing its highest face rolls again and adds (`!`).
    pub explode: bool,
    /// Which dice count (`kh3`, `dl1`).
    pub keep: Option<Keep>,
}

impl DiceTerm {
    /// How many dice count toward the sum after keep/drop.
    pub const fn counted(&self) -> u32 {
        match self.keep {
            Some(keep) => keep.counted(self.count),
            None => self.count,
        }
    }

    /// Checks everything about this group that does not depend on the rest of the expression.
    fn check(&self, limits: &Limits) -> Result<(), DiceError> {
        check_count(u64::from(self.count), u64::from(self.sides), limits)?;
        check_sides(u64::from(self.sides), limits)?;
        if let Some(r) = self.reroll {
            check_reroll(u64::from(r), self.sides)?;
        }
        if let Some(keep) = self.keep {
            check_keep(keep.rule, u64::from(keep.count), self.count)?;
        }
        Ok(())
    }
}

impl fmt::Display for DiceTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)?;
        if let Some(r) = self.reroll {
            write!(f, "r{r}")?;
        }
        if self.explode {
            f.write_str("!")?;
        }
        if let Some(keep) = self.keep {
            write!(f, "{}{}", keep.rule, keep.count)?;
        }
        Ok(())
    }
}

/// What a term adds or subtracts: a dice group or a whole number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TermKind {
    Dice(DiceTerm),
    Constant(u32),
}

/// One signed term of an expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Term {
    pub sign: Sign,
    pub kind: TermKind,
}

/// A parsed, checked dice expression. Build one with [`parse`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Expr {
    terms: Vec<Term>,
}

impl Expr {
    /// The terms in the order typed; never empty.
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }

    /// Dice rolled before rerolls and explosions.
    pub fn dice_count(&self) -> u64 {
        self.dice_terms().map(|d| u64::from(d.count)).sum()
    }

    /// The lowest possible total, or `None` when a subtracted group explodes (no floor).
    pub fn min(&self) -> Option<i64> {
        self.bound(false)
    }

    /// The highest possible total, or `None` when an added group explodes (no ceiling but the
    /// explosion cap).
    pub fn max(&self) -> Option<i64> {
        self.bound(true)
    }

    /// Checks the whole expression against `limits` (the parser does this as it reads; the
    /// roller does it again in case it is given tighter limits than the parser was).
    pub fn check(&self, limits: &Limits) -> Result<(), DiceError> {
        let terms = self.terms.len() as u64;
        if terms > u64::from(limits.max_terms) {
            return Err(DiceError::TooManyTerms {
                limit: limits.max_terms,
                asked: u32::try_from(terms).unwrap_or(u32::MAX),
            });
        }
        let dice = self.dice_count();
        if dice > u64::from(limits.max_dice) {
            return Err(DiceError::TooManyDice {
                limit: limits.max_dice,
                asked: dice,
            });
        }
        for term in &self.terms {
            match term.kind {
                TermKind::Dice(d) => d.check(limits)?,
                TermKind::Constant(c) => check_constant(u64::from(c))?,
            }
        }
        Ok(())
    }

    fn dice_terms(&self) -> impl Iterator<Item = &DiceTerm> {
        self.terms.iter().filter_map(|t| match &t.kind {
            TermKind::Dice(d) => Some(d),
            TermKind::Constant(_) => None,
        })
    }

    /// The extreme total: the highest when `high`, else the lowest.
    fn bound(&self, high: bool) -> Option<i64> {
        let mut total: i64 = 0;
        for term in &self.terms {
            // A subtracted term pushes the total up when it is at its lowest.
            let want_high = high == (term.sign == Sign::Plus);
            let amount = match term.kind {
                TermKind::Constant(c) => i64::from(c),
                TermKind::Dice(d) if want_high && d.explode => return None,
                TermKind::Dice(d) => {
                    let face = if want_high { i64::from(d.sides) } else { 1 };
                    i64::from(d.counted()) * face
                }
            };
            total = total.saturating_add(term.sign.apply(amount));
        }
        Some(total)
    }
}

impl fmt::Display for Expr {
    /// The normalized expression: explicit counts, lower case, no spaces (`4d6kh3+2`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, term) in self.terms.iter().enumerate() {
            match (i, term.sign) {
                (_, Sign::Minus) => f.write_str("-")?,
                (0, Sign::Plus) => {}
                (_, Sign::Plus) => f.write_str("+")?,
            }
            match term.kind {
                TermKind::Dice(d) => write!(f, "{d}")?,
                TermKind::Constant(c) => write!(f, "{c}")?,
            }
        }
        Ok(())
    }
}

// The checks below are shared by the parser (which calls them as soon as the numbers involved
// have been read) and by `Expr::check`.

fn check_count(count: u64, sides: u64, limits: &Limits) -> Result<(), DiceError> {
    if count == 0 {
        return Err(DiceError::NoDice { sides });
    }
    check_dice_total(count, limits)
}

fn check_dice_total(total: u64, limits: &Limits) -> Result<(), DiceError> {
    if total > u64::from(limits.max_dice) {
        return Err(DiceError::TooManyDice {
            limit: limits.max_dice,
            asked: total,
        });
    }
    Ok(())
}

fn check_sides(sides: u64, limits: &Limits) -> Result<(), DiceError> {
    if sides < 2 {
        return Err(DiceError::TooFewSides { asked: sides });
    }
    if sides > u64::from(limits.max_sides) {
        return Err(DiceError::TooManySides {
            limit: limits.max_sides,
            asked: sides,
        });
    }
    Ok(())
}

fn check_constant(value: u64) -> Result<(), DiceError> {
    if value > u64::from(MAX_CONSTANT) {
        return Err(DiceError::ConstantTooBig {
            limit: MAX_CONSTANT,
            asked: value,
        });
    }
    Ok(())
}

fn check_reroll(value: u64, sides: u32) -> Result<(), DiceError> {
    if value == 0 {
        return Err(DiceError::RerollZero);
    }
    if value >= u64::from(sides) {
        return Err(DiceError::RerollEverything {
            asked: value,
            sides,
        });
    }
    Ok(())
}

fn check_keep(rule: KeepRule, asked: u64, count: u32) -> Result<(), DiceError> {
    if asked == 0 {
        return Err(DiceError::KeepZero { rule });
    }
    if rule.is_keep() && asked > u64::from(count) {
        return Err(DiceError::KeepTooMany { rule, asked, count });
    }
    // Dropping every die would leave an empty sum that still looks like a roll.
    if !rule.is_keep() && asked >= u64::from(count) {
        return Err(DiceError::DropTooMany { rule, asked, count });
    }
    Ok(())
}
