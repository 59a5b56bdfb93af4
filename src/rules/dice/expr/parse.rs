//! Reading text into the [`Expr`] tree (see the parent module for the grammar).
//!
//! Owns the spellings players type and the decisions where Avrae's d20 and Dice Maiden read one
//! spelling differently, and turns every failure into a [`DiceError`] with a position. Every
//! number is checked against the [`Limits`] the moment it is read, so an oversized request fails
//! before anything is allocated for it. Never rolls.

use winnow::ascii::{digit1, space0};
use winnow::error::{AddContext, ErrMode, ModalResult, ParserError};
use winnow::prelude::*;
use winnow::stream::Stream;

use super::alias;
use super::tree::{BinOp, Dice, Expr, Node, Op, Reroll, Roll, Selector, SetOp, Sides};
use super::{DiceError, Expected, Limits, MAX_CONSTANT, MAX_DIGITS};

/// How deep parentheses and signs may nest.
pub const MAX_DEPTH: u32 = 16;
/// The longest `(Label)` before a roll, in characters.
pub const MAX_LABEL: usize = 100;

/// Parses and checks a whole message against `limits`.
///
/// The length is checked first, then every number as it is read.
pub fn parse(input: &str, limits: &Limits) -> Result<Expr, DiceError> {
    // Bytes first: counting characters is only needed when the byte count is already too many.
    if input.len() > limits.max_length {
        let chars = input.chars().count();
        if chars > limits.max_length {
            return Err(DiceError::TooLong {
                limit: limits.max_length,
                asked: chars,
            });
        }
    }
    let mut reader = Reader {
        limits,
        dice: 0,
        terms: 0,
        depth: 0,
    };
    let mut rest = input;
    reader
        .message(&mut rest)
        .map_err(|err| to_dice_error(err, input))
}

pub(super) type Input<'i> = &'i str;
pub(super) type PResult<T> = ModalResult<T, Fail>;

/// A failure inside the grammar; `rest` is how many bytes were left unread where it happened,
/// which is all that is needed to recover the position in the original input.
#[derive(Debug)]
pub(super) struct Fail {
    rest: usize,
    why: Why,
}

#[derive(Debug)]
enum Why {
    /// The text did not fit the grammar; the context names what would have.
    Expected(Option<Expected>),
    /// The text fit the grammar but asked for something the limits or rules refuse.
    Refused(DiceError),
    NumberTooLong {
        digits: usize,
    },
}

impl Fail {
    fn cut(rest: usize, why: Why) -> ErrMode<Self> {
        ErrMode::Cut(Self { rest, why })
    }
}

impl<'i> ParserError<Input<'i>> for Fail {
    type Inner = Self;

    fn from_input(input: &Input<'i>) -> Self {
        Self {
            rest: input.len(),
            why: Why::Expected(None),
        }
    }

    fn into_inner(self) -> Result<Self::Inner, Self> {
        Ok(self)
    }
}

impl<'i> AddContext<Input<'i>, Expected> for Fail {
    /// Keeps the innermost expectation: it is the most precise one.
    fn add_context(
        mut self,
        _input: &Input<'i>,
        _token_start: &<Input<'i> as Stream>::Checkpoint,
        context: Expected,
    ) -> Self {
        if let Why::Expected(expected @ None) = &mut self.why {
            *expected = Some(context);
        }
        self
    }
}

/// Stops with "expected …" where `input` stands.
pub(super) fn expected<T>(input: &Input<'_>, what: Expected) -> PResult<T> {
    Err(Fail::cut(input.len(), Why::Expected(Some(what))))
}

/// Lifts a limit check into the grammar as a failure that stops parsing.
pub(super) fn refuse(input: &Input<'_>, check: Result<(), DiceError>) -> PResult<()> {
    check.map_err(|err| Fail::cut(input.len(), Why::Refused(err)))
}

