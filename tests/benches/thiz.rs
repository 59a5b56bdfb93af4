//! Benchmarks of THIZ checks: one check rolled with seeded dice (chart lookup included), and the
//! exact odds of a check by enumeration of the 100 faces. Targets: ≤ 100 ns and ≤ 1 µs.

use divan::{Bencher, black_box};
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
