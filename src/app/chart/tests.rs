//! The charts read back from their PNGs: sizes, bars where the odds put them, no panic on
//! any input.

use super::picture::{PNG_SIGNATURE, Picture};
use super::*;

const BAR: u32 = 0x0058_65F2;

/// The plot's height in a distribution chart: from under the title to above the labels.
fn plot_room() -> i32 {
    DISTRIBUTION_SIZE.1 as i32 - FOOTER - PLOT_TOP
}

#[test]
fn a_distribution_is_a_small_png_of_the_documented_size() {
    let points: Vec<(i64, f64)> = (3..=18).map(|x| (x, 1.0 / 16.0)).collect();
    let png = distribution_png("3d6", &points);
    assert!(png.starts_with(&PNG_SIGNATURE));
    let picture = Picture::decode(&png);
    assert_eq!((picture.width, picture.height), DISTRIBUTION_SIZE);
    assert!(png.len() < 20_000, "{} bytes", png.len());
    assert_eq!(DISTRIBUTION_TONE.color(), BAR);
    // Sixteen values, sixteen bars apart from one another, all as high.
    let runs = picture.column_runs(BAR);
    assert_eq!(runs.len(), 16, "{runs:?}");
    let heights: Vec<usize> = runs
        .iter()
        .map(|(a, b)| picture.count_in_column(u32::midpoint(*a, *b), BAR))
        .collect();
    assert!(
        heights.iter().all(|&h| h == heights[0] && h > 0),
        "{heights:?}"
    );
}

#[test]
fn a_certain_value_is_the_only_bar_and_fills_the_plot() {
    let png = distribution_png("P(=x)", &[(1, 0.0), (2, 1.0), (3, 0.0)]);
    let picture = Picture::decode(&png);
    let runs = picture.column_runs(BAR);
    assert_eq!(runs.len(), 1, "one bar: {runs:?}");
    let (first, last) = runs[0];
    // The middle of three values stands in the middle of the plot.
    let frame = distribution_frame(800, 400, 100.0);
    let middle = i32::midpoint(frame.left, frame.right);
    assert!(
        (i64::from(u32::midpoint(first, last)) - i64::from(middle)).abs() <= 1,
        "{runs:?} around {middle}"
    );
    for x in first..=last {
        assert_eq!(
            picture.count_in_column(x, BAR),
            plot_room() as usize,
            "column {x}"
        );
    }
    // No other column has a pixel of the bar's colour.
    let elsewhere: usize = (0..picture.width)
        .filter(|x| !(first..=last).contains(x))
        .map(|x| picture.count_in_column(x, BAR))
        .sum();
    assert_eq!(elsewhere, 0);
}

#[test]
fn bar_heights_follow_the_probabilities_on_a_rounded_up_axis() {
    let odds = [0.1, 0.2, 0.3, 0.4];
    let points: Vec<(i64, f64)> = (1..).zip(odds).collect();
    let picture = Picture::decode(&distribution_png("d4 weighted", &points));
    let runs = picture.column_runs(BAR);
    assert_eq!(runs.len(), 4, "{runs:?}");
    // The axis tops at 50%, the least round figure above 40%.
    for ((a, b), p) in runs.iter().zip(odds) {
        let measured = picture.count_in_column(u32::midpoint(*a, *b), BAR) as f64;
        let want = p / 0.5 * f64::from(plot_room());
        assert!(
            (measured - want).abs() <= 1.0,
            "{p}: {measured} px, want {want}"
        );
    }
    // Left to right in the order of the values.
    assert!(runs.windows(2).all(|w| w[0].1 < w[1].0));
}

#[test]
fn a_sliver_of_a_chance_still_shows_and_an_impossible_value_does_not() {
    let picture = Picture::decode(&distribution_png(
        "",
        &[(0, 0.999_999), (1, 0.000_001), (2, 0.0)],
    ));
    let runs = picture.column_runs(BAR);
    assert_eq!(runs.len(), 2, "{runs:?}");
    assert_eq!(
        picture.count_in_column(u32::midpoint(runs[1].0, runs[1].1), BAR),
        1
    );
}