// Decision (the spellings the references read differently; the reply always shows how a roll
// was read, e.g. "read as 4d6kh3"):
// - `k3` keeps the highest three (Dice Maiden, and this bot before), not d20's "keep the threes";
//   `d3` right after dice drops the lowest three (Dice Maiden), `p` is d20's drop.
// - A bare number after `r`/`ro`/`rr`/`ir` rerolls that face and below (`r2`: 1s and 2s,
//   Dice Maiden and this bot before); after `e`/`ie` it explodes on that face and above (`ie8`:
//   "8-again") and after `ra` adds a die on that face and above; after `t` it counts that face and above, after `f` that face and below. d20's
//   `<N` and `>N` are read exactly (`rr<3` rerolls 1s and 2s).
// - `e` explodes until a die stops matching, as d20's `e` and `!` do (Dice Maiden's `e` explodes
//   once); `ie` is the same. Both stop at the explosion cap, as Dice Maiden's 100.
// - `-d20` and `+d20` at the start of a roll are disadvantage and advantage (Dice Maiden's
//   aliases); anywhere else a sign is arithmetic.
// - `/` and `//` both divide and round down: totals at a table are whole numbers.
// - `!` right after dice explodes them (`3d6!`); `!` after a space starts a comment.
// - A leading `(text)` followed by a space and more dice is a label; otherwise parentheses group
//   or make a set.
struct Reader<'l> {
    limits: &'l Limits,
    /// Dice so far in the roll being read (repeats are counted when the roll ends).
    dice: u64,
    /// Dice groups and numbers so far in the message.
    terms: u32,
    depth: u32,
}

