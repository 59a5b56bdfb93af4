//! Benchmarks of the `/roll` dice language: parsing alone, parsing plus rolling the expressions
//! tables type most, the exact distribution of common rolls, and of the largest roll the default
//! limits allow (`100d1000`, and the costliest keep the budget lets through).

use divan::black_box;
use referee::rules::dice::SeededDice;
use referee::rules::dice::expr::{Limits, distribution, parse};

fn main() {
    divan::main();
}

/// Everyday rolls of both references.
const COMMON: &[&str] = &[
    "4d6kh3+2",
    "4d6 i1",
    "4wod8c",
    "1d20+5 ! Attack",
    "(1d8+3)*2",
    "6 4d6 k3",
    "5d10 t8 f1",
    "1d20; 2d6+3",
    "4dF+1",
    "(1d4, 2+2, 3d6kl1)kh1",
];

#[divan::bench]
fn parse_only() {
    let limits = Limits::default();
    let _ = black_box(parse(black_box("4d6kh3+2"), &limits));
}

#[divan::bench(args = COMMON)]
fn parse_and_roll(bencher: divan::Bencher, input: &str) {
    let limits = Limits::default();
    let mut dice = SeededDice::new(42);
    bencher.bench_local(|| {
        let expr = parse(black_box(input), &limits).ok()?;
        expr.roll(&mut dice, &limits)
            .ok()
            .map(|r| black_box(r.rolls.len()))
    });
}

#[divan::bench]
fn parse_long_expression() {
    let limits = Limits::default();
    let _ = black_box(parse(
        black_box("1d20+4d6kh3-2+3d6!+2d6r1+d%-1d4+10+8d8dl2"),
        &limits,
    ));
}

#[divan::bench]
fn refuse_one_megabyte(bencher: divan::Bencher) {
    let input = "9".repeat(1_000_000);
    let limits = Limits::default();
    bencher.bench_local(|| parse(black_box(&input), &limits).is_err());
}

#[divan::bench(args = ["2d6+1", "4d6kh3", "1d20+5", "3d6!", "5d10t8f1", "4dF"])]
fn odds_common(bencher: divan::Bencher, input: &str) {
    let limits = Limits::default();
    let expr = parse(input, &limits).unwrap();
    bencher.bench_local(|| distribution(black_box(&expr.rolls()[0]), &limits).map(|d| d.p.len()));
}

/// Dice that depend on each other, counted as every way the pool can fall (`pool.rs`): keep with
/// explosions, `ra`, two keeps, World of Darkness's cancel, and the costliest such pool the
/// budget lets through (or refuses: both are answers).
#[divan::bench(
    args = ["4d6!kh3", "4d6ra6", "10d10kh5kl2", "4wod8c", "10d10f1t8c", "3d10f1t8c!", "20d6kh10kl5"],
    sample_count = 10
)]
fn odds_pool(bencher: divan::Bencher, input: &str) {
    let limits = Limits::default();
    let expr = parse(input, &limits).unwrap();
    bencher.bench_local(|| distribution(black_box(&expr.rolls()[0]), &limits).map(|d| d.p.len()));
}

/// The largest rolls allowed: every die the limits allow, with the most sides.
#[divan::bench(args = ["100d1000", "100d1000!", "100d6kh50", "100d1000t500"])]
fn odds_largest(bencher: divan::Bencher, input: &str) {
    let limits = Limits::default();
    let expr = parse(input, &limits).unwrap();
    bencher.bench_local(|| {
        // Refused (over the work budget) is an answer too; both are timed.
        distribution(black_box(&expr.rolls()[0]), &limits).map(|d| d.p.len())
    });
}
