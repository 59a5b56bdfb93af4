//! Rolling a parsed [`Expr`]: every die, what happened to it, and the total.
//!
//! Owns the meaning of the modifiers at the table (reroll, explode, keep/drop) and the explosion
//! cap. Dice come only from the [`DieSource`] passed in; the result is plain data for the `bot`
//! layer to show, never a formatted message.

use super::{DiceError, DiceTerm, Expr, Keep, KeepRule, Limits, Sign, TermKind};
use crate::rules::dice::DieSource;

/// Everything rolled for one expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollResult {
    /// One entry per term, in the order typed.
    pub terms: Vec<TermResult>,
    /// The sum of the signed term values.
    pub total: i64,
    /// Whether the explosion cap stopped a die from exploding further.
    pub explosions_capped: bool,
}

/// One term as rolled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TermResult {
    pub sign: Sign,
    pub outcome: TermOutcome,
    /// What the term adds to the total, sign applied.
    pub value: i64,
}

/// A dice group with each die, or a plain number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TermOutcome {
    Dice {
        term: DiceTerm,
        dice: Vec<DieResult>,
    },
    Constant(u32),
}

/// One die of a group, with its history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DieResult {
    /// The face that stands (after a reroll, if there was one).
    pub face: u32,
    /// The face that was rerolled away (`r`), if any.
    pub rerolled_from: Option<u32>,
    /// The extra rolls this die exploded into (`!`), in order; each but the last is a highest face.
    pub explosions: Vec<u32>,
    /// Whether the die counts toward its group's sum (keep/drop).
    pub kept: bool,
    /// Whether the explosion cap stopped this die while it was still showing its highest face.
    pub capped: bool,
}

impl DieResult {
    /// The die's worth: its face plus every explosion roll.
    pub fn value(&self) -> i64 {
        i64::from(self.face) + self.explosions.iter().map(|&f| i64::from(f)).sum::<i64>()
    }

    /// Whether the die exploded at least once.
    pub fn exploded(&self) -> bool {
        !self.explosions.is_empty()
    }
}

impl Expr {
    /// Rolls the expression with `dice`.
    ///
    /// Fails only if the expression breaks `limits` (possible when it was parsed with looser
    /// ones). The explosion cap does not fail a roll: see the decision below.
    pub fn roll(
        &self,
        dice: &mut impl DieSource,
        limits: &Limits,
    ) -> Result<RollResult, DiceError> {
        self.check(limits)?;
        let mut explosions_left = limits.max_explosions;
        let mut terms = Vec::with_capacity(self.terms.len());
        let mut total: i64 = 0;
        for term in &self.terms {
            let (outcome, amount) = match term.kind {
                TermKind::Constant(c) => (TermOutcome::Constant(c), i64::from(c)),
                TermKind::Dice(group) => {
                    let rolled = roll_group(&group, dice, &mut explosions_left);
                    let sum = rolled.iter().filter(|d| d.kept).map(DieResult::value).sum();
                    (
                        TermOutcome::Dice {
                            term: group,
                            dice: rolled,
                        },
                        sum,
                    )
                }
            };
            let value = term.sign.apply(amount);
            total = total.saturating_add(value);
            terms.push(TermResult {
                sign: term.sign,
                outcome,
                value,
            });
        }
        let explosions_capped = terms.iter().any(|t| match &t.outcome {
            TermOutcome::Dice { dice, .. } => dice.iter().any(|d| d.capped),
            TermOutcome::Constant(_) => false,
        });
        Ok(RollResult {
            terms,
            total,
            explosions_capped,
        })
    }
}

fn roll_group(
    group: &DiceTerm,
    source: &mut impl DieSource,
    explosions_left: &mut u32,
) -> Vec<DieResult> {
    let mut dice: Vec<DieResult> = (0..group.count)
        .map(|_| roll_die(group, source, explosions_left))
        .collect();
    if let Some(keep) = group.keep {
        mark_kept(&mut dice, keep);
    }
    dice
}

// Decision: `r` rerolls a low die ONCE and the new face stands, even if it is low again; a
// bounded choice (no loop to cap), and the common table reading of "reroll 1s".
// Decision: explosions compound on the die that exploded (its value is the sum of its rolls), so
// keep/drop and the dice count see the same dice the player asked for; the extra rolls are
// neither rerolled nor counted as dice.
// Decision: when the explosion cap (`max_explosions`, across the whole roll) is reached, dice
// stop exploding and are marked `capped` rather than failing the roll: a player who rolls
// 100d2! should still get a result, and the flag lets the bot say it was cut short.
fn roll_die(group: &DiceTerm, source: &mut impl DieSource, explosions_left: &mut u32) -> DieResult {
    let first = source.roll(group.sides);
    let (face, rerolled_from) = match group.reroll {
        Some(low) if first <= low => (source.roll(group.sides), Some(first)),
        _ => (first, None),
    };
    let mut die = DieResult {
        face,
        rerolled_from,
        explosions: Vec::new(),
        kept: true,
        capped: false,
    };
    if group.explode {
        let mut last = face;
        while last == group.sides {
            if *explosions_left == 0 {
                die.capped = true;
                break;
            }
            *explosions_left -= 1;
            last = source.roll(group.sides);
            die.explosions.push(last);
        }
    }
    die
}

/// Marks the dice that do not count. Ties go to the die rolled first.
fn mark_kept(dice: &mut [DieResult], keep: Keep) {
    let counted = keep.counted(dice.len() as u32) as usize;
    // Keeping the lowest n is dropping the highest (len - n), and the reverse.
    let highest_first = matches!(keep.rule, KeepRule::KeepHighest | KeepRule::DropLowest);
    let mut order: Vec<usize> = (0..dice.len()).collect();
    // A stable sort keeps equal dice in the order rolled.
    order.sort_by(|&a, &b| {
        let by_value = dice[a].value().cmp(&dice[b].value());
        if highest_first {
            by_value.reverse()
        } else {
            by_value
        }
    });
    for &i in order.iter().skip(counted) {
        dice[i].kept = false;
    }
}