impl Reader<'_> {
    fn message(&mut self, input: &mut Input<'_>) -> PResult<Expr> {
        let mut rolls = Vec::with_capacity(1);
        let mut dice_total: u64 = 0;
        loop {
            if rolls.len() as u32 >= self.limits.max_rolls {
                let asked = rolls.len() as u32 + 1;
                refuse(
                    input,
                    Err(DiceError::TooManyRolls {
                        limit: self.limits.max_rolls,
                        asked,
                    }),
                )?;
            }
            self.dice = 0;
            let roll = self.roll(input)?;
            dice_total =
                dice_total.saturating_add(self.dice.saturating_mul(u64::from(roll.repeat)));
            refuse(input, check_dice_total(dice_total, self.limits))?;
            rolls.push(roll);
            if input.is_empty() {
                return Ok(Expr { rolls });
            }
            // `roll` stops only at the end or at `;`.
            let _ = input.next_token();
        }
    }

    fn roll(&mut self, input: &mut Input<'_>) -> PResult<Roll> {
        space0.parse_next(input)?;
        let flags = flags(input);
        let label = label(input)?;
        let repeat = self.repeat(input)?;
        let (alias, node) = match alias::whole_roll(input) {
            Some((name, repeat_of, node)) => {
                if repeat > 1 && repeat_of > 1 {
                    refuse(
                        input,
                        Err(DiceError::BadAlias {
                            alias: name.to_owned(),
                            why: "rolls its own sets already; leave out the repeat".into(),
                        }),
                    )?;
                }
                self.count_alias(input, &node)?;
                let first = node;
                let node = self.binary_from(input, first, 0)?;
                let repeat = repeat.max(repeat_of);
                return Self::finish(input, label, repeat, node, Some(name.to_owned()), flags);
            }
            None => (None, self.binary(input, 0)?),
        };
        Self::finish(input, label, repeat, node, alias, flags)
    }

    fn finish(
        input: &mut Input<'_>,
        label: Option<String>,
        repeat: u32,
        node: Node,
        alias: Option<String>,
        flags: Flags,
    ) -> PResult<Roll> {
        space0.parse_next(input)?;
        let comment = if input.starts_with('!') {
            let _ = input.next_token();
            let end = input.find(';').unwrap_or(input.len());
            let text = input[..end].trim().to_owned();
            *input = &input[end..];
            (!text.is_empty()).then_some(text)
        } else {
            None
        };
        if !(input.is_empty() || input.starts_with(';')) {
            let what = if matches!(node_last(&node), Node::Dice(_)) {
                Expected::AfterDice
            } else if matches!(node_last(&node), Node::Number(_)) {
                Expected::AfterNumber
            } else {
                Expected::AfterValue
            };
            return expected(input, what);
        }
        Ok(Roll {
            label,
            repeat,
            node,
            comment,
            alias,
            simple: flags.simple,
            no_total: flags.no_total,
            private: flags.private,
        })
    }

    /// `6 4d6`: a count, spaces, then the start of a value (not an operator).
    fn repeat(&mut self, input: &mut Input<'_>) -> PResult<u32> {
        let digits = input.bytes().take_while(u8::is_ascii_digit).count();
        let spaces = input[digits..]
            .bytes()
            .take_while(|b| *b == b' ' || *b == b'\t')
            .count();
        let next = input[digits + spaces..].bytes().next();
        let starts_value = next.is_some_and(|b| {
            b.is_ascii_digit() || b"dD(sS".contains(&b) || (b == b'+' || b == b'-') && digits == 0
        });
        if digits == 0 || spaces == 0 || !starts_value {
            return Ok(1);
        }
        let count = number(input)?;
        space0.parse_next(input)?;
        if count == 0 {
            refuse(input, Err(DiceError::NoRepeats))?;
        }
        if count > u64::from(self.limits.max_repeats) {
            refuse(
                input,
                Err(DiceError::TooManyRepeats {
                    limit: self.limits.max_repeats,
                    asked: count,
                }),
            )?;
        }
        Ok(count as u32)
    }

    /// Counts an alias's dice and terms as if typed.
    fn count_alias(&mut self, input: &Input<'_>, node: &Node) -> PResult<()> {
        self.dice = self.dice.saturating_add(node.dice_count());
        refuse(input, check_dice_total(self.dice, self.limits))?;
        self.terms += 1;
        self.check_terms(input)
    }

    fn check_terms(&self, input: &Input<'_>) -> PResult<()> {
        if self.terms > self.limits.max_terms {
            refuse(
                input,
                Err(DiceError::TooManyTerms {
                    limit: self.limits.max_terms,
                    asked: self.terms,
                }),
            )?;
        }
        Ok(())
    }

    fn deeper(&mut self, input: &Input<'_>) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            refuse(input, Err(DiceError::TooDeep { limit: MAX_DEPTH }))?;
        }
        Ok(())
    }

    /// Binary operators by precedence climbing, loosest first.
    fn binary(&mut self, input: &mut Input<'_>, min: u8) -> PResult<Node> {
        let first = self.unary(input)?;
        self.binary_from(input, first, min)
    }

    fn binary_from(&mut self, input: &mut Input<'_>, mut lhs: Node, min: u8) -> PResult<Node> {
        loop {
            let save = *input;
            space0.parse_next(input)?;
            let Some((op, len)) = operator(input) else {
                *input = save;
                return Ok(lhs);
            };
            if op.precedence() < min {
                *input = save;
                return Ok(lhs);
            }
            *input = &input[len..];
            space0.parse_next(input)?;
            let rhs = self.binary(input, op.precedence() + 1)?;
            if matches!(op, BinOp::Div | BinOp::Rem) && rhs == Node::Number(0) {
                refuse(input, Err(DiceError::DivisionByZero))?;
            }
            lhs = Node::Binary(Box::new(lhs), op, Box::new(rhs));
        }
    }

    fn unary(&mut self, input: &mut Input<'_>) -> PResult<Node> {
        space0.parse_next(input)?;
        if let Some(sign @ (b'-' | b'+')) = input.bytes().next() {
            self.deeper(input)?;
            let _ = input.next_token();
            let inner = self.unary(input)?;
            self.depth -= 1;
            return Ok(if sign == b'-' {
                Node::Neg(Box::new(inner))
            } else {
                inner
            });
        }
        let mut node = self.atom(input)?;
        loop {
            let save = *input;
            space0.parse_next(input)?;
            if !input.starts_with('[') {
                *input = save;
                return Ok(node);
            }
            let Some(end) = input.find(']') else {
                return expected(&&input[input.len()..], Expected::CloseNote);
            };
            let text = input[1..end].trim().to_owned();
            *input = &input[end + 1..];
            node = Node::Annotated(Box::new(node), text);
        }
    }

    fn atom(&mut self, input: &mut Input<'_>) -> PResult<Node> {
        if input.starts_with('(') {
            return self.parens(input);
        }
        if let Some(node) =
            alias::atom(input, self.limits).map_err(|e| Fail::cut(input.len(), Why::Refused(e)))?
        {
            self.count_alias(input, &node)?;
            return Ok(node);
        }
        self.terms += 1;
        self.check_terms(input)?;
        let count = if input.starts_with(|c: char| c.is_ascii_digit()) {
            Some(number(input)?)
        } else {
            None
        };
        if input.starts_with('.') && count.is_some() {
            let digits = input[1..].bytes().take_while(u8::is_ascii_digit).count();
            let text = format!("{}.{}", count.unwrap_or(0), &input[1..=digits]);
            refuse(input, Err(DiceError::Decimal { text }))?;
        }
        if input.starts_with(['d', 'D']) {
            let _ = input.next_token();
            return self.dice(input, count.unwrap_or(1)).map(Node::Dice);
        }
        match count {
            Some(value) => {
                refuse(input, check_constant(value))?;
                Ok(Node::Number(value as i64))
            }
            None => expected(input, Expected::Term),
        }
    }

    /// `(value)`, or a set `(a, b, …)` with its operations.
    fn parens(&mut self, input: &mut Input<'_>) -> PResult<Node> {
        self.deeper(input)?;
        let _ = input.next_token();
        space0.parse_next(input)?;
        if input.starts_with(')') {
            refuse(input, Err(DiceError::EmptySet))?;
        }
        let mut items = Vec::with_capacity(1);
        let mut comma = false;
        loop {
            items.push(self.binary(input, 0)?);
            space0.parse_next(input)?;
            match input.bytes().next() {
                Some(b',') => {
                    comma = true;
                    let _ = input.next_token();
                    space0.parse_next(input)?;
                    if input.starts_with(')') {
                        let _ = input.next_token();
                        break;
                    }
                }
                Some(b')') => {
                    let _ = input.next_token();
                    break;
                }
                _ => return expected(input, Expected::CloseParen),
            }
        }
        self.depth -= 1;
        let ops = set_ops(input, items.len())?;
        if !comma && ops.is_empty() {
            let inner = items.pop().unwrap_or(Node::Number(0));
            return Ok(Node::Paren(Box::new(inner)));
        }
        Ok(Node::Set(items, ops))
    }

    /// A dice group after its `d`: sides, then operations.
    fn dice(&mut self, input: &mut Input<'_>, count: u64) -> PResult<Dice> {
        // The total is checked before the sides are read, so a huge count fails right there.
        self.dice = self.dice.saturating_add(count);
        refuse(input, check_dice_total(self.dice, self.limits))?;
        let sides = match input.bytes().next() {
            Some(b'%') => {
                let _ = input.next_token();
                Sides::Number(100)
            }
            Some(b'f' | b'F') if !input[1..].starts_with(|c: char| c.is_ascii_alphanumeric()) => {
                let _ = input.next_token();
                Sides::Fate
            }
            Some(b) if b.is_ascii_digit() => {
                let sides = number(input)?;
                refuse(input, check_sides(sides, self.limits))?;
                Sides::Number(sides as u32)
            }
            _ => return expected(input, Expected::Sides),
        };
        if count == 0 {
            refuse(
                input,
                Err(DiceError::NoDice {
                    sides: sides.high() as u64,
                }),
            )?;
        }
        let mut dice = Dice {
            count: count as u32,
            sides,
            ops: Vec::new(),
        };
        while let Some(op) = dice_op(input, &dice)? {
            if dice.ops.contains(&op) {
                let mut text = String::new();
                let shown = Dice {
                    ops: vec![op],
                    ..dice.clone()
                };
                text.push_str(&shown.to_string());
                let op_text = text.split_once(['d', 'D']).map_or("", |(_, s)| s);
                let op_text = op_text.trim_start_matches(|c: char| c.is_ascii_digit() || c == 'F');
                refuse(
                    input,
                    Err(DiceError::RepeatedOp {
                        op: op_text.to_owned(),
                    }),
                )?;
            }
            if let Op::Advantage(n) | Op::Disadvantage(n) = op {
                if dice.extra() > 0 {
                    refuse(input, Err(DiceError::ExtraTwice))?;
                }
                self.dice = self.dice.saturating_add(u64::from(n));
                refuse(input, check_dice_total(self.dice, self.limits))?;
            }
            // The list of operations is bounded by the length of the input.
            dice.ops.push(op);
        }
        refuse(input, check_combination(&dice))?;
        Ok(dice)
    }
}

