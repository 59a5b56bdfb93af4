//! Tests of the dice-expression language: exact scripted rolls for every feature, both sides of
//! every limit, the message of every kind of malformed input, properties (no panics, round trips)
//! and a chi-square check of the roller's faces.
//!
//! The source for all of these is the task brief for `/roll` and SPEC.md ("/roll": "Shows each
//! die. Limits (dice, sides, terms, explosions, length) come from config and give a clear error").

use proptest::prelude::*;

use super::*;
use crate::rules::dice::{ScriptedDice, SeededDice};

fn limits() -> Limits {
    Limits::default()
}

fn ok(input: &str) -> Expr {
    match parse(input, &limits()) {
        Ok(expr) => expr,
        Err(err) => panic!("`{input}` should parse: {err}"),
    }
}

fn err(input: &str) -> DiceError {
    match parse(input, &limits()) {
        Ok(expr) => panic!("`{input}` should be refused, parsed as {expr}"),
        Err(err) => err,
    }
}

/// Rolls `input` with exactly `faces`, checking every scripted face was used.
fn roll_scripted(input: &str, faces: &[u32]) -> RollResult {
    let mut dice = ScriptedDice::new(faces.iter().copied());
    let result = ok(input)
        .roll(&mut dice, &limits())
        .unwrap_or_else(|e| panic!("`{input}` should roll: {e}"));
    assert_eq!(dice.remaining(), 0, "`{input}` left scripted faces unused");
    result
}

fn dice_of(result: &RollResult, term: usize) -> &[DieResult] {
    match &result.terms[term].outcome {
        TermOutcome::Dice { dice, .. } => dice,
        TermOutcome::Constant(c) => panic!("term {term} is the number {c}, not dice"),
    }
}

// ---------------------------------------------------------------------------------------------
// Exact totals for each feature, with scripted dice.

#[test]
fn scripted_totals_for_each_feature() {
    let cases: &[(&str, &[u32], i64)] = &[
        // Plain sums, constants and subtraction.
        ("2d6+1", &[3, 4], 8),
        ("1d20-2+1d4", &[15, 3], 16),
        ("-1d4+3", &[2], 1),
        ("10 - 3", &[], 7),
        ("5", &[], 5),
        ("1d6-1d6", &[2, 5], -3),
        // `dM` is one die; `d%` is d100; `D` in capitals.
        ("d20", &[17], 17),
        ("d%", &[57], 57),
        ("3d%", &[100, 1, 50], 151),
        ("D20+1", &[20], 21),
        // Keep and drop on the faces 1, 5, 3, 6.
        ("4d6kh3", &[1, 5, 3, 6], 14),
        ("4d6k3", &[1, 5, 3, 6], 14),
        ("4d6kl3", &[1, 5, 3, 6], 9),
        ("4d6dh1", &[1, 5, 3, 6], 9),
        ("4d6dl1", &[1, 5, 3, 6], 14),
        ("4d6KH1+2", &[1, 5, 3, 6], 8),
        // Exploding: the 6 rolls again and adds its 2.
        ("3d6!", &[6, 2, 4, 1], 13),
        ("1d6!", &[6, 6, 6, 1], 19),
        // Reroll once: the first die's 1 is rerolled into another 1, which stands.
        ("2d6r1", &[1, 1, 5], 6),
        ("2d6r2", &[2, 5, 3], 8),
        ("2d6r2", &[4, 3], 7),
        // Reroll then explode: the 1 becomes a 6, which explodes into a 3.
        ("1d6r1!", &[1, 6, 3], 9),
        // Explosions stay with their die for keep: 6+6+1 = 13 is the highest die.
        ("4d6!kh1", &[6, 6, 1, 2, 3, 4], 13),
        ("4d6!dh1", &[6, 6, 1, 2, 3, 4], 9),
    ];
    for &(input, faces, total) in cases {
        assert_eq!(
            roll_scripted(input, faces).total,
            total,
            "`{input}` {faces:?}"
        );
    }
}

