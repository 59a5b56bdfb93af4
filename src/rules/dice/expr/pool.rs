//! The exact odds of one dice group whose dice depend on each other: every way the pool can
//! fall, counted once as a multiset with its chance, and judged as the roller judges it.
//!
//! Owns the cases the per-die formulas in `dist` cannot take: keep/drop with explosions, two
//! keeps or drops, rank and value together, advantage with anything else, `ra`, implosions
//! beside keeps, and `c`. Dice of a group are alike, so the order they fall in never changes
//! a sum: a multiset of faces stands for all its orderings (the multinomial counts them), which
//! keeps `4d6!kh3` to some hundred thousand cases. Every case is priced before it is judged,
//! and a group past the budget is refused. Never rolls, never formats.

use std::collections::BTreeMap;

use super::DiceError;
use super::roll::{clamp, select, success};
use super::tree::{Dice, Op, Reroll, Selector};

/// Explosion chains in a pool are followed until less than this chance is left (or to the cap);
/// a longer chain is counted as standing where it was cut, so the odds sum to 1 and no total
/// is off by more than this.
pub(super) const POOL_NEGLIGIBLE: f64 = 1e-9;

/// The reason given when a distribution would cost more than its budget.
pub(super) fn too_long() -> DiceError {
    DiceError::NoOdds {
        why: "working it out exactly would take too long; try fewer dice or fewer sides".into(),
    }
}

/// A pool's odds, before the dice implosions subtract.
pub(super) struct Pooled {
    /// `by_implosions[m]`: the chance of each pool total with `m` dice to subtract.
    pub by_implosions: Vec<BTreeMap<i64, f64>>,
    /// The chance an explosion chain ran past the cap.
    pub beyond: f64,
    pub capped: bool,
}

/// The odds of one dice group, `faces` being each face's chance after the rerolls.
pub(super) fn pool(
    dice: &Dice,
    faces: &[(i64, f64)],
    cap: u32,
    budget: &mut u64,
) -> Result<Pooled, DiceError> {
    let (low, high) = (dice.sides.low(), dice.sides.high());
    let plain: Vec<i64> = (low..=high).collect();
    let explode = dice.ops.iter().find_map(|op| match op {
        Op::Explode(sel) => Some(*sel),
        _ => None,
    });
    let mut walk = Walk {
        dice,
        faces,
        plain,
        tails: Vec::new(),
        explode,
        implode: dice.ops.iter().find_map(|op| match op {
            Op::Implode(sel) => Some(*sel),
            _ => None,
        }),
        adds: dice.ops.iter().find_map(|op| match op {
            Op::Reroll(Reroll::Add, sel) => Some(*sel),
            _ => None,
        }),
        binom: binomials((dice.count + dice.extra()) as usize),
        budget,
        out: Vec::new(),
    };
    let (mut beyond, mut capped) = (0.0, false);
    if let Some(sel) = explode {
        let (tails, cut) = walk.chains(sel, cap);
        walk.tails = tails;
        if let Some(left) = cut {
            capped = true;
            let starts: f64 = faces
                .iter()
                .filter(|(v, _)| sel.matches(*v))
                .map(|(_, p)| p)
                .sum();
            beyond = starts * left * f64::from(dice.count);
        }
    }
    let n_all = dice.count + dice.extra();
    // Priced before it starts: every multiset of base faces is at least one case to judge.
    let cases = binomial(faces.len() as u32 + n_all - 1, n_all);
    if cases * f64::from(n_all + 1) > *walk.budget as f64 {
        return Err(too_long());
    }
    let probs: Vec<f64> = faces.iter().map(|(_, p)| *p).collect();
    let mut counts = vec![0u32; faces.len()];
    walk.bases(&probs, 0, n_all, 1.0, &mut counts)?;
    Ok(Pooled {
        by_implosions: walk.out,
        beyond,
        capped,
    })
}

/// The dice left after explosions, with the dice an explosion added (values, in order).
type Tail = (Vec<i64>, f64);

struct Walk<'a> {
    dice: &'a Dice,
    /// Each face of the dice the expression rolls, with its chance after rerolls.
    faces: &'a [(i64, f64)],
    /// The faces of a fresh die (explosions, `ra` and implosions roll plain dice).
    plain: Vec<i64>,
    /// What an exploding die adds after itself, with the chance of each chain.
    tails: Vec<Tail>,
    /// The group's explosion, implosion and `ra` selectors, read once for every case.
    explode: Option<Selector>,
    implode: Option<Selector>,
    adds: Option<Selector>,
    binom: Vec<Vec<f64>>,
    budget: &'a mut u64,
    out: Vec<BTreeMap<i64, f64>>,
}

