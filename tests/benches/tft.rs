//! TFT benchmarks (issue targets on the 2-core machine): a full attack — to-hit, damage, armor,
//! hits applied, reaction to injury — at most 2 µs; exact odds of an 8-dice attack at most 50 µs.
//!
//! Run with `cargo bench --bench tft`.

use divan::{Bencher, black_box};
use referee::rules::dice::SeededDice;
use referee::rules::tft::Multiplier;
use referee::rules::tft::attack::{
    Adjustment, AttackSetup, AttackSpec, AttackTableSettings, CriticalRange, Technique,
};
use referee::rules::tft::damage::{Blow, Defence, Target};
use referee::rules::tft::gear::{ArmorKind, weapon};
use referee::rules::tft::odds::hit_odds;
use referee::rules::tft::resolve::resolve_attack;

fn main() {
    divan::main();
}

fn setup() -> AttackSetup {
    AttackSpec {
        dx: 13,
        armor_dx: -2,
        shield_dx: 0,
        technique: Technique::Normal,
        adjustments: vec![Adjustment::Other(1)],
    }
    .setup()
    .expect("a valid attack")
}

/// One whole attack with a broadsword against a chainmailed ST 12 foe.
#[divan::bench]
fn full_attack(bencher: Bencher) {
    let setup = setup();
    let blow = Blow::weapon(
        weapon("broadsword").expect("in the table"),
        14,
        Multiplier::Normal,
    );
    let target = Target {
        defence: Defence {
            armor: Some(ArmorKind::Chainmail),
            ..Defence::default()
        },
        st: 12,
        st_left: 12,
        earlier_hits: 0,
        acrobatics_adj_dx: None,
    };
    let mut dice = SeededDice::new(42);
    bencher.bench_local(|| {
        resolve_attack(
            &mut dice,
            black_box(&setup),
            AttackTableSettings::default(),
            black_box(&blow),
            black_box(&target),
            true,
        )
    });
}

/// Exact odds of every outcome of an 8-dice attack, by convolution.
#[divan::bench]
fn odds_eight_dice() -> impl Sized {
    hit_odds(
        black_box(8),
        black_box(20),
        CriticalRange::NORMAL,
        AttackTableSettings::default(),
    )
}

/// Exact odds of a 3-dice attack.
#[divan::bench]
fn odds_three_dice() -> impl Sized {
    hit_odds(
        black_box(3),
        black_box(12),
        CriticalRange::NORMAL,
        AttackTableSettings::default(),
    )
}
