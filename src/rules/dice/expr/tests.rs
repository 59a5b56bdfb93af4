//! Tests of the dice language: how each spelling of both references is read ("read as"), exact
//! scripted rolls for every operation, both sides of every bound, the refusals, properties (no
//! panics, round trips, rolled totals inside the computed support) and exact distributions
//! against enumeration, plus a fixed-seed chi-square of rolled frequencies.
//!
//! Sources: Avrae's d20 README ("Dice Syntax": operators k p rr ro ra e mi ma, selectors h l < >,
//! sets, arithmetic) and Dice Maiden's roll_syntax.md ("Core Modifiers", "Advanced Features",
//! the aliases); the decisions where they differ are in `parse.rs`.

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
fn roll_scripted(input: &str, faces: &[u32]) -> Outcome {
    let mut dice = ScriptedDice::new(faces.iter().copied());
    let result = ok(input)
        .roll(&mut dice, &limits())
        .unwrap_or_else(|e| panic!("`{input}` should roll: {e}"));
    assert_eq!(dice.remaining(), 0, "`{input}` left scripted faces unused");
    result
}

fn totals(outcome: &Outcome) -> Vec<i64> {
    outcome
        .rolls
        .iter()
        .flat_map(|r| r.sets.iter().map(ValueOutcome::value))
        .collect()
}

#[test]
fn everyday_rolls_of_both_references_read_as_expected() {
    // (typed, read as)
    let cases = [
        // The old spellings, unchanged in meaning.
        ("2d6+1", "2d6 + 1"),
        ("d%", "1d100"),
        ("4d6kh3", "4d6kh3"),
        ("3d6!", "3d6!"),
        ("2d6r1", "2d6r1"),
        ("4d6dl1", "4d6dl1"),
        ("-1d4+3", "-1d4 + 3"),
        // Arithmetic with precedence and parentheses (d20).
        ("1 + 3 * 6", "1 + 3 * 6"),
        ("(1d8+3)*2", "(1d8 + 3) * 2"),
        ("1d20 // 2", "1d20 / 2"),
        ("1d20 >= 10", "1d20 >= 10"),
        // Dice Maiden's spaced modifiers.
        ("4d6 k3", "4d6kh3"),
        ("4d6 d1", "4d6dl1"),
        ("6d10 t7", "6d10t7"),
        ("5d10 t8 f1", "5d10t8f1"),
        ("3d6 e6", "3d6!"),
        ("3d10 e8", "3d10e8"),
        ("4d6 ir2", "4d6rr<3"),
        ("4d10 tl3", "4d10tl3"),
        ("4d6 rg5", "4d6ro>4"),
        ("5d6 km3", "5d6km3"),
        ("1d20 adv1", "1d20adv1"),
        ("2d6 dis", "2d6dis1"),
        ("4d10 t7 ds10", "4d10t7ds10"),
        ("(1d6, 1d8, 1d10)km1", "(1d6, 1d8, 1d10)km1"),
        ("4d6 irg5", "4d6rr>4"),
        // d20's operators and selectors.
        ("1d20rr<2", "1d20rr<2"),
        ("2d6ro<3", "2d6r2"),
        ("8d6mi2", "8d6mi2"),
        ("4d6ma5", "4d6ma5"),
        ("4d6pl1", "4d6dl1"),
        ("4d6k>3", "4d6k>3"),
        ("4d6ra6", "4d6ra6"),
        ("4d6ra<2", "4d6ra<2"),
        ("(1d4, 2+2, 3d6kl1)kh1", "(1d4, 2 + 2, 3d6kl1)kh1"),
        ("(3d6,)", "(3d6,)"),
        ("1d6 [fire] + 1d4 [cold]", "1d6 [fire] + 1d4 [cold]"),
        // Fate dice and the aliases.
        ("3df", "3dF"),
        ("4dF+1", "4dF + 1"),
        ("dndstats", "6 4d6kh3"),
        ("+d20", "2d20kh1"),
        ("-d20+5", "2d20kl1 + 5"),
        ("+d%", "2d10kl1 * 10 + 1d10 - 10"),
        ("-d%", "2d10kh1 * 10 + 1d10 - 10"),
        ("dd34", "(1d3 * 10 + 1d4)"),
        ("4cod", "4d10t8!"),
        ("4cod8", "4d10t8e8"),
        ("4wod8", "4d10f1t8"),
        ("sr6", "6d6t5"),
        ("6yz", "6d6t6"),
        ("3wh4+", "3d6t4"),
        ("sp4", "4d10t8!"),
        ("sp4t6", "4d10t6!"),
        // Repeats, several rolls, labels, comments, flags.
        ("6 4d6", "6 4d6"),
        ("6 4d6 k3", "6 4d6kh3"),
        ("1d20; 2d6", "1d20; 2d6"),
        ("1d20+5 ! Attack", "1d20 + 5"),
        ("(Attack) 1d20 + 5", "1d20 + 5"),
        ("s 4d6", "4d6"),
        ("ul 4d6", "4d6"),
    ];
    for (typed, read) in cases {
        assert_eq!(ok(typed).to_string(), read, "`{typed}`");
        // The canonical spelling reads back as itself.
        assert_eq!(ok(read).to_string(), read, "`{read}` round trip");
    }
}