#[test]
fn every_die_is_shown_with_its_history() {
    let result = roll_scripted("4d6r1!kh3+2", &[1, 6, 2, 3, 1, 4, 5]);
    let dice = dice_of(&result, 0);
    assert_eq!(dice.len(), 4);
    // First die: 1 rerolled into a 6, which exploded into a 2.
    assert_eq!(dice[0].rerolled_from, Some(1));
    assert_eq!((dice[0].face, dice[0].explosions.as_slice()), (6, &[2][..]));
    assert!(dice[0].exploded());
    assert_eq!(dice[0].value(), 8);
    // Second die: a plain 3. Third: 1 rerolled into 4. Fourth: a plain 5.
    assert_eq!((dice[1].face, dice[1].rerolled_from), (3, None));
    assert_eq!((dice[2].face, dice[2].rerolled_from), (4, Some(1)));
    assert_eq!(dice[3].face, 5);
    let kept: Vec<bool> = dice.iter().map(|d| d.kept).collect();
    assert_eq!(kept, [true, false, true, true]);
    assert_eq!(result.terms[0].value, 17);
    assert_eq!(result.terms[1].outcome, TermOutcome::Constant(2));
    assert_eq!(result.terms[1].value, 2);
    assert_eq!(result.total, 19);
    assert!(!result.explosions_capped);
}

#[test]
fn subtracted_terms_carry_their_sign() {
    let result = roll_scripted("1d20-1d4-2", &[10, 3]);
    let values: Vec<i64> = result.terms.iter().map(|t| t.value).collect();
    assert_eq!(values, [10, -3, -2]);
    assert_eq!(result.terms[1].sign, Sign::Minus);
    assert_eq!(result.total, 5);
}

#[test]
fn ties_in_keep_and_drop_go_to_the_die_rolled_first() {
    let result = roll_scripted("3d6kh1", &[4, 4, 2]);
    let kept: Vec<bool> = dice_of(&result, 0).iter().map(|d| d.kept).collect();
    assert_eq!(kept, [true, false, false]);
    let result = roll_scripted("3d6dl1", &[2, 5, 2]);
    let kept: Vec<bool> = dice_of(&result, 0).iter().map(|d| d.kept).collect();
    assert_eq!(kept, [true, true, false]);
    assert_eq!(result.total, 7);
}

// ---------------------------------------------------------------------------------------------
// Limits: both sides of each.

#[test]
fn default_limits_match_the_config_defaults() {
    let d = crate::config::DiceConfig::default();
    let l = Limits::default();
    assert_eq!(
        (
            l.max_dice,
            l.max_sides,
            l.max_terms,
            l.max_explosions,
            l.max_length
        ),
        (
            d.max_dice,
            d.max_sides,
            d.max_terms,
            d.max_explosions,
            d.max_length
        )
    );
    assert_eq!(
        (
            l.max_dice,
            l.max_sides,
            l.max_terms,
            l.max_explosions,
            l.max_length
        ),
        (100, 1000, 20, 100, 200)
    );
}

#[test]
fn limits_on_both_sides() {
    let twenty_terms = ["1"; 20].join("+");
    let twenty_one_terms = ["1"; 21].join("+");
    let length_200 = format!("1d6{}", " ".repeat(197));
    let length_201 = format!("1d6{}", " ".repeat(198));
    let cases: Vec<(String, Option<DiceError>)> = vec![
        ("100d6".into(), None),
        (
            "101d6".into(),
            Some(DiceError::TooManyDice {
                limit: 100,
                asked: 101,
            }),
        ),
        // The dice limit is for the whole roll, not each group.
        ("50d6+50d8".into(), None),
        (
            "50d6+51d8".into(),
            Some(DiceError::TooManyDice {
                limit: 100,
                asked: 101,
            }),
        ),
        ("1d1000".into(), None),
        (
            "1d1001".into(),
            Some(DiceError::TooManySides {
                limit: 1000,
                asked: 1001,
            }),
        ),
        ("1d2".into(), None),
        ("1d1".into(), Some(DiceError::TooFewSides { asked: 1 })),
        (twenty_terms, None),
        (
            twenty_one_terms,
            Some(DiceError::TooManyTerms {
                limit: 20,
                asked: 21,
            }),
        ),
        (length_200, None),
        (
            length_201,
            Some(DiceError::TooLong {
                limit: 200,
                asked: 201,
            }),
        ),
        ("1000000".into(), None),
        (
            "1000001".into(),
            Some(DiceError::ConstantTooBig {
                limit: 1_000_000,
                asked: 1_000_001,
            }),
        ),
        ("4d6kh4".into(), None),
        (
            "4d6kh5".into(),
            Some(DiceError::KeepTooMany {
                rule: KeepRule::KeepHighest,
                asked: 5,
                count: 4,
            }),
        ),
        ("4d6dl3".into(), None),
        (
            "4d6dl4".into(),
            Some(DiceError::DropTooMany {
                rule: KeepRule::DropLowest,
                asked: 4,
                count: 4,
            }),
        ),
        ("2d6r5".into(), None),
        (
            "2d6r6".into(),
            Some(DiceError::RerollEverything { asked: 6, sides: 6 }),
        ),
        ("1d2!".into(), None),
    ];
    for (input, expected) in cases {
        assert_eq!(parse(&input, &limits()).err(), expected, "`{input}`");
    }
}

