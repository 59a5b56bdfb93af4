//! The winnow grammar of dice expressions (see the parent module for it in full).
//!
//! Owns reading text into an [`Expr`] and turning winnow's failures into [`DiceError`]s with a
//! position. Every number is checked against the [`Limits`] the moment it is read, and the only
//! allocation is the list of terms, whose length is itself bounded. Never rolls.

use winnow::ascii::{digit1, space0};
use winnow::combinator::{alt, cut_err, opt};
use winnow::error::{AddContext, ErrMode, ModalResult, ParserError};
use winnow::prelude::*;
use winnow::stream::Stream;
use winnow::token::one_of;

use super::{
    DiceError, DiceTerm, Expected, Expr, Keep, KeepRule, Limits, MAX_DIGITS, Sign, Term, TermKind,
    check_constant, check_count, check_dice_total, check_keep, check_reroll, check_sides,
};

/// Parses and checks an expression against `limits`.
///
/// The length is checked first, then every number as it is read, so an oversized request fails
/// before anything is allocated for it.
pub fn parse(input: &str, limits: &Limits) -> Result<Expr, DiceError> {
    expression(input, limits)
}

type Input<'i> = &'i str;
type PResult<T> = ModalResult<T, Fail>;

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
    Repeated(&'static str),
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

// Decision: the grammar is strict where a lenient reading could guess wrong. Spaces are allowed
// only around terms and operators (not inside `4d6kh3`); every letter is case-insensitive
// (phones capitalize `D20`); a drop needs its side (`dh`/`dl`: a bare `d` would read as another
// die) while `k3` means `kh3`; each modifier appears at most once per group but in any order; a
// leading `-` is accepted, a leading `+` is not.
// Decision: requests that parse but make no sense at a table are refused with their own error
// rather than quietly fixed: `0d6`, `d1` (so also `d1!`, which would explode forever), keeping 0
// or more dice than rolled, dropping all of them, `r0`, and an `r` at or above the sides.

/// Parses `input` whole; see [`super::parse`].
pub(super) fn expression(input: &str, limits: &Limits) -> Result<Expr, DiceError> {
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
    };
    let mut rest = input;
    reader
        .expr(&mut rest)
        .map_err(|err| to_dice_error(err, input))
}

/// The running counts that are limited across the whole expression.
struct Reader<'l> {
    limits: &'l Limits,
    dice: u64,
    terms: u32,
}