#[test]
fn labels_comments_and_repeats_are_kept() {
    let e = ok("(Attack) 1d20+5 ! with the axe; 2 1d8+3 ! damage");
    let [a, b] = e.rolls() else {
        panic!("two rolls")
    };
    assert_eq!(a.label.as_deref(), Some("Attack"));
    assert_eq!(a.comment.as_deref(), Some("with the axe"));
    assert_eq!(a.repeat, 1);
    assert_eq!(b.repeat, 2);
    assert_eq!(b.comment.as_deref(), Some("damage"));
    assert!(ok("s 4d6").rolls()[0].simple);
    assert_eq!(ok("dndstats").rolls()[0].alias.as_deref(), Some("dndstats"));
    assert_eq!(ok("dndstats").rolls()[0].repeat, 6);
}

#[test]
fn scripted_totals_for_each_operation() {
    let cases: &[(&str, &[u32], &[i64])] = &[
        ("2d6+1", &[3, 4], &[8]),
        ("1d20-2+1d4", &[15, 3], &[16]),
        ("-1d4+3", &[2], &[1]),
        ("10 - 3", &[], &[7]),
        ("1 + 3 * 6", &[], &[19]),
        ("(1 + 3) * 6", &[], &[24]),
        ("7 / 2", &[], &[3]),
        ("-7 // 2", &[], &[-4]),
        ("7 % 3", &[], &[1]),
        ("2 - 3 - 4", &[], &[-5]),
        ("1d20 >= 10", &[12], &[1]),
        ("1d20 >= 10", &[9], &[0]),
        ("(1d8+3)*2", &[5], &[16]),
        // Keep and drop; ties keep the die rolled first.
        ("4d6kh3", &[1, 3, 5, 6], &[14]),
        ("4d6 k3", &[1, 3, 5, 6], &[14]),
        ("4d6kl1", &[4, 2, 2, 6], &[2]),
        ("4d6 d1", &[1, 3, 5, 6], &[14]),
        ("4d6dh1", &[1, 3, 5, 6], &[9]),
        ("4d6k>3", &[1, 3, 5, 6], &[11]),
        ("4d6p<3", &[1, 3, 5, 2], &[8]),
        // Rerolls: once, until, and add.
        ("2d6r1", &[1, 4, 5], &[9]),
        ("2d6r1", &[1, 1, 5], &[6]),
        ("1d20rr<3", &[1, 2, 1, 17], &[17]),
        ("4d6 ir2", &[2, 1, 5, 3, 4, 6], &[18]),
        ("2d6ra6", &[6, 3, 4], &[13]),
        ("2d6ra6", &[5, 3], &[8]),
        ("2d6 rg5", &[6, 2, 4], &[6]),
        // Keep the middle: as many dropped below as above, one more above when uneven.
        ("5d6km3", &[1, 6, 3, 5, 2], &[10]),
        ("4d6km2", &[1, 6, 3, 5], &[8]),
        ("4d6km1", &[1, 6, 3, 5], &[3]),
        // Advantage and disadvantage: more dice, the worst (best) dropped before explosions.
        ("1d20 adv1", &[4, 17], &[17]),
        ("1d20dis1", &[4, 17], &[4]),
        ("2d6adv1!", &[6, 1, 3, 2], &[11]),
        ("2d6dis1!", &[6, 1, 3], &[4]),
        ("3d10adv1t7", &[7, 2, 9, 8], &[3]),
        // Double successes.
        ("4d10t7ds10", &[10, 7, 3, 10], &[5]),
        ("2d10t7ds10f1", &[10, 1], &[1]),
        ("1d6 irg5", &[6, 5, 3], &[3]),
        // Explosions: until they stop, on a threshold, on a selector.
        ("3d6!", &[6, 6, 2, 3, 4], &[21]),
        ("3d6 e6", &[6, 1, 2, 3], &[12]),
        ("2d10 e8", &[9, 8, 3, 2], &[22]),
        ("1d6e>4", &[5, 6, 1], &[12]),
        // Minimum and maximum per die.
        ("3d6mi2", &[1, 4, 1], &[8]),
        ("3d6ma4", &[6, 2, 5], &[10]),
        // Successes and failures counted.
        ("6d10 t7", &[7, 6, 10, 1, 9, 3], &[3]),
        ("5d10 t8 f1", &[8, 1, 1, 10, 5], &[0]),
        ("4d10 tl3", &[1, 3, 4, 10], &[2]),
        ("4cod", &[10, 8, 3, 7, 2], &[2]),
        ("4wod8", &[8, 1, 9, 4], &[1]),
        // Fate dice: faces 1, 2, 3 of the source are -, 0, +.
        ("4dF", &[1, 2, 3, 3], &[1]),
        ("3df+1", &[1, 1, 1], &[-2]),
        // Sets.
        ("(1d4, 2+2, 3d6kl1)kh1", &[2, 5, 6, 1], &[4]),
        ("(1d4, 3)", &[2], &[5]),
        ("(1d6, 1d6, 1d6)p<3", &[1, 5, 2], &[5]),
        // Aliases.
        ("+d20", &[4, 17], &[17]),
        ("-d20", &[4, 17], &[4]),
        ("+d%", &[3, 7, 5], &[25]),
        ("dd34", &[2, 4], &[24]),
        // Implosions (Dice Maiden's roll_syntax.md, "Imploding Dice"): each die the expression
        // rolled at or below the face subtracts one fresh die, never kept, dropped or exploded.
        ("4d6 i1", &[1, 3, 5, 6, 4], &[11]),
        ("4d6 i1", &[2, 3, 5, 6], &[16]),
        ("4d6 i2", &[2, 1, 5, 6, 3, 1], &[10]),
        ("4d6kh3 i1", &[1, 3, 5, 6, 2], &[12]),
        ("1d10 i1 e10", &[1, 7], &[-6]),
        ("1d10 e10 i1", &[10, 10, 3], &[23]),
        ("1d10 i", &[1, 1], &[0]),
        // Botches are counted beside the total, never in it; `c`: each 10 cancels a 1.
        ("4d10 b1", &[1, 1, 5, 10], &[17]),
        ("4d10 f1 t8 c", &[10, 1, 1, 9], &[1]),
        ("4d10 f1 t8 c", &[9, 1, 1, 8], &[0]),
        ("4d10 f1 t8 c", &[10, 10, 1, 2], &[2]),
        ("4wod8c", &[10, 1, 4, 4], &[1]),
        ("4wod8", &[10, 1, 4, 4], &[0]),
        ("2codr", &[3, 9, 8], &[2]),
        ("2codr", &[8, 9], &[2]),
        // Repeats and several rolls.
        ("3 1d6", &[1, 2, 3], &[1, 2, 3]),
        ("1d20; 2d6", &[11, 3, 4], &[11, 7]),
        ("dndstats", &[1; 24], &[3, 3, 3, 3, 3, 3]),
    ];
    for (input, faces, want) in cases {
        let result = roll_scripted(input, faces);
        assert_eq!(&totals(&result), want, "`{input}` with {faces:?}");
    }
}

