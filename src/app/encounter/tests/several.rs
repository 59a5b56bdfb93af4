//! Several targets in one attack (issue 59, item 6) in a TFT fight: a bow fast enough to shoot
//! twice strikes two foes in its one missile-weapon action (tft-rules-summary.md, "MISSILE
//! WEAPONS"), in one command or two; declared multiple actions give one attack each
//! (tft-multiple-actions.txt); anything more is refused for a player and changes nothing.

use super::*;

/// Kara (the party's, ST 16, DX 16: a short bow shoots twice at adjDX 15 or more) with a short
/// bow, and two Orcs (ST 40, DX 8) that act after her.
fn bowmen(seed: u64) -> Table {
    let t = Table::new(seed);
    let sheet = |st: i32, dx: i32| {
        Sheet::Tft(TftSheet {
            st,
            dx,
            iq: 10,
            ..TftSheet::default()
        })
        .to_json()
    };
    let kara = t.character("Kara", System::Tft, ANN, false, &sheet(16, 16));
    t.character("Orc", System::Tft, GM, true, &sheet(40, 8));
    t.app
        .store
        .write(|tx| characters::add_item(tx, G, kara, "weapon", "Short Bow", "{}"))
        .unwrap();
    t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Kara")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Orc"), ("count", "2")]);
    t.ok(GM, &["encounter", "next"], &[]);
    assert_eq!(t.current(), "Kara");
    t
}

// `Err` is the refusal as a reply, as `App::run` gives it.
#[allow(clippy::result_large_err)]
fn shoot(t: &Table, targets: &str, adjust: Option<&str>) -> Result<Reply, Reply> {
    let mut opts = vec![("target", targets), ("weapon", "Short Bow"), ("range", "3")];
    if let Some(a) = adjust {
        opts.push(("adjust", a));
    }
    t.run(ANN, &["tft", "attack"], &opts)
}

/// The rolls the log holds.
fn logged(t: &Table) -> usize {
    t.app
        .store
        .read(|c| crate::store::rolls::recent(c, G, None, None, 1000))
        .unwrap()
        .len()
}

fn kara_rolls(t: &Table) -> u32 {
    t.state()
        .figure(t.id("Kara").unwrap())
        .unwrap()
        .rolls_this_turn
}

fn adj_dx(e: &crate::app::reply::Embed) -> &str {
    &e.fields.iter().find(|f| f.name == "adjDX").unwrap().value
}

#[test]
fn a_bow_shooting_twice_strikes_two_targets_in_one_message() {
    let t = bowmen(71);
    let r = shoot(&t, "Orc 1, Orc 2", Some("shooting-twice")).expect("two shots");
    assert_eq!(r.embeds.len(), 2, "{r:?}");
    assert!(r.embeds[0].title.contains("Orc 1"), "{r:?}");
    assert!(r.embeds[1].title.contains("Orc 2"), "{r:?}");
    // tft-house-rules-combat.txt, "Rolling to Miss and Multiple Rolls to Hit": the second shot
    // is one earlier roll down; the first is not.
    assert!(!adj_dx(&r.embeds[0]).contains("earlier roll"), "{r:?}");
    assert!(
        adj_dx(&r.embeds[1]).contains("1 earlier roll this turn"),
        "{r:?}"
    );
    assert!(!r.all_text().contains("GM's call"), "{}", r.all_text());
    assert_eq!(kara_rolls(&t), 2);
    // Both shots are her action: a third roll is refused and changes nothing.
    let before = t.row();
    let refused = shoot(&t, "Orc 1", Some("shooting-twice")).expect_err("a third shot");
    assert!(
        refused.content.contains("Kara has already acted this turn"),
        "{}",
        refused.content
    );
    assert_eq!(t.row(), before);
}

#[test]
fn the_second_shot_may_come_in_a_second_command_only_after_a_first_declared_one() {
    let t = bowmen(72);
    shoot(&t, "Orc 1", Some("shooting-twice")).expect("the first shot");
    let second = shoot(&t, "Orc 2", Some("shooting-twice")).expect("the second shot");
    assert!(adj_dx(&second.embeds[0]).contains("1 earlier roll this turn"));
    assert_eq!(kara_rolls(&t), 2);
    // Next turn: a plain shot first is her one action; a "second shot" after it is refused.
    for _ in 0..3 {
        t.ok(GM, &["encounter", "next"], &[]);
        if t.current() == "Kara" {
            break;
        }
    }
    assert_eq!(t.current(), "Kara");
    assert_eq!(kara_rolls(&t), 0);
    shoot(&t, "Orc 1", None).expect("one plain shot");
    let before = t.row();
    let refused = shoot(&t, "Orc 2", Some("shooting-twice")).expect_err("no second shot");
    assert!(
        refused.content.contains("already acted"),
        "{}",
        refused.content
    );
    assert_eq!(t.row(), before);
}

#[test]
fn several_targets_need_the_attacks_the_turn_gives() {
    let t = bowmen(73);
    let before = t.row();
    let rolls = logged(&t);
    for (targets, adjust, says) in [
        ("Orc 1, Orc 2", None, "may strike 1 attack, not 2 targets"),
        (
            "Orc 1, Orc 2, Kara",
            Some("shooting-twice"),
            "may strike 2 attacks, not 3 targets",
        ),
        ("Orc 1, Nobody", Some("shooting-twice"), "Nobody"),
    ] {
        let refused = shoot(&t, targets, adjust).expect_err(targets);
        assert!(
            refused.content.contains(says),
            "{targets}: {}",
            refused.content
        );
        assert_eq!(t.row(), before, "{targets}");
    }
    assert_eq!(logged(&t), rolls, "refusals roll nothing that is kept");
    // Declared multiple actions give one attack each (tft-multiple-actions.txt), each with the
    // variant's extra die.
    t.ok(ANN, &["encounter", "declare"], &[("actions", "2")]);
    let r = t
        .run(
            ANN,
            &["tft", "attack"],
            &[("target", "Orc 1, Orc 2"), ("weapon", "hands")],
        )
        .expect("two declared actions");
    assert_eq!(r.embeds.len(), 2, "{r:?}");
    for e in &r.embeds {
        assert!(adj_dx(e).contains("multiple actions"), "{e:?}");
    }
    assert_eq!(kara_rolls(&t), 2);
}

/// SPEC §3: the Orcs' numbers (ST 40) stay the GM's in a message of two attacks, as in one:
/// the player reads who was hit, the GM's copy holds both attacks' numbers.
#[test]
fn two_attacks_on_npcs_keep_their_numbers_from_the_player() {
    let mut blows = 0;
    for seed in 80..90 {
        let t = bowmen(seed);
        let r = shoot(&t, "Orc 1, Orc 2", Some("shooting-twice")).expect("two shots");
        let mut seen = r.clone();
        seen.gm_copy = None;
        let seen = seen.all_text();
        for secret in ["ST 40", "Before armor", "Stops"] {
            assert!(!seen.contains(secret), "{secret}: {seen}");
        }
        let gm = r.gm_copy.as_ref().expect("the GM's copy").all_text();
        assert!(gm.contains("Orc 1") && gm.contains("Orc 2"), "{gm}");
        if gm.contains("Before armor") {
            assert!(gm.contains("ST 40"), "{gm}");
            blows += 1;
        }
    }
    assert!(blows > 0, "no seed hit an orc, so nothing was checked");
}
