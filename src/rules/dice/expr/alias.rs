//! The system aliases players of Dice Maiden type, read into the same tree as any roll.
//!
//! Owns the spellings and what each stands for (facts of those games' dice, in our own words):
//!
//! | typed | read as | game |
//! |---|---|---|
//! | `dndstats` | `6 4d6kh3` | D&D ability scores |
//! | `+d20` / `-d20` (start of a roll) | `2d20kh1` / `2d20kl1` | advantage / disadvantage |
//! | `+d%` / `-d%` (start of a roll) | `2d10kl1 * 10 + 1d10 - 10` / `2d10kh1 …` | percentile with a better / worse tens die |
//! | `4cod`, `4cod8`, `4cod9` | `4d10t8e10` (`e8`, `e9`) | Chronicles of Darkness (10-, 8-, 9-again) |
//! | `4codr` | `4d10t8e10r7` | Chronicles of Darkness, rote quality |
//! | `4wod8`, `4wod8c` | `4d10f1t8` (`c`: each 10 cancels a 1) | World of Darkness, difficulty 8 |
//! | `sr6` | `6d6t5` | Shadowrun 6th edition |
//! | `6yz` | `6d6t6` | Year Zero |
//! | `3wh4+` | `3d6t4` | Warhammer, hits on 4+ |
//! | `sp4`, `sp4t6` | `4d10t8e10` (`t6`) | Storypath |
//! | `dd34` | `(1d3 * 10 + 1d4)` | double-digit dice (d66 style) |
//!
//! Fate dice (`3df`) are dice of their own (`Sides::Fate`), not an alias. Never rolls.

use super::tree::{BinOp, Dice, Node, Op, Reroll, Selector, Sides};
use super::{DiceError, Limits};

/// A whole-roll alias at the start of a roll: its name, how many times it repeats, its value.
/// Consumes it from `input` when found.
pub(super) fn whole_roll(input: &mut Input<'_>) -> Option<(&'static str, u32, Node)> {
    let lower: String = input
        .chars()
        .take(9)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let boundary = |len: usize| {
        !input
            .get(len..)
            .unwrap_or("")
            .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '%')
    };
    let found = if lower.starts_with("dndstats") && boundary(8) {
        Some(("dndstats", 8, 6, keep(4, 6, Selector::Highest(3))))
    } else if lower.starts_with("+d20") && boundary(4) {
        Some(("+d20", 4, 1, keep(2, 20, Selector::Highest(1))))
    } else if lower.starts_with("-d20") && boundary(4) {
        Some(("-d20", 4, 1, keep(2, 20, Selector::Lowest(1))))
    } else if lower.starts_with("+d%") {
        Some(("+d%", 3, 1, percentile(Selector::Lowest(1))))
    } else if lower.starts_with("-d%") {
        Some(("-d%", 3, 1, percentile(Selector::Highest(1))))
    } else {
        None
    };
    let (name, len, repeat, node) = found?;
    *input = &input[len..];
    Some((name, repeat, node))
}

fn dice(count: u32, sides: u32, ops: Vec<Op>) -> Node {
    Node::Dice(Dice {
        count,
        sides: Sides::Number(sides),
        ops,
    })
}

fn keep(count: u32, sides: u32, sel: Selector) -> Node {
    dice(count, sides, vec![Op::Keep(sel)])
}

fn bin(a: Node, op: BinOp, b: Node) -> Node {
    Node::Binary(Box::new(a), op, Box::new(b))
}

/// `2d10k… * 10 + 1d10 - 10`: the tens die rolled twice, one kept.
fn percentile(tens: Selector) -> Node {
    let tens = bin(keep(2, 10, tens), BinOp::Mul, Node::Number(10));
    bin(
        bin(tens, BinOp::Add, dice(1, 10, Vec::new())),
        BinOp::Sub,
        Node::Number(10),
    )
}

/// A system alias where a value may stand (`4cod`, `sr6`, `dd34`), consumed when found.
pub(super) fn atom(input: &mut Input<'_>, limits: &Limits) -> Result<Option<Node>, DiceError> {
    let save = *input;
    let found = read_atom(input, limits);
    if !matches!(found, Ok(Some(_))) {
        *input = save;
    }
    found
}

type Input<'i> = &'i str;

/// A count at the start of `input`, consumed; `None` without digits or past 9 digits (no alias
/// takes a count that large, and the parser reads such a number itself, with its error).
fn small(input: &mut Input<'_>) -> Option<u64> {
    let digits = input.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let value = input[..digits].parse().ok()?;
    *input = &input[digits..];
    Some(value)
}

fn eat(input: &mut Input<'_>, word: &str) -> bool {
    match input.get(..word.len()) {
        Some(head) if head.eq_ignore_ascii_case(word) => {
            *input = &input[word.len()..];
            true
        }
        _ => false,
    }
}

fn ends(input: &Input<'_>) -> bool {
    !input.starts_with(|c: char| c.is_ascii_alphanumeric())
}

fn bad(alias: &str, why: &str) -> DiceError {
    DiceError::BadAlias {
        alias: alias.to_owned(),
        why: why.to_owned(),
    }
}