/// The last value typed (for what to expect after it).
fn node_last(node: &Node) -> &Node {
    match node {
        Node::Binary(_, _, b) => node_last(b),
        Node::Neg(inner) | Node::Annotated(inner, _) => node_last(inner),
        other => other,
    }
}

/// The words before a roll that change how it is shown, not what is rolled.
#[derive(Debug, Clone, Copy, Default)]
struct Flags {
    simple: bool,
    no_total: bool,
    private: bool,
}

/// Leading flags, in any order, each followed by a space: `s` (the total only), `nr` (the dice
/// only), `p` (only the roller sees it) and `ul` (accepted: dice are always shown unsorted).
fn flags(input: &mut Input<'_>) -> Flags {
    let mut flags = Flags::default();
    loop {
        let word_len = input.bytes().take_while(u8::is_ascii_alphabetic).count();
        let word = input[..word_len].to_ascii_lowercase();
        let spaced = input[word_len..].starts_with([' ', '\t']);
        if !spaced {
            return flags;
        }
        match word.as_str() {
            "s" => flags.simple = true,
            "nr" => flags.no_total = true,
            "p" => flags.private = true,
            "ul" => {}
            _ => return flags,
        }
        *input = input[word_len..].trim_start_matches([' ', '\t']);
    }
}

