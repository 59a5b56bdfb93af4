//! The tree of a parsed dice message: the one thing the parser, the roller, the distribution and
//! the printer share.
//!
//! Owns the shapes (`Node`, `Dice`, `Op`, `Selector`) and their canonical spelling
//! (`Display`): the text every reply shows as "read as". Must never roll, read text or allocate
//! beyond what the parser already bounded.

use std::fmt;

/// A whole `/roll` message: one or more rolls separated by `;`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Expr {
    pub(super) rolls: Vec<Roll>,
}

/// One roll of a message: `(Label) N expression ! comment`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Roll {
    /// `(Attack)` before the dice.
    pub label: Option<String>,
    /// `6 4d6`: how many times the expression is rolled (1: once).
    pub repeat: u32,
    pub node: Node,
    /// `! Fire damage` after the dice.
    pub comment: Option<String>,
    /// The system alias the roll was written as (`dndstats`, `4cod`), if any.
    pub alias: Option<String>,
    /// `s`: show the total only.
    pub simple: bool,
    /// `nr`: show the dice, not the total.
    pub no_total: bool,
    /// `p`: only the roller sees it.
    pub private: bool,
}

/// A value: a number, dice, a set, or arithmetic on them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Node {
    Number(i64),
    Dice(Dice),
    /// `(a, b, c)` with keep/drop operations; worth the sum of the kept elements.
    Set(Vec<Node>, Vec<SetOp>),
    /// `(expr)`: grouping only.
    Paren(Box<Node>),
    Neg(Box<Node>),
    Binary(Box<Node>, BinOp, Box<Node>),
    /// `1d6 [fire]`: a note shown beside the value.
    Annotated(Box<Node>, String),
}

/// The operators between two values, loosest last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinOp {
    Mul,
    /// `/` and `//`: both round down (see the parser's decision).
    Div,
    Rem,
    Add,
    Sub,
    Eq,
    Ne,
    Ge,
    Le,
    Gt,
    Lt,
}

impl BinOp {
    pub const fn symbol(self) -> &'static str {
        match self {
            Self::Mul => "*",
            Self::Div => "/",
            Self::Rem => "%",
            Self::Add => "+",
            Self::Sub => "-",
            Self::Eq => "==",
            Self::Ne => "!=",
            Self::Ge => ">=",
            Self::Le => "<=",
            Self::Gt => ">",
            Self::Lt => "<",
        }
    }

    /// Binding strength: higher binds tighter.
    pub const fn precedence(self) -> u8 {
        match self {
            Self::Mul | Self::Div | Self::Rem => 3,
            Self::Add | Self::Sub => 2,
            _ => 1,
        }
    }

    /// Applies the operator; `None` on division by zero or overflow.
    pub fn apply(self, a: i64, b: i64) -> Option<i64> {
        Some(match self {
            Self::Mul => a.checked_mul(b)?,
            Self::Div => a.checked_div_euclid(b).map(|q| {
                // Floor division (as Python's //), for negative divisors too.
                if b < 0 && a.rem_euclid(b) != 0 {
                    q - 1
                } else {
                    q
                }
            })?,
            Self::Rem => a.checked_sub(b.checked_mul(Self::Div.apply(a, b)?)?)?,
            Self::Add => a.checked_add(b)?,
            Self::Sub => a.checked_sub(b)?,
            Self::Eq => i64::from(a == b),
            Self::Ne => i64::from(a != b),
            Self::Ge => i64::from(a >= b),
            Self::Le => i64::from(a <= b),
            Self::Gt => i64::from(a > b),
            Self::Lt => i64::from(a < b),
        })
    }
}

/// The faces of a die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sides {
    /// 1..=n.
    Number(u32),
    /// Fate/Fudge: -1, 0, +1.
    Fate,
}

impl Sides {
    pub const fn low(self) -> i64 {
        match self {
            Self::Number(_) => 1,
            Self::Fate => -1,
        }
    }