#[test]
fn implosions_botches_cancels_and_flags_read_and_mark_each_die() {
    // (typed, read as)
    for (typed, read) in [
        ("4d6 i1", "4d6i1"),
        ("4d6 i", "4d6i1"),
        ("4dF i", "4dFi<0"),
        ("4dF f<0 t1", "4dFf<0t1"),
        ("6d10 i<4", "6d10i3"),
        ("4d10 b", "4d10b1"),
        ("4d10 b2 t8", "4d10b2t8"),
        ("4d10 f1 t8 c", "4d10f1t8c"),
        ("4wod8c", "4d10f1t8c"),
        ("4codr", "4d10r7t8!"),
        ("p 1d20", "1d20"),
        ("nr s ul 4d6", "4d6"),
    ] {
        assert_eq!(ok(typed).to_string(), read, "`{typed}`");
    }
    assert!(ok("p 1d20").private());
    assert!(ok("1d20; p 1d6").private());
    assert!(!ok("1d20").private());
    assert!(ok("nr 4d6").rolls()[0].no_total);
    assert!(!ok("4d6").rolls()[0].no_total);
    // The imploded die follows the one that imploded; it is subtracted, never kept.
    let r = roll_scripted("3d6kh2i1", &[1, 4, 5, 6]);
    let ValueOutcome::Dice { dice, value, .. } = &r.rolls[0].sets[0] else {
        panic!("dice")
    };
    assert_eq!(*value, 4 + 5 - 6);
    assert!(dice[1].subtracted && !dice[1].kept && dice[1].face == 6);
    assert!(
        !dice[0].kept,
        "the 1 is the lowest and is dropped, but still implodes"
    );
    // Botches among the kept dice only.
    let r = roll_scripted("3d10kh2b1", &[1, 1, 9]);
    let ValueOutcome::Dice { dice, .. } = &r.rolls[0].sets[0] else {
        panic!("dice")
    };
    assert_eq!(dice.iter().filter(|d| d.botch).count(), 1);
    // `c`: the first failure is cancelled, the 10 keeps its success.
    let r = roll_scripted("3d10f1t8c", &[1, 10, 1]);
    let ValueOutcome::Dice { dice, value, .. } = &r.rolls[0].sets[0] else {
        panic!("dice")
    };
    assert_eq!(*value, 0);
    assert!(dice[0].cancelled && !dice[2].cancelled && dice[1].success == 1);
}

