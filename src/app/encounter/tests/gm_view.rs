//! The GM's view of the tracker (issue 31): per figure its wounds by location (THIZ) or its ST
//! left of its ST (TFT), its condition by name and its declared option, in the GM's ephemeral
//! `/encounter show` alone; a dead figure reads "dead" to everyone; a figure that goes down in
//! its own turn is not marked as still acting.

use super::*;
use crate::store::conditions;

fn gm_show(t: &Table) -> String {
    let r = t.ok(GM, &["encounter", "show"], &[]);
    assert_eq!(r.visibility, Visibility::Ephemeral);
    r.all_text()
}

fn player_show(t: &Table) -> String {
    t.ok(ANN, &["encounter", "show"], &[]).all_text()
}

#[test]
fn the_gm_reads_thiz_wounds_by_location_conditions_and_options() {
    let t = thiz_table(61);
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Alys")]);
    t.ok(
        GM,
        &["encounter", "add"],
        &[("npc", "Goblin"), ("count", "2")],
    );
    t.ok(GM, &["encounter", "next"], &[]);
    let (g1, g2) = (t.id("Goblin 1").unwrap(), t.id("Goblin 2").unwrap());
    let wound = |location: &str, level: &str, count: i64| WoundRow {
        location: location.into(),
        level: level.into(),
        count,
    };
    t.app
        .store
        .write(|tx| {
            characters::set_wounds(
                tx,
                G,
                g1,
                &[wound("gut", "yellow", 1), wound("left leg", "green", 2)],
            )?;
            conditions::set(tx, G, g2, Some("dead"))
        })
        .unwrap();
    t.ok(
        GM,
        &["encounter", "declare"],
        &[("figure", "Goblin 1"), ("option", "defend")],
    );
    let gm = gm_show(&t);
    assert!(
        gm.contains("wounds Gut: Yellow; Left Leg: 2× Green · able to act · declared defend"),
        "{gm}"
    );
    assert!(gm.contains("Alys: "), "{gm}");
    assert!(gm.contains("no wounds · dead"), "{gm}");
    // The table sees that Goblin 2 is dead (not merely down), and nothing of the sheets.
    for text in [player_show(&t), t.status_text()] {
        assert!(text.contains("Goblin 2 (dead)"), "{text}");
        assert!(!text.contains("Goblin 2 (down)"), "{text}");
        for secret in [
            "Yellow",
            "Green",
            "wounds",
            "GM: the numbers",
            "able to act",
        ] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
    }
}

#[test]
fn the_gm_reads_tft_st_left_fatigue_and_each_condition_by_name() {
    let t = tft_table(62);
    t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Kara")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Orc")]);
    t.ok(GM, &["encounter", "next"], &[]);
    let orc = t.id("Orc 1").unwrap();
    let set = |hits: i64, fatigue: i64| {
        t.app
            .store
            .write(|tx| characters::set_tft_damage(tx, G, orc, hits, fatigue))
            .unwrap();
    };
    // tft-rules-summary.md, "STRENGTH"; tft-house-rules.txt, "Death and Dying": above 0 ST
    // the figure acts, at exactly 0 it is unconscious, below 0 dying. (hits, fatigue, the line)
    let cases = [
        (0, 0, "Orc 1: ST 12 of 12 left (0 hits) · able to act"),
        (
            7,
            2,
            "Orc 1: ST 3 of 12 left (7 hits, 2 fatigue) · able to act",
        ),
        (11, 0, "Orc 1: ST 1 of 12 left (11 hits) · able to act"),
        (12, 0, "Orc 1: ST 0 of 12 left (12 hits) · unconscious"),
        (13, 0, "Orc 1: ST -1 of 12 left (13 hits) · dying"),
    ];
    for (hits, fatigue, line) in cases {
        set(hits, fatigue);
        let gm = gm_show(&t);
        assert!(gm.contains(line), "{hits}+{fatigue}: {gm}");
        let player = player_show(&t);
        assert!(!player.contains("of 12"), "{player}");
        assert!(!player.contains("hits)"), "{player}");
    }
    assert!(gm_show(&t).contains("Kara: ST 16 of 16 left (0 hits) · able to act"));
    // Knocked down, by the sheet: the GM reads it, as the table does.
    set(0, 0);
    t.ok(
        GM,
        &["tft", "condition"],
        &[("character", "Orc 1"), ("knocked_down", "true")],
    );
    assert!(gm_show(&t).contains("(0 hits) · knocked down"));
    // Dead by the GM's word: "dead" everywhere, never "(down)".
    t.ok(
        GM,
        &["tft", "condition"],
        &[("character", "Orc 1"), ("dead", "true")],
    );
    assert!(gm_show(&t).contains("(0 hits) · dead"));
    for text in [player_show(&t), t.status_text()] {
        assert!(text.contains("Orc 1 (dead)"), "{text}");
        assert!(!text.contains("Orc 1 (down)"), "{text}");
    }
}