#[test]
fn length_counts_characters_not_bytes() {
    // 200 characters, 399 bytes: "1" and 199 two-byte letters would be too long in bytes only,
    // so the error must come from the grammar, not the length check.
    let input = format!("1{}", "é".repeat(199));
    assert!(matches!(err(&input), DiceError::Syntax { .. }));
    let input = format!("1{}", "é".repeat(200));
    assert_eq!(
        err(&input),
        DiceError::TooLong {
            limit: 200,
            asked: 201
        }
    );
}

#[test]
fn explosion_cap_on_both_sides() {
    let tight = Limits {
        max_explosions: 3,
        ..Limits::default()
    };
    let expr = ok("1d6!");
    // Three explosions, the last stops on a 2: within the cap.
    let mut dice = ScriptedDice::new([6, 6, 6, 2]);
    let result = expr.roll(&mut dice, &tight).unwrap();
    assert_eq!(result.total, 20);
    assert!(!result.explosions_capped);
    assert!(!dice_of(&result, 0)[0].capped);
    // The third explosion shows a 6 again: the cap stops it there, and says so.
    let mut dice = ScriptedDice::new([6, 6, 6, 6, 1]);
    let result = expr.roll(&mut dice, &tight).unwrap();
    assert_eq!(result.total, 24);
    assert!(result.explosions_capped);
    assert!(dice_of(&result, 0)[0].capped);
    assert_eq!(dice.remaining(), 1, "no die is rolled past the cap");
}

#[test]
fn explosion_cap_is_shared_by_the_whole_roll() {
    let tight = Limits {
        max_explosions: 2,
        ..Limits::default()
    };
    // Two explosions go to the first group; the second group's 4 cannot explode.
    let mut dice = ScriptedDice::new([4, 4, 1, 4]);
    let result = ok("1d4!+1d4!").roll(&mut dice, &tight).unwrap();
    assert_eq!(result.total, 13);
    assert!(result.explosions_capped);
    assert!(!dice_of(&result, 0)[0].capped);
    assert!(dice_of(&result, 1)[0].capped);
}

#[test]
fn default_explosion_cap_stops_a_long_run() {
    // 100 explosions allowed: 1 + 100 rolls of 2 on a d2, and the die is marked capped.
    let mut dice = ScriptedDice::new(std::iter::repeat_n(2, 101));
    let result = ok("1d2!").roll(&mut dice, &limits()).unwrap();
    assert_eq!(result.total, 202);
    assert!(result.explosions_capped);
    let mut dice = ScriptedDice::new(std::iter::repeat_n(2, 100).chain([1]));
    let result = ok("1d2!").roll(&mut dice, &limits()).unwrap();
    assert_eq!(result.total, 201);
    assert!(!result.explosions_capped);
}

#[test]
fn rolling_under_tighter_limits_than_parsing_is_refused() {
    let expr = ok("50d6");
    let tight = Limits {
        max_dice: 10,
        ..Limits::default()
    };
    assert_eq!(
        expr.roll(&mut SeededDice::new(1), &tight),
        Err(DiceError::TooManyDice {
            limit: 10,
            asked: 50
        })
    );
}

