//! Rolling the tree: every die, what happened to it, and each value.
//!
//! Owns the meaning of the operations at the table and the cap on extra rolls. Dice come only
//! from the [`DieSource`] passed in; the result is plain data for the `app` layer to show, never
//! a formatted message.

use super::tree::{BinOp, Dice, Expr, Node, Op, Reroll, Selector, SetOp};
use super::{DiceError, Limits};
use crate::rules::dice::DieSource;

/// Everything rolled for one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// One entry per roll of the message (`;`), in order.
    pub rolls: Vec<RollOutcome>,
    /// Whether the cap on extra rolls stopped a die from exploding or rerolling further.
    pub capped: bool,
}

/// One roll, once per repeat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollOutcome {
    pub sets: Vec<ValueOutcome>,
}

/// A rolled value, shaped as the tree it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueOutcome {
    Number(i64),
    Dice {
        spec: Dice,
        dice: Vec<DieOutcome>,
        value: i64,
    },
    Set {
        items: Vec<ValueOutcome>,
        kept: Vec<bool>,
        value: i64,
    },
    Paren(Box<ValueOutcome>),
    Neg(Box<ValueOutcome>),
    Binary(Box<ValueOutcome>, BinOp, Box<ValueOutcome>, i64),
    Annotated(Box<ValueOutcome>, String),
}

impl ValueOutcome {
    /// What this part is worth.
    pub fn value(&self) -> i64 {
        match self {
            Self::Number(v) => *v,
            Self::Dice { value, .. } | Self::Set { value, .. } | Self::Binary(.., value) => *value,
            Self::Paren(inner) | Self::Annotated(inner, _) => inner.value(),
            Self::Neg(inner) => inner.value().saturating_neg(),
        }
    }
}

/// One die with its history.
// Each flag is a separate fact about the die, shown on its own.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DieOutcome {
    /// Faces rerolled away, in order (`1→4`: `[1]`).
    pub rerolled: Vec<i64>,
    /// The face that stands.
    pub face: i64,
    /// What it counts after a minimum or maximum (`mi2`: a 1 counts 2).
    pub value: i64,
    pub kept: bool,
    /// It matched the explosion and the next die was rolled for it.
    pub exploded: bool,
    /// It was added by an explosion or by `ra`.
    pub extra: bool,
    /// +1 a success, +2 a double success (`ds`), -1 a failure, 0 neither (`t`/`f`).
    pub success: i8,
    /// The cap on extra rolls stopped it.
    pub capped: bool,
    /// A fresh die rolled by an implosion (`i1`): subtracted from the total, never kept,
    /// dropped or counted as a success.
    pub subtracted: bool,
    /// Counted as a botch (`b1`).
    pub botch: bool,
    /// A failure cancelled by a die on the highest face (`c`).
    pub cancelled: bool,
}

impl Expr {
    /// Rolls every roll of the message with `dice`.
    ///
    /// Fails only on division by zero or a total past what an `i64` holds. The cap on extra
    /// rolls does not fail a roll: see the decision below.
    pub fn roll(&self, dice: &mut impl DieSource, limits: &Limits) -> Result<Outcome, DiceError> {
        let mut roller = Roller {
            source: dice,
            extra_left: limits.max_explosions,
            capped: false,
        };
        let mut rolls = Vec::with_capacity(self.rolls.len());
        for roll in &self.rolls {
            let mut sets = Vec::with_capacity(roll.repeat as usize);
            for _ in 0..roll.repeat {
                sets.push(roller.value(&roll.node)?);
            }
            rolls.push(RollOutcome { sets });
        }
        Ok(Outcome {
            rolls,
            capped: roller.capped,
        })
    }
}