/// `(Label)` before a roll: parentheses followed by a space and the start of a value.
fn label(input: &mut Input<'_>) -> PResult<Option<String>> {
    if !input.starts_with('(') {
        return Ok(None);
    }
    let Some(close) = input.find(')') else {
        return Ok(None);
    };
    let inner = &input[1..close];
    let after = &input[close + 1..];
    let spaced = after.starts_with([' ', '\t']);
    let next = after.trim_start_matches([' ', '\t']).bytes().next();
    let starts_value = next.is_some_and(|b| b.is_ascii_digit() || b"dD(sS+-".contains(&b));
    // A set or a group holds a comma or no letters but dice letters; a label is words.
    let wordy = inner
        .chars()
        .any(|c| c.is_alphabetic() && !matches!(c, 'd' | 'D'))
        || inner.trim().is_empty();
    if !(spaced && starts_value && wordy && !inner.contains(['(', ','])) {
        return Ok(None);
    }
    if inner.chars().count() > MAX_LABEL {
        refuse(input, Err(DiceError::LabelTooLong { limit: MAX_LABEL }))?;
    }
    let text = inner.trim().to_owned();
    *input = after.trim_start_matches([' ', '\t']);
    Ok((!text.is_empty()).then_some(text))
}

/// A binary operator at the start of `input`, and its length in bytes.
fn operator(input: &str) -> Option<(BinOp, usize)> {
    let two = input.get(..2).unwrap_or("");
    let op = match two {
        "//" => return Some((BinOp::Div, 2)),
        "==" => return Some((BinOp::Eq, 2)),
        "!=" => return Some((BinOp::Ne, 2)),
        ">=" => return Some((BinOp::Ge, 2)),
        "<=" => return Some((BinOp::Le, 2)),
        _ => match input.bytes().next()? {
            b'*' => BinOp::Mul,
            b'/' => BinOp::Div,
            b'%' => BinOp::Rem,
            b'+' => BinOp::Add,
            b'-' => BinOp::Sub,
            b'>' => BinOp::Gt,
            b'<' => BinOp::Lt,
            _ => return None,
        },
    };
    Some((op, 1))
}

/// Keep/drop operations after a set (or a parenthesised value).
fn set_ops(input: &mut Input<'_>, items: usize) -> PResult<Vec<SetOp>> {
    let mut ops = Vec::new();
    loop {
        let lower = input.get(..2).unwrap_or(input).to_ascii_lowercase();
        let (keep, letters) = if lower.starts_with('k') {
            (true, 1)
        } else if lower.starts_with('p')
            || lower == "dh"
            || lower == "dl"
            || (lower.starts_with('d') && lower[1..].starts_with(|c: char| c.is_ascii_digit()))
        {
            (false, 1)
        } else {
            return Ok(ops);
        };
        let start = *input;
        *input = &input[letters..];
        let sel = selector(input, if keep { Rank::Highest } else { Rank::Lowest })?;
        let typed = &start[..start.len() - input.len()];
        check_rank(input, typed, sel, keep, items as u32, "elements")?;
        ops.push(if keep {
            SetOp::Keep(sel)
        } else {
            SetOp::Drop(sel)
        });
    }
}

/// What a bare number after an operation's letters means.
#[derive(Clone, Copy)]
enum Rank {
    Highest,
    Lowest,
    Middle,
    AtLeast,
    AtMost,
}

/// `h3`, `l1`, `<3`, `>4` or a bare number, read by `bare`.
fn selector(input: &mut Input<'_>, bare: Rank) -> PResult<Selector> {
    let kind = match input.bytes().next() {
        Some(b'h' | b'H') => Some(Rank::Highest),
        Some(b'l' | b'L') => Some(Rank::Lowest),
        Some(b'm' | b'M') => Some(Rank::Middle),
        Some(b'<') => Some(Rank::AtMost),
        Some(b'>') => Some(Rank::AtLeast),
        _ => None,
    };
    let strict = matches!(input.bytes().next(), Some(b'<' | b'>'));
    if kind.is_some() {
        let _ = input.next_token();
    }
    if !input.starts_with(|c: char| c.is_ascii_digit()) {
        return expected(input, Expected::OpValue);
    }
    let n = number(input)?;
    refuse(input, check_constant(n))?;
    let n = n as i64;
    Ok(match kind.unwrap_or(bare) {
        Rank::Highest => Selector::Highest(n as u32),
        Rank::Lowest => Selector::Lowest(n as u32),
        Rank::Middle => Selector::Middle(n as u32),
        Rank::AtLeast if strict => Selector::AtLeast(n + 1),
        Rank::AtMost if strict => Selector::AtMost(n - 1),
        Rank::AtLeast => Selector::AtLeast(n),
        Rank::AtMost => Selector::AtMost(n),
    })
}