#[test]
fn implosion_botch_and_cancel_refusals_give_the_reason() {
    for (input, want) in [
        ("4d10 t8 c", "needs them counted"),
        ("6d10 t7 i1", "use f1"),
        ("4d6 i1 i2", "appears twice"),
        ("1d6 i<1", "matches no face"),
        ("1d6 b0", "matches no face"),
    ] {
        let e = err(input);
        assert!(e.to_string().contains(want), "`{input}`: {e}");
    }
    // A rank after `i` or `b` is not read as one.
    for input in ["4d6 ih1", "4d6 bl1"] {
        err(input);
    }
    // Both sides: a face the die shows is accepted.
    for input in ["1d6 i6", "1d6 i7", "1d6 b6", "1d6 i1", "4d10 f1 t8 c"] {
        ok(input);
    }
}

#[test]
fn every_die_keeps_its_history() {
    let r = roll_scripted("2d6r1!kh1", &[1, 6, 2, 5]);
    let ValueOutcome::Dice { dice, .. } = &r.rolls[0].sets[0] else {
        panic!("dice")
    };
    assert_eq!(dice[0].rerolled, vec![1]);
    assert_eq!(dice[0].face, 6);
    assert!(dice[0].exploded);
    assert!(dice[1].extra);
    assert_eq!(dice[1].face, 2);
    assert!(!dice[1].kept);
    assert_eq!(r.rolls[0].sets[0].value(), 6);
    let r = roll_scripted("3d6mi2", &[1, 4, 1]);
    let ValueOutcome::Dice { dice, .. } = &r.rolls[0].sets[0] else {
        panic!("dice")
    };
    assert_eq!((dice[0].face, dice[0].value), (1, 2));
    let r = roll_scripted("5d10t8f1", &[8, 1, 5, 1, 1]);
    let ValueOutcome::Dice { dice, .. } = &r.rolls[0].sets[0] else {
        panic!("dice")
    };
    let marks: Vec<i8> = dice.iter().map(|d| d.success).collect();
    assert_eq!(marks, vec![1, -1, 0, -1, -1]);
}

#[test]
fn bounds_on_both_sides() {
    let l = limits();
    let twenty = ["1"; 20].join("+");
    let twenty_one = ["1"; 21].join("+");
    let ok_cases = [
        "100d6".to_owned(),
        "1d1000".to_owned(),
        "20 5d6".to_owned(),
        "1d6;1d6;1d6;1d6".to_owned(),
        twenty,
        "1000000".to_owned(),
        "4d6kh4".to_owned(),
        "4d6dl3".to_owned(),
        "1d20rr<20".to_owned(),
        "1d6e2".to_owned(),
    ];
    for input in &ok_cases {
        assert!(parse(input, &l).is_ok(), "`{input}` should parse");
    }
    let refused: Vec<(String, &str)> = vec![
        ("101d6".into(), "at most 100 dice"),
        ("1d1001".into(), "at most 1000 sides"),
        ("21 5d6".into(), "repeated at most 20 times"),
        ("21 1d6".into(), "repeated at most 20 times"),
        ("11 10d6".into(), "at most 100 dice per message"),
        ("0 1d6".into(), "at least 1 roll"),
        ("1d6;1d6;1d6;1d6;1d6".into(), "at most 4 rolls"),
        (twenty_one, "at most 20 dice groups"),
        ("1000001".into(), "at most 1000000"),
        ("4d6kh5".into(), "keep at most all 4"),
        ("4d6dl4".into(), "drop at most 3"),
        ("4d6kh0".into(), "does nothing useful"),
        ("1d20rr<21".into(), "could never stop"),
        ("1d6r6".into(), "could never stop"),
        ("1d6e1".into(), "could never stop"),
        ("1d6e7".into(), "matches no face"),
        ("1d6r0".into(), "matches no face"),
        ("1d6mi7".into(), "from 1 to 6"),
        ("1d6/0".into(), "division by zero"),
        ("1d1".into(), "at least 2 sides"),
        ("0d6".into(), "at least 1 die"),
        ("1.5".into(), "decimal point"),
        ("()".into(), "empty set"),
        ("(1d4, 2)kh3".into(), "keep at most all 2"),
        ("1d6rh1".into(), "highest or lowest"),
        ("4d6pm2".into(), "the middle can only be kept"),
        ("99d6adv2".into(), "at most 100 dice"),
        ("1d20adv1dis1".into(), "can be given once"),
        ("1d20adv0".into(), "does nothing useful"),
        ("4d6km5".into(), "keep at most all 4"),
        ("0cod".into(), "at least 1 die"),
        ("4wod11".into(), "from 2 to 10"),
        (
            format!("{}1{}", "(".repeat(17), ")".repeat(17)),
            "nest at most 16",
        ),
        ("1d6 ".repeat(60), "at most 200 characters"),
    ];
    for (input, want) in &refused {
        let e = err(input).to_string();
        assert!(e.contains(want), "`{input}`: {e:?} should say {want:?}");
    }
    // Sixteen deep is fine.
    assert!(parse(&format!("{}1{}", "(".repeat(16), ")".repeat(16)), &l).is_ok());
}

