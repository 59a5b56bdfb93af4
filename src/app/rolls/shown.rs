//! A `/roll` result as logged and as shown: the stored JSON shape, the dice line players read,
//! and the canonical text a secret roll commits to.
//!
//! The rules' [`RollResult`] is plain data without serde; this module owns the stable shape the
//! roll log keeps (`rolls.public_json` / `secret_rolls.result_json` for the commands `roll` and
//! `gm roll`), so `/history` and `/reveal` can read it back long after the roll.

use serde::{Deserialize, Serialize};

use crate::rules::dice::expr::{DieResult, Expr, RollResult, Sign, TermOutcome};

/// A rolled expression, as logged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rolled {
    /// The normalized expression (`4d6kh3+2`).
    pub expression: String,
    pub terms: Vec<RolledTerm>,
    pub total: i64,
    /// Whether the explosion cap stopped a die from exploding further.
    #[serde(default)]
    pub capped: bool,
}

/// One signed term as logged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum RolledTerm {
    Dice {
        minus: bool,
        sides: u32,
        dice: Vec<RolledDie>,
    },
    Number {
        minus: bool,
        value: u32,
    },
}

/// One die as logged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RolledDie {
    /// The face that stands.
    pub face: u32,
    /// The face rerolled away, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rerolled_from: Option<u32>,
    /// The extra rolls of an exploding die, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub explosions: Vec<u32>,
    /// Whether it counts toward the total (keep/drop).
    pub kept: bool,
}

impl Rolled {
    /// The logged shape of `result`, rolled from `expr`.
    pub fn new(expr: &Expr, result: &RollResult) -> Self {
        let terms = result
            .terms
            .iter()
            .map(|t| {
                let minus = t.sign == Sign::Minus;
                match &t.outcome {
                    TermOutcome::Constant(value) => RolledTerm::Number {
                        minus,
                        value: *value,
                    },
                    TermOutcome::Dice { term, dice } => RolledTerm::Dice {
                        minus,
                        sides: term.sides,
                        dice: dice.iter().map(RolledDie::from).collect(),
                    },
                }
            })
            .collect();
        Self {
            expression: expr.to_string(),
            terms,
            total: result.total,
            capped: result.explosions_capped,
        }
    }

    /// Every die for players: dropped dice struck through (`~~2~~`), a face that exploded marked
    /// `!` and followed by its extra rolls (`6!+6!+2`), a reroll shown old→new (`1→4`); terms
    /// joined by their signs, dice groups in brackets: `[~~1~~, 3, 5, 6] + 2`.
    pub fn dice_line(&self) -> String {
        let mut out = String::new();
        for (i, term) in self.terms.iter().enumerate() {
            let (minus, body) = match term {
                RolledTerm::Number { minus, value } => (*minus, value.to_string()),
                RolledTerm::Dice { minus, dice, .. } => {
                    let shown: Vec<String> = dice.iter().map(RolledDie::shown).collect();
                    (*minus, format!("[{}]", shown.join(", ")))
                }
            };
            match (i, minus) {
                (0, false) => {}
                (0, true) => out.push('-'),
                (_, false) => out.push_str(" + "),
                (_, true) => out.push_str(" - "),
            }
            out.push_str(&body);
        }
        out
    }

    /// The canonical text of the result, which a secret roll's commitment covers (with the
    /// nonce; see `commit`). Plain ASCII, no spaces, in this exact form:
    ///
    /// `expr=<expression>;dice=<terms>;total=<total>` where `<expression>` is the normalized
    /// expression, `<total>` the signed decimal total, and `<terms>` each term in order, each
    /// starting with its sign (`+` or `-`): a number in decimal, or a dice group as `[` the dice
    /// joined by `,` `]`. A die is written: `<old>>` if it was rerolled from `<old>`, then its
    /// face, then `!<n>` for each explosion roll `<n>`, all prefixed by `~` when it was dropped.
    /// Example: `expr=4d6kh3+2;dice=+[~1,3,5,6!2]+2;total=18`.
    pub fn canonical(&self) -> String {
        let mut dice = String::new();
        for term in &self.terms {
            let minus = match term {
                RolledTerm::Number { minus, .. } | RolledTerm::Dice { minus, .. } => *minus,
            };
            dice.push(if minus { '-' } else { '+' });
            match term {
                RolledTerm::Number { value, .. } => dice.push_str(&value.to_string()),
                RolledTerm::Dice { dice: ds, .. } => {
                    let each: Vec<String> = ds.iter().map(RolledDie::canonical).collect();
                    dice.push('[');
                    dice.push_str(&each.join(","));
                    dice.push(']');
                }
            }
        }
        format!("expr={};dice={dice};total={}", self.expression, self.total)
    }
}