/// One operation after dice (spaces before it allowed), or `None` when none follows.
fn dice_op(input: &mut Input<'_>, dice: &Dice) -> PResult<Option<Op>> {
    let save = *input;
    // `!` only right after the dice: after a space it starts a comment.
    if input.starts_with('!') && !input.starts_with("!=") {
        let _ = input.next_token();
        let op = Op::Explode(Selector::AtLeast(dice.sides.high()));
        check_op(input, "!", op, dice)?;
        return Ok(Some(op));
    }
    space0.parse_next(input)?;
    let lower: String = input
        .chars()
        .take(3)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let digit_at = |i: usize| lower[i.min(lower.len())..].starts_with(|c: char| c.is_ascii_digit());
    // (letters, what a bare number means, how to build the op)
    if lower == "adv" || lower == "dis" {
        return extra_dice(input, lower == "adv").map(Some);
    }
    if let Some(op) = counted_op(input, &lower, dice)? {
        return Ok(Some(op));
    }
    let (letters, bare, make): (usize, Rank, fn(Selector) -> Op) =
        if lower.starts_with("kh") || lower.starts_with("kl") || lower.starts_with('k') {
            (1, Rank::Highest, Op::Keep)
        } else if lower.starts_with("dh")
            || lower.starts_with("dl")
            || (lower.starts_with('d') && digit_at(1))
            || lower.starts_with('p')
        {
            (1, Rank::Lowest, Op::Drop)
        } else if lower.starts_with("irg") || lower.starts_with("rg") {
            // Dice Maiden's reroll of high faces: `rg5` once, `irg5` until below 5.
            if lower.starts_with('i') {
                (3, Rank::AtLeast, |s| Op::Reroll(Reroll::Until, s))
            } else {
                (2, Rank::AtLeast, |s| Op::Reroll(Reroll::Once, s))
            }
        } else if lower.starts_with("ro")
            || lower.starts_with("rr")
            || lower.starts_with("ra")
            || lower.starts_with("ir")
        {
            let make: fn(Selector) -> Op = match &lower[..2] {
                "ro" => |s| Op::Reroll(Reroll::Once, s),
                "ra" => |s| Op::Reroll(Reroll::Add, s),
                _ => |s| Op::Reroll(Reroll::Until, s),
            };
            // `ra6`: a die on that face or above rolls one more (as an explosion would).
            let bare = if lower.starts_with("ra") {
                Rank::AtLeast
            } else {
                Rank::AtMost
            };
            (2, bare, make)
        } else if lower.starts_with('r') {
            (1, Rank::AtMost, |s| Op::Reroll(Reroll::Once, s))
        } else if lower.starts_with("ie") || lower.starts_with('e') {
            let letters = if lower.starts_with('i') { 2 } else { 1 };
            let after = &input[letters..];
            if !after.starts_with(|c: char| c.is_ascii_digit() || c == '<' || c == '>') {
                // `e` alone explodes on the highest face.
                *input = after;
                let op = Op::Explode(Selector::AtLeast(dice.sides.high()));
                check_op(input, &save.trim_start()[..letters], op, dice)?;
                return Ok(Some(op));
            }
            (letters, Rank::AtLeast, Op::Explode)
        } else if lower.starts_with("mi") || lower.starts_with("ma") {
            let min = lower.starts_with("mi");
            *input = &input[2..];
            let value = value_number(input)?;
            let op = if min { Op::Min(value) } else { Op::Max(value) };
            let typed = &save.trim_start()[..save.trim_start().len() - input.len()];
            check_op(input, typed, op, dice)?;
            return Ok(Some(op));
        } else if lower.starts_with("ds") {
            // Dice Maiden's double successes: `t7ds10`, a 10 counts two.
            (2, Rank::AtLeast, Op::Double)
        } else if lower.starts_with("tl") {
            (2, Rank::AtMost, Op::Success)
        } else if lower.starts_with('t') {
            (1, Rank::AtLeast, Op::Success)
        } else if lower.starts_with('f') && (digit_at(1) || lower[1..].starts_with(['<', '>'])) {
            (1, Rank::AtMost, Op::Failure)
        } else {
            *input = save;
            return Ok(None);
        };
    let start = *input;
    *input = &input[letters..];
    let sel = selector(input, bare)?;
    let op = make(sel);
    let typed = &start[..start.len() - input.len()];
    check_op(input, typed, op, dice)?;
    Ok(Some(op))
}

