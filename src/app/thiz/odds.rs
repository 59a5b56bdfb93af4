//! `/odds thiz`: the exact chance of each level at a rating, by enumerating the d100, in an
//! embed and as a chart beside it.

use super::shared::tone;
use crate::app::chart;
use crate::app::reply::{Embed, Field, Reply, Tone};
use crate::app::text::signed;
use crate::app::{AppResult, user};
use crate::rules::thiz::Rating;
use crate::rules::thiz::chart::{MAX_ROW, MIN_ROW};
use crate::rules::thiz::check::CheckInput;
use crate::rules::thiz::odds::{FACES, check_odds};

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
    // The chart draws the levels as the embed lists them, best first, each in its colour.
    let bars: Vec<(&str, f64, Tone)> = odds
        .best_first()
        .iter()
        .map(|&(level, n)| (level.name(), f64::from(n) / f64::from(FACES), tone(level)))
        .collect();
    let png = chart::outcomes_png(&title, &bars);
    let reply = Reply::public("").with_embed(Embed {
        title,
        description: format!("Any success: {}%", odds.successes()),
        tone: Some(Tone::Info),
        fields,
        footer: Some("Exact: every face of the d100 counted.".to_owned()),
    });
    Ok(chart::attached(reply, png))
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
    fn the_odds_come_with_a_chart_whose_bars_measure_each_level() {
        use crate::app::chart::picture::Picture;
        use crate::rules::thiz::Rating;
        use crate::rules::thiz::check::CheckInput;
        use crate::rules::thiz::odds::check_odds;

        let kit = Kit::new(1);
        let reply = kit.run(&kit.player(), &["odds", "thiz"], &[("rating", "0")]);
        let file = reply.file.as_ref().expect("a chart beside the embed");
        assert_eq!(file.name, "odds.png");
        assert!(file.as_text().is_none(), "a picture, not text");
        assert!(file.content.len() < 60_000, "{} bytes", file.content.len());
        let picture = Picture::decode(&file.content);
        let odds = check_odds(&CheckInput {
            base: Rating(0),
            ..CheckInput::default()
        })
        .unwrap();
        // Each level's bar, in its colour, is as long as its share of the d100, within 2 pixels
        // of the likeliest level's bar scaled down; a level that cannot happen has no bar.
        let length = |level| {
            picture
                .bounds(super::tone(level).color())
                .map_or(0, |(left, _, right, _)| right - left + 1)
        };
        let (likeliest, most) = odds
            .best_first()
            .into_iter()
            .max_by_key(|&(_, n)| n)
            .unwrap();
        let longest = length(likeliest);
        assert!(longest > 100, "{longest} px");
        for (level, n) in odds.best_first() {
            let want = f64::from(n) / f64::from(most) * f64::from(longest);
            let got = f64::from(length(level));
            assert!(
                (got - want).abs() <= 2.0,
                "{level:?}: {got} px, want {want}"
            );
            assert!(
                length(level) <= longest,
                "{level:?} longer than {likeliest:?}"
            );
        }
        // The text stays in the embed for anyone who cannot see the picture.
        assert_eq!(reply.embeds[0].fields.len(), 5);
        // A refusal has no chart.
        let refused = kit.run(&kit.player(), &["odds", "thiz"], &[("rating", "41")]);
        assert!(refused.file.is_none());
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
