//! The exact distribution of a roll's total: one more reader of the tree, never a simulation.
//!
//! Owns how each part of the tree combines: sums by convolution, keep/drop by order statistics,
//! rerolls, explosions and implosions per die (explosions followed to the cap, the mass beyond
//! it stated), successes counted per die, arithmetic by pairing outcomes; dice that depend on
//! each other (keep with explosions, `ra`, `c`, two keeps) go to `pool`, which counts every
//! way the group can fall. Every step is priced before it runs
//! ([`WORK_BUDGET`]); a roll whose exact odds would cost more is refused with the reason rather
//! than estimated. Never rolls, never formats.

use std::collections::BTreeMap;

use super::pool::binomials;
use super::roll::clamp;
use super::tree::{BinOp, Dice, Node, Op, Reroll, Roll, Selector, SetOp};
use super::{DiceError, Limits};

/// The most elementary steps (multiply-adds) one distribution may take.
pub const WORK_BUDGET: u64 = 40_000_000;
/// The most distinct totals a distribution may hold.
pub const MAX_SUPPORT: usize = 1_000_000;
/// Explosion chains are followed until what is left is below this (or to the cap).
const NEGLIGIBLE: f64 = 1e-15;

/// The exact chance of each total of one roll.
#[derive(Debug, Clone, PartialEq)]
pub struct Distribution {
    /// The lowest total with a chance.
    pub low: i64,
    /// The chance of `low`, `low + 1`, …
    pub p: Vec<f64>,
    /// The chance an explosion chain ran past the cap (those rolls stop there, as counted).
    pub beyond: f64,
    /// The cap explosion chains were followed to, when one was reached.
    pub cap: Option<u32>,
}

impl Distribution {
    /// Every total with a chance above zero, lowest first.
    pub fn points(&self) -> Vec<(i64, f64)> {
        self.p
            .iter()
            .enumerate()
            .filter(|(_, p)| **p > 0.0)
            .map(|(i, p)| (self.low + i as i64, *p))
            .collect()
    }

    pub fn high(&self) -> i64 {
        self.low + self.p.len() as i64 - 1
    }

    pub fn eq(&self, x: i64) -> f64 {
        usize::try_from(x - self.low)
            .ok()
            .and_then(|i| self.p.get(i))
            .copied()
            .unwrap_or(0.0)
    }

    /// P(total ≤ x).
    pub fn le(&self, x: i64) -> f64 {
        let upto = (x - self.low + 1).clamp(0, self.p.len() as i64) as usize;
        self.p[..upto].iter().sum::<f64>().min(1.0)
    }

    /// P(total ≥ x).
    pub fn ge(&self, x: i64) -> f64 {
        let from = (x - self.low).clamp(0, self.p.len() as i64) as usize;
        self.p[from..].iter().sum::<f64>().min(1.0)
    }

    pub fn total(&self) -> f64 {
        self.p.iter().sum()
    }

    pub fn mean(&self) -> f64 {
        self.points().iter().map(|(x, p)| *x as f64 * p).sum()
    }

    /// The standard deviation.
    pub fn spread(&self) -> f64 {
        let mean = self.mean();
        self.points()
            .iter()
            .map(|(x, p)| (*x as f64 - mean).powi(2) * p)
            .sum::<f64>()
            .sqrt()
    }

    /// The share of rolls strictly below `x`, plus half of those equal: where `x` falls.
    pub fn rank(&self, x: i64) -> f64 {
        self.le(x - 1) + self.eq(x) / 2.0
    }
}

/// The exact distribution of one roll's total (one set of a repeat).
pub fn distribution(roll: &Roll, limits: &Limits) -> Result<Distribution, DiceError> {
    distribution_within(roll, limits, WORK_BUDGET)
}