#[test]
fn syntax_errors_say_where_and_what_would_fit() {
    let cases = [
        ("2d", 3, "a number of sides"),
        ("2d6 +", 6, "dice or a number"),
        ("1d20 fire", 6, "an operator"),
        ("(1d6", 5, "closing parenthesis"),
        ("4d6kh", 6, "a number after the letters"),
        ("1d6 [fire", 10, "] to close"),
    ];
    for (input, position, want) in cases {
        match err(input) {
            DiceError::Syntax {
                position: at,
                expected,
                ..
            } => {
                assert_eq!(at, position, "`{input}`");
                assert!(expected.to_string().contains(want), "`{input}`: {expected}");
            }
            other => panic!("`{input}`: {other}"),
        }
    }
}

#[test]
fn a_divisor_that_rolls_zero_is_refused_when_rolled() {
    let mut dice = ScriptedDice::new([1]);
    let e = ok("6 / (1d2 - 1)").roll(&mut dice, &limits()).unwrap_err();
    assert_eq!(e, DiceError::DivisionByZero);
}

#[test]
fn the_cap_on_extra_rolls_is_shared_and_marks_the_die() {
    let tight = Limits {
        max_explosions: 2,
        ..limits()
    };
    let expr = parse("2d6!", &tight).unwrap();
    let mut dice = ScriptedDice::new([6, 6, 6, 4]);
    let r = expr.roll(&mut dice, &tight).unwrap();
    assert!(r.capped);
    assert_eq!(r.rolls[0].sets[0].value(), 22);
    let mut dice = ScriptedDice::new([6, 6, 2, 4]);
    assert!(!expr.roll(&mut dice, &tight).unwrap().capped);
}

// ---------------------------------------------------------------------------------------------
// Exact distributions.

fn odds(input: &str) -> Distribution {
    distribution(&ok(input).rolls()[0], &limits())
        .unwrap_or_else(|e| panic!("`{input}` should have odds: {e}"))
}

/// The distribution by brute force over every face of every die (no explosions).
fn enumerate(input: &str) -> BTreeMapish {
    let expr = ok(input);
    let sides: Vec<u32> = faces_of(&expr.rolls()[0].node);
    let mut counts = BTreeMapish::new();
    let total: u64 = sides.iter().map(|&s| u64::from(s)).product();
    for mut n in 0..total {
        let faces: Vec<u32> = sides
            .iter()
            .map(|&s| {
                let f = (n % u64::from(s)) as u32 + 1;
                n /= u64::from(s);
                f
            })
            .collect();
        let mut dice = ScriptedDice::new(faces);
        let v = expr.roll(&mut dice, &limits()).unwrap().rolls[0].sets[0].value();
        *counts.entry(v).or_insert(0.0) += 1.0 / total as f64;
    }
    counts
}

type BTreeMapish = std::collections::BTreeMap<i64, f64>;

fn faces_of(node: &Node) -> Vec<u32> {
    match node {
        Node::Number(_) => Vec::new(),
        Node::Dice(d) => vec![d.sides.faces(); (d.count + d.extra()) as usize],
        Node::Set(items, _) => items.iter().flat_map(faces_of).collect(),
        Node::Paren(i) | Node::Neg(i) | Node::Annotated(i, _) => faces_of(i),
        Node::Binary(a, _, b) => faces_of(a).into_iter().chain(faces_of(b)).collect(),
    }
}

