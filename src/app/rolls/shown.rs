//! A `/roll` result as logged and as shown: the stored JSON shape, the dice line players read,
//! and the canonical text a secret roll commits to.
//!
//! The rules' [`RollResult`] is plain data without serde; this module owns the stable shape the
//! roll log keeps (`rolls.public_json` / `secret_rolls.result_json` for the commands `roll` and
//! `gm roll`), so `/history` and `/reveal` can read it back long after the roll.

use serde::{Deserialize, Serialize};

use crate::app::text::escape;
use crate::rules::dice::expr::{DieOutcome, Expr, Op, Outcome, Sides, ValueOutcome};

/// A rolled message, as logged.
///
/// Rolls logged before the dice language grew (`terms`, one sum) are still read and shown as
/// they were; new rolls carry `lines`, one per roll of the message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rolled {
    /// The canonical spelling of the whole message (`4d6kh3 + 2`; rolls joined by `; `).
    pub expression: String,
    /// The old shape: one signed term each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terms: Vec<RolledTerm>,
    /// The first roll's first total (the only one, for most rolls).
    pub total: i64,
    /// Whether the cap on extra rolls stopped a die from exploding or rerolling further.
    #[serde(default)]
    pub capped: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<RolledLine>,
    /// The saved roll (`/alias`) it was rolled as, by name; not part of the commitment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saved: Option<String>,
}

/// One roll of a message (`;`), with each of its repeats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RolledLine {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The system alias it was typed as (`dndstats`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alias: Option<String>,
    /// The canonical spelling of this roll (repeat count not included).
    pub expression: String,
    /// Whether the total counts successes rather than summing.
    #[serde(default)]
    pub successes: bool,
    /// `s`: only the total is shown.
    #[serde(default)]
    pub simple: bool,
    /// `nr`: only the dice are shown.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_total: bool,
    pub sets: Vec<RolledSet>,
}

/// One repeat of a roll: how it fell and its total.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RolledSet {
    /// For players (Discord markdown): `4d6kh3 (~~1~~, 3, 5, 6) + 2`.
    pub shown: String,
    /// Plain ASCII, for the commitment: `4d6kh3(~1,3,5,6)+2`.
    pub plain: String,
    pub total: i64,
    /// Dice counted as botches (`b1`), when the roll counts them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub botches: Option<u32>,
}

/// One signed term as logged (rolls logged before the dice language grew).
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