/// [`distribution`] within `budget` steps (at most [`WORK_BUDGET`]).
pub fn distribution_within(
    roll: &Roll,
    limits: &Limits,
    budget: u64,
) -> Result<Distribution, DiceError> {
    let mut calc = Calc {
        budget: budget.min(WORK_BUDGET),
        work: 0,
        cap: limits.max_explosions,
        beyond: 0.0,
        capped: false,
    };
    let d = calc.node(&roll.node)?;
    Ok(Distribution {
        low: d.low,
        p: d.p,
        beyond: calc.beyond.min(1.0),
        cap: calc.capped.then_some(limits.max_explosions),
    })
}

fn no_odds(why: &str) -> DiceError {
    DiceError::NoOdds {
        why: why.to_owned(),
    }
}

/// Faces with their chances.
type Faces = Vec<(i64, f64)>;

/// A dense distribution over `low..low + p.len()`.
#[derive(Debug, Clone)]
struct Dist {
    low: i64,
    p: Vec<f64>,
}

impl Dist {
    fn point(v: i64) -> Self {
        Self {
            low: v,
            p: vec![1.0],
        }
    }

    fn from_map(map: &BTreeMap<i64, f64>) -> Self {
        let (Some((&low, _)), Some((&high, _))) = (map.first_key_value(), map.last_key_value())
        else {
            return Self::point(0);
        };
        let mut p = vec![0.0; (high - low + 1) as usize];
        for (v, q) in map {
            p[(v - low) as usize] += q;
        }
        Self { low, p }
    }

    fn len(&self) -> usize {
        self.p.len()
    }

    fn iter(&self) -> impl Iterator<Item = (i64, f64)> + '_ {
        self.p
            .iter()
            .enumerate()
            .filter(|(_, p)| **p > 0.0)
            .map(|(i, p)| (self.low + i as i64, *p))
    }

    fn neg(&self) -> Self {
        let mut p = self.p.clone();
        p.reverse();
        Self {
            low: -(self.low + self.p.len() as i64 - 1),
            p,
        }
    }
}

struct Calc {
    budget: u64,
    work: u64,
    cap: u32,
    beyond: f64,
    capped: bool,
}

impl Calc {
    fn spend(&mut self, steps: u64) -> Result<(), DiceError> {
        self.work = self.work.saturating_add(steps);
        if self.work > self.budget {
            return Err(super::pool::too_long());
        }
        Ok(())
    }

    fn node(&mut self, node: &Node) -> Result<Dist, DiceError> {
        match node {
            Node::Number(v) => Ok(Dist::point(*v)),
            Node::Dice(dice) => self.dice(dice),
            Node::Set(items, ops) => self.set(items, ops),
            Node::Paren(inner) | Node::Annotated(inner, _) => self.node(inner),
            Node::Neg(inner) => Ok(self.node(inner)?.neg()),
            Node::Binary(a, op, b) => {
                let a = self.node(a)?;
                let b = self.node(b)?;
                match op {
                    BinOp::Add => self.conv(&a, &b),
                    BinOp::Sub => self.conv(&a, &b.neg()),
                    _ => self.pairs(&a, &b, *op),
                }
            }
        }
    }

    fn conv(&mut self, a: &Dist, b: &Dist) -> Result<Dist, DiceError> {
        let len = a.len() + b.len() - 1;
        if len > MAX_SUPPORT {
            return Err(no_odds("it has too many possible totals to list"));
        }
        let nonzero_b: Vec<(usize, f64)> =
            b.p.iter()
                .enumerate()
                .filter(|(_, q)| **q > 0.0)
                .map(|(j, q)| (j, *q))
                .collect();
        self.spend((a.len() as u64).saturating_mul(nonzero_b.len() as u64))?;
        let mut p = vec![0.0; len];
        for (i, pa) in a.p.iter().enumerate() {
            if *pa == 0.0 {
                continue;
            }
            for &(j, pb) in &nonzero_b {
                p[i + j] += pa * pb;
            }
        }
        Ok(Dist {
            low: a.low + b.low,
            p,
        })
    }