#[test]
fn custom_limits_are_used_by_the_parser() {
    let tight = Limits {
        max_dice: 3,
        max_sides: 10,
        max_terms: 2,
        max_explosions: 0,
        max_length: 8,
    };
    assert!(parse("3d10+1", &tight).is_ok());
    assert!(matches!(
        parse("4d6", &tight),
        Err(DiceError::TooManyDice { .. })
    ));
    assert!(matches!(
        parse("1d12", &tight),
        Err(DiceError::TooManySides { .. })
    ));
    assert!(matches!(
        parse("1+1+1", &tight),
        Err(DiceError::TooManyTerms { .. })
    ));
    assert!(matches!(
        parse("1d6 + 1  ", &tight),
        Err(DiceError::TooLong { .. })
    ));
}

// ---------------------------------------------------------------------------------------------
// Malformed input: each message, as a player reads it.

fn assert_messages(cases: &[(&str, &str)]) {
    for &(input, message) in cases {
        let shown: String = input.chars().take(40).collect();
        assert_eq!(err(input).to_string(), message, "`{shown}`");
    }
}

#[test]
fn syntax_error_messages_say_where_and_what_would_fit() {
    assert_messages(&[
        (
            "2d",
            "could not read `2d` at position 3: expected a number of sides, like 2d6 (or d% for d100)",
        ),
        (
            "",
            "could not read `` at position 1: expected dice or a number, like 2d6, d20 or 3",
        ),
        (
            "2d6+",
            "could not read `2d6+` at position 5: expected dice or a number, like 2d6, d20 or 3",
        ),
        (
            "2d6x",
            "could not read `2d6x` at position 4: expected +, -, the end, or one of kh3, kl1, dh1, dl1, r1, ! after the dice",
        ),
        (
            "3x",
            "could not read `3x` at position 2: expected +, - or the end (or d right after a number, as in 2d6)",
        ),
        (
            "2 d6",
            "could not read `2 d6` at position 3: expected +, - or the end (or d right after a number, as in 2d6)",
        ),
        (
            "4d6k",
            "could not read `4d6k` at position 5: expected how many dice to keep or drop, like 4d6kh3",
        ),
        (
            "4d6dx1",
            "could not read `4d6dx1` at position 5: expected h or l after d, like 4d6dl1 (drop the lowest)",
        ),
        (
            "2d6r",
            "could not read `2d6r` at position 5: expected the highest face to reroll, like 2d6r1",
        ),
        (
            "--1",
            "could not read `--1` at position 2: expected dice or a number, like 2d6, d20 or 3",
        ),
        (
            "+1",
            "could not read `+1` at position 1: expected dice or a number, like 2d6, d20 or 3",
        ),
        (
            "1+é",
            "could not read `1+é` at position 3: expected dice or a number, like 2d6, d20 or 3",
        ),
    ]);
}

#[test]
fn refusal_messages_state_the_limit_and_the_request() {
    let too_long_number = format!("{}d6", "9".repeat(25));
    let huge = "1".repeat(1_000_000);
    assert_messages(&[
        (
            "99999999999d6",
            "at most 100 dice per roll; you asked for 99999999999",
        ),
        (
            "1000000d6",
            "at most 100 dice per roll; you asked for 1000000",
        ),
        (
            "0d6",
            "a dice group needs at least 1 die; you asked for 0d6",
        ),
        ("d1", "dice need at least 2 sides; you asked for d1"),
        ("3d1!", "dice need at least 2 sides; you asked for d1"),
        ("1d0", "dice need at least 2 sides; you asked for d0"),
        ("1d5000", "at most 1000 sides per die; you asked for d5000"),
        (
            "5000000",
            "numbers in a roll can be at most 1000000; you wrote 5000000",
        ),
        (
            "4d6kh5",
            "`kh5` on 4 dice: you can keep at most all 4 of them",
        ),
        ("4d6dl4", "`dl4` on 4 dice: you can drop at most 3 of them"),
        (
            "4d6kh0",
            "`kh0` does nothing useful; keep or drop at least 1 die",
        ),
        (
            "2d6r6",
            "`r6` on a d6 would reroll every die; use a value below 6",
        ),
        ("2d6r0", "`r0` rerolls nothing; use r1 or more"),
        (
            "3d6!!",
            "`!` appears twice in one dice group (position 5); use it once",
        ),
        (
            "4d6kh3kl1",
            "`keep/drop` appears twice in one dice group (position 7); use it once",
        ),
        (
            "2d6r1r2",
            "`r` appears twice in one dice group (position 6); use it once",
        ),
        (
            &too_long_number,
            "the number at position 1 has 25 digits; that is far too big",
        ),
        (
            &huge,
            "a roll can be at most 200 characters long; yours has 1000000",
        ),
    ]);
}

