//! `/odds thiz`: the exact chance of each level at a rating, by enumerating the d100.

use crate::app::reply::{Embed, Field, Reply, Tone};
use crate::app::text::signed;
use crate::app::{AppResult, user};
use crate::rules::thiz::Rating;
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
    let title = if modifier == 0 {
        format!("THIZ odds at rating {rating}")
    } else {
        format!(
            "THIZ odds at rating {rating} {} (reads row {})",
            signed(modifier),
            input.adjusted().row_rating()
        )
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