// Decision: operations apply in stages, whatever order they are typed in (as Dice Maiden says
// of its own): 1. each die on its own, in the order written: rerolls (`r`/`ro` once, `rr`/`ir`
// until), explosions, minimum and maximum; 2. `ra`, for the first die that matches, then `i`,
// for every die the expression rolled whose face matches (a fresh die to subtract, rolled once:
// it never explodes, implodes or enters the pool); 3. keep and drop, in the order written,
// among the dice still counted; 4. the sum of the kept dice, or with `t`/`f` their successes
// less their failures (with `c`, each kept highest face cancels one failure), less the
// imploded dice; botches (`b`) are counted among the kept dice beside it.
// Decision: an explosion adds a die of its own, shown right after the die that exploded (as both
// references do), so keep/drop and success counting see it; the added die can explode again.
// Decision: explosions and rerolls-until share one cap for the whole message (the configured
// `max_explosions`, Dice Maiden's 100); past it a die stands as it is, marked, and the reply
// says so, rather than the roll failing.
struct Roller<'s, S: DieSource> {
    source: &'s mut S,
    extra_left: u32,
    capped: bool,
}

impl<S: DieSource> Roller<'_, S> {
    fn value(&mut self, node: &Node) -> Result<ValueOutcome, DiceError> {
        Ok(match node {
            Node::Number(v) => ValueOutcome::Number(*v),
            Node::Dice(spec) => self.dice(spec),
            Node::Set(items, ops) => {
                let items = items
                    .iter()
                    .map(|item| self.value(item))
                    .collect::<Result<Vec<_>, _>>()?;
                let values: Vec<i64> = items.iter().map(ValueOutcome::value).collect();
                let mut kept = vec![true; items.len()];
                for op in ops {
                    match op {
                        SetOp::Keep(sel) => select(&values, &mut kept, *sel, true),
                        SetOp::Drop(sel) => select(&values, &mut kept, *sel, false),
                    }
                }
                let value = sum_kept(&values, &kept)?;
                ValueOutcome::Set { items, kept, value }
            }
            Node::Paren(inner) => ValueOutcome::Paren(Box::new(self.value(inner)?)),
            Node::Neg(inner) => {
                let inner = self.value(inner)?;
                inner.value().checked_neg().ok_or(DiceError::Overflow)?;
                ValueOutcome::Neg(Box::new(inner))
            }
            Node::Annotated(inner, text) => {
                ValueOutcome::Annotated(Box::new(self.value(inner)?), text.clone())
            }
            Node::Binary(a, op, b) => {
                let a = self.value(a)?;
                let b = self.value(b)?;
                let value = apply(*op, a.value(), b.value())?;
                ValueOutcome::Binary(Box::new(a), *op, Box::new(b), value)
            }
        })
    }

    fn face(&mut self, spec: &Dice) -> i64 {
        spec.sides.value(self.source.roll(spec.sides.faces()))
    }

    /// One more roll within the cap, or `false` when the cap is reached.
    fn take_extra(&mut self) -> bool {
        if self.extra_left == 0 {
            self.capped = true;
            return false;
        }
        self.extra_left -= 1;
        true
    }

    fn dice(&mut self, spec: &Dice) -> ValueOutcome {
        let mut dice = Vec::with_capacity(spec.count as usize);
        // Stage 0: advantage or disadvantage rolls more dice and drops some before explosions.
        // Without it each die explodes as soon as it is rolled (the order dice are drawn in).
        let extra = spec.extra();
        if extra == 0 {
            for _ in 0..spec.count {
                let rolled = self.base_die(spec);
                self.push_exploding(spec, &mut dice, rolled);
            }
        }
        let mut base: Vec<DieOutcome> = if extra == 0 {
            Vec::new()
        } else {
            (0..spec.count + extra)
                .map(|_| self.base_die(spec))
                .collect()
        };
        if extra > 0 {
            let values: Vec<i64> = base.iter().map(|d| d.value).collect();
            let mut kept = vec![true; base.len()];
            let worst = if spec.ops.iter().any(|op| matches!(op, Op::Disadvantage(_))) {
                Selector::Highest(extra)
            } else {
                Selector::Lowest(extra)
            };
            select(&values, &mut kept, worst, false);
            for (die, k) in base.iter_mut().zip(kept) {
                die.kept = k;
            }
        }
        for die in base.drain(..) {
            self.push_exploding(spec, &mut dice, die);
        }
        // Stage 2: `ra`, then implosions, for the dice the expression rolled (not those an
        // explosion added, nor those advantage dropped).
        for op in &spec.ops {
            if let Op::Reroll(Reroll::Add, sel) = op
                && let Some(at) = dice
                    .iter()
                    .position(|d| !d.extra && d.kept && sel.matches(d.value))
            {
                let face = self.face(spec);
                let mut added = plain(face, true);
                added.value = clamp(spec, face);
                dice.insert(at + 1, added);
            }
        }
        self.implode(spec, &mut dice);
        // Stage 3: keep and drop, among the dice in the pool.
        let pool: Vec<usize> = (0..dice.len()).filter(|&i| !dice[i].subtracted).collect();
        for op in &spec.ops {
            let values: Vec<i64> = pool.iter().map(|&i| dice[i].value).collect();
            let mut kept: Vec<bool> = pool.iter().map(|&i| dice[i].kept).collect();
            match op {
                Op::Keep(sel) => select(&values, &mut kept, *sel, true),
                Op::Drop(sel) => select(&values, &mut kept, *sel, false),
                _ => continue,
            }
            for (&i, k) in pool.iter().zip(kept) {
                dice[i].kept = k;
            }
        }
        // Stage 4: successes or the sum, less what implosions subtract; botches beside it.
        let counts = spec.counts_successes();
        let botch = spec.ops.iter().find_map(|op| match op {
            Op::Botch(sel) => Some(*sel),
            _ => None,
        });
        for die in &mut dice {
            if die.subtracted {
                continue;
            }
            if counts {
                die.success = success(spec, die.value);
            }
            die.botch = die.kept && botch.is_some_and(|sel| sel.matches(die.value));
        }
        if spec.ops.contains(&Op::Cancel) {
            cancel(spec, &mut dice);
        }
        let mut value: i64 = 0;
        for die in &dice {
            if die.subtracted {
                value -= die.value;
            } else if die.kept {
                value += if counts {
                    i64::from(die.success)
                } else {
                    die.value
                };
            }
        }
        ValueOutcome::Dice {
            spec: spec.clone(),
            dice,
            value,
        }
    }

    /// Stage 2's implosions: a fresh die to subtract after each die the expression rolled
    /// whose face matches.
    fn implode(&mut self, spec: &Dice, dice: &mut Vec<DieOutcome>) {
        let Some(sel) = spec.ops.iter().find_map(|op| match op {
            Op::Implode(sel) => Some(*sel),
            _ => None,
        }) else {
            return;
        };
        let mut at = 0;
        while at < dice.len() {
            let d = &dice[at];
            if !d.extra && d.kept && sel.matches(d.face) {
                let mut minus = plain(self.face(spec), true);
                minus.subtracted = true;
                minus.kept = false;
                dice.insert(at + 1, minus);
                at += 1;
            }
            at += 1;
        }
    }

    /// One of the dice asked for through stage 1's rerolls, its value after minimum/maximum.
    fn base_die(&mut self, spec: &Dice) -> DieOutcome {
        let mut current = plain(self.face(spec), false);
        for op in &spec.ops {
            match *op {
                Op::Reroll(Reroll::Once, sel) if sel.matches(current.face) => {
                    current.rerolled.push(current.face);
                    current.face = self.face(spec);
                }
                Op::Reroll(Reroll::Until, sel) => {
                    while sel.matches(current.face) {
                        if !self.take_extra() {
                            current.capped = true;
                            break;
                        }
                        current.rerolled.push(current.face);
                        current.face = self.face(spec);
                    }
                }
                _ => {}
            }
        }
        current.value = clamp(spec, current.face);
        current
    }

    /// Pushes a die, then the dice it explodes into (rolled plain: no rerolls). A die dropped
    /// by advantage or disadvantage never explodes.
    fn push_exploding(&mut self, spec: &Dice, dice: &mut Vec<DieOutcome>, mut current: DieOutcome) {
        let explode = spec.ops.iter().find_map(|op| match op {
            Op::Explode(sel) => Some(*sel),
            _ => None,
        });
        loop {
            let chain = current.kept && explode.is_some_and(|sel| sel.matches(current.face));
            if chain && !self.take_extra() {
                current.capped = true;
                dice.push(current);
                return;
            }
            current.exploded = chain;
            dice.push(current);
            if !chain {
                return;
            }
            let face = self.face(spec);
            current = plain(face, true);
            current.value = clamp(spec, face);
        }
    }
}