    /// `n` independent copies of `d`, summed (by squaring).
    fn times(&mut self, d: &Dist, n: u32) -> Result<Dist, DiceError> {
        let mut result = Dist::point(0);
        let mut base = d.clone();
        let mut n = n;
        while n > 0 {
            if n & 1 == 1 {
                result = self.conv(&result, &base)?;
            }
            n >>= 1;
            if n > 0 {
                base = self.conv(&base, &base)?;
            }
        }
        Ok(result)
    }

    /// Any other operator: every pair of outcomes.
    fn pairs(&mut self, a: &Dist, b: &Dist, op: BinOp) -> Result<Dist, DiceError> {
        self.spend((a.len() as u64).saturating_mul(b.len() as u64))?;
        let mut map = BTreeMap::new();
        for (x, px) in a.iter() {
            for (y, py) in b.iter() {
                if matches!(op, BinOp::Div | BinOp::Rem) && y == 0 {
                    return Err(no_odds("it can divide by zero"));
                }
                let v = op.apply(x, y).ok_or(DiceError::Overflow)?;
                *map.entry(v).or_insert(0.0) += px * py;
            }
        }
        Self::check_support(&map)?;
        Ok(Dist::from_map(&map))
    }

    fn check_support(map: &BTreeMap<i64, f64>) -> Result<(), DiceError> {
        let span = match (map.first_key_value(), map.last_key_value()) {
            (Some((lo, _)), Some((hi, _))) => hi.saturating_sub(*lo),
            _ => 0,
        };
        if span >= MAX_SUPPORT as i64 {
            return Err(no_odds("it has too many possible totals to list"));
        }
        Ok(())
    }

    fn set(&mut self, items: &[Node], ops: &[SetOp]) -> Result<Dist, DiceError> {
        let dists = items
            .iter()
            .map(|item| self.node(item))
            .collect::<Result<Vec<_>, _>>()?;
        if ops.is_empty() {
            return dists
                .iter()
                .try_fold(Dist::point(0), |acc, d| self.conv(&acc, d));
        }
        // Every combination of the elements' values, kept or dropped as the roller does.
        let combos = dists
            .iter()
            .try_fold(1u64, |n, d| n.checked_mul(d.iter().count() as u64))
            .unwrap_or(u64::MAX);
        self.spend(combos.saturating_mul(dists.len() as u64))?;
        let supports: Vec<Vec<(i64, f64)>> = dists.iter().map(|d| d.iter().collect()).collect();
        let mut map = BTreeMap::new();
        let mut index = vec![0usize; supports.len()];
        loop {
            let values: Vec<i64> = index.iter().zip(&supports).map(|(&i, s)| s[i].0).collect();
            let p: f64 = index.iter().zip(&supports).map(|(&i, s)| s[i].1).product();
            let mut kept = vec![true; values.len()];
            for op in ops {
                match op {
                    SetOp::Keep(sel) => super::roll::select(&values, &mut kept, *sel, true),
                    SetOp::Drop(sel) => super::roll::select(&values, &mut kept, *sel, false),
                }
            }
            let sum: i64 = values
                .iter()
                .zip(&kept)
                .filter(|(_, k)| **k)
                .map(|(v, _)| v)
                .sum();
            *map.entry(sum).or_insert(0.0) += p;
            // The next combination, odometer style.
            let mut at = 0;
            loop {
                if at == index.len() {
                    Self::check_support(&map)?;
                    return Ok(Dist::from_map(&map));
                }
                index[at] += 1;
                if index[at] < supports[at].len() {
                    break;
                }
                index[at] = 0;
                at += 1;
            }
        }
    }