fn pool(typed: &str, count: u64, limits: &Limits) -> Result<u32, DiceError> {
    if count == 0 {
        return Err(bad(typed, "needs at least 1 die"));
    }
    if count > u64::from(limits.max_dice) {
        return Err(DiceError::TooManyDice {
            limit: limits.max_dice,
            asked: count,
        });
    }
    Ok(count as u32)
}

fn face(typed: &str, value: u64, sides: u64) -> Result<i64, DiceError> {
    if (2..=sides).contains(&value) {
        Ok(value as i64)
    } else {
        Err(bad(typed, &format!("needs a number from 2 to {sides}")))
    }
}

fn read_atom(input: &mut Input<'_>, limits: &Limits) -> Result<Option<Node>, DiceError> {
    let start = *input;
    let typed = |rest: &Input<'_>| start[..start.len() - rest.len()].to_owned();
    if let Some(n) = small(input) {
        return counted(input, start, n, limits);
    }
    if eat(input, "sr") {
        let Some(n) = small(input) else {
            return Ok(None);
        };
        if !ends(input) {
            return Ok(None);
        }
        let n = pool(&typed(input), n, limits)?;
        return Ok(Some(dice(n, 6, vec![Op::Success(Selector::AtLeast(5))])));
    }
    if eat(input, "sp") {
        let Some(n) = small(input) else {
            return Ok(None);
        };
        let target = if eat(input, "t") {
            small(input)
        } else {
            Some(8)
        };
        let Some(target) = target else {
            return Ok(None);
        };
        if !ends(input) {
            return Ok(None);
        }
        let t = typed(input);
        let target = face(&t, target, 10)?;
        let n = pool(&t, n, limits)?;
        let ops = vec![
            Op::Success(Selector::AtLeast(target)),
            Op::Explode(Selector::AtLeast(10)),
        ];
        return Ok(Some(dice(n, 10, ops)));
    }
    if eat(input, "dd") {
        let digits: Vec<u32> = input
            .bytes()
            .take_while(u8::is_ascii_digit)
            .map(|b| u32::from(b - b'0'))
            .collect();
        let [tens, units] = digits[..] else {
            return Ok(None);
        };
        *input = &input[2..];
        if !ends(input) {
            return Ok(None);
        }
        let t = typed(input);
        if tens < 2 || units < 2 {
            return Err(bad(&t, "needs two dice of 2 to 9 sides, like dd34 or dd66"));
        }
        let tens = bin(dice(1, tens, Vec::new()), BinOp::Mul, Node::Number(10));
        return Ok(Some(Node::Paren(Box::new(bin(
            tens,
            BinOp::Add,
            dice(1, units, Vec::new()),
        )))));
    }
    Ok(None)
}

/// The aliases that start with a count: `4cod`, `4wod8`, `6yz`, `3wh4+`.
fn counted(
    input: &mut Input<'_>,
    start: Input<'_>,
    n: u64,
    limits: &Limits,
) -> Result<Option<Node>, DiceError> {
    let typed = |rest: &Input<'_>| start[..start.len() - rest.len()].to_owned();
    if eat(input, "cod") {
        let again = small(input).unwrap_or(10);
        // `4codr`: the rote quality, a failed die rolled again once.
        let rote = eat(input, "r");
        if !ends(input) {
            return Ok(None);
        }
        let t = typed(input);
        let again = face(&t, again, 10)?;
        let n = pool(&t, n, limits)?;
        let mut ops = vec![
            Op::Success(Selector::AtLeast(8)),
            Op::Explode(Selector::AtLeast(again)),
        ];
        if rote {
            ops.insert(0, Op::Reroll(Reroll::Once, Selector::AtMost(7)));
        }
        return Ok(Some(dice(n, 10, ops)));
    }
    if eat(input, "wod") {
        let Some(difficulty) = small(input) else {
            return Ok(None);
        };
        // `4wod8c`: each 10 cancels a 1.
        let cancel = eat(input, "c");
        if !ends(input) {
            return Ok(None);
        }
        let t = typed(input);
        let difficulty = face(&t, difficulty, 10)?;
        let n = pool(&t, n, limits)?;
        let mut ops = vec![
            Op::Failure(Selector::AtMost(1)),
            Op::Success(Selector::AtLeast(difficulty)),
        ];
        if cancel {
            ops.push(Op::Cancel);
        }
        return Ok(Some(dice(n, 10, ops)));
    }
    if eat(input, "yz") && ends(input) {
        let n = pool(&typed(input), n, limits)?;
        return Ok(Some(dice(n, 6, vec![Op::Success(Selector::AtLeast(6))])));
    }
    if eat(input, "wh") {
        let Some(hit) = small(input) else {
            return Ok(None);
        };
        if !eat(input, "+") {
            return Ok(None);
        }
        let t = typed(input);
        let hit = face(&t, hit, 6)?;
        let n = pool(&t, n, limits)?;
        return Ok(Some(dice(n, 6, vec![Op::Success(Selector::AtLeast(hit))])));
    }
    Ok(None)
}