/// What a standing face counts under `mi`/`ma`, in the order written.
pub(super) fn clamp(spec: &Dice, face: i64) -> i64 {
    spec.ops.iter().fold(face, |v, op| match *op {
        Op::Min(m) => v.max(m),
        Op::Max(m) => v.min(m),
        _ => v,
    })
}

fn plain(face: i64, extra: bool) -> DieOutcome {
    DieOutcome {
        rerolled: Vec::new(),
        face,
        value: face,
        kept: true,
        exploded: false,
        extra,
        success: 0,
        capped: false,
        subtracted: false,
        botch: false,
        cancelled: false,
    }
}

/// `c`: each kept die on the highest face cancels one kept failure, the first ones first; the
/// highest faces keep their successes (as Dice Maiden's World of Darkness rolls).
fn cancel(spec: &Dice, dice: &mut [DieOutcome]) {
    let high = spec.sides.high();
    let mut left = dice
        .iter()
        .filter(|d| d.kept && !d.subtracted && d.value == high)
        .count();
    for die in dice.iter_mut() {
        if left == 0 {
            break;
        }
        if die.kept && die.success == -1 {
            die.success = 0;
            die.cancelled = true;
            left -= 1;
        }
    }
}

/// +1, -1 or 0 for a die worth `value` under the `t`/`f` operations of `spec`.
pub(super) fn success(spec: &Dice, value: i64) -> i8 {
    let mut s = 0;
    for op in &spec.ops {
        match op {
            Op::Success(sel) if sel.matches(value) => s += 1,
            Op::Failure(sel) if sel.matches(value) => s -= 1,
            Op::Double(sel) if sel.matches(value) => s += 1,
            _ => {}
        }
    }
    s.clamp(-1, 2)
}