    fn dice(&mut self, dice: &Dice) -> Result<Dist, DiceError> {
        let has = |f: fn(&Op) -> bool| dice.ops.iter().any(f);
        let explodes = has(|op| matches!(op, Op::Explode(_)));
        let keeps = has(|op| matches!(op, Op::Keep(_) | Op::Drop(_)));
        let implodes = has(|op| matches!(op, Op::Implode(_)));
        // `ra` and `c` tie the dice of a group together: only the pool takes them.
        let together = has(|op| matches!(op, Op::Reroll(Reroll::Add, _) | Op::Cancel));
        let ranked: Vec<(bool, Selector)> = dice
            .ops
            .iter()
            .filter_map(|op| match op {
                Op::Keep(sel) if sel.by_rank() => Some((true, *sel)),
                Op::Drop(sel) if sel.by_rank() => Some((false, *sel)),
                _ => None,
            })
            .collect();
        let by_value = has(|op| matches!(op, Op::Keep(sel) | Op::Drop(sel) if !sel.by_rank()));
        let faces = self.faces(dice);
        let extra = dice.extra();
        let adds = has(|op| matches!(op, Op::Reroll(Reroll::Add, _)));
        if has(|op| *op == Op::Cancel) && !explodes && !keeps && !implodes && !adds && extra == 0 {
            return self.cancelling(dice, &faces);
        }
        if !together {
            if extra > 0 && !explodes && !keeps && !implodes {
                let best = !has(|op| matches!(op, Op::Disadvantage(_)));
                let n = (dice.count + extra) as usize;
                return self.window(dice, &faces, n, (0, dice.count as usize, best));
            }
            if extra == 0 && ranked.is_empty() {
                if implodes {
                    return self.imploding(dice, &faces);
                }
                if dice.ops.is_empty() {
                    return self.uniform_sum(dice);
                }
                let one = self.chain(dice, &faces)?;
                return self.times(&one, dice.count);
            }
            if extra == 0 && ranked.len() == 1 && !explodes && !by_value && !implodes {
                let (keep, sel) = ranked[0];
                return self.order_statistics(dice, &faces, keep, sel);
            }
        }
        self.pooled(dice, &faces)
    }

    /// `c` on dice counted without keep, explosion or implosion: by how many dice show the
    /// highest face (`h`) and how many fail (`f`), each such split by its multinomial chance,
    /// the rest summed as usual; the total gains `min(h, f)`.
    fn cancelling(&mut self, dice: &Dice, faces: &[(i64, f64)]) -> Result<Dist, DiceError> {
        let high = dice.sides.high();
        let (mut p_high, mut p_fail, mut s_high) = (0.0, 0.0, 0);
        let mut rest: BTreeMap<i64, f64> = BTreeMap::new();
        for &(face, p) in faces {
            let value = clamp(dice, face);
            let s = i64::from(super::roll::success(dice, value));
            if value == high && s != -1 {
                p_high += p;
                s_high = s;
            } else if s == -1 && value != high {
                p_fail += p;
            } else {
                // A highest face that also fails cancels itself: it counts nothing.
                let s = if value == high { 0 } else { s };
                *rest.entry(s).or_insert(0.0) += p;
            }
        }
        let n = dice.count as usize;
        self.spend((n as u64 + 1).pow(3))?;
        let one_rest = Dist::from_map(&rest);
        let mut rest_sums = vec![Dist::point(0)];
        for r in 1..=n {
            let next = self.conv(&rest_sums[r - 1], &one_rest)?;
            rest_sums.push(next);
        }
        let binom = binomials(n);
        let mut map: BTreeMap<i64, f64> = BTreeMap::new();
        for h in 0..=n {
            for f in 0..=(n - h) {
                let r = n - h - f;
                let w =
                    binom[n][h] * binom[n - h][f] * p_high.powi(h as i32) * p_fail.powi(f as i32);
                if w == 0.0 {
                    continue;
                }
                let shift = h as i64 * s_high - f as i64 + h.min(f) as i64;
                for (x, q) in rest_sums[r].iter() {
                    *map.entry(x + shift).or_insert(0.0) += w * q;
                }
            }
        }
        Self::check_support(&map)?;
        Ok(Dist::from_map(&map))
    }

    /// A fresh plain die, subtracted (what an implosion takes away).
    fn minus_die(dice: &Dice) -> Dist {
        let (low, high) = (dice.sides.low(), dice.sides.high());
        let n = (high - low + 1) as usize;
        Dist {
            low,
            p: vec![1.0 / n as f64; n],
        }
        .neg()
    }