    pub const fn high(self) -> i64 {
        match self {
            Self::Number(n) => n as i64,
            Self::Fate => 1,
        }
    }

    /// How many faces (what a die source is asked for).
    pub const fn faces(self) -> u32 {
        match self {
            Self::Number(n) => n,
            Self::Fate => 3,
        }
    }

    /// The value of face `n` (1-based) rolled by a die source.
    pub const fn value(self, face: u32) -> i64 {
        match self {
            Self::Number(_) => face as i64,
            Self::Fate => face as i64 - 2,
        }
    }
}

/// `NdS` and what is done to the dice, in the order written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Dice {
    pub count: u32,
    pub sides: Sides,
    pub ops: Vec<Op>,
}

impl Dice {
    /// Dice rolled beyond `count` by advantage or disadvantage (and dropped before explosions).
    pub fn extra(&self) -> u32 {
        self.ops
            .iter()
            .map(|op| match op {
                Op::Advantage(n) | Op::Disadvantage(n) => *n,
                _ => 0,
            })
            .sum()
    }

    /// Whether the dice are counted as successes rather than summed.
    pub fn counts_successes(&self) -> bool {
        self.ops
            .iter()
            .any(|op| matches!(op, Op::Success(_) | Op::Failure(_) | Op::Double(_)))
    }
}

/// Which values an operation acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Selector {
    /// The highest n (of the dice still counted).
    Highest(u32),
    /// The lowest n.
    Lowest(u32),
    /// The middle n: as many dropped below as above (one more above when it cannot be even).
    Middle(u32),
    /// Every value at or above v.
    AtLeast(i64),
    /// Every value at or below v.
    AtMost(i64),
}

impl Selector {
    /// Whether a single value is selected (for the value selectors only).
    pub const fn matches(self, value: i64) -> bool {
        match self {
            Self::AtLeast(v) => value >= v,
            Self::AtMost(v) => value <= v,
            Self::Highest(_) | Self::Lowest(_) | Self::Middle(_) => false,
        }
    }

    /// Whether the selector picks by rank (highest/lowest n) rather than by value.
    pub const fn by_rank(self) -> bool {
        matches!(self, Self::Highest(_) | Self::Lowest(_) | Self::Middle(_))
    }
}

impl fmt::Display for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Highest(n) => write!(f, "h{n}"),
            Self::Lowest(n) => write!(f, "l{n}"),
            Self::Middle(n) => write!(f, "m{n}"),
            Self::AtLeast(v) => write!(f, ">{}", v - 1),
            Self::AtMost(v) => write!(f, "<{}", v + 1),
        }
    }
}

/// How a reroll goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reroll {
    /// `r`, `ro`: once; the new face stands.
    Once,
    /// `rr`, `ir`: until the face is no longer selected.
    Until,
    /// `ra`: one selected die (the first) rolls one more die, added.
    Add,
}

/// An operation on the dice of a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    Keep(Selector),
    Drop(Selector),
    Reroll(Reroll, Selector),
    /// A selected die rolls another die, added to it; the new die may explode again.
    Explode(Selector),
    /// Each die counts at least this much.
    Min(i64),
    /// Each die counts at most this much.
    Max(i64),
    /// `t7`: a die at or above the selector's value is one success.
    Success(Selector),
    /// `f1`: a die at or below takes one success away.
    Failure(Selector),
    /// `ds10` (with `t`): a die at or above counts one success more.
    Double(Selector),
    /// `adv1`: one more die rolled, the lowest dropped before anything explodes.
    Advantage(u32),
    /// `dis1`: one more die rolled, the highest dropped before anything explodes.
    Disadvantage(u32),
    /// `i1`: each die rolled for the expression that shows a selected face subtracts one fresh
    /// die from the total (once; the fresh die is not part of the pool).
    Implode(Selector),
    /// `b1`: selected dice among those kept are counted as botches, beside the total.
    Botch(Selector),
    /// `c` (with `f`): each die on the highest face cancels one failure.
    Cancel,
}

