//! Benchmarks of the `/roll` dice language: parsing alone, and parsing plus rolling `4d6kh3+2`
//! with seeded dice (the target is at most 1 µs for the pair, so `/roll` never shows up in a
//! profile of the bot).

use divan::black_box;
use referee::rules::dice::SeededDice;
use referee::rules::dice::expr::{Limits, parse};

fn main() {
    divan::main();
}

#[divan::bench]
fn parse_only() {
    let limits = Limits::default();
    let _ = black_box(parse(black_box("4d6kh3+2"), &limits));
}

#[divan::bench]
fn parse_and_roll(bencher: divan::Bencher) {
    let limits = Limits::default();
    let mut dice = SeededDice::new(42);
    bencher.bench_local(|| {
        let expr = parse(black_box("4d6kh3+2"), &limits).ok()?;
        expr.roll(&mut dice, &limits)
            .ok()
            .map(|r| black_box(r.total))
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