    /// `i` on dice that are summed without keep or drop: each die, with its chain, less a
    /// fresh die when its face implodes.
    fn imploding(&mut self, dice: &Dice, faces: &[(i64, f64)]) -> Result<Dist, DiceError> {
        let sel = dice
            .ops
            .iter()
            .find_map(|op| match op {
                Op::Implode(sel) => Some(*sel),
                _ => None,
            })
            .unwrap_or(Selector::AtMost(dice.sides.low()));
        let (hit, quiet): (Faces, Faces) = faces.iter().partition(|(v, _)| sel.matches(*v));
        let mut one: Option<Dist> = None;
        if !quiet.is_empty() {
            one = Some(self.chain(dice, &quiet)?);
        }
        if !hit.is_empty() {
            let chained = self.chain(dice, &hit)?;
            let less = self.conv(&chained, &Self::minus_die(dice))?;
            one = Some(match one {
                Some(a) => self.add_into(&a, &less)?,
                None => less,
            });
        }
        let one = one.unwrap_or_else(|| Dist::point(0));
        self.times(&one, dice.count)
    }

    /// Every way the group's pool can fall (see `pool`), less its implosions.
    fn pooled(&mut self, dice: &Dice, faces: &[(i64, f64)]) -> Result<Dist, DiceError> {
        let mut left = self.budget.saturating_sub(self.work);
        let before = left;
        let pooled = super::pool::pool(dice, faces, self.cap, &mut left)?;
        self.work += before - left;
        self.beyond += pooled.beyond;
        self.capped |= pooled.capped;
        let mut acc: Option<Dist> = None;
        for (m, map) in pooled.by_implosions.iter().enumerate() {
            if map.is_empty() {
                continue;
            }
            Self::check_support(map)?;
            let part = Dist::from_map(map);
            let part = if m == 0 {
                part
            } else {
                let less = self.times(&Self::minus_die(dice), m as u32)?;
                self.conv(&part, &less)?
            };
            acc = Some(match acc {
                Some(a) => self.add_into(&a, &part)?,
                None => part,
            });
        }
        Ok(acc.unwrap_or_else(|| Dist::point(0)))
    }

    /// The chance of each face after the rerolls, in order: `(face, chance)`.
    fn faces(&mut self, dice: &Dice) -> Vec<(i64, f64)> {
        let (low, high) = (dice.sides.low(), dice.sides.high());
        let n = (high - low + 1) as f64;
        let base: Vec<(i64, f64)> = (low..=high).map(|v| (v, 1.0 / n)).collect();
        let mut cur = base.clone();
        for op in &dice.ops {
            let Op::Reroll(how, sel) = op else { continue };
            if *how == Reroll::Add {
                // `ra` adds a die; the face it reads stands.
                continue;
            }
            let hit: f64 = cur
                .iter()
                .filter(|(v, _)| sel.matches(*v))
                .map(|(_, p)| p)
                .sum();
            let base_hit: f64 = base
                .iter()
                .filter(|(v, _)| sel.matches(*v))
                .map(|(_, p)| p)
                .sum();
            cur = cur
                .iter()
                .zip(&base)
                .map(|(&(v, p), &(_, b))| {
                    let stays = if sel.matches(v) { 0.0 } else { p };
                    let fresh = match how {
                        Reroll::Once => hit * b,
                        // The parser refuses a selector that matches every face.
                        _ if sel.matches(v) => 0.0,
                        _ => hit * b / (1.0 - base_hit),
                    };
                    (v, stays + fresh)
                })
                .collect();
            if matches!(how, Reroll::Until) {
                // Past the shared cap a die would stand on a matching face.
                let past = hit * base_hit.powi(self.cap as i32);
                if past > 0.0 {
                    self.beyond += past * f64::from(dice.count);
                }
            }
        }
        cur
    }