#[test]
fn distributions_match_enumeration() {
    for input in [
        "2d6+1",
        "3d6",
        "4d6kh3",
        "4d6dl1",
        "3d6kl1",
        "5d4dh2",
        "3d6k>3",
        "4d6mi2",
        "4d6ma3kh2",
        "6d6t5",
        "5d10t8f1",
        "4dF",
        "(1d8+3)*2",
        "1d20 >= 11",
        "1d6 * 1d6",
        "1d20 / 3 - 1d4 % 3",
        "(1d4, 3, 2d6kl1)kh1",
        "(1d6, 1d6, 1d6)kh2",
        "2d20kh1 + 5",
        "-1d4 + 1d6",
        "dd34",
        "+d%",
        "4d6kh3t4",
        "5d6km3",
        "1d20adv1",
        "3d6dis2",
        "4d6adv1t5",
        "4d6km2",
        "6d4km1",
        "3d10t7ds10",
        "(1d6, 1d6, 1d6)km1",
    ] {
        let d = odds(input);
        let want = enumerate(input);
        for (&x, &p) in &want {
            assert!(
                (d.eq(x) - p).abs() < 1e-12,
                "`{input}` at {x}: {} vs {p}",
                d.eq(x)
            );
        }
        assert!(
            (d.total() - 1.0).abs() < 1e-9,
            "`{input}` sums to {}",
            d.total()
        );
        assert_eq!(d.points().len(), want.len(), "`{input}` support");
    }
}

/// A die source that walks every sequence of faces in turn: each roll after the recorded
/// ones starts at face 1, and [`Walker::next`] moves to the next sequence, odometer style.
struct Walker {
    path: Vec<(u32, u32)>,
    at: usize,
}

impl crate::rules::dice::DieSource for Walker {
    fn roll(&mut self, sides: u32) -> u32 {
        if self.at == self.path.len() {
            self.path.push((1, sides));
        }
        let (face, recorded) = self.path[self.at];
        assert_eq!(recorded, sides, "the same path asked for other dice");
        self.at += 1;
        face
    }
}

impl Walker {
    /// The chance of the path just walked.
    fn chance(&self) -> f64 {
        self.path[..self.at]
            .iter()
            .map(|(_, s)| 1.0 / f64::from(*s))
            .product()
    }

    /// Moves to the next path; `false` when every one was walked. Paths less likely than
    /// `floor` are not followed further (their chance is left out of the sum).
    fn next(&mut self, floor: f64) -> bool {
        self.path.truncate(self.at);
        self.at = 0;
        loop {
            let Some((face, sides)) = self.path.pop() else {
                return false;
            };
            if face < sides {
                self.path.push((face + 1, sides));
                let p: f64 = self.path.iter().map(|(_, s)| 1.0 / f64::from(*s)).product();
                if p >= floor {
                    return true;
                }
            }
        }
    }
}

/// The distribution by walking every sequence of dice the roller can ask for, explosions,
/// implosions and `ra` included (sequences below 1e-13 left out).
fn walk_all(input: &str) -> BTreeMapish {
    let expr = ok(input);
    let mut walker = Walker {
        path: Vec::new(),
        at: 0,
    };
    let mut counts = BTreeMapish::new();
    loop {
        let v = expr.roll(&mut walker, &limits()).unwrap().rolls[0].sets[0].value();
        *counts.entry(v).or_insert(0.0) += walker.chance();
        if !walker.next(1e-13) {
            return counts;
        }
    }
}

#[test]
fn dice_that_depend_on_each_other_have_the_odds_of_every_way_they_fall() {
    // Each against a walk of every sequence of dice the roller asks for. Chains in a pool are
    // followed until 1e-9 is left (pool.rs), so the figures agree within that.
    for input in [
        "4d6i1",
        "3d6i2!",
        "3d6kh2i1",
        "1d10i1e10",
        "3d4!kh2",
        "2d6!dl1",
        "4d6ra6",
        "3d6ra6kh2",
        "2d4ra>2mi2",
        "4d6kh3kl2",
        "5d4kh4k>2",
        "3d6adv1!",
        "3d6adv1kh2",
        "2d4dis1ra4",
        "3d4mi2adv1!",
        "4d10f1t8c",
        "4d10f2t8cr1",
        "3d10f10t8c",
        "3d10f1t8ds10c",
        "3d10f1t8c!",
        "3d10f1t8cb1",
        "3d6i1kh2!",
    ] {
        let d = odds(input);
        let want = walk_all(input);
        for (&x, &p) in &want {
            assert!(
                (d.eq(x) - p).abs() < 1e-8,
                "`{input}` at {x}: {} vs {p}",
                d.eq(x)
            );
        }
        for (x, p) in d.points() {
            assert!(
                want.contains_key(&x) || p < 1e-8,
                "`{input}`: {x} has {p} but cannot be rolled"
            );
        }
        assert!(
            (d.total() - 1.0).abs() < 1e-9,
            "`{input}` sums to {}",
            d.total()
        );
    }
}

#[test]
fn rerolls_have_exact_odds() {
    // 1d6r1: a 1 is rolled again once. P(1) = 1/36, P(k>1) = 1/6 + 1/36.
    let d = odds("1d6r1");
    assert!((d.eq(1) - 1.0 / 36.0).abs() < 1e-12);
    assert!((d.eq(4) - 7.0 / 36.0).abs() < 1e-12);
    // 1d6rr<3: until it is 3 or more: uniform on 3..=6.
    let d = odds("1d6rr<3");
    assert!(d.eq(2).abs() < f64::EPSILON);
    assert!((d.eq(3) - 0.25).abs() < 1e-12);
    // 4d6 ir2 keeps no 1 or 2.
    assert!((odds("4d6 ir2").le(11)).abs() < 1e-12);
}

