//! `/odds dice`: the exact distribution of any dice expression, as a table and a chart.
//!
//! Owns choosing which totals the table lists (all of them when few, the quantiles when many)
//! and the wording of what was cut off at the explosion cap. Nothing is rolled or logged.

use std::fmt::Write as _;

use crate::app::chart;
use crate::app::reply::{Embed, Field, Reply, Tone};
use crate::app::{AppResult, Ctx, user};
use crate::rules::dice::expr::{self, Distribution};

/// The most totals listed one by one; past it the table lists quantiles.
const MAX_ROWS: usize = 30;

/// Answers `/odds dice expression [at]` (anyone).
pub(super) fn odds(ctx: &Ctx<'_>, expression: &str, at: Option<i64>) -> AppResult<Reply> {
    let limits = ctx.app.limits();
    let parsed =
        expr::parse(expression, limits).map_err(|e| user(format!("Can't work that out: {e}.")))?;
    let [roll] = parsed.rolls() else {
        return Err(user(
            "/odds dice works out one roll at a time; leave out the ; and ask for each roll.",
        ));
    };
    let dist = expr::distribution(roll, limits).map_err(|e| user(format!("{e}.")))?;
    let read = roll.node.to_string();
    let mut notes = Vec::new();
    if roll.repeat > 1 {
        notes.push(format!(
            "For one of the {} sets; each set is rolled the same way.",
            roll.repeat
        ));
    }
    if let Some(cap) = dist.cap {
        notes.push(format!(
            "Explosions followed to the cap of {cap} extra dice; chance a roll goes past it: {}.",
            percent(dist.beyond)
        ));
    }
    let successes = roll_counts_successes(&roll.node);
    let mut description = format!(
        "Mean **{:.2}**, spread (standard deviation) {:.2}, {} from {} to {}.",
        dist.mean(),
        dist.spread(),
        if successes { "successes" } else { "totals" },
        dist.low,
        dist.high()
    );
    for note in &notes {
        description.push('\n');
        description.push_str(note);
    }
    description.push_str("\n```\n");
    description.push_str(&table(&dist));
    description.push_str("```");
    let mut fields = Vec::new();
    if let Some(x) = at {
        fields.push(Field {
            name: format!("Exactly {x}"),
            value: percent(dist.eq(x)),
            inline: true,
        });
        fields.push(Field {
            name: format!("{x} or more"),
            value: percent(dist.ge(x)),
            inline: true,
        });
        fields.push(Field {
            name: format!("{x} or less"),
            value: percent(dist.le(x)),
            inline: true,
        });
    }
    let png = chart::distribution_png(&format!("Odds of {read}"), &dist.points());
    let reply = Reply::public("").with_embed(Embed {
        title: format!("Odds of `{read}`"),
        description,
        tone: Some(Tone::Info),
        fields,
        footer: Some(
            "Exact: worked out over every way the dice can fall, not simulated. The chart shows every total.".to_owned(),
        ),
    });
    Ok(chart::attached(reply, png))
}

fn roll_counts_successes(node: &expr::Node) -> bool {
    match node {
        expr::Node::Dice(d) => d.counts_successes(),
        expr::Node::Number(_) => false,
        expr::Node::Set(items, _) => items.iter().any(roll_counts_successes),
        expr::Node::Paren(i) | expr::Node::Neg(i) | expr::Node::Annotated(i, _) => {
            roll_counts_successes(i)
        }
        expr::Node::Binary(a, _, b) => roll_counts_successes(a) || roll_counts_successes(b),
    }
}

/// A chance as a percentage: two decimals, `<0.01%` for a chance too small to show, never a
/// rounded `0.00%` or `100.00%` for what can happen or fail.
pub(super) fn percent(p: f64) -> String {
    let pct = p * 100.0;
    if p <= 0.0 {
        "0%".to_owned()
    } else if pct < 0.01 {
        "<0.01%".to_owned()
    } else if p >= 1.0 - 1e-12 {
        "100%".to_owned()
    } else if pct > 99.99 {
        ">99.99%".to_owned()
    } else {
        format!("{pct:.2}%")
    }
}

/// The rows: every total when there are few, else the totals at the usual quantiles.
fn rows(dist: &Distribution) -> Vec<i64> {
    let points = dist.points();
    if points.len() <= MAX_ROWS {
        return points.iter().map(|(x, _)| *x).collect();
    }
    let mut out: Vec<i64> = Vec::new();
    for q in [0.0, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 1.0] {
        let mut acc = 0.0;
        let x = points
            .iter()
            .find(|(_, p)| {
                acc += p;
                acc >= q - 1e-12 && acc > 0.0
            })
            .map_or(dist.high(), |(x, _)| *x);
        let x = if q >= 1.0 { dist.high() } else { x };
        if out.last() != Some(&x) {
            out.push(x);
        }
    }
    out
}