    /// What one die (with the dice it explodes into) adds: its value, or its successes.
    fn chain(&mut self, dice: &Dice, faces: &[(i64, f64)]) -> Result<Dist, DiceError> {
        let worth = |face: i64| contribution(dice, face);
        let explode = dice.ops.iter().find_map(|op| match op {
            Op::Explode(sel) => Some(*sel),
            _ => None,
        });
        let to_dist = |list: &[(i64, f64)]| {
            let mut map = BTreeMap::new();
            for &(face, p) in list {
                *map.entry(worth(face)).or_insert(0.0) += p;
            }
            Dist::from_map(&map)
        };
        let Some(sel) = explode else {
            return Ok(to_dist(faces));
        };
        // Dice added by an explosion are rolled plain (no rerolls).
        let (low, high) = (dice.sides.low(), dice.sides.high());
        let n = (high - low + 1) as f64;
        let base: Vec<(i64, f64)> = (low..=high).map(|v| (v, 1.0 / n)).collect();
        let hit: f64 = base
            .iter()
            .filter(|(v, _)| sel.matches(*v))
            .map(|(_, p)| p)
            .sum();
        // Depth: how many explosions deep the chain is followed.
        let mut depth = 0u32;
        let mut reach = faces
            .iter()
            .filter(|(v, _)| sel.matches(*v))
            .map(|(_, p)| p)
            .sum::<f64>();
        while depth < self.cap && reach > NEGLIGIBLE {
            depth += 1;
            reach *= hit;
        }
        if depth == self.cap && reach > 0.0 {
            self.capped = true;
            self.beyond += reach * f64::from(dice.count);
        }
        // From the deepest die back: a die past the last explosion followed stands as it is.
        let stands: Vec<(i64, f64)> = base.clone();
        let mut tail = to_dist(&stands);
        for level in (0..depth).rev() {
            let this = if level == 0 { faces } else { &base };
            let quiet: Vec<(i64, f64)> = this
                .iter()
                .filter(|(v, _)| !sel.matches(*v))
                .copied()
                .collect();
            let mut acc = to_dist(&quiet);
            for &(face, p) in this.iter().filter(|(v, _)| sel.matches(*v)) {
                let shifted = Dist {
                    low: tail.low + worth(face),
                    p: tail.p.iter().map(|q| q * p).collect(),
                };
                acc = self.add_into(&acc, &shifted)?;
            }
            tail = acc;
        }
        if depth == 0 {
            tail = to_dist(faces);
        }
        Ok(tail)
    }

    /// The pointwise sum of two (partial) distributions.
    fn add_into(&mut self, a: &Dist, b: &Dist) -> Result<Dist, DiceError> {
        let low = a.low.min(b.low);
        let high = (a.low + a.len() as i64).max(b.low + b.len() as i64);
        let len = (high - low) as usize;
        if len > MAX_SUPPORT {
            return Err(no_odds("it has too many possible totals to list"));
        }
        self.spend(len as u64)?;
        let mut p = vec![0.0; len];
        for (d, off) in [(a, a.low - low), (b, b.low - low)] {
            for (i, q) in d.p.iter().enumerate() {
                p[off as usize + i] += q;
            }
        }
        Ok(Dist { low, p })
    }

    /// `NdS` with nothing else: a sliding window, one die at a time.
    fn uniform_sum(&mut self, dice: &Dice) -> Result<Dist, DiceError> {
        let (low, high) = (dice.sides.low(), dice.sides.high());
        let sides = (high - low + 1) as usize;
        let count = dice.count as usize;
        let len = count * (sides - 1) + 1;
        self.spend((len as u64).saturating_mul(count as u64))?;
        let mut p = vec![1.0];
        for _ in 0..count {
            let mut next = vec![0.0; p.len() + sides - 1];
            let mut window = 0.0;
            for (i, slot) in next.iter_mut().enumerate() {
                if i < p.len() {
                    window += p[i];
                }
                if i >= sides {
                    window -= p[i - sides];
                }
                *slot = window / sides as f64;
            }
            p = next;
        }
        Ok(Dist {
            low: low * i64::from(dice.count),
            p,
        })
    }