/// One die as logged (rolls logged before the dice language grew).
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
    /// The logged shape of `outcome`, rolled from `expr`.
    pub fn new(expr: &Expr, outcome: &Outcome) -> Self {
        let lines: Vec<RolledLine> = expr
            .rolls()
            .iter()
            .zip(&outcome.rolls)
            .map(|(roll, rolled)| RolledLine {
                label: roll.label.clone(),
                comment: roll.comment.clone(),
                alias: roll.alias.clone(),
                expression: roll.node.to_string(),
                successes: rolled.sets.first().is_some_and(counts_successes),
                simple: roll.simple,
                no_total: roll.no_total,
                sets: rolled
                    .sets
                    .iter()
                    .map(|set| RolledSet {
                        shown: render(set, true),
                        plain: render(set, false),
                        total: set.value(),
                        botches: botches(set),
                    })
                    .collect(),
            })
            .collect();
        let total = lines
            .first()
            .and_then(|l| l.sets.first())
            .map_or(0, |s| s.total);
        Self {
            expression: expr.to_string(),
            terms: Vec::new(),
            total,
            capped: outcome.capped,
            lines,
            saved: None,
        }
    }

    /// Every total of the message, in order.
    pub fn totals(&self) -> Vec<i64> {
        if self.lines.is_empty() {
            return vec![self.total];
        }
        self.lines
            .iter()
            .flat_map(|l| l.sets.iter().map(|s| s.total))
            .collect()
    }

    /// One line for `/history`: the expression and its totals.
    pub fn summary(&self) -> String {
        let totals: Vec<String> = self.totals().iter().map(|t| format!("**{t}**")).collect();
        let shown = if totals.len() > 6 {
            format!("{}, … ({} totals)", totals[..6].join(", "), totals.len())
        } else {
            totals.join(", ")
        };
        match &self.saved {
            Some(name) => format!("{}: `{}` → {shown}", escape(name), self.expression),
            None => format!("`{}` → {shown}", self.expression),
        }
    }

    /// Every die for players. Rolls logged in the old shape keep their old line: dropped dice
    /// struck through (`~~2~~`), a face that exploded marked `!` and followed by its extra rolls
    /// (`6!+6!+2`), a reroll shown old→new (`1→4`): `[~~1~~, 3, 5, 6] + 2`. New rolls show each
    /// roll's first set (see [`RolledSet::shown`]).
    pub fn dice_line(&self) -> String {
        if let Some(line) = self.lines.first() {
            return line
                .sets
                .first()
                .map(|s| s.shown.clone())
                .unwrap_or_default();
        }
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
    /// nonce; see `commit`). Plain text, in this exact form:
    ///
    /// `expr=<expression>;dice=<dice>;total=<total>` where `<expression>` is the canonical
    /// expression and `<total>` the first signed decimal total. For rolls in the current shape
    /// `<dice>` is each roll's sets' plain breakdowns (see [`RolledSet::plain`]) each followed by
    /// `=` and its total, sets joined by `/`, rolls by `|`. Example:
    /// `expr=4d6kh3 + 2;dice=4d6kh3(~1,3,5,6)+2=16;total=16`.
    ///
    /// Rolls logged in the old shape keep the old form: each term starting with its sign, a
    /// number in decimal or a dice group as `[` the dice joined by `,` `]`; a die is `<old>>` if
    /// it was rerolled from `<old>`, then its face, then `!<n>` for each explosion roll, all
    /// prefixed by `~` when it was dropped: `expr=4d6kh3+2;dice=+[~1,3,5,6!2]+2;total=18`.
    pub fn canonical(&self) -> String {
        if !self.lines.is_empty() {
            let dice: Vec<String> = self
                .lines
                .iter()
                .map(|l| {
                    let sets: Vec<String> = l
                        .sets
                        .iter()
                        .map(|s| format!("{}={}", s.plain, s.total))
                        .collect();
                    sets.join("/")
                })
                .collect();
            return format!(
                "expr={};dice={};total={}",
                self.expression,
                dice.join("|"),
                self.total
            );
        }
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

/// Whether a rolled value is a count of successes (its dice count `t`/`f`).
fn counts_successes(v: &ValueOutcome) -> bool {
    match v {
        ValueOutcome::Number(_) => false,
        ValueOutcome::Dice { spec, .. } => spec.counts_successes(),
        ValueOutcome::Set { items, .. } => items.iter().any(counts_successes),
        ValueOutcome::Paren(inner)
        | ValueOutcome::Neg(inner)
        | ValueOutcome::Annotated(inner, _) => counts_successes(inner),
        ValueOutcome::Binary(a, _, b, _) => counts_successes(a) || counts_successes(b),
    }
}

/// How many dice were counted as botches, when any dice count them (`b1`).
fn botches(v: &ValueOutcome) -> Option<u32> {
    match v {
        ValueOutcome::Number(_) => None,
        ValueOutcome::Dice { spec, dice, .. } => spec
            .ops
            .iter()
            .any(|op| matches!(op, Op::Botch(_)))
            .then(|| dice.iter().filter(|d| d.botch).count() as u32),
        ValueOutcome::Set { items, .. } => items.iter().filter_map(botches).reduce(|a, b| a + b),
        ValueOutcome::Paren(inner)
        | ValueOutcome::Neg(inner)
        | ValueOutcome::Annotated(inner, _) => botches(inner),
        ValueOutcome::Binary(left, _, right, _) => match (botches(left), botches(right)) {
            (None, None) => None,
            (one, other) => Some(one.unwrap_or(0) + other.unwrap_or(0)),
        },
    }
}

/// A rolled value as text: for players (`markdown`) or plain for the commitment.
fn render(v: &ValueOutcome, markdown: bool) -> String {
    match v {
        ValueOutcome::Number(n) => n.to_string(),
        ValueOutcome::Dice { spec, dice, .. } => {
            let each: Vec<String> = dice.iter().map(|d| die(d, spec.sides, markdown)).collect();
            if markdown {
                format!("{spec} ({})", each.join(", "))
            } else {
                format!("{spec}({})", each.join(","))
            }
        }
        ValueOutcome::Set { items, kept, .. } => {
            let each: Vec<String> = items
                .iter()
                .zip(kept)
                .map(|(item, k)| {
                    let text = render(item, markdown);
                    match (k, markdown) {
                        (true, _) => text,
                        (false, true) => format!("~~{text}~~"),
                        (false, false) => format!("~{text}"),
                    }
                })
                .collect();
            format!("({})", each.join(if markdown { ", " } else { "," }))
        }
        ValueOutcome::Paren(inner) => format!("({})", render(inner, markdown)),
        ValueOutcome::Neg(inner) => format!("-{}", render(inner, markdown)),
        ValueOutcome::Binary(a, op, b, _) => {
            let (a, b) = (render(a, markdown), render(b, markdown));
            if markdown {
                format!("{a} {} {b}", op.symbol())
            } else {
                format!("{a}{}{b}", op.symbol())
            }
        }
        ValueOutcome::Annotated(inner, note) => {
            if markdown {
                format!("{} [{}]", render(inner, markdown), escape(note))
            } else {
                format!("{}[{note}]", render(inner, markdown))
            }
        }
    }
}

/// A Fate die's face: `+`, `0` or `-`.
fn fate(value: i64) -> String {
    match value {
        1 => "+".to_owned(),
        -1 => "-".to_owned(),
        _ => "0".to_owned(),
    }
}

/// One die: rerolls `1→4`, a minimum or maximum `1→2`, an explosion `6!`, a success in bold
/// (`**8**`, a double `**10**×2`), a failure marked `✗` (`1✗ cancelled` when a highest face
/// cancelled it), a botch `1 botch`, a die the cap stopped marked `(cap)`, a dropped die struck
/// through, a die an implosion subtracts `−(4)`. Plain: `1>4`, `1=2`, `6!`, `8s`, `10ss`, `1f`,
/// `1fc`, `1b`, `6^`, `~3`, `-(4)`.
fn die(d: &DieOutcome, sides: Sides, markdown: bool) -> String {
    let face = |v: i64| match sides {
        Sides::Fate => fate(v),
        Sides::Number(_) => v.to_string(),
    };
    if d.subtracted {
        let minus = if markdown { "−" } else { "-" };
        return format!("{minus}({})", face(d.face));
    }
    let mut s = String::new();
    for old in &d.rerolled {
        s.push_str(&face(*old));
        s.push_str(if markdown { "→" } else { ">" });
    }
    s.push_str(&face(d.face));
    if d.value != d.face {
        s.push_str(if markdown { "→" } else { "=" });
        s.push_str(&face(d.value));
    }
    if d.exploded {
        s.push('!');
    }
    if d.capped {
        s.push_str(if markdown { " (cap)" } else { "^" });
    }
    match (d.success, markdown) {
        (1, true) => s = format!("**{s}**"),
        (2, true) => s = format!("**{s}**×2"),
        (2, false) => s.push_str("ss"),
        (-1, true) => s.push('✗'),
        (1, false) => s.push('s'),
        (-1, false) => s.push('f'),
        _ => {}
    }
    if d.cancelled {
        s.push_str(if markdown { "✗ cancelled" } else { "fc" });
    }
    if d.botch {
        s.push_str(if markdown { " botch" } else { "b" });
    }
    if !d.kept {
        s = if markdown {
            format!("~~{s}~~")
        } else {
            format!("~{s}")
        };
    }
    s
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
        assert_eq!(r.dice_line(), "4d6kh3 (~~1~~, 3, 5, 6) + 2");
        assert_eq!(
            r.canonical(),
            "expr=4d6kh3 + 2;dice=4d6kh3(~1,3,5,6)+2=16;total=16"
        );
    }

    #[test]
    fn each_die_shows_what_happened_to_it() {
        // (typed, faces, shown, plain)
        let cases: &[(&str, &[u32], &str, &str)] = &[
            (
                "2d6!",
                &[6, 6, 2, 3],
                "2d6! (6!, 6!, 2, 3)",
                "2d6!(6!,6!,2,3)",
            ),
            (
                "2d6r1 - 1",
                &[1, 4, 5],
                "2d6r1 (1→4, 5) - 1",
                "2d6r1(1>4,5)-1",
            ),
            ("-1d6+10", &[6], "-1d6 (6) + 10", "-1d6(6)+10"),
            ("2d6mi3", &[1, 5], "2d6mi3 (1→3, 5)", "2d6mi3(1=3,5)"),
            (
                "4d10t8f1",
                &[9, 1, 5, 8],
                "4d10t8f1 (**9**, 1✗, 5, **8**)",
                "4d10t8f1(9s,1f,5,8s)",
            ),
            ("3dF", &[1, 2, 3], "3dF (-, 0, +)", "3dF(-,0,+)"),
            (
                "(1d4, 3)kh1 [best]",
                &[2],
                "(~~1d4 (2)~~, 3) [best]",
                "(~1d4(2),3)[best]",
            ),
        ];
        for (typed, faces, shown, plain) in cases {
            let r = rolled(typed, faces);
            assert_eq!(r.lines[0].sets[0].shown, *shown, "`{typed}`");
            assert_eq!(r.lines[0].sets[0].plain, *plain, "`{typed}`");
        }
    }

    #[test]
    fn repeats_and_several_rolls_keep_every_total() {
        let r = rolled("(Stats) 3 1d6 ! each; 1d20", &[1, 2, 3, 17]);
        assert_eq!(r.totals(), vec![1, 2, 3, 17]);
        assert_eq!(r.lines[0].label.as_deref(), Some("Stats"));
        assert_eq!(r.lines[0].comment.as_deref(), Some("each"));
        assert_eq!(r.summary(), "`3 1d6; 1d20` → **1**, **2**, **3**, **17**");
        assert!(r.lines[1].sets[0].plain.starts_with("1d20(17)"));
        let r = rolled("5d10t8", &[8, 9, 1, 2, 3]);
        assert!(r.lines[0].successes);
    }

    #[test]
    fn rolls_logged_in_the_old_shape_still_read() {
        let old = r#"{"expression":"4d6kh3+2","terms":[{"kind":"dice","minus":false,"sides":6,"dice":[{"face":1,"kept":false},{"face":3,"kept":true},{"face":5,"kept":true},{"face":6,"kept":true,"explosions":[2]}]},{"kind":"number","minus":false,"value":2}],"total":18}"#;
        let r: Rolled = serde_json::from_str(old).unwrap();
        assert_eq!(r.dice_line(), "[~~1~~, 3, 5, 6!+2] + 2");
        assert_eq!(r.canonical(), "expr=4d6kh3+2;dice=+[~1,3,5,6!2]+2;total=18");
        assert_eq!(r.totals(), vec![18]);
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
