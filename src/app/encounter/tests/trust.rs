//! Issue 32 in the tracker: what cannot be done is refused when asked (a second THIZ attack in
//! a turn, a declaration no carried weapon can make, a button pressed twice), every refusal
//! names the real reason, and the Attack button picks the weapon `/attack` and `/tft attack`
//! pick (`app::weapons`).

use super::*;

impl Table {
    fn give(&self, id: CharacterId, kind: &str, name: &str, stats: &str) {
        self.app
            .store
            .write(|tx| characters::add_item(tx, G, id, kind, name, stats))
            .unwrap();
    }
}

/// Presses "next" as the GM until `name` has the turn (at least once).
fn play_to(t: &Table, name: &str) {
    for _ in 0..40 {
        t.ok(GM, &["encounter", "next"], &[]);
        if t.current() == name {
            return;
        }
    }
    panic!("{name} never got the turn");
}

/// A THIZ fight: Alys (a Sword and a Dagger) against an NPC Brute carrying a Club.
fn thiz_brute(seed: u64) -> Table {
    let t = Table::new(seed);
    let alys = t.character("Alys", System::Thiz, ANN, false, "{}");
    t.skill(alys, "Speed", 4);
    t.skill(alys, "Perception", 3);
    t.skill(alys, "Weapon Skill (Sword)", 5);
    t.skill(alys, "Weapon Skill (Dagger)", 4);
    t.skill(alys, "Dual-Wield (Sword, Dagger)", 3);
    t.give(alys, "weapon", "Sword", r#"{"attack_bonus":4}"#);
    t.give(alys, "weapon", "Dagger", r#"{"attack_bonus":2}"#);
    let brute = t.character("Brute", System::Thiz, GM, true, "{}");
    t.skill(brute, "Speed", 2);
    t.skill(brute, "Perception", 1);
    t.skill(brute, "Weapon Skill (Club)", 3);
    t.give(brute, "item", "Rope", "{}");
    t.give(brute, "weapon", "Club", r#"{"attack_bonus":1}"#);
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Alys")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Brute")]);
    t.ok(GM, &["encounter", "next"], &[]);
    t
}

/// thiz-rulebook.md, "Determining Initiative and Initiative Passes" (a turn is one action) and
/// "Two-Weapon Fighting" (one more attack, the second weapon's): the first attack of a turn is
/// made, a second refused (changing nothing), the second weapon's allowed once; the next turn
/// attacks again.
#[test]
fn a_thiz_figure_attacks_once_a_turn_and_a_second_weapon_once_more() {
    let t = thiz_brute(61);
    if t.current() != "Alys" {
        play_to(&t, "Alys");
    }
    let sword = [("target", "Brute 1"), ("weapon", "Sword")];
    t.ok(ANN, &["attack"], &sword);
    let again = t.refused(ANN, &["attack"], &sword);
    assert!(
        again.contains("Alys has already acted this turn"),
        "{again}"
    );
    assert!(again.contains("pair:… second:true"), "{again}");
    let second = [
        ("target", "Brute 1"),
        ("weapon", "Dagger"),
        ("pair", "Sword"),
        ("second", "true"),
    ];
    t.ok(ANN, &["attack"], &second);
    let third = t.refused(ANN, &["attack"], &second);
    assert!(
        third.contains("both attacks of two-weapon fighting"),
        "{third}"
    );
    // Issue 57 (SPEC §3): a GM may override the turn's allowance, and the reply says so.
    let call = t.ok(GM, &["attack"], &sword).all_text();
    assert!(
        call.contains("GM's call: Alys acts again this turn (THIZ gives a turn one attack; this is action 3 of the turn)"),
        "{call}"
    );
    play_to(&t, "Alys");
    t.ok(ANN, &["attack"], &sword);
}