impl Op {
    /// The canonical spelling on dice with `sides`: the spellings players know best where one
    /// fits (`kh3`, `dl1`, `r1`, `!`, `t8`, `f1`), d20's selectors otherwise (`k>3`, `rr<3`).
    fn write(self, f: &mut fmt::Formatter<'_>, sides: Sides) -> fmt::Result {
        use Selector::{AtLeast, AtMost, Highest, Lowest};
        // A bare number cannot be negative (`f-1` would read as `f` minus 1): Fate dice's
        // faces below zero are written with the selector (`f<0`).
        let negative = matches!(self.selector(), Some(AtLeast(v) | AtMost(v)) if v < 0);
        if negative && let Some(sel) = self.selector() {
            let letters = match self {
                Self::Reroll(Reroll::Once, _) => "ro",
                Self::Reroll(Reroll::Until, _) => "rr",
                Self::Reroll(Reroll::Add, _) => "ra",
                Self::Explode(_) => "e",
                Self::Success(_) => "t",
                Self::Failure(_) => "f",
                Self::Double(_) => "ds",
                Self::Implode(_) => "i",
                Self::Botch(_) => "b",
                Self::Keep(_) => "k",
                _ => "p",
            };
            return write!(f, "{letters}{sel}");
        }
        match self {
            Self::Keep(Highest(n)) => write!(f, "kh{n}"),
            Self::Keep(Lowest(n)) => write!(f, "kl{n}"),
            Self::Drop(Highest(n)) => write!(f, "dh{n}"),
            Self::Drop(Lowest(n)) => write!(f, "dl{n}"),
            Self::Keep(s) => write!(f, "k{s}"),
            Self::Drop(s) => write!(f, "p{s}"),
            Self::Reroll(Reroll::Once, AtMost(v)) => write!(f, "r{v}"),
            Self::Reroll(Reroll::Once, s) => write!(f, "ro{s}"),
            Self::Reroll(Reroll::Until, s) => write!(f, "rr{s}"),
            Self::Reroll(Reroll::Add, AtLeast(v)) => write!(f, "ra{v}"),
            Self::Reroll(Reroll::Add, s) => write!(f, "ra{s}"),
            Self::Explode(AtLeast(v)) if v == sides.high() => f.write_str("!"),
            Self::Explode(AtLeast(v)) => write!(f, "e{v}"),
            Self::Explode(s) => write!(f, "e{s}"),
            Self::Min(v) => write!(f, "mi{v}"),
            Self::Max(v) => write!(f, "ma{v}"),
            Self::Success(AtLeast(v)) => write!(f, "t{v}"),
            Self::Success(AtMost(v)) => write!(f, "tl{v}"),
            Self::Success(s) => write!(f, "t{s}"),
            Self::Advantage(n) => write!(f, "adv{n}"),
            Self::Disadvantage(n) => write!(f, "dis{n}"),
            Self::Double(AtLeast(v)) => write!(f, "ds{v}"),
            Self::Double(s) => write!(f, "ds{s}"),
            Self::Failure(AtMost(v)) => write!(f, "f{v}"),
            Self::Failure(s) => write!(f, "f{s}"),
            Self::Implode(AtMost(v)) => write!(f, "i{v}"),
            Self::Implode(s) => write!(f, "i{s}"),
            Self::Botch(AtMost(v)) => write!(f, "b{v}"),
            Self::Botch(s) => write!(f, "b{s}"),
            Self::Cancel => f.write_str("c"),
        }
    }
}

impl Op {
    /// The selector the operation acts with, if it has one.
    pub const fn selector(self) -> Option<Selector> {
        match self {
            Self::Keep(s)
            | Self::Drop(s)
            | Self::Reroll(_, s)
            | Self::Explode(s)
            | Self::Success(s)
            | Self::Failure(s)
            | Self::Double(s)
            | Self::Implode(s)
            | Self::Botch(s) => Some(s),
            Self::Min(_)
            | Self::Max(_)
            | Self::Advantage(_)
            | Self::Disadvantage(_)
            | Self::Cancel => None,
        }
    }
}