impl Reader<'_> {
    fn expr(&mut self, input: &mut Input<'_>) -> PResult<Expr> {
        space0.parse_next(input)?;
        let mut sign = match opt('-').parse_next(input)? {
            Some(_) => Sign::Minus,
            None => Sign::Plus,
        };
        // Only the first few terms are typical; the vector grows at most to `max_terms`.
        let mut terms = Vec::with_capacity(4);
        loop {
            space0.parse_next(input)?;
            let kind = self.term(input)?;
            terms.push(Term { sign, kind });
            space0.parse_next(input)?;
            if input.is_empty() {
                return Ok(Expr { terms });
            }
            let expected = match kind {
                TermKind::Dice(_) => Expected::AfterDice,
                TermKind::Constant(_) => Expected::AfterNumber,
            };
            sign = cut_err(alt(('+'.value(Sign::Plus), '-'.value(Sign::Minus))))
                .context(expected)
                .parse_next(input)?;
        }
    }

    fn term(&mut self, input: &mut Input<'_>) -> PResult<TermKind> {
        self.terms += 1;
        if self.terms > self.limits.max_terms {
            return Err(Fail::cut(
                input.len(),
                Why::Refused(DiceError::TooManyTerms {
                    limit: self.limits.max_terms,
                    asked: self.terms,
                }),
            ));
        }
        let count = opt(number).parse_next(input)?;
        let is_dice = opt(one_of(['d', 'D'])).parse_next(input)?.is_some();
        match (count, is_dice) {
            (_, true) => self.dice(input, count.unwrap_or(1)).map(TermKind::Dice),
            (Some(value), false) => {
                refuse(input, check_constant(value))?;
                Ok(TermKind::Constant(value as u32))
            }
            (None, false) => Err(Fail::cut(input.len(), Why::Expected(Some(Expected::Term)))),
        }
    }

    /// A dice group after its `d`: sides, then modifiers.
    fn dice(&mut self, input: &mut Input<'_>, count: u64) -> PResult<DiceTerm> {
        // The total is checked before the sides are read, so a huge count fails right there.
        self.dice = self.dice.saturating_add(count);
        refuse(input, check_dice_total(self.dice, self.limits))?;
        let sides = cut_err(alt(('%'.value(100), number)))
            .context(Expected::Sides)
            .parse_next(input)?;
        refuse(input, check_count(count, sides, self.limits))?;
        refuse(input, check_sides(sides, self.limits))?;
        // Both fit in u32 now: they are at most `max_dice` and `max_sides`.
        let mut term = DiceTerm {
            count: count as u32,
            sides: sides as u32,
            reroll: None,
            explode: false,
            keep: None,
        };
        loop {
            let start = input.len();
            let Some(modifier) =
                opt(one_of(['!', 'r', 'R', 'k', 'K', 'd', 'D'])).parse_next(input)?
            else {
                return Ok(term);
            };
            match modifier.to_ascii_lowercase() {
                '!' => {
                    if term.explode {
                        return Err(Fail::cut(start, Why::Repeated("!")));
                    }
                    term.explode = true;
                }
                'r' => {
                    if term.reroll.is_some() {
                        return Err(Fail::cut(start, Why::Repeated("r")));
                    }
                    let value = cut_err(number)
                        .context(Expected::RerollValue)
                        .parse_next(input)?;
                    refuse(input, check_reroll(value, term.sides))?;
                    term.reroll = Some(value as u32);
                }
                keep_or_drop => {
                    if term.keep.is_some() {
                        return Err(Fail::cut(start, Why::Repeated("keep/drop")));
                    }
                    let rule = if keep_or_drop == 'k' {
                        keep_side(input)?
                    } else {
                        drop_side(input)?
                    };
                    let asked = cut_err(number)
                        .context(Expected::KeepCount)
                        .parse_next(input)?;
                    refuse(input, check_keep(rule, asked, term.count))?;
                    term.keep = Some(Keep {
                        rule,
                        count: asked as u32,
                    });
                }
            }
        }
    }
}

/// After `k`: `h`, `l` or nothing (`k3` keeps the highest three).
fn keep_side(input: &mut Input<'_>) -> PResult<KeepRule> {
    Ok(match opt(one_of(['h', 'H', 'l', 'L'])).parse_next(input)? {
        Some('l' | 'L') => KeepRule::KeepLowest,
        _ => KeepRule::KeepHighest,
    })
}

/// After a drop's `d`: `h` or `l`, required (a bare `d` would read as another die).
fn drop_side(input: &mut Input<'_>) -> PResult<KeepRule> {
    let side = cut_err(one_of(['h', 'H', 'l', 'L']))
        .context(Expected::DropSide)
        .parse_next(input)?;
    Ok(if side.eq_ignore_ascii_case(&'h') {
        KeepRule::DropHighest
    } else {
        KeepRule::DropLowest
    })
}

/// A decimal number of at most [`MAX_DIGITS`] digits (longer ones are refused, not wrapped).
fn number(input: &mut Input<'_>) -> PResult<u64> {
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

/// Lifts a limit check into the grammar as a failure that stops parsing.
fn refuse(input: &Input<'_>, check: Result<(), DiceError>) -> PResult<()> {
    check.map_err(|err| Fail::cut(input.len(), Why::Refused(err)))
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
        Why::Repeated(modifier) => DiceError::RepeatedModifier { modifier, position },
    }
}