#[test]
fn explosions_are_followed_to_the_cap_with_the_rest_stated() {
    // 1d6!: P(6 + k) = 1/36 for k in 1..=5; P(12 + k) = 1/216.
    let d = odds("1d6!");
    assert!((d.eq(5) - 1.0 / 6.0).abs() < 1e-12);
    assert!(d.eq(6).abs() < f64::EPSILON);
    assert!((d.eq(7) - 1.0 / 36.0).abs() < 1e-12);
    assert!((d.eq(13) - 1.0 / 216.0).abs() < 1e-12);
    assert!(
        (d.mean() - 4.2).abs() < 1e-9,
        "mean of an exploding d6 is 4.2"
    );
    assert!(d.cap.is_none());
    // A cap of 2: a chain stops after two explosions; what it cut off is stated.
    let tight = Limits {
        max_explosions: 2,
        ..limits()
    };
    let d = distribution(&parse("1d6!", &tight).unwrap().rolls()[0], &tight).unwrap();
    assert_eq!(d.cap, Some(2));
    assert!((d.beyond - 1.0 / 216.0).abs() < 1e-12);
    assert!((d.total() - 1.0).abs() < 1e-12);
    // Success pools: 1d10t8e10 (a 10 counts and rolls again).
    let d = odds("1d10t8e10");
    assert!((d.eq(0) - 0.7).abs() < 1e-12);
    assert!((d.eq(1) - (0.2 + 0.1 * 0.7)).abs() < 1e-12);
}

#[test]
fn odds_too_costly_or_not_worked_out_are_refused_with_the_reason() {
    for (input, want) in [
        ("100d1000kh50", "too long"),
        ("100d6kh50kl10", "too long"),
        ("6 / (1d2 - 1)", "divide by zero"),
    ] {
        let e = distribution(&ok(input).rolls()[0], &limits()).unwrap_err();
        assert!(e.to_string().contains(want), "`{input}`: {e}");
    }
    // What the pool takes: keep with explosions, `ra`, two keeps, `c`, within the budget.
    for input in ["3d6!kh2", "4d6ra6", "10d10kh5kl2", "100d10f1t8c", "100d6i1"] {
        let d = odds(input);
        assert!(
            (d.total() - 1.0).abs() < 1e-9,
            "`{input}` sums to {}",
            d.total()
        );
    }
    // 3d6 keep the best two, exploding: better than without explosions, below two exploding
    // dice and a third one's share.
    let d = odds("3d6!kh2");
    assert!(d.mean() > odds("3d6kh2").mean() && d.mean() < 3.0 * 4.2);
    // The largest plain sum allowed is worked out.
    let d = odds("100d1000");
    assert!((d.total() - 1.0).abs() < 1e-6);
    assert!((d.mean() - 50_050.0).abs() < 1e-3);
}

fn chi_square(observed: &[u64], expected: &[f64]) -> f64 {
    observed
        .iter()
        .zip(expected)
        .filter(|(_, e)| **e > 0.0)
        .map(|(&o, &e)| (o as f64 - e).powi(2) / e)
        .sum()
}

#[test]
fn rolled_frequencies_match_the_distribution() {
    // Fixed seeds: the same counts every run, so the test cannot flake. The bound is the 99.9%
    // point of chi-square for the degrees of freedom at hand, far above what a fair roller gives.
    for (input, seed, bound) in [
        ("4d6kh3", 7, 45.3),   // 15 totals: 14 degrees of freedom
        ("2d6r1", 11, 29.6),   // 11 totals: 10
        ("5d10t8f1", 3, 26.1), // -5..=5 but few likely: 8 or so
        ("1d6!", 5, 60.0),
    ] {
        let expr = ok(input);
        let d = odds(input);
        let mut dice = SeededDice::new(seed);
        let rolls = 20_000;
        let mut counts = vec![0u64; d.p.len()];
        for _ in 0..rolls {
            let v = expr.roll(&mut dice, &limits()).unwrap().rolls[0].sets[0].value();
            let i = usize::try_from(v - d.low).expect("a rolled total below the support");
            assert!(d.p[i] > 0.0, "`{input}` rolled {v}, which has no chance");
            counts[i] += 1;
        }
        // Bins with a small expectation are merged into their neighbour.
        let expected: Vec<f64> = d.p.iter().map(|p| p * f64::from(rolls)).collect();
        let (mut obs, mut exp, mut o, mut e) = (Vec::new(), Vec::new(), 0u64, 0.0);
        for (c, x) in counts.iter().zip(&expected) {
            o += c;
            e += x;
            if e >= 5.0 {
                obs.push(o);
                exp.push(e);
                (o, e) = (0, 0.0);
            }
        }
        let stat = chi_square(&obs, &exp);
        assert!(stat < bound, "`{input}`: chi-square {stat:.1} over {bound}");
    }
}