/// A figure that goes down in its own turn keeps the turn's place until Next, marked ✗ (not ▶),
/// and its Attack button is off (see `status::order_lines`).
#[test]
fn a_figure_downed_in_its_own_turn_is_not_shown_as_acting() {
    // TFT: Kara (adjDX 16) has the first turn; the GM's word kills her in it.
    let t = tft_table(63);
    t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Kara")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Orc")]);
    t.ok(GM, &["encounter", "next"], &[]);
    assert_eq!(t.current(), "Kara");
    assert!(t.status_text().contains("▶ Kara ["));
    t.ok(
        GM,
        &["tft", "condition"],
        &[("character", "Kara"), ("dead", "true")],
    );
    let status = t.app.encounter_status(G, CH).unwrap().unwrap().reply;
    let text = status.all_text();
    assert!(!text.contains("▶ Kara"), "{text}");
    assert!(text.contains("✗ Kara [party] (dead)"), "{text}");
    assert!(
        text.contains("**Turn: Kara (down; Next moves on)**"),
        "{text}"
    );
    let attack = status.buttons.iter().find(|b| b.label == "Attack").unwrap();
    assert!(attack.disabled);
    let id = attack.custom_id.clone();
    assert!(
        t.refused(GM, &["button"], &[("id", &id)])
            .contains("is down")
    );
    // Next moves on to the orc.
    t.ok(GM, &["encounter", "next"], &[]);
    assert_eq!(t.current(), "Orc 1");
    assert!(t.status_text().contains("▶ Orc 1 ["));

    // THIZ: a Black wound to the Chest from /wound add on the current figure.
    let t = thiz_table(64);
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Alys")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Goblin")]);
    t.ok(GM, &["encounter", "next"], &[]);
    let now = t.current();
    t.ok(
        GM,
        &["wound", "add"],
        &[
            ("character", now.as_str()),
            ("location", "chest"),
            ("level", "black"),
        ],
    );
    let text = t.status_text();
    assert!(!text.contains(&format!("▶ {now}")), "{text}");
    assert!(text.contains(&format!("✗ {now} [")), "{text}");
    assert!(gm_show(&t).contains("wounds Chest: Black"));
}

/// tft-house-rules.txt, "Fine Armor": the order reads fine chainmail's -2 DX with the house
/// rules on, and chainmail's -3 with them off (`app::tft::order_gear_dx`), never refusing.
#[test]
fn the_order_reads_fine_armor_as_printed_armor_without_the_house_rules() {
    for (house, adj_dx) in [("on", 10), ("off", 9)] {
        let t = Table::new(65);
        let sheet = Sheet::Tft(TftSheet {
            st: 12,
            dx: 12,
            iq: 10,
            armor: Some("Fine Chainmail".into()),
            ..TftSheet::default()
        })
        .to_json();
        let id = t.character("Kara", System::Tft, ANN, false, &sheet);
        t.ok(
            GM,
            &["gm", "rules"],
            &[("name", "tft_house_rules"), ("value", house)],
        );
        let facts = t
            .app
            .store
            .read(|c| -> crate::store::Result<_> {
                let k = characters::by_id(c, G, id)?.unwrap();
                Ok(crate::app::encounter::tft::facts(c, &k))
            })
            .unwrap()
            .unwrap();
        assert_eq!(facts.adj_dx, adj_dx, "house rules {house}");
    }
}