#[test]
fn two_thousand_values_with_gaps_stay_small() {
    // A bell over 2,000 values with every tenth missing: a large dice pool's distribution.
    let weights: Vec<(i64, f64)> = (0..2_000i64)
        .filter(|x| x % 10 != 3)
        .map(|x| (x - 1_000, (-((x - 1_000) as f64 / 300.0).powi(2)).exp()))
        .collect();
    let total: f64 = weights.iter().map(|(_, w)| w).sum();
    let points: Vec<(i64, f64)> = weights.iter().map(|&(x, w)| (x, w / total)).collect();
    let png = distribution_png("40d100 - 2000", &points);
    assert!(png.len() <= 60_000, "{} bytes", png.len());
    let picture = Picture::decode(&png);
    // The bell's peak is in the middle of the plot, its tails low at the ends.
    let frame = distribution_frame(800, 400, axis_top(points.iter().map(|p| p.1)));
    let height = |x: i32| picture.count_in_column(x as u32, BAR);
    let middle = i32::midpoint(frame.left, frame.right);
    assert!(height(middle) > 200, "{}", height(middle));
    assert!(height(frame.left + 2) < 10 && height(frame.right - 3) < 10);
}

#[test]
fn degenerate_distributions_still_give_a_picture() {
    // (what, points, how many bars show)
    type Case = (&'static str, Vec<(i64, f64)>, usize);
    let cases: Vec<Case> = vec![
        ("empty", vec![], 0),
        ("one point", vec![(7, 1.0)], 1),
        ("all zero", vec![(1, 0.0), (2, 0.0)], 0),
        ("NaN", vec![(1, f64::NAN), (2, f64::INFINITY), (3, -0.5)], 0),
        ("above 1", vec![(1, 7.0)], 1),
        ("the ends of i64", vec![(i64::MIN, 0.5), (i64::MAX, 0.5)], 2),
        ("unsorted, repeated", vec![(5, 0.2), (-5, 0.3), (5, 0.5)], 2),
    ];
    for (name, points, bars) in cases {
        let png = distribution_png(name, &points);
        let picture = Picture::decode(&png);
        assert_eq!((picture.width, picture.height), DISTRIBUTION_SIZE, "{name}");
        assert_eq!(picture.column_runs(BAR).len(), bars, "{name}");
        assert!(picture.count(INK) > 0, "{name}: axes and labels");
    }
    // A value above 1 is drawn as 1: the whole height.
    let full = Picture::decode(&distribution_png("", &[(1, 7.0)]));
    let (a, b) = full.column_runs(BAR)[0];
    assert_eq!(
        full.count_in_column(u32::midpoint(a, b), BAR),
        plot_room() as usize
    );
    // Of a value given twice, the higher bar shows.
    let twice = Picture::decode(&distribution_png("", &[(5, 0.2), (-5, 0.3), (5, 0.5)]));
    let runs = twice.column_runs(BAR);
    let right = twice.count_in_column(u32::midpoint(runs[1].0, runs[1].1), BAR) as f64;
    let want = 0.5 / 0.5 * f64::from(plot_room());
    assert!((right - want).abs() <= 1.0, "{right} px");
}

#[test]
fn x_ticks_stand_apart_inside_the_picture_for_any_range() {
    let frame = distribution_frame(800, 400, 100.0);
    let ranges: [(i64, i64); 9] = [
        (5, 5),
        (1, 3),
        (3, 18),
        (-30, 30),
        (1, 2_000),
        (-999_999, 999_999),
        (1_000_000_000_007, 1_000_000_002_000),
        (i64::MIN, i64::MAX),
        (i64::MAX - 3, i64::MAX),
    ];
    for (least, most) in ranges {
        let columns = Columns::of(&[(least, 0.5), (most, 0.5)], &frame).unwrap();
        let ticks = x_ticks(&columns, 800);
        assert!(!ticks.is_empty(), "{least}..{most}");
        let mut previous_right = i32::MIN;
        for tick in &ticks {
            assert!((i128::from(least)..=i128::from(most)).contains(&tick.value));
            assert_eq!(tick.label, tick.value.to_string());
            assert_eq!(tick.centre, columns.centre(tick.value));
            let right = tick.label_left + font::width(&tick.label, SCALE);
            assert!(tick.label_left >= 0 && right <= 800, "{tick:?}");
            assert!(
                tick.label_left >= previous_right + 16,
                "{least}..{most}: {ticks:?}"
            );
            previous_right = right;
        }
    }
    // Few values are each labelled; 3d6 reads 3, 4, … 18.
    let columns = Columns::of(&[(3, 0.5), (18, 0.5)], &frame).unwrap();
    let values: Vec<i128> = x_ticks(&columns, 800).iter().map(|t| t.value).collect();
    assert_eq!(values, (3..=18).collect::<Vec<i128>>());
    // 2,000 values get round steps.
    let columns = Columns::of(&[(1, 0.5), (2_000, 0.5)], &frame).unwrap();
    let values: Vec<i128> = x_ticks(&columns, 800).iter().map(|t| t.value).collect();
    assert!(values.len() >= 4, "{values:?}");
    let step = values[1] - values[0];
    assert!([100, 200, 250, 500].contains(&step), "{values:?}");
    assert!(values.iter().all(|v| v % step == 0));
}

#[test]
fn the_percent_axis_tops_at_a_round_figure_above_the_likeliest() {
    let top = |ps: &[f64]| axis_top(ps.iter().copied());
    assert_eq!(axis_percent(top(&[0.34, 0.25])), "50%");
    assert_eq!(axis_percent(top(&[0.2])), "20%");
    assert_eq!(axis_percent(top(&[0.200_001])), "25%");
    assert_eq!(axis_percent(top(&[1.0])), "100%");
    assert_eq!(axis_percent(top(&[0.074])), "10%");
    assert_eq!(axis_percent(top(&[0.000_000_1])), "0.01%");
    assert_eq!(axis_percent(top(&[])), "100%");
    assert_eq!(axis_percent(top(&[0.0, 0.0])), "100%");
    assert_eq!(axis_percent(0.005), "0.005%");
    assert_eq!(axis_percent(2.5), "2.5%");
    assert_eq!(axis_percent(40.0), "40%");
}

#[test]
fn bar_values_read_as_the_embeds_write_them() {
    assert_eq!(value_percent(0.0), "0%");
    assert_eq!(value_percent(1.0), "100%");
    assert_eq!(value_percent(0.09), "9%");
    assert_eq!(value_percent(0.740_740_7), "74.07%");
    assert_eq!(value_percent(0.125), "12.5%");
    assert_eq!(value_percent(0.000_01), "<0.01%");
    assert_eq!(value_percent(0.999_999), ">99.99%");
    for (p, want) in [
        (f64::NAN, 0.0),
        (-1.0, 0.0),
        (f64::INFINITY, 0.0),
        (2.0, 1.0),
    ] {
        assert!((clean(p) - want).abs() < f64::EPSILON, "{p}");
    }
}

/// The bar of `tone` in an outcome chart: (length, thickness) in pixels.
fn bar_of(picture: &Picture, tone: Tone) -> Option<(u32, u32)> {
    let (left, top, right, bottom) = picture.bounds(tone.color())?;
    Some((right - left + 1, bottom - top + 1))
}

#[test]
fn outcome_bars_are_as_long_as_their_odds_in_their_colours() {
    let bars = [
        ("Black", 0.09, Tone::Black),
        ("Red", 0.12, Tone::Red),
        ("Yellow", 0.20, Tone::Yellow),
        ("Green", 0.25, Tone::Green),
        ("Failure", 0.34, Tone::Grey),
    ];
    let png = outcomes_png("THIZ odds at rating 4", &bars);
    assert!(png.len() < 20_000, "{} bytes", png.len());
    let picture = Picture::decode(&png);
    assert_eq!(picture.width, OUTCOMES_WIDTH);
    assert_eq!(picture.height as i32, PLOT_TOP + 5 * ROW + FOOTER);
    let (failure, thickness) = bar_of(&picture, Tone::Grey).unwrap();
    assert_eq!(thickness as i32, BAR_THICKNESS);
    for (name, p, tone) in bars {
        let (length, _) = bar_of(&picture, tone).unwrap();
        let want = p / 0.34 * f64::from(failure);
        assert!(
            (f64::from(length) - want).abs() <= 2.0,
            "{name}: {length}, want {want}"
        );
    }
    // Top to bottom in the order given.
    let tops: Vec<u32> = bars
        .iter()
        .map(|(_, _, tone)| picture.bounds(tone.color()).unwrap().1)
        .collect();
    assert!(tops.windows(2).all(|w| w[0] < w[1]), "{tops:?}");
}

#[test]
fn degenerate_outcomes_still_give_a_picture() {
    let empty = Picture::decode(&outcomes_png("", &[]));
    assert_eq!(empty.height as i32, PLOT_TOP + ROW + FOOTER);
    assert!(empty.count(INK) > 0, "an axis and a note");

    let odd = [
        ("NaN", f64::NAN, Tone::Red),
        ("Never", 0.0, Tone::Green),
        ("Always", 1.0, Tone::Black),
        ("", 0.5, Tone::Yellow),
    ];
    let picture = Picture::decode(&outcomes_png("odd", &odd));
    assert!(bar_of(&picture, Tone::Red).is_none());
    assert!(bar_of(&picture, Tone::Green).is_none());
    let (always, _) = bar_of(&picture, Tone::Black).unwrap();
    let (half, _) = bar_of(&picture, Tone::Yellow).unwrap();
    assert!((f64::from(half) - f64::from(always) / 2.0).abs() <= 1.0);

    // Past sixteen rows, the rest are counted, not drawn.
    let many: Vec<(String, f64)> = (0..40).map(|i| (format!("outcome {i}"), 0.025)).collect();
    let many: Vec<(&str, f64, Tone)> = many
        .iter()
        .map(|(name, p)| (name.as_str(), *p, Tone::Info))
        .collect();
    let picture = Picture::decode(&outcomes_png("many", &many));
    assert_eq!(
        picture.height as i32,
        PLOT_TOP + MAX_OUTCOME_ROWS as i32 * ROW + FOOTER
    );
    assert_eq!(picture.column_runs(BAR).len(), 1);

    // A very long name and title are cut, never drawn past the picture's edge.
    let long = "Miss, weapon dropped and then some more words ".repeat(5);
    let picture = Picture::decode(&outcomes_png(&long, &[(long.as_str(), 0.5, Tone::Red)]));
    assert_eq!(picture.width, OUTCOMES_WIDTH);
    assert!(bar_of(&picture, Tone::Red).is_some());
}

#[test]
fn the_title_is_written_and_every_colour_is_in_the_palette() {
    let titled = Picture::decode(&distribution_png("2d6 ≥ 7", &[(2, 1.0)]));
    let untitled = Picture::decode(&distribution_png("", &[(2, 1.0)]));
    let band = |p: &Picture| -> usize {
        (0..p.width)
            .map(|x| {
                (0..(TITLE_TOP + font::GLYPH_HEIGHT * SCALE) as u32)
                    .filter(|&y| p.at(x, y) == INK)
                    .count()
            })
            .sum()
    };
    assert!(band(&titled) > 50, "{}", band(&titled));
    assert_eq!(band(&untitled), 0);
    let palette = palette();
    assert!(palette.len() <= 16, "four bits a pixel");
    let tones = [
        Tone::Black,
        Tone::Red,
        Tone::Yellow,
        Tone::Green,
        Tone::Grey,
        Tone::Info,
        Tone::Error,
    ];
    for tone in tones {
        assert!(palette.contains(&tone.color()), "{tone:?}");
    }
}

#[test]
fn the_encoding_packs_two_pixels_a_byte_and_inks_a_stray_colour() {
    // Three pixels a row, so each row ends in half a byte; a colour off the palette is ink.
    let colours = [
        PAPER,
        Tone::Red.color(),
        0x0012_3456,
        GRID,
        INK,
        Tone::Green.color(),
    ];
    let rgb: Vec<u8> = colours
        .iter()
        .flat_map(|c| c.to_be_bytes()[1..].to_vec())
        .collect();
    let picture = Picture::decode(&encode(3, 2, &rgb));
    assert_eq!((picture.width, picture.height), (3, 2));
    let read: Vec<u32> = (0..2)
        .flat_map(|y| (0..3).map(move |x| (x, y)))
        .map(|(x, y)| picture.at(x, y))
        .collect();
    let mut want = colours;
    want[2] = INK;
    assert_eq!(read, want);
}