impl Walk<'_> {
    fn spend(&mut self, steps: u64) -> Result<(), DiceError> {
        *self.budget = self.budget.checked_sub(steps).ok_or_else(too_long)?;
        Ok(())
    }

    /// Every chain a die that exploded can add: fresh dice while they match `sel`, to the
    /// cap or until less than [`POOL_NEGLIGIBLE`] is left; the chance the cap cut, if it did.
    fn chains(&self, sel: Selector, cap: u32) -> (Vec<Tail>, Option<f64>) {
        let n = self.plain.len() as f64;
        let hit = self.plain.iter().filter(|v| sel.matches(**v)).count() as f64 / n;
        let mut depth = 0u32;
        let mut reach = 1.0;
        while depth < cap && reach > POOL_NEGLIGIBLE {
            depth += 1;
            reach *= hit;
        }
        let cut = (depth == cap && reach > 0.0).then_some(reach);
        let mut out = Vec::new();
        let mut stack: Vec<(Vec<i64>, f64)> = vec![(Vec::new(), 1.0)];
        while let Some((prefix, p)) = stack.pop() {
            for &g in &self.plain {
                let mut chain = prefix.clone();
                chain.push(clamp(self.dice, g));
                let q = p / n;
                if sel.matches(g) && (chain.len() as u32) < depth {
                    stack.push((chain, q));
                } else {
                    out.push((chain, q));
                }
            }
        }
        (out, cut)
    }

    /// Every multiset of base faces for the dice rolled (advantage's extra dice included).
    fn bases(
        &mut self,
        probs: &[f64],
        at: usize,
        left: u32,
        weight: f64,
        counts: &mut [u32],
    ) -> Result<(), DiceError> {
        if at + 1 == probs.len() {
            counts[at] = left;
            let w = weight * probs[at].powi(left as i32);
            if w > 0.0 {
                self.survivors(counts, w)?;
            }
            counts[at] = 0;
            return Ok(());
        }
        for c in 0..=left {
            let w = weight * self.binom[left as usize][c as usize] * probs[at].powi(c as i32);
            if w == 0.0 {
                if probs[at] == 0.0 {
                    // Only none of an impossible face.
                    break;
                }
                continue;
            }
            counts[at] = c;
            self.bases(probs, at + 1, left - c, w, counts)?;
        }
        counts[at] = 0;
        Ok(())
    }

    /// Advantage or disadvantage drops the worst (best) dice by value before anything else;
    /// among equal values showing different faces, any of them is as likely to go.
    fn survivors(&mut self, counts: &[u32], weight: f64) -> Result<(), DiceError> {
        let extra = self.dice.extra();
        if extra == 0 {
            return self.exploded(counts, weight);
        }
        let worst_first: Vec<usize> = if self
            .dice
            .ops
            .iter()
            .any(|op| matches!(op, Op::Disadvantage(_)))
        {
            (0..counts.len()).rev().collect()
        } else {
            (0..counts.len()).collect()
        };
        // Values are monotone in the face (min/max only flatten), so equal values are neighbours.
        let value = |i: usize| clamp(self.dice, self.faces[i].0);
        let mut kept = counts.to_vec();
        let mut to_drop = extra;
        let mut k = 0;
        while to_drop > 0 && k < worst_first.len() {
            // The group of faces with this value.
            let v = value(worst_first[k]);
            let group: Vec<usize> = worst_first[k..]
                .iter()
                .copied()
                .take_while(|&i| value(i) == v)
                .collect();
            k += group.len();
            let in_group: u32 = group.iter().map(|&i| counts[i]).sum();
            if in_group <= to_drop {
                for &i in &group {
                    kept[i] = 0;
                }
                to_drop -= in_group;
                continue;
            }
            // Part of the group goes: each split by its hypergeometric chance.
            let mut split = vec![0u32; group.len()];
            return self.split(&group, 0, to_drop, in_group, &mut kept, &mut split, weight);
        }
        self.exploded(&kept, weight)
    }

    /// Every way to drop `left` more dice from `group` (faces of one value), by its chance.
    #[allow(clippy::too_many_arguments)]
    fn split(
        &mut self,
        group: &[usize],
        at: usize,
        left: u32,
        total: u32,
        kept: &mut [u32],
        split: &mut [u32],
        weight: f64,
    ) -> Result<(), DiceError> {
        let i = group[at];
        let have = kept[i];
        let range: Vec<u32> = if at + 1 == group.len() {
            if left > have {
                return Ok(());
            }
            vec![left]
        } else {
            (0..=left.min(have)).collect()
        };
        for d in range {
            split[at] = d;
            kept[i] = have - d;
            if at + 1 == group.len() {
                // C(t1, d1)·C(t2, d2)·… / C(T, D).
                let mut w = weight;
                let dropped: u32 = split.iter().sum();
                for (j, &g) in group.iter().enumerate() {
                    let had = kept[g] + split[j];
                    w *= self.binom[had as usize][split[j] as usize];
                }
                w /= self.binom[total as usize][dropped as usize];
                self.exploded(kept, w)?;
            } else {
                self.split(group, at + 1, left - d, total, kept, split, weight)?;
            }
        }
        kept[i] = have;
        split[at] = 0;
        Ok(())
    }

    /// The dice that explode, each with every chain it can add (a multiset per face).
    fn exploded(&mut self, kept: &[u32], weight: f64) -> Result<(), DiceError> {
        let explode = self.explode;
        let exploding: u32 = kept
            .iter()
            .zip(self.faces)
            .filter(|(_, (f, _))| explode.is_some_and(|sel| sel.matches(*f)))
            .map(|(c, _)| *c)
            .sum();
        let mut pool: Vec<i64> = Vec::new();
        for (c, (f, _)) in kept.iter().zip(self.faces) {
            for _ in 0..*c {
                pool.push(clamp(self.dice, *f));
            }
        }
        if exploding == 0 {
            return self.judged(kept, &pool, weight);
        }
        let probs: Vec<f64> = self.tails.iter().map(|(_, p)| *p).collect();
        let mut chosen = vec![0u32; probs.len()];
        self.chain_sets(kept, &pool, &probs, 0, exploding, weight, &mut chosen)
    }

    /// Every multiset of `left` chains for the exploding dice (alike once their face is known:
    /// each chain is a fresh run of plain dice).
    #[allow(clippy::too_many_arguments)]
    fn chain_sets(
        &mut self,
        kept: &[u32],
        pool: &[i64],
        probs: &[f64],
        at: usize,
        left: u32,
        weight: f64,
        chosen: &mut [u32],
    ) -> Result<(), DiceError> {
        let binom = |n: u32, k: u32| binomial(n, k);
        if at + 1 == probs.len() {
            chosen[at] = left;
            let w = weight * probs[at].powi(left as i32);
            let mut full = pool.to_vec();
            for (j, c) in chosen.iter().enumerate() {
                for _ in 0..*c {
                    full.extend_from_slice(&self.tails[j].0);
                }
            }
            chosen[at] = 0;
            return self.judged(kept, &full, w);
        }
        for c in 0..=left {
            chosen[at] = c;
            let w = weight * binom(left, c) * probs[at].powi(c as i32);
            self.chain_sets(kept, pool, probs, at + 1, left - c, w, chosen)?;
        }
        chosen[at] = 0;
        Ok(())
    }

    /// One pool as the roller judges it: `ra`, keep and drop, the total, `c`; counted by how
    /// many dice its implosions subtract.
    fn judged(&mut self, kept: &[u32], pool: &[i64], weight: f64) -> Result<(), DiceError> {
        let dice = self.dice;
        let implosions: u32 = match self.implode {
            Some(sel) => kept
                .iter()
                .zip(self.faces)
                .filter(|(_, (f, _))| sel.matches(*f))
                .map(|(c, _)| *c)
                .sum(),
            None => 0,
        };
        let triggers = self.adds.is_some_and(|sel| {
            kept.iter()
                .zip(self.faces)
                .any(|(c, (f, _))| *c > 0 && sel.matches(clamp(dice, *f)))
        });
        if triggers {
            let n = self.plain.len() as f64;
            let mut with = pool.to_vec();
            let last = with.len();
            with.push(0);
            for g in self.plain.clone() {
                with[last] = clamp(dice, g);
                self.total(&with, weight / n, implosions)?;
            }
            return Ok(());
        }
        self.total(pool, weight, implosions)
    }

    fn total(&mut self, pool: &[i64], weight: f64, implosions: u32) -> Result<(), DiceError> {
        let dice = self.dice;
        self.spend(pool.len() as u64 + 1)?;
        let mut kept = vec![true; pool.len()];
        for op in &dice.ops {
            match op {
                Op::Keep(sel) => select(pool, &mut kept, *sel, true),
                Op::Drop(sel) => select(pool, &mut kept, *sel, false),
                _ => {}
            }
        }
        let live = || pool.iter().zip(&kept).filter(|(_, k)| **k).map(|(v, _)| *v);
        let total = if dice.counts_successes() {
            let mut sum: i64 = live().map(|v| i64::from(success(dice, v))).sum();
            if dice.ops.contains(&Op::Cancel) {
                let highs = live().filter(|v| *v == dice.sides.high()).count();
                let fails = live().filter(|v| success(dice, *v) == -1).count();
                sum += highs.min(fails) as i64;
            }
            sum
        } else {
            live().sum()
        };
        let m = implosions as usize;
        if self.out.len() <= m {
            self.out.resize_with(m + 1, BTreeMap::new);
        }
        *self.out[m].entry(total).or_insert(0.0) += weight;
        Ok(())
    }
}

fn binomial(n: u32, k: u32) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1))
}

/// Pascal's triangle to `n`, as floating point (C(100, 50) is about 1e29); `dist` uses it too.
pub(super) fn binomials(n: usize) -> Vec<Vec<f64>> {
    let mut rows = vec![vec![1.0]];
    for i in 1..=n {
        let prev = &rows[i - 1];
        let mut row = vec![1.0; i + 1];
        for k in 1..i {
            row[k] = prev[k - 1] + prev[k];
        }
        rows.push(row);
    }
    rows
}
