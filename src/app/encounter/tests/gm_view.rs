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

/// A THIZ fight of `figures` (at least 3): Alys, Bren, then Goblins and Hobgoblins, begun, so
/// every figure has its initiative's line; returns every figure's name.
fn crowded(seed: u64, figures: usize) -> (Table, Vec<String>) {
    let t = thiz_table(seed);
    let hob = t.character("Hobgoblin", System::Thiz, GM, true, "{}");
    t.skill(hob, "Speed", 9);
    t.skill(hob, "Perception", 8);
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Alys")]);
    t.ok(BOB, &["encounter", "add"], &[("character", "Bren")]);
    let mut left = figures - 2;
    for npc in ["Goblin", "Hobgoblin"].into_iter().cycle() {
        if left == 0 {
            break;
        }
        let count = left.min(20);
        t.ok(
            GM,
            &["encounter", "add"],
            &[("npc", npc), ("count", &count.to_string())],
        );
        left -= count;
    }
    t.ok(GM, &["encounter", "next"], &[]);
    let names: Vec<String> = t.state().figures.iter().map(|f| f.name.clone()).collect();
    assert_eq!(names.len(), figures);
    (t, names)
}

/// The figures named at the start of the "GM: the numbers" lines of `replies`.
fn numbered(replies: &[Reply]) -> Vec<String> {
    replies
        .iter()
        .flat_map(|r| &r.embeds)
        .flat_map(|e| &e.fields)
        .filter(|f| f.name.starts_with("GM: the numbers"))
        .flat_map(|f| f.value.lines())
        .filter_map(|l| l.split_once(": ").map(|(name, _)| name.to_owned()))
        .collect()
}

/// Issue 57, item 6: at 25 figures the GM's numbers (some 100 characters a figure) pass a field's
/// 1,024; they are split over fields of whole lines, and what Discord gets (after
/// `bot::render::fit`) still names every figure, in the numbers and in the order.
#[test]
fn the_gms_screen_names_every_figure_of_twenty_five() {
    let (t, names) = crowded(66, 25);
    let r = t.ok(GM, &["encounter", "show"], &[]);
    let sent = crate::bot::render::fit(&r);
    assert_eq!(sent, r, "it fits as it is: nothing for fit to cut");
    let fields = &sent.embeds[0].fields;
    let parts: Vec<&str> = fields
        .iter()
        .map(|f| f.name.as_str())
        .filter(|n| n.starts_with("GM: the numbers"))
        .collect();
    assert!(parts.len() >= 2, "{parts:?}");
    assert_eq!(parts[0], format!("GM: the numbers (1/{})", parts.len()));
    for f in fields {
        assert!(f.value.chars().count() <= crate::bot::render::FIELD_VALUE_MAX);
        assert!(!f.value.ends_with('…'), "{}", f.value);
    }
    assert!(
        crate::app::layout::embed_chars(&sent.embeds[0]) <= crate::bot::render::EMBEDS_TOTAL_MAX
    );
    assert_eq!(
        numbered(std::slice::from_ref(&sent)),
        names,
        "every figure, in order"
    );
    let order = &sent.embeds[0].description;
    for name in &names {
        assert!(
            order.contains(&format!(" {name} [")),
            "{name} not in the order"
        );
    }
    // Players see every figure too, and none of the numbers.
    let player = t.ok(ANN, &["encounter", "show"], &[]);
    assert!(numbered(std::slice::from_ref(&player)).is_empty());
    assert_eq!(crate::bot::render::fit(&player), player);
}

/// Past one message (64 figures, the most a fight holds), the GM's screen is paged: each page
/// within Discord's limits says what is left and how to ask for it, and the pages together
/// name every figure; a page past the last is refused.
#[test]
fn a_gms_screen_past_one_message_is_paged_and_loses_no_figure() {
    let (t, names) = crowded(67, super::super::state::MAX_FIGURES);
    let first = t.ok(GM, &["encounter", "show"], &[]);
    let title = &first.embeds[0].title;
    let n: usize = title
        .rsplit_once(" of ")
        .and_then(|(_, n)| n.trim_end_matches(')').parse().ok())
        .unwrap_or_else(|| panic!("a paged title: {title}"));
    assert!(n >= 2, "{title}");
    let mut pages = vec![first];
    for page in 2..=n {
        pages.push(t.ok(GM, &["encounter", "show"], &[("page", &page.to_string())]));
    }
    for (i, page) in pages.iter().enumerate() {
        assert_eq!(crate::bot::render::fit(page), *page, "page {} fits", i + 1);
        let more = page.embeds[0].fields.last().unwrap();
        if i + 1 < n {
            assert_eq!(more.name, crate::app::layout::MORE);
            assert!(
                more.value
                    .ends_with(&format!("/encounter show page:{}", i + 2)),
                "{}",
                more.value
            );
        }
    }
    assert_eq!(numbered(&pages), names, "every figure, in order, once");
    let past = t.refused(
        GM,
        &["encounter", "show"],
        &[("page", &(n + 1).to_string())],
    );
    assert!(past.contains(&format!("{n} pages")), "{past}");
    // The channel's message is the first page, with the buttons and no numbers.
    let status = t.app.encounter_status(G, CH).unwrap().unwrap().reply;
    assert!(!status.buttons.is_empty());
    assert!(numbered(&[status]).is_empty());
}
