//! Benchmarks of THIZ checks: one check rolled with seeded dice (chart lookup included), and the
//! exact odds of a check by enumeration of the 100 faces. Targets: ≤ 100 ns and ≤ 1 µs.
//! Beside them, the PNG charts `/odds` attaches (`app::chart`): the five levels' bars, and a
//! distribution of 2,000 values as `/odds dice` may draw (no target: they are measured so a
//! change that makes them slow shows; a few milliseconds on a worker thread is fine).

use divan::{Bencher, black_box};
use referee::app::chart::{distribution_png, outcomes_png};
use referee::app::reply::Tone;
use referee::rules::dice::SeededDice;
use referee::rules::thiz::Rating;
use referee::rules::thiz::check::{CheckInput, roll_check};
use referee::rules::thiz::odds::check_odds;

fn main() {
    divan::main();
}

fn input() -> CheckInput {
    CheckInput {
        base: Rating(4),
        modifier: -1,
        wound_penalty: -2,
        unlucky: true,
        shifty: true,
    }
}

/// A check with seeded dice: validation, one d100, the chart row and the level.
#[divan::bench(sample_size = 1000)]
fn check_seeded(bencher: Bencher) {
    let mut dice = SeededDice::new(42);
    let input = input();
    // The chart is parsed once on first use; keep that one-off cost out of the samples.
    let _ = roll_check(&input, &mut dice);
    bencher.bench_local(|| roll_check(black_box(&input), &mut dice));
}

/// Exact odds of a check with every modifier, enumerating the 100 faces.
#[divan::bench]
fn odds_exact(bencher: Bencher) {
    let input = input();
    bencher.bench_local(|| check_odds(black_box(&input)));
}

/// The chart of a check's odds: five bars, drawn and encoded as a PNG.
#[divan::bench]
fn odds_chart(bencher: Bencher) {
    let bars = [
        ("Black", 0.09, Tone::Black),
        ("Red", 0.12, Tone::Red),
        ("Yellow", 0.20, Tone::Yellow),
        ("Green", 0.25, Tone::Green),
        ("Failure", 0.34, Tone::Grey),
    ];
    bencher.bench_local(|| outcomes_png(black_box("THIZ odds at rating 4"), black_box(&bars)));
}

/// The chart of a distribution of 2,000 values (a bell), drawn and encoded as a PNG.
#[divan::bench]
fn distribution_chart_2000(bencher: Bencher) {
    let weights: Vec<(i64, f64)> = (0..2_000i64)
        .map(|x| (x, (-((x - 1_000) as f64 / 300.0).powi(2)).exp()))
        .collect();
    let total: f64 = weights.iter().map(|(_, w)| w).sum();
    let points: Vec<(i64, f64)> = weights.iter().map(|&(x, w)| (x, w / total)).collect();
    bencher.bench_local(|| distribution_png(black_box("a bell"), black_box(&points)));
}