#[test]
fn a_biased_roller_would_fail_the_same_check() {
    // The same statistic on a d6 that never shows 6 is far past the bound.
    let observed = [4000, 4000, 4000, 4000, 4000, 0];
    let expected = [20000.0 / 6.0; 6];
    assert!(chi_square(&observed, &expected) > 100.0);
}

/// A die source that counts what it is asked for: the work of a roll, without a clock.
struct Counting(SeededDice, u64);

impl crate::rules::dice::DieSource for Counting {
    fn roll(&mut self, sides: u32) -> u32 {
        self.1 += 1;
        self.0.roll(sides)
    }
}

/// The most dice a message that parsed may make the roller throw: every die once, once more for
/// each reroll-once on it, the shared cap on explosions and rerolls-until, and one `ra` per group.
fn most_rolls(expr: &Expr, limits: &Limits) -> u64 {
    fn ops(node: &Node) -> u64 {
        match node {
            Node::Number(_) => 0,
            Node::Dice(d) => {
                let once = d
                    .ops
                    .iter()
                    .filter(|op| matches!(op, Op::Reroll(Reroll::Once, _)))
                    .count() as u64;
                let implodes = d.ops.iter().any(|op| matches!(op, Op::Implode(_)));
                u64::from(d.count) * (once + u64::from(implodes)) + 1
            }
            Node::Set(items, _) => items.iter().map(ops).sum(),
            Node::Paren(i) | Node::Neg(i) | Node::Annotated(i, _) => ops(i),
            Node::Binary(a, _, b) => ops(a) + ops(b),
        }
    }
    let extra: u64 = expr
        .rolls()
        .iter()
        .map(|r| u64::from(r.repeat) * ops(&r.node))
        .sum();
    expr.dice_count() + extra + u64::from(limits.max_explosions)
}

#[test]
fn the_costliest_rolls_stay_within_their_bound() {
    for input in [
        "100d2!",
        "100d1000rr<1000",
        "20 5d2!",
        "100d2ie2",
        "4 24d2!; 4d2!",
        "100d6r1r2r3",
    ] {
        let expr = ok(input);
        let mut dice = Counting(SeededDice::new(1), 0);
        let _ = expr.roll(&mut dice, &limits()).unwrap();
        let bound = most_rolls(&expr, &limits());
        assert!(dice.1 <= bound, "`{input}`: {} rolls over {bound}", dice.1);
        assert!(bound <= 10_000, "`{input}`: a bound of {bound}");
    }
}

// ---------------------------------------------------------------------------------------------
// Properties: no input panics; what parses prints back as itself; rolls stay in the support;
// the dice thrown stay within the bound the limits set (the fuzz target, run in CI by
// `cargo test`: 2,000 generated messages a run, plus every string proptest tries).

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parser_never_panics_on_any_string(input in any::<String>()) {
        let _ = parse(&input, &limits());
    }

    #[test]
    fn nothing_in_the_dice_alphabet_panics_or_overruns(
        input in "[0-9dDkhlprteifmaFsuvbcn!%+*/<>=(),;\\[\\] -]{0,60}",
        seed in any::<u64>(),
    ) {
        if let Ok(expr) = parse(&input, &limits()) {
            prop_assert!(expr.dice_count() <= 100);
            let printed = expr.to_string();
            let again = parse(&printed, &limits());
            prop_assert!(again.is_ok(), "`{}` printed as `{}`: {:?}", input, printed, again);
            prop_assert_eq!(again.unwrap().to_string(), printed.clone());
            let mut dice = Counting(SeededDice::new(seed), 0);
            let rolled = expr.roll(&mut dice, &limits());
            prop_assert!(dice.1 <= most_rolls(&expr, &limits()));
            if let Ok(outcome) = rolled {
                for (roll, rolled) in expr.rolls().iter().zip(&outcome.rolls) {
                    if let Ok(d) = distribution_within(roll, &limits(), 200_000) {
                        // Every distribution sums to 1 (a chain cut at the cap or below 1e-15 stands
                        // where it was cut), within the rounding of the sums.
                        prop_assert!((d.total() - 1.0).abs() < 1e-9, "`{}` sums to {}", printed, d.total());
                        for set in &rolled.sets {
                            let v = set.value();
                            let capped = outcome.capped || d.cap.is_some();
                            prop_assert!(capped || d.eq(v) > 0.0, "`{}` rolled {} outside its odds", printed, v);
                        }
                    }
                }
            }
        }
    }
}