#[test]
fn too_many_terms_is_refused_at_the_first_extra_term() {
    let input = ["1d6"; 30].join("+");
    assert_eq!(
        err(&input),
        DiceError::TooManyTerms {
            limit: 20,
            asked: 21
        }
    );
    assert_eq!(
        err(&input).to_string(),
        "at most 20 dice groups and numbers per roll; yours has at least 21"
    );
}

// ---------------------------------------------------------------------------------------------
// Display, min and max.

#[test]
fn display_normalizes() {
    let cases = [
        ("4d6kh3+2", "4d6kh3+2"),
        ("  D20 + 4D6K3 - 2 ", "1d20+4d6kh3-2"),
        ("d%", "1d100"),
        ("-d4", "-1d4"),
        ("3d6KL2!R1", "3d6r1!kl2"),
        ("2d6dH1", "2d6dh1"),
        ("7", "7"),
    ];
    for (input, normal) in cases {
        assert_eq!(ok(input).to_string(), normal, "`{input}`");
    }
}

#[test]
fn min_and_max() {
    let cases: &[(&str, Option<i64>, Option<i64>)] = &[
        ("2d6+1", Some(3), Some(13)),
        ("4d6kh3", Some(3), Some(18)),
        ("4d6dl1", Some(3), Some(18)),
        ("1d20-1d4", Some(-3), Some(19)),
        ("d%-10", Some(-9), Some(90)),
        ("2d6r1", Some(2), Some(12)),
        ("3d6!", Some(3), None),
        ("5-1d6!", None, Some(4)),
    ];
    for &(input, min, max) in cases {
        let expr = ok(input);
        assert_eq!((expr.min(), expr.max()), (min, max), "`{input}`");
    }
}