/// Dice Maiden's implode (`i1`), botches (`b1`) and cancel (`c`); `i` and `b` alone mean the
/// lowest face. `None` (nothing read) for anything else, `ie`/`ir`/`irg` included.
fn counted_op(input: &mut Input<'_>, lower: &str, dice: &Dice) -> PResult<Option<Op>> {
    let next_digit = lower.chars().nth(1).is_some_and(|c| c.is_ascii_digit());
    if lower.starts_with('c') && !next_digit {
        *input = &input[1..];
        return Ok(Some(Op::Cancel));
    }
    let make: fn(Selector) -> Op = if lower.starts_with('b') {
        Op::Botch
    } else if lower.starts_with('i') && !lower.starts_with("ie") && !lower.starts_with("ir") {
        Op::Implode
    } else {
        return Ok(None);
    };
    let start = *input;
    *input = &input[1..];
    let sel = if input.starts_with(|c: char| c.is_ascii_digit() || c == '<' || c == '>') {
        selector(input, Rank::AtMost)?
    } else {
        Selector::AtMost(dice.sides.low())
    };
    let op = make(sel);
    check_op(input, &start[..start.len() - input.len()], op, dice)?;
    Ok(Some(op))
}

/// `adv` or `dis` (after its letters were seen), with an optional count.
fn extra_dice(input: &mut Input<'_>, advantage: bool) -> PResult<Op> {
    // Dice Maiden's `adv1`/`dis1`: more dice, the worst (best) dropped before explosions.
    let typed_start = *input;
    *input = &input[3..];
    let n = if input.starts_with(|c: char| c.is_ascii_digit()) {
        value_number(input)?
    } else {
        1
    };
    let typed = &typed_start[..typed_start.len() - input.len()];
    if n == 0 {
        refuse(
            input,
            Err(DiceError::KeepZero {
                op: typed.to_ascii_lowercase(),
            }),
        )?;
    }
    let n = n as u32;
    Ok(if advantage {
        Op::Advantage(n)
    } else {
        Op::Disadvantage(n)
    })
}

/// A plain number (for `mi`/`ma`).
fn value_number(input: &mut Input<'_>) -> PResult<i64> {
    if !input.starts_with(|c: char| c.is_ascii_digit()) {
        return expected(input, Expected::OpValue);
    }
    let n = number(input)?;
    refuse(input, check_constant(n))?;
    Ok(n as i64)
}

fn sides_text(sides: Sides) -> String {
    match sides {
        Sides::Number(n) => n.to_string(),
        Sides::Fate => "F".to_owned(),
    }
}

/// Checks one operation against the dice it acts on.
fn check_op(input: &Input<'_>, typed: &str, op: Op, dice: &Dice) -> PResult<()> {
    let (low, high) = (dice.sides.low(), dice.sides.high());
    let op_text = typed.trim().to_ascii_lowercase();
    let sides = sides_text(dice.sides);
    let covers = |sel: Selector| (low..=high).all(|v| sel.matches(v));
    let none = |sel: Selector| !(low..=high).any(|v| sel.matches(v));
    let refused = |e: DiceError| refuse(input, Err(e));
    match op {
        Op::Keep(sel) | Op::Drop(sel) => check_rank(
            input,
            &op_text,
            sel,
            matches!(op, Op::Keep(_)),
            dice.count,
            "dice",
        ),
        Op::Reroll(_, sel)
        | Op::Explode(sel)
        | Op::Success(sel)
        | Op::Failure(sel)
        | Op::Double(sel)
        | Op::Implode(sel)
        | Op::Botch(sel)
            if sel.by_rank() =>
        {
            refused(DiceError::RankNotAllowed {
                op: op_text,
                example: "r1, e6, t7 or f1",
            })
        }
        Op::Reroll(how, sel) if covers(sel) && how != Reroll::Add => {
            refused(DiceError::RerollEverything { op: op_text, sides })
        }
        Op::Reroll(_, sel) if none(sel) => refused(DiceError::SelectsNothing {
            op: op_text,
            sides,
            hint: "reroll a face the die can show, like r1",
        }),
        Op::Explode(sel) if covers(sel) => {
            refused(DiceError::ExplodesForever { op: op_text, sides })
        }
        Op::Explode(sel) if none(sel) => refused(DiceError::SelectsNothing {
            op: op_text,
            sides,
            hint: "explode on a face the die can show, like e6 on a d6",
        }),
        Op::Implode(sel) | Op::Botch(sel) if none(sel) => refused(DiceError::SelectsNothing {
            op: op_text,
            sides,
            hint: "give a face the die can show, like i1 or b1",
        }),
        Op::Min(v) | Op::Max(v) if v < low || v > high => refused(DiceError::OutsideFaces {
            op: op_text,
            sides,
            low,
            high,
        }),
        _ => Ok(()),
    }
}