/// Issue 32: an NPC carrying a Club attacks with it when no weapon is named, by `/attack` and
/// by the status message's Attack button alike; `weapon:hands` is bare-handed.
#[test]
fn an_npc_attacks_with_the_club_it_carries_by_command_and_by_button() {
    let t = thiz_brute(62);
    if t.current() != "Brute 1" {
        play_to(&t, "Brute 1");
    }
    let typed = t.ok(GM, &["attack"], &[("target", "Alys")]);
    assert!(
        typed.all_text().contains("Brute 1 attacks Alys with Club"),
        "{}",
        typed.all_text()
    );
    play_to(&t, "Brute 1");
    let help = t.ok(
        GM,
        &["button"],
        &[("id", &format!("enc:attack:{}", t.version()))],
    );
    let hit = &help
        .buttons
        .iter()
        .find(|b| b.label == "Attack Alys")
        .expect("a target button")
        .custom_id;
    let pressed = t.ok(GM, &["button"], &[("id", hit)]);
    assert!(
        pressed
            .all_text()
            .contains("Brute 1 attacks Alys with Club"),
        "{}",
        pressed.all_text()
    );
    play_to(&t, "Brute 1");
    let fists = t.ok(GM, &["attack"], &[("target", "Alys"), ("weapon", "hands")]);
    assert!(
        fists.all_text().contains("attacks Alys bare-handed"),
        "{}",
        fists.all_text()
    );
}

/// A TFT fight: Kara (ST 12, carrying the given weapons) against two NPC orcs.
fn tft_kara(seed: u64, st: i32, weapons: &[&str]) -> Table {
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
    let kara = t.character("Kara", System::Tft, ANN, false, &sheet(st, 16));
    for w in weapons {
        t.give(kara, "weapon", w, "{}");
    }
    t.character("Orc", System::Tft, GM, true, &sheet(12, 11));
    t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Kara")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Orc"), ("count", "2")]);
    t.ok(GM, &["encounter", "next"], &[]);
    assert_eq!(t.current(), "Kara");
    t
}

/// tft-multiple-actions.txt, "Action Segment": each attack among two actions is at ST − 4. A
/// Broadsword (ST 12) cannot be swung by a ST 12 figure at 8, so two actions are refused when
/// declared, changing nothing; at ST 16 (12 left) they are accepted. A carried Dagger (no ST)
/// makes them possible at ST 12; a figure with no weapon fights bare-handed.
#[test]
fn declaring_actions_no_carried_weapon_can_make_is_refused() {
    let heavy = tft_kara(21, 12, &["Broadsword"]);
    let refused = heavy.refused(ANN, &["encounter", "declare"], &[("actions", "2")]);
    assert!(
        refused.contains("Kara cannot attack with 2 actions: each attack would be made at ST 8"),
        "{refused}"
    );
    assert!(refused.contains("Broadsword needs ST 12"), "{refused}");
    assert!(refused.contains("Declare fewer actions"), "{refused}");
    for (st, weapons) in [
        (16, &["Broadsword"][..]),
        (12, &["Broadsword", "Dagger"][..]),
        (12, &[][..]),
    ] {
        let t = tft_kara(21, st, weapons);
        t.ok(ANN, &["encounter", "declare"], &[("actions", "2")]);
    }
}

/// tft-multiple-actions.txt, "Action Penalties", puts a spell among several actions at IQ − 4
/// and one more die, and neither it nor tft-rules-summary.md ("CAST SPELL", the armor table,
/// MANA) ties a caster's actions to what it carries: a figure that knows spells declares two or
/// three actions with a Broadsword it cannot swing at ST − 4, in plate, with or without a staff,
/// as it declares them with nothing; the same figure without spells is refused (above).
#[test]
fn a_caster_declares_actions_whatever_it_carries() {
    for (armor, weapons, mana, actions) in [
        (None, &[][..], 0, "2"),
        (Some("Plate"), &["Broadsword"][..], 0, "2"),
        (Some("Plate"), &["Broadsword", "Quarterstaff"][..], 5, "2"),
        (None, &["Broadsword"][..], 5, "3"),
    ] {
        let t = Table::new(21);
        let kara = t.character(
            "Kara",
            System::Tft,
            ANN,
            false,
            &Sheet::Tft(TftSheet {
                st: 12,
                dx: 40,
                iq: 14,
                spells: vec!["Light".to_owned()],
                armor: armor.map(str::to_owned),
                mana,
                ..TftSheet::default()
            })
            .to_json(),
        );
        for w in weapons {
            t.give(kara, "weapon", w, "{}");
        }
        t.character(
            "Orc",
            System::Tft,
            GM,
            true,
            &Sheet::Tft(TftSheet::default()).to_json(),
        );
        t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
        t.ok(ANN, &["encounter", "add"], &[("character", "Kara")]);
        t.ok(GM, &["encounter", "add"], &[("npc", "Orc")]);
        t.ok(GM, &["encounter", "next"], &[]);
        play_to(&t, "Kara");
        let r = t.ok(ANN, &["encounter", "declare"], &[("actions", actions)]);
        assert!(
            r.content.starts_with("Kara declares"),
            "{armor:?} {weapons:?}: {r:?}"
        );
    }
}