/// Keeps (or drops) what `sel` picks among the entries still kept. Ties go to the one first:
/// of two equal dice, the one rolled first is kept.
pub(super) fn select(values: &[i64], kept: &mut [bool], sel: Selector, keep: bool) {
    let live: Vec<usize> = (0..values.len()).filter(|&i| kept[i]).collect();
    let (keep, sel) = match (keep, sel) {
        // Dropping the lowest n is keeping the highest (live - n), and the reverse.
        (false, Selector::Lowest(n)) => (
            true,
            Selector::Highest((live.len() as u32).saturating_sub(n)),
        ),
        (false, Selector::Highest(n)) => (
            true,
            Selector::Lowest((live.len() as u32).saturating_sub(n)),
        ),
        other => other,
    };
    let picked: Vec<usize> = match sel {
        Selector::AtLeast(_) | Selector::AtMost(_) => live
            .iter()
            .copied()
            .filter(|&i| sel.matches(values[i]))
            .collect(),
        Selector::Middle(n) => {
            let mut order = live.clone();
            order.sort_by(|&a, &b| values[a].cmp(&values[b]));
            let below = (live.len().saturating_sub(n as usize)) / 2;
            order.into_iter().skip(below).take(n as usize).collect()
        }
        Selector::Highest(n) | Selector::Lowest(n) => {
            let mut order = live.clone();
            // A stable sort keeps equal values in the order rolled.
            if matches!(sel, Selector::Highest(_)) {
                order.sort_by(|&a, &b| values[b].cmp(&values[a]));
            } else {
                order.sort_by(|&a, &b| values[a].cmp(&values[b]));
            }
            order.truncate(n as usize);
            order
        }
    };
    for i in live {
        let is_picked = picked.contains(&i);
        kept[i] = if keep { is_picked } else { !is_picked };
    }
}

fn sum_kept(values: &[i64], kept: &[bool]) -> Result<i64, DiceError> {
    values
        .iter()
        .zip(kept)
        .filter(|(_, k)| **k)
        .try_fold(0i64, |sum, (v, _)| sum.checked_add(*v))
        .ok_or(DiceError::Overflow)
}

fn apply(op: BinOp, a: i64, b: i64) -> Result<i64, DiceError> {
    if matches!(op, BinOp::Div | BinOp::Rem) && b == 0 {
        return Err(DiceError::DivisionByZero);
    }
    op.apply(a, b).ok_or(DiceError::Overflow)
}
