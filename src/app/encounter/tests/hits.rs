//! TFT hits from commands other than the attack (issue 31) count in the figure's round
//! (`hits_round`, 8 knock it down) and since its last action (`hits_since`, 5 cost −2 adjDX):
//! a GM's `/tft condition hits:` and a missile spell's damage (tft-house-rules-combat.txt,
//! "Knockdown": hits from any source).

use super::*;

fn counts(t: &Table, name: &str) -> (i32, i32, bool) {
    let s = t.state();
    let f = s.figure(t.id(name).unwrap()).unwrap();
    (f.hits_round, f.hits_since, f.down)
}

#[test]
fn hits_a_gm_adds_count_in_the_round_at_both_thresholds() {
    let t = tft_table(91);
    t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Kara")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Orc")]);
    t.ok(GM, &["encounter", "next"], &[]);
    // tft-rules-summary.md, "Actions" (5 since the last action: −2 adjDX) and
    // tft-house-rules-combat.txt, "Knockdown" (8 in a round, ST 12): the Orc's hits set by the
    // GM, what the counts become, and whether each line comes.
    // (hits, round and since, −2 line, knocked down)
    let rows = [
        ("4", 4, false, false),
        ("5", 5, true, false),
        ("7", 7, true, false),
        ("8", 8, true, true),
    ];
    for (hits, count, minus_two, knocked) in rows {
        let r = t.ok(
            GM,
            &["tft", "condition"],
            &[("character", "Orc 1"), ("hits", hits)],
        );
        let text = r.all_text();
        assert_eq!(
            counts(&t, "Orc 1"),
            (count, count, knocked),
            "{hits}: {text}"
        );
        assert_eq!(text.contains("−2 adjDX"), minus_two, "{hits}: {text}");
        assert_eq!(text.contains("is knocked down"), knocked, "{hits}: {text}");
    }
    // A correction down takes the difference off both counts.
    t.ok(
        GM,
        &["tft", "condition"],
        &[("character", "Orc 1"), ("hits", "2")],
    );
    assert_eq!(counts(&t, "Orc 1").0, 2);
    assert_eq!(counts(&t, "Orc 1").1, 2);
    // Outside an encounter nothing is counted (no channel, no fight).
    let r = t
        .app
        .run(
            &caller(GM),
            "x",
            &Invocation::new(
                &["tft", "condition"],
                &[("character", "Kara"), ("hits", "3")],
            ),
        )
        .unwrap();
    assert!(!r.all_text().contains("Encounter"));
    assert_eq!(counts(&t, "Kara").0, 0);
}

#[test]
fn a_missile_spells_hits_count_with_the_rounds_earlier_hits() {
    let t = Table::new(92);
    let mage = Sheet::Tft(TftSheet {
        st: 14,
        dx: 17,
        iq: 12,
        spells: vec!["Magic Fist".to_owned()],
        ..TftSheet::default()
    })
    .to_json();
    t.character("Mira", System::Tft, ANN, false, &mage);
    let orc = Sheet::Tft(TftSheet {
        st: 14,
        dx: 8,
        iq: 8,
        ..TftSheet::default()
    })
    .to_json();
    t.character("Orc", System::Tft, GM, true, &orc);
    t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Mira")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Orc")]);
    t.ok(GM, &["encounter", "next"], &[]);
    // 6 hits earlier this round; the spell's 3d (at least 3 hits, no armor) takes the round to
    // 8 or more, the knockdown for ST under 20 (tft-house-rules-combat.txt, "Knockdown").
    t.ok(
        GM,
        &["tft", "condition"],
        &[("character", "Orc 1"), ("hits", "6")],
    );
    let cast = t.ok(
        GM,
        &["tftkit", "cast"],
        &[
            ("spell", "Magic Fist"),
            ("character", "Mira"),
            ("target", "Orc 1"),
            ("kind", "missile"),
            ("st", "3"),
            ("damage", "3d"),
        ],
    );
    assert!(
        cast.all_text().contains("The spell works"),
        "pick a seed whose cast works: {}",
        cast.all_text()
    );
    let id = t.id("Orc 1").unwrap();
    let taken = t
        .app
        .store
        .read(|c| characters::tft_damage(c, G, id))
        .unwrap()
        .0 as i32;
    assert!(taken > 6, "the spell hit: {}", cast.all_text());
    assert_eq!(
        counts(&t, "Orc 1"),
        (taken, taken, true),
        "{}",
        cast.all_text()
    );
    assert!(
        cast.all_text().contains("is knocked down"),
        "{}",
        cast.all_text()
    );
}

/// tft-rules-summary.md, "PICK UP DROPPED WEAPON": picking a dropped weapon up is the figure's
/// option for its turn. In a fight a player does it on their own turn only, and it counts as
/// the turn's action, as a spell does (its hits since its last action start again).
#[test]
fn picking_up_a_weapon_in_a_fight_is_the_turns_action() {
    let t = tft_table(93);
    let kara = t.id("Kara").unwrap();
    t.app
        .store
        .write(|tx| {
            characters::add_item(tx, G, kara, "weapon", "broadsword", r#"{"dropped":true}"#)
        })
        .unwrap();
    t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Kara")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Orc")]);
    t.ok(GM, &["encounter", "next"], &[]);
    assert_eq!(t.current(), "Kara");
    t.ok(ANN, &["encounter", "next"], &[]);
    assert_eq!(t.current(), "Orc 1");
    // Hurt in the orc's turn: 3 hits since her last action.
    t.ok(
        GM,
        &["tft", "condition"],
        &[("character", "Kara"), ("hits", "3")],
    );
    // Out of her turn: refused, and the weapon still lies there.
    let refusal = t.refused(ANN, &["tftkit", "pickup"], &[("character", "Kara")]);
    assert!(refusal.contains("turn"), "{refusal}");
    t.ok(GM, &["encounter", "next"], &[]);
    assert_eq!(t.current(), "Kara");
    let before = counts(&t, "Kara");
    assert_eq!(before.1, 3, "hits since her last action");
    let s = t.state();
    assert_eq!(s.figure(kara).unwrap().rolls_this_turn, 0);
    t.ok(ANN, &["tftkit", "pickup"], &[("character", "Kara")]);
    let s = t.state();
    let f = s.figure(kara).unwrap();
    assert_eq!((f.rolls_this_turn, f.hits_since), (1, 0));
    let items = t.app.store.read(|c| characters::items(c, G, kara)).unwrap();
    assert!(
        !items[0].stats_json.contains("\"dropped\":true"),
        "{items:?}"
    );
}