impl From<&DieResult> for RolledDie {
    fn from(d: &DieResult) -> Self {
        Self {
            face: d.face,
            rerolled_from: d.rerolled_from,
            explosions: d.explosions.clone(),
            kept: d.kept,
        }
    }
}

impl RolledDie {
    /// The die for players (see [`Rolled::dice_line`]).
    fn shown(&self) -> String {
        let mut s = String::new();
        if let Some(old) = self.rerolled_from {
            s.push_str(&old.to_string());
            s.push('→');
        }
        let mut rolls = std::iter::once(self.face)
            .chain(self.explosions.iter().copied())
            .peekable();
        // Every roll followed by another one exploded (it showed the highest face).
        while let Some(face) = rolls.next() {
            s.push_str(&face.to_string());
            if rolls.peek().is_some() {
                s.push_str("!+");
            }
        }
        if self.kept { s } else { format!("~~{s}~~") }
    }

    fn canonical(&self) -> String {
        let mut s = String::new();
        if !self.kept {
            s.push('~');
        }
        if let Some(old) = self.rerolled_from {
            s.push_str(&old.to_string());
            s.push('>');
        }
        s.push_str(&self.face.to_string());
        for x in &self.explosions {
            s.push('!');
            s.push_str(&x.to_string());
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;
    use crate::rules::dice::expr::{Limits, parse};

    fn rolled(expression: &str, faces: &[u32]) -> Rolled {
        let expr = parse(expression, &Limits::default()).unwrap();
        let mut dice = ScriptedDice::new(faces.iter().copied());
        let result = expr.roll(&mut dice, &Limits::default()).unwrap();
        assert_eq!(dice.remaining(), 0, "unused faces for {expression}");
        Rolled::new(&expr, &result)
    }

    #[test]
    fn keep_highest_strikes_the_dropped_die() {
        let r = rolled("4d6kh3+2", &[1, 3, 5, 6]);
        assert_eq!(r.total, 16);
        assert_eq!(r.dice_line(), "[~~1~~, 3, 5, 6] + 2");
        assert_eq!(r.canonical(), "expr=4d6kh3+2;dice=+[~1,3,5,6]+2;total=16");
    }

    #[test]
    fn explosions_and_rerolls_are_marked() {
        let r = rolled("2d6!", &[6, 6, 2, 3]);
        assert_eq!(r.total, 17);
        assert_eq!(r.dice_line(), "[6!+6!+2, 3]");
        assert_eq!(r.canonical(), "expr=2d6!;dice=+[6!6!2,3];total=17");

        let r = rolled("2d6r1 - 1", &[1, 4, 5]);
        assert_eq!(r.total, 8);
        assert_eq!(r.dice_line(), "[1→4, 5] - 1");
        assert_eq!(r.canonical(), "expr=2d6r1-1;dice=+[1>4,5]-1;total=8");
    }

    #[test]
    fn a_leading_minus_and_a_six_that_did_not_explode() {
        let r = rolled("-1d6+10", &[6]);
        assert_eq!(r.total, 4);
        assert_eq!(r.dice_line(), "-[6] + 10");
        assert_eq!(r.canonical(), "expr=-1d6+10;dice=-[6]+10;total=4");
    }

    #[test]
    fn the_logged_shape_round_trips() {
        let r = rolled("3d6r1!kl2", &[1, 6, 3, 6, 2, 4]);
        let json = serde_json::to_string(&r).unwrap();
        let back: Rolled = serde_json::from_str(&json).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.canonical(), r.canonical());
    }
}