/// The table in a code block's text: total, P(=), P(≥), P(≤).
fn table(dist: &Distribution) -> String {
    let rows = rows(dist);
    let mut out = format!(
        "{:>8}  {:>8}  {:>8}  {:>8}\n",
        "total", "exactly", "or more", "or less"
    );
    for x in &rows {
        let _ = writeln!(
            out,
            "{x:>8}  {:>8}  {:>8}  {:>8}",
            percent(dist.eq(*x)),
            percent(dist.ge(*x)),
            percent(dist.le(*x))
        );
    }
    if rows.len() < dist.points().len() {
        let _ = writeln!(
            out,
            "({} totals in all; these are the lowest, the highest and the quantiles)",
            dist.points().len()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::reply::Visibility;
    use crate::app::testkit::{ann, run};

    /// The reply, or the text of a refusal (which must be ephemeral).
    fn odds_of(expression: &str, at: Option<&str>) -> Result<Reply, String> {
        let (_dir, app) = crate::app::temp_app(1);
        let mut opts = vec![("expression", expression)];
        if let Some(at) = at {
            opts.push(("at", at));
        }
        let reply = run(&app, &ann(), &["odds", "dice"], &opts);
        if reply.visibility == Visibility::Ephemeral {
            Err(reply.all_text())
        } else {
            Ok(reply)
        }
    }

    #[test]
    fn two_d6_lists_every_total_exactly() {
        let reply = odds_of("2d6", Some("7")).unwrap();
        let e = &reply.embeds[0];
        assert_eq!(e.title, "Odds of `2d6`");
        assert!(e.description.contains("Mean **7.00**"), "{}", e.description);
        // 7 on 2d6 is 6 in 36; 12 is 1 in 36; 7 or more is 21 in 36.
        assert!(
            e.description
                .contains("       7    16.67%    58.33%    58.33%"),
            "{}",
            e.description
        );
        assert!(
            e.description
                .contains("      12     2.78%     2.78%      100%"),
            "{}",
            e.description
        );
        let field = |name: &str| {
            e.fields
                .iter()
                .find(|f| f.name == name)
                .map(|f| f.value.clone())
        };
        assert_eq!(field("Exactly 7").as_deref(), Some("16.67%"));
        assert_eq!(field("7 or more").as_deref(), Some("58.33%"));
        assert_eq!(field("7 or less").as_deref(), Some("58.33%"));
    }

    #[test]
    fn the_chart_has_a_bar_for_every_total_as_tall_as_its_chance() {
        use crate::app::chart::picture::Picture;
        let reply = odds_of("2d6", None).unwrap();
        let file = reply.file.as_ref().expect("a chart");
        assert_eq!(file.name, chart::CHART_FILE);
        let picture = Picture::decode(&file.content);
        assert_eq!((picture.width, picture.height), chart::DISTRIBUTION_SIZE);
        let bar = chart::DISTRIBUTION_TONE.color();
        let runs = picture.column_runs(bar);
        assert_eq!(runs.len(), 11, "a bar for each total 2..=12");
        let height = |i: usize| picture.count_in_column(u32::midpoint(runs[i].0, runs[i].1), bar);
        // 7 (6 in 36) is the tallest; 2 and 12 (1 in 36) a sixth of it, within a pixel or two.
        assert!((0..11).all(|i| height(i) <= height(5)));
        let ratio = height(0) as f64 / height(5) as f64;
        assert!((ratio - 1.0 / 6.0).abs() < 0.02, "{ratio}");
        assert_eq!(height(0), height(10));
    }

    #[test]
    fn many_totals_are_listed_by_quantile_and_the_cap_is_stated() {
        let reply = odds_of("10d20", None).unwrap();
        assert!(reply.embeds[0].description.contains("191 totals in all"));
        // An exploding d2 runs on, but what lies past a chain of 50 is below 1e-15.
        let reply = odds_of("1d2!", None).unwrap();
        assert!(reply.embeds[0].description.contains("Mean **3.00**"));
    }

    #[test]
    fn refusals_say_why() {
        for (input, want) in [
            ("1d20; 2d6", "one roll at a time"),
            ("2d", "a number of sides"),
            ("100d1000kh50", "too long"),
        ] {
            let e = odds_of(input, None).unwrap_err();
            assert!(e.contains(want), "`{input}`: {e}");
        }
        // Dice that depend on each other are worked out too.
        for input in ["4d6ra6", "3d6!kh2", "4wod8c", "4d6 i1"] {
            assert!(odds_of(input, None).is_ok(), "`{input}`");
        }
    }

    #[test]
    fn percentages_never_round_to_impossible_or_certain() {
        assert_eq!(percent(0.0), "0%");
        assert_eq!(percent(1e-9), "<0.01%");
        assert_eq!(percent(0.999_999_99), ">99.99%");
        assert_eq!(percent(1.0), "100%");
        assert_eq!(percent(0.5), "50.00%");
    }
}