/// Refuses operations that need another one beside them, or that would do nothing with it.
fn check_combination(dice: &Dice) -> Result<(), DiceError> {
    let has = |f: fn(&Op) -> bool| dice.ops.iter().any(f);
    let op = |o: Op| {
        let shown = Dice {
            ops: vec![o],
            ..dice.clone()
        }
        .to_string();
        shown
            .split_once(['d', 'D'])
            .map_or("", |(_, s)| s)
            .trim_start_matches(|c: char| c.is_ascii_digit() || c == 'F')
            .to_owned()
    };
    let implodes = dice
        .ops
        .iter()
        .filter(|o| matches!(o, Op::Implode(_)))
        .count();
    if implodes > 1 {
        return Err(DiceError::RepeatedOp { op: "i".into() });
    }
    if has(|o| matches!(o, Op::Cancel)) && !has(|o| matches!(o, Op::Failure(_))) {
        return Err(DiceError::NeedsOther {
            op: "c".into(),
            why: "cancels failures, so it needs them counted: add f1, as in 4d10 f1 t8 c",
        });
    }
    if let Some(implode) = dice.ops.iter().find(|o| matches!(o, Op::Implode(_)))
        && dice.counts_successes()
    {
        return Err(DiceError::NeedsOther {
            op: op(*implode),
            why: "subtracts from a total, and these dice count successes; to make low dice cost a success use f1, as in 6d10 t7 f1",
        });
    }
    Ok(())
}

/// Checks a keep or drop by rank against how many there are to keep or drop.
fn check_rank(
    input: &Input<'_>,
    typed: &str,
    sel: Selector,
    keep: bool,
    count: u32,
    what: &str,
) -> PResult<()> {
    let n = match sel {
        Selector::Highest(n) | Selector::Lowest(n) | Selector::Middle(n) => n,
        Selector::AtLeast(_) | Selector::AtMost(_) => return Ok(()),
    };
    let op = typed.trim().to_ascii_lowercase();
    if !keep && matches!(sel, Selector::Middle(_)) {
        return refuse(input, Err(DiceError::DropMiddle { op }));
    }
    let count_text = format!("{count} {what}");
    if n == 0 {
        return refuse(input, Err(DiceError::KeepZero { op }));
    }
    if keep && n > count {
        return refuse(
            input,
            Err(DiceError::KeepTooMany {
                op,
                count: count_text,
            }),
        );
    }
    // Dropping every die would leave an empty sum that still looks like a roll.
    if !keep && n >= count {
        return refuse(
            input,
            Err(DiceError::DropTooMany {
                op,
                count: count_text,
                max: count.saturating_sub(1),
            }),
        );
    }
    Ok(())
}

/// A decimal number of at most [`MAX_DIGITS`] digits (longer ones are refused, not wrapped).
pub(super) fn number(input: &mut Input<'_>) -> PResult<u64> {
    let start = input.len();
    let digits = digit1.parse_next(input)?;
    if digits.len() > MAX_DIGITS {
        return Err(Fail::cut(
            start,
            Why::NumberTooLong {
                digits: digits.len(),
            },
        ));
    }
    Ok(digits
        .bytes()
        .fold(0, |n, digit| n * 10 + u64::from(digit - b'0')))
}

pub(super) fn check_dice_total(total: u64, limits: &Limits) -> Result<(), DiceError> {
    if total > u64::from(limits.max_dice) {
        return Err(DiceError::TooManyDice {
            limit: limits.max_dice,
            asked: total,
        });
    }
    Ok(())
}

pub(super) fn check_sides(sides: u64, limits: &Limits) -> Result<(), DiceError> {
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

fn to_dice_error(err: ErrMode<Fail>, input: &str) -> DiceError {
    let fail = match err {
        ErrMode::Backtrack(fail) | ErrMode::Cut(fail) => fail,
        // Only partial streams report incomplete input; treat it as "stopped too early".
        ErrMode::Incomplete(_) => Fail {
            rest: 0,
            why: Why::Expected(None),
        },
    };
    let offset = input.len().saturating_sub(fail.rest);
    let position = input
        .get(..offset)
        .map_or(offset, |read| read.chars().count())
        + 1;
    match fail.why {
        Why::Expected(expected) => DiceError::Syntax {
            input: input.to_owned(),
            position,
            expected: expected.unwrap_or(Expected::Term),
        },
        Why::Refused(err) => err,
        Why::NumberTooLong { digits } => DiceError::NumberTooLong { position, digits },
    }
}