    /// Keep or drop by rank: the dice sorted by value, counted by how many show each value.
    fn order_statistics(
        &mut self,
        dice: &Dice,
        faces: &[(i64, f64)],
        keep: bool,
        sel: Selector,
    ) -> Result<Dist, DiceError> {
        let n = dice.count as usize;
        let window = match (keep, sel) {
            (true, Selector::Highest(k)) => (0, k as usize, true),
            (true, Selector::Lowest(k)) => (0, k as usize, false),
            (false, Selector::Lowest(k)) => (0, n - k as usize, true),
            (false, Selector::Highest(k)) => (0, n - k as usize, false),
            // As the roller: (n - k) / 2 dropped below, the rest above.
            (true, Selector::Middle(k)) => {
                let k = k as usize;
                (n - k - (n - k) / 2, k, true)
            }
            _ => return Err(no_odds("that keep/drop is not worked out")),
        };
        self.window(dice, faces, n, window)
    }

    /// The sum (or successes) of the dice at places `start..start + kept` of `n` dice sorted
    /// best first (worst first when `highest` is false), counted by how many show each value.
    fn window(
        &mut self,
        dice: &Dice,
        faces: &[(i64, f64)],
        n: usize,
        (start, kept, highest): (usize, usize, bool),
    ) -> Result<Dist, DiceError> {
        // The chance of each value a die can count (after minimum/maximum), best first.
        let mut by_value: BTreeMap<i64, f64> = BTreeMap::new();
        for &(face, p) in faces {
            *by_value.entry(clamp(dice, face)).or_insert(0.0) += p;
        }
        let mut values: Vec<(i64, f64)> = by_value.into_iter().collect();
        if highest {
            values.reverse();
        }
        let worth: Vec<i64> = values
            .iter()
            .map(|(v, _)| contribution_of_value(dice, *v))
            .collect();
        let lo = worth.iter().copied().min().unwrap_or(0).min(0) * kept as i64;
        let hi = worth.iter().copied().max().unwrap_or(0).max(0) * kept as i64;
        let width = (hi - lo + 1) as usize;
        self.spend(
            (values.len() as u64)
                .saturating_mul((n as u64 + 1).pow(2) / 2)
                .saturating_mul(width as u64),
        )?;
        let binom = binomials(n);
        // state[j][s]: j dice placed so far (all at better values), kept contributions sum lo + s.
        let mut state = vec![vec![0.0; width]; n + 1];
        state[0][(-lo) as usize] = 1.0;
        for (idx, &(_, p)) in values.iter().enumerate() {
            let mut next = vec![vec![0.0; width]; n + 1];
            for j in 0..=n {
                for (s, &q) in state[j].iter().enumerate() {
                    if q == 0.0 {
                        continue;
                    }
                    let mut pc = 1.0;
                    for c in 0..=(n - j) {
                        // How many of places j..j + c fall in start..start + kept.
                        let take = (j + c).min(start + kept).saturating_sub(j.max(start));
                        let s2 = s as i64 + take as i64 * worth[idx];
                        next[j + c][s2 as usize] += q * binom[n - j][c] * pc;
                        pc *= p;
                    }
                }
            }
            state = next;
        }
        Ok(Dist {
            low: lo,
            p: state.pop().unwrap_or_default(),
        })
    }
}

/// What one die showing `face` adds: 0 if a keep/drop by value drops it, else its successes or
/// its value after minimum/maximum.
fn contribution(dice: &Dice, face: i64) -> i64 {
    contribution_of_value(dice, clamp(dice, face))
}

fn contribution_of_value(dice: &Dice, value: i64) -> i64 {
    let kept = dice.ops.iter().all(|op| match op {
        Op::Keep(sel) if !sel.by_rank() => sel.matches(value),
        Op::Drop(sel) if !sel.by_rank() => !sel.matches(value),
        _ => true,
    });
    if !kept {
        return 0;
    }
    if dice.counts_successes() {
        i64::from(super::roll::success(dice, value))
    } else {
        value
    }
}