#[test]
fn accessors_describe_the_terms() {
    let expr = ok("4d6r1!kh3-2");
    assert_eq!(expr.dice_count(), 4);
    assert_eq!(
        expr.terms(),
        &[
            Term {
                sign: Sign::Plus,
                kind: TermKind::Dice(DiceTerm {
                    count: 4,
                    sides: 6,
                    reroll: Some(1),
                    explode: true,
                    keep: Some(Keep {
                        rule: KeepRule::KeepHighest,
                        count: 3
                    }),
                }),
            },
            Term {
                sign: Sign::Minus,
                kind: TermKind::Constant(2),
            },
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Properties.

/// A valid dice group, built from arbitrary numbers bent into range.
fn dice_term() -> impl Strategy<Value = DiceTerm> {
    (
        1u32..=10,
        2u32..=1000,
        any::<bool>(),
        any::<u32>(),
        0u8..5,
        any::<u32>(),
    )
        .prop_map(|(count, sides, explode, reroll, keep_kind, keep_n)| {
            let reroll = (reroll % 3 == 0).then(|| 1 + reroll % (sides - 1));
            let keep = match keep_kind {
                0 => None,
                1 | 2 => Some(Keep {
                    rule: if keep_kind == 1 {
                        KeepRule::KeepHighest
                    } else {
                        KeepRule::KeepLowest
                    },
                    count: 1 + keep_n % count,
                }),
                _ if count < 2 => None,
                _ => Some(Keep {
                    rule: if keep_kind == 3 {
                        KeepRule::DropHighest
                    } else {
                        KeepRule::DropLowest
                    },
                    count: 1 + keep_n % (count - 1),
                }),
            };
            DiceTerm {
                count,
                sides,
                reroll,
                explode,
                keep,
            }
        })
}

fn valid_expr() -> impl Strategy<Value = Expr> {
    let term = (
        any::<bool>(),
        prop_oneof![
            dice_term().prop_map(TermKind::Dice),
            (0..=MAX_CONSTANT).prop_map(TermKind::Constant),
        ],
    )
        .prop_map(|(minus, kind)| Term {
            sign: if minus { Sign::Minus } else { Sign::Plus },
            kind,
        });
    // At most 8 groups of at most 10 dice: within the default 100 dice and 20 terms.
    prop::collection::vec(term, 1..=8).prop_map(|terms| Expr { terms })
}

/// The same expression as a player might type it: spaces around operators, capitals, `d%`.
fn untidy(normal: &str, upper: bool) -> String {
    let spaced = normal.replace('+', " + ").replace('-', " - ");
    // `d100` becomes `d%`, but not the start of `d1000`.
    let mut percent = String::with_capacity(spaced.len());
    let mut rest = spaced.as_str();
    while let Some(at) = rest.find("d100") {
        let after = &rest[at + 4..];
        if after.starts_with(|c: char| c.is_ascii_digit()) {
            percent.push_str(&rest[..at + 4]);
        } else {
            percent.push_str(&rest[..at]);
            percent.push_str("d%");
        }
        rest = after;
    }
    percent.push_str(rest);
    let spaced = percent;
    if upper { spaced.to_uppercase() } else { spaced }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn parser_never_panics_on_any_string(input in any::<String>()) {
        let _ = parse(&input, &Limits::default());
    }

    #[test]
    fn parser_never_panics_on_dice_alphabet(input in "[0-9dDkhlr!%+\\- ]{0,60}") {
        if let Ok(expr) = parse(&input, &Limits::default()) {
            // Whatever parses rolls, within its bounds, and prints back to itself.
            let result = expr.roll(&mut SeededDice::new(7), &Limits::default()).unwrap();
            if let Some(min) = expr.min() {
                prop_assert!(result.total >= min, "{input}: {} < {min}", result.total);
            }
            if let Some(max) = expr.max() {
                prop_assert!(result.total <= max, "{input}: {} > {max}", result.total);
            }
            prop_assert_eq!(parse(&expr.to_string(), &Limits::default()), Ok(expr));
        }
    }

    #[test]
    fn display_round_trips(expr in valid_expr(), upper in any::<bool>()) {
        let normal = expr.to_string();
        prop_assert_eq!(parse(&normal, &Limits::default()), Ok(expr.clone()));
        let typed = untidy(&normal, upper);
        prop_assert_eq!(parse(&typed, &Limits::default()), Ok(expr));
    }
}

// ---------------------------------------------------------------------------------------------
// Uniformity of the faces, through the expression roller.

/// Pearson's chi-square statistic of `counts` against a uniform expectation.
fn chi_square(counts: &[u64]) -> f64 {
    let n: u64 = counts.iter().sum();
    let expected = n as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

fn face_counts(input: &str, sides: usize, rolls: usize, seed: u64) -> Vec<u64> {
    let expr = ok(input);
    let mut dice = SeededDice::new(seed);
    let mut counts = vec![0u64; sides];
    for _ in 0..rolls {
        let total = expr.roll(&mut dice, &limits()).unwrap().total;
        assert!(
            (1..=sides as i64).contains(&total),
            "`{input}` gave {total}"
        );
        counts[total as usize - 1] += 1;
    }
    counts
}

#[test]
fn d6_faces_are_uniform() {
    // Chi-square table, 5 degrees of freedom, p = 0.001: critical value 20.515.
    let stat = chi_square(&face_counts("1d6", 6, 60_000, 2024));
    assert!(stat < 20.515, "chi-square {stat} for 1d6");
}

#[test]
fn d100_and_d_percent_faces_are_uniform() {
    // Chi-square table, 99 degrees of freedom, p = 0.001: critical value 148.230.
    for input in ["1d100", "d%"] {
        let stat = chi_square(&face_counts(input, 100, 60_000, 99));
        assert!(stat < 148.230, "chi-square {stat} for {input}");
    }
}

#[test]
fn chi_square_catches_a_biased_die() {
    // The check can fail: a d6 that never shows 6 is far over the critical value.
    let counts = [12_000, 12_000, 12_000, 12_000, 12_000, 0];
    assert!(chi_square(&counts) > 20.515);
}
