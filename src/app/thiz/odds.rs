//! `/odds thiz`: the exact chance of each level at a rating, by enumerating the d100.

use crate::app::reply::{Embed, Field, Reply, Tone};
use crate::app::text::signed;
use crate::app::{AppResult, user};
use crate::rules::thiz::Rating;
use crate::rules::thiz::chart::{MAX_ROW, MIN_ROW};
use crate::rules::thiz::check::CheckInput;
use crate::rules::thiz::odds::check_odds;

/// Answers `/odds thiz rating [modifier]` (anyone; nothing is rolled or logged).
pub(super) fn run(rating: i32, modifier: i32) -> AppResult<Reply> {
    let input = CheckInput {
        base: Rating(rating),
        modifier,
        ..CheckInput::default()
    };
    let odds = check_odds(&input).map_err(|e| user(format!("{e}.")))?;
    let adjusted = input.adjusted();
    let row = adjusted.row_rating();
    // /work/shared/rules/README.md, "The chart": ratings past either end read the end row.
    let which = if adjusted.0 > MAX_ROW {
        Some(format!("past the chart: reads its last row, {row}"))
    } else if adjusted.0 < MIN_ROW {
        Some(format!("past the chart: reads its first row, {row}"))
    } else {
        (modifier != 0).then(|| format!("reads row {row}"))
    };
    let given = if modifier == 0 {
        format!("THIZ odds at rating {rating}")
    } else {
        format!("THIZ odds at rating {rating} {}", signed(modifier))
    };
    let title = match which {
        Some(which) => format!("{given} ({which})"),
        None => given,
    };
    let fields = odds
        .best_first()
        .iter()
        .map(|(level, n)| Field {
            name: level.name().to_owned(),
            value: format!("{n}%"),
            inline: true,
        })
        .collect();
    Ok(Reply::public("").with_embed(Embed {
        title,
        description: format!("Any success: {}%", odds.successes()),
        tone: Some(Tone::Info),
        fields,
        footer: Some("Exact: every face of the d100 counted.".to_owned()),
    }))
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Kit;

    #[test]
    fn rating_four_matches_the_reference_figure() {
        // rules/README.md reference: Black 9, Red 12, Yellow 20, Green 25, Failure 34.
        let kit = Kit::new(1);
        let reply = kit.run(&kit.player(), &["odds", "thiz"], &[("rating", "4")]);
        let e = &reply.embeds[0];
        let got: Vec<(String, String)> = e
            .fields
            .iter()
            .map(|f| (f.name.clone(), f.value.clone()))
            .collect();
        let want = [
            ("Black", "9%"),
            ("Red", "12%"),
            ("Yellow", "20%"),
            ("Green", "25%"),
            ("Failure", "34%"),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(a, b)| ((*a).into(), (*b).into()))
            .collect();
        assert_eq!(got, want);
        assert_eq!(e.description, "Any success: 66%");
        // A modifier moves the row: 2 + 2 reads row 4.
        let moved = kit.run(
            &kit.player(),
            &["odds", "thiz"],
            &[("rating", "2"), ("modifier", "+2")],
        );
        assert_eq!(moved.embeds[0].fields, e.fields);
        assert!(moved.embeds[0].title.contains("reads row 4"));
        assert_eq!(kit.roll_count(), 0);
    }

    #[test]
    fn a_rating_past_the_chart_says_which_row_it_reads() {
        // thiz-resolution-chart.csv: the last row is 26-30 and the first -30; ratings above 30
        // read the 30 row, below -30 the -30 row (rules/README.md, "The chart").
        let kit = Kit::new(1);
        let title = |opts: &[(&str, &str)]| {
            kit.run(&kit.player(), &["odds", "thiz"], opts).embeds[0]
                .title
                .clone()
        };
        let cases: [(&[(&str, &str)], &str); 8] = [
            (&[("rating", "30")], "THIZ odds at rating 30"),
            (
                &[("rating", "31")],
                "THIZ odds at rating 31 (past the chart: reads its last row, 30)",
            ),
            (
                &[("rating", "40")],
                "THIZ odds at rating 40 (past the chart: reads its last row, 30)",
            ),
            (&[("rating", "-30")], "THIZ odds at rating -30"),
            (
                &[("rating", "-31")],
                "THIZ odds at rating -31 (past the chart: reads its first row, -30)",
            ),
            (
                &[("rating", "29"), ("modifier", "+1")],
                "THIZ odds at rating 29 +1 (reads row 30)",
            ),
            (
                &[("rating", "29"), ("modifier", "+2")],
                "THIZ odds at rating 29 +2 (past the chart: reads its last row, 30)",
            ),
            (
                &[("rating", "-29"), ("modifier", "-2")],
                "THIZ odds at rating -29 -2 (past the chart: reads its first row, -30)",
            ),
        ];
        for (opts, want) in cases {
            assert_eq!(title(opts), want, "{opts:?}");
        }
        // Past the end the odds are the end row's own.
        let fields = |r: &str| {
            kit.run(&kit.player(), &["odds", "thiz"], &[("rating", r)])
                .embeds[0]
                .fields
                .clone()
        };
        assert_eq!(fields("31"), fields("30"));
        assert_ne!(fields("30"), fields("25"));
    }

    #[test]
    fn bad_input_is_refused() {
        let kit = Kit::new(1);
        for (opts, want) in [
            (
                &[("rating", "41")][..],
                "rating must be between -40 and 40; you gave 41",
            ),
            (
                &[("rating", "0"), ("modifier", "-41")][..],
                "modifier must be between -40 and 40; you gave -41",
            ),
            (&[][..], "needs the option rating"),
            (&[("rating", "x")][..], "rating must be a whole number"),
        ] {
            let reply = kit.run(&kit.player(), &["odds", "thiz"], opts);
            assert!(reply.content.contains(want), "{opts:?}: {}", reply.content);
        }
    }
}