/// Keep or drop on a set's elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SetOp {
    Keep(Selector),
    Drop(Selector),
}

impl fmt::Display for SetOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Keep(Selector::Highest(n)) => write!(f, "kh{n}"),
            Self::Keep(Selector::Lowest(n)) => write!(f, "kl{n}"),
            Self::Drop(Selector::Highest(n)) => write!(f, "dh{n}"),
            Self::Drop(Selector::Lowest(n)) => write!(f, "dl{n}"),
            Self::Keep(s) => write!(f, "k{s}"),
            Self::Drop(s) => write!(f, "p{s}"),
        }
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.sides {
            Sides::Number(n) => write!(f, "{}d{n}", self.count)?,
            Sides::Fate => write!(f, "{}dF", self.count)?,
        }
        for op in &self.ops {
            op.write(f, self.sides)?;
        }
        Ok(())
    }
}

impl fmt::Display for Node {
    /// The canonical spelling: explicit counts and selectors, no spaces inside dice, one space
    /// around binary operators, parentheses only where they were written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(n) => write!(f, "{n}"),
            Self::Dice(d) => write!(f, "{d}"),
            Self::Set(items, ops) => {
                f.write_str("(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                if items.len() == 1 {
                    f.write_str(",")?;
                }
                f.write_str(")")?;
                for op in ops {
                    write!(f, "{op}")?;
                }
                Ok(())
            }
            Self::Paren(inner) => write!(f, "({inner})"),
            Self::Neg(inner) => write!(f, "-{inner}"),
            Self::Binary(a, op, b) => write!(f, "{a} {} {b}", op.symbol()),
            Self::Annotated(inner, note) => write!(f, "{inner} [{note}]"),
        }
    }
}

impl fmt::Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.repeat > 1 {
            write!(f, "{} ", self.repeat)?;
        }
        write!(f, "{}", self.node)
    }
}

impl fmt::Display for Expr {
    /// The rolls' canonical spellings joined by `; ` (labels and comments are not part of it).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, roll) in self.rolls.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{roll}")?;
        }
        Ok(())
    }
}

impl Expr {
    /// The rolls of the message, in the order typed; never empty.
    pub fn rolls(&self) -> &[Roll] {
        &self.rolls
    }

    /// `p` on any roll: only the roller sees the message.
    pub fn private(&self) -> bool {
        self.rolls.iter().any(|r| r.private)
    }

    /// Dice rolled by the whole message before rerolls and explosions, repeats included.
    pub fn dice_count(&self) -> u64 {
        self.rolls
            .iter()
            .map(|r| u64::from(r.repeat) * r.node.dice_count())
            .sum()
    }
}

impl Node {
    /// Dice in this value before rerolls and explosions.
    pub fn dice_count(&self) -> u64 {
        match self {
            Self::Number(_) => 0,
            Self::Dice(d) => u64::from(d.count) + u64::from(d.extra()),
            Self::Set(items, _) => items.iter().map(Self::dice_count).sum(),
            Self::Paren(inner) | Self::Neg(inner) | Self::Annotated(inner, _) => inner.dice_count(),
            Self::Binary(a, _, b) => a.dice_count() + b.dice_count(),
        }
    }

    /// Whether any dice in this value explode.
    pub fn explodes(&self) -> bool {
        match self {
            Self::Number(_) => false,
            Self::Dice(d) => d.ops.iter().any(|op| matches!(op, Op::Explode(_))),
            Self::Set(items, _) => items.iter().any(Self::explodes),
            Self::Paren(inner) | Self::Neg(inner) | Self::Annotated(inner, _) => inner.explodes(),
            Self::Binary(a, _, b) => a.explodes() || b.explodes(),
        }
    }
}