/// Refilling a staff is no action of a turn (tft-rules-summary.md, MANA; a half day of
/// contemplation is hours): a player's figure in the channel's fight refills after it, and the
/// refusal changes nothing; a GM may rule otherwise, and the reply says so.
#[test]
fn a_staff_is_not_refilled_in_the_fight() {
    let t = Table::new(21);
    let kara = t.character(
        "Kara",
        System::Tft,
        ANN,
        false,
        &Sheet::Tft(TftSheet {
            st: 12,
            dx: 16,
            mana: 3,
            mana_spent: 1,
            ..TftSheet::default()
        })
        .to_json(),
    );
    t.character(
        "Orc",
        System::Tft,
        GM,
        true,
        &Sheet::Tft(TftSheet::default()).to_json(),
    );
    t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Kara")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Orc")]);
    for by in ["fatigue", "contemplation"] {
        let r = t.refused(ANN, &["tftkit", "staff"], &[("by", by)]);
        assert!(r.contains("Kara is in the fight here"), "{r}");
    }
    let spent = |t: &Table| {
        let c = t
            .app
            .store
            .read(|c| characters::by_id(c, G, kara))
            .unwrap()
            .unwrap();
        Sheet::of(&c).unwrap().tft().unwrap().mana_spent
    };
    assert_eq!(spent(&t), 1);
    let r = t.ok(
        GM,
        &["tftkit", "staff"],
        &[("character", "Kara"), ("by", "contemplation")],
    );
    assert!(r.all_text().contains("GM's call"), "{r:?}");
    assert_eq!(spent(&t), 0);
}

/// Issue 32: a player's `/tft attack` during an NPC's turn names whose turn it is, not a
/// character the player cannot see; the status footer names TFT's attack command.
#[test]
fn a_player_attacking_on_an_npcs_turn_is_told_whose_turn_it_is() {
    let t = tft_kara(21, 12, &["Dagger"]);
    play_to(&t, "Orc 1");
    let r = t.refused(ANN, &["tft", "attack"], &[("target", "Orc 2")]);
    assert!(
        r.starts_with("It is Orc 1's turn, and Orc 1 is not your figure"),
        "{r}"
    );
    assert!(!r.contains("no character named"), "{r}");
    // On Kara's own turn the default attacker is Kara.
    play_to(&t, "Kara");
    let ok = t.ok(ANN, &["tft", "attack"], &[("target", "Orc 2")]);
    assert!(ok.all_text().contains("Kara attacks Orc 2"));
    let status = t.status_text();
    assert!(
        status.contains("/tft attack defaults to whoever's turn it is"),
        "{status}"
    );
    assert!(!status.contains("· /attack defaults"), "{status}");
}

#[test]
fn the_thiz_status_footer_names_attack() {
    let t = thiz_brute(63);
    assert!(
        t.status_text()
            .contains("· /attack defaults to whoever's turn it is")
    );
}

/// `option:dodge` is TFT's dodging, `defend` in a TFT fight is defending, and `defending` in a
/// THIZ fight is Defend; a word that is none of them is refused with what it was.
#[test]
fn declared_options_read_the_words_players_type() {
    let t = tft_kara(21, 12, &["Dagger"]);
    let r = t.ok(ANN, &["encounter", "declare"], &[("option", "dodge")]);
    assert_eq!(r.content, "Kara declares dodging.");
    let r = t.ok(ANN, &["encounter", "declare"], &[("option", "defend")]);
    assert_eq!(r.content, "Kara declares defending.");
    let bad = t.refused(ANN, &["encounter", "declare"], &[("option", "duck")]);
    assert!(bad.contains("you gave \"duck\""), "{bad}");
    let thiz = thiz_brute(64);
    if thiz.current() != "Alys" {
        play_to(&thiz, "Alys");
    }
    let r = thiz.ok(ANN, &["encounter", "declare"], &[("option", "defending")]);
    assert_eq!(r.content, "Alys declares defend.");
}
