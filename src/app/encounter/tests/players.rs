//! A player's attacks on the encounter's NPCs (their numbers hidden from the player, full in
//! the GM's copy), the dying checks offered when a figure goes down, the status message's
//! "Attack" button and its target buttons.

use super::*;

/// What the player (and the channel) read of a reply: everything but the GM's copy.
fn player_view(r: &Reply) -> String {
    let mut r = r.clone();
    r.gm_copy = None;
    r.all_text()
}

fn gm_view(r: &Reply) -> String {
    r.gm_copy.as_ref().expect("a GM copy").all_text()
}

/// Presses "next" as the GM until `name` has the turn.
pub(super) fn turn_of(t: &Table, name: &str) {
    for _ in 0..40 {
        if t.state().current().is_some_and(|f| f.name == name) {
            return;
        }
        t.ok(GM, &["encounter", "next"], &[]);
    }
    panic!("{name} never got the turn");
}

/// Ends the current turn and plays on (as the GM) to `name`'s next one: THIZ gives a turn
/// one attack.
fn next_turn_of(t: &Table, name: &str) {
    t.ok(GM, &["encounter", "next"], &[]);
    turn_of(t, name);
}

/// A THIZ fight of Alys and a goblin whose sheet carries sentinel numbers.
fn thiz_goblin(seed: u64) -> Table {
    let t = Table::new(seed);
    let alys = t.character("Alys", System::Thiz, ANN, false, "{}");
    t.skill(alys, "Speed", 4);
    t.skill(alys, "Perception", 3);
    t.skill(alys, "Unarmed Combat", 9);
    t.skill(alys, "Strength", 9);
    let goblin = t.character("Goblin", System::Thiz, GM, true, "{}");
    t.skill(goblin, "Speed", 3);
    t.skill(goblin, "Perception", 1);
    t.skill(goblin, "Toughness", 17);
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Alys")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Goblin")]);
    t.ok(GM, &["encounter", "next"], &[]);
    turn_of(&t, "Alys");
    t
}

#[test]
fn a_player_attacks_an_npc_of_the_encounter_without_seeing_its_numbers() {
    let t = thiz_goblin(31);
    // Outside the encounter an NPC is invisible to a player: the same answer as no one.
    let unknown = t.refused(ANN, &["attack"], &[("target", "Nobody")]);
    let goblin_sheet = t.refused(ANN, &["attack"], &[("target", "Goblin")]);
    assert_eq!(
        unknown.replace("Nobody", "X"),
        goblin_sheet.replace("Goblin", "X")
    );
    let mut hits = 0;
    for _ in 0..6 {
        let r = t.ok(ANN, &["attack"], &[("target", "Goblin 1")]);
        let seen = player_view(&r);
        assert!(seen.contains("Alys attacks Goblin 1"), "{seen}");
        // The goblin's Speed 3 and Toughness 17 are the GM's.
        assert!(!seen.contains("Speed 3"), "{seen}");
        assert!(!seen.contains("rating 17"), "{seen}");
        assert!(!seen.contains("luck:toughness"), "{seen}");
        let gm = gm_view(&r);
        assert!(gm.contains("Speed 3"), "{gm}");
        assert!(gm.contains("Alys attacks Goblin 1"));
        if seen.contains("**Hit**") {
            hits += 1;
            assert!(gm.contains("rating 17") || gm.contains("shrugged"), "{gm}");
        }
        if t.state().figures.iter().any(|f| f.down) {
            break;
        }
        next_turn_of(&t, "Alys");
    }
    assert!(hits > 0, "no hit in six tries");
    // The GM's own attack shows everything, as before.
    next_turn_of(&t, "Alys");
    let gm = t.ok(
        GM,
        &["attack"],
        &[("attacker", "Alys"), ("target", "Goblin 1")],
    );
    assert!(
        player_view(&gm).contains("− (Speed"),
        "{}",
        player_view(&gm)
    );
    assert!(gm.gm_copy.is_none());
}

#[test]
fn a_private_or_blind_attack_on_an_npc_keeps_the_numbers_with_the_gm() {
    let t = thiz_goblin(32);
    let private = t.ok(
        ANN,
        &["attack"],
        &[("target", "Goblin 1"), ("mode", "private")],
    );
    assert_eq!(private.visibility, Visibility::Ephemeral);
    assert!(!player_view(&private).contains("Speed 3"));
    assert!(gm_view(&private).contains("Speed 3"));
    next_turn_of(&t, "Alys");
    let blind = t.ok(
        ANN,
        &["attack"],
        &[("target", "Goblin 1"), ("mode", "blind")],
    );
    assert!(player_view(&blind).contains("blind"));
    assert!(!player_view(&blind).contains("Goblin 1 is"));
    assert!(gm_view(&blind).contains("Speed 3"));
}

#[test]
fn a_dying_thiz_figure_is_offered_its_dying_check_in_the_status() {
    let t = thiz_goblin(33);
    let g = t.id("Goblin 1").unwrap();
    // A Black wound to the Head leaves the goblin dying (thiz-rulebook.md, "Damage").
    t.app
        .store
        .write(|tx| {
            characters::set_wounds(
                tx,
                G,
                g,
                &[WoundRow {
                    location: "head".into(),
                    level: "black".into(),
                    count: 1,
                }],
            )
        })
        .unwrap();
    let status = t.app.encounter_status(G, CH).unwrap().unwrap().reply;
    assert!(
        status
            .buttons
            .iter()
            .any(|b| b.custom_id == format!("dying:{}", g.0) && b.label.contains("Goblin 1")),
        "{:?}",
        status.buttons
    );
    // The button rolls the dying check: a GM's, for an NPC.
    let rolled = t.ok(GM, &["button"], &[("id", &format!("dying:{}", g.0))]);
    assert!(
        rolled.all_text().contains("Goblin 1"),
        "{}",
        rolled.all_text()
    );
}

#[test]
fn the_attack_button_offers_the_targets_and_a_target_button_rolls_the_attack() {
    let t = thiz_goblin(34);
    let v = t.version();
    // Not the presser's turn: refused.
    let bob = t.refused(BOB, &["button"], &[("id", &format!("enc:attack:{v}"))]);
    assert!(bob.contains("turn"), "{bob}");
    let help = t.ok(ANN, &["button"], &[("id", &format!("enc:attack:{v}"))]);
    assert_eq!(help.visibility, Visibility::Ephemeral);
    let alys = t.id("Alys").unwrap();
    let g = t.id("Goblin 1").unwrap();
    // The button carries the turn count and Alys's attacks so far this turn (none).
    let id = format!("enc:hit:{}:{}:{}:0", alys.0, g.0, t.state().turns);
    assert!(
        help.buttons.iter().any(|b| b.custom_id == id),
        "{:?}",
        help.buttons
    );
    // Only the other side is offered.
    assert!(!help.buttons.iter().any(|b| b.label.contains("Alys")));
    let r = t.ok(ANN, &["button"], &[("id", &id)]);
    let seen = player_view(&r);
    assert!(seen.contains("Alys attacks Goblin 1"), "{seen}");
    assert!(!seen.contains("Speed 3"));
    // Issue 32: a button acts once. The same press again is refused with why, changing nothing.
    let twice = t.refused(ANN, &["button"], &[("id", &id)]);
    assert!(
        twice.contains("Alys has attacked since that button was shown"),
        "{twice}"
    );
    // A button made before buttons carried the turn is refused, with the fix.
    let old = format!("enc:hit:{}:{}", alys.0, g.0);
    assert!(
        t.refused(ANN, &["button"], &[("id", &old)])
            .contains("press Attack on the status message")
    );
    // Once the turn moves on, the old target button is refused and changes nothing.
    t.ok(GM, &["encounter", "next"], &[]);
    if t.current() != "Alys" {
        assert!(
            t.refused(ANN, &["button"], &[("id", &id)])
                .contains("moved on")
        );
    }
    // A malformed one is refused plainly.
    assert!(
        t.refused(ANN, &["button"], &[("id", "enc:hit:x:1")])
            .contains("not one of")
    );
}

/// A TFT fight of Kara and an orc whose sheet carries sentinel numbers (ST 27, DX 7, plate).
fn tft_orc(seed: u64, orc_st: i32, armor: Option<&str>) -> Table {
    let t = Table::new(seed);
    let sheet = |st: i32, dx: i32, armor: Option<&str>| {
        Sheet::Tft(TftSheet {
            st,
            dx,
            iq: 10,
            armor: armor.map(str::to_owned),
            ..TftSheet::default()
        })
        .to_json()
    };
    t.character("Kara", System::Tft, ANN, false, &sheet(16, 16, None));
    t.character("Orc", System::Tft, GM, true, &sheet(orc_st, 7, armor));
    t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Kara")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Orc")]);
    t.ok(GM, &["encounter", "next"], &[]);
    assert_eq!(t.current(), "Kara");
    t
}

#[test]
fn a_player_attacks_a_tft_npc_without_seeing_its_st_or_armor() {
    let t = tft_orc(41, 27, Some("plate"));
    let r = t.ok(
        ANN,
        &["tft", "attack"],
        &[("target", "Orc 1"), ("weapon", "hands")],
    );
    let seen = player_view(&r);
    assert!(seen.contains("Kara attacks Orc 1"), "{seen}");
    // Issue 57: the hits beside the blow's total would give the armour away: a player reads
    // only whether the blow got through, with no number.
    if let Some(hits) = r
        .embeds
        .iter()
        .flat_map(|e| &e.fields)
        .find(|f| f.name == "Hits")
    {
        assert!(
            !hits.value.chars().any(|c| c.is_ascii_digit()),
            "{}",
            hits.value
        );
        assert!(hits.value.contains("the blow"), "{}", hits.value);
    }
    assert!(!seen.contains("ST 27"), "{seen}");
    assert!(!seen.contains("Stops"), "{seen}");
    assert!(!seen.contains("Before armor"), "{seen}");
    let gm = gm_view(&r);
    assert!(gm.contains("Kara attacks Orc 1"));
    if gm.contains("Before armor") {
        assert!(gm.contains("ST 27"), "{gm}");
    }
}

#[test]
fn a_tft_figure_below_zero_st_is_offered_its_dying_roll() {
    // An unarmored orc of ST 1: a blow of 2 hits or more leaves it below 0 ST.
    for seed in 50..70 {
        let t = tft_orc(seed, 1, None);
        let orc = t.id("Orc 1").unwrap();
        let r = t.ok(
            ANN,
            &["tft", "attack"],
            &[("target", "Orc 1"), ("weapon", "hands")],
        );
        let hits = t
            .app
            .store
            .read(|c| characters::tft_damage(c, G, orc))
            .unwrap()
            .0;
        if hits < 2 {
            continue;
        }
        // tft-rules-summary.md, "Injury": below 0 ST a figure rolls to live.
        let id = format!("enc:dying:{}", orc.0);
        // The NPC's dying roll is the GM's: its button is on the status message, not on the
        // player's reply (issue 31).
        assert!(
            !r.buttons.iter().any(|b| b.custom_id == id),
            "{:?}",
            r.buttons
        );
        assert!(player_view(&r).contains("Dying"));
        let status = t.app.encounter_status(G, CH).unwrap().unwrap().reply;
        assert!(status.buttons.iter().any(|b| b.custom_id == id));
        // The player cannot roll the NPC's; the GM can.
        assert!(t.refused(ANN, &["button"], &[("id", &id)]).contains("GM"));
        let rolled = t.ok(GM, &["button"], &[("id", &id)]);
        assert!(rolled.all_text().contains("Orc 1"), "{}", rolled.all_text());
        return;
    }
    panic!("no seed left the orc below 0 ST");
}

#[test]
fn target_suggestions_put_the_encounters_figures_first() {
    let t = thiz_goblin(35);
    let names = crate::app::encounter::suggest_targets(&t.app, &caller(ANN), CH, "gob");
    assert_eq!(names.first().map(String::as_str), Some("Goblin 1"));
    // The NPC sheet itself is not in the encounter and stays hidden from the player.
    assert!(!names.iter().any(|n| n == "Goblin"));
    let elsewhere = crate::app::encounter::suggest_targets(&t.app, &caller(ANN), CH + 1, "gob");
    assert!(elsewhere.is_empty());
    // Issue 59: a list of targets completes its last name, after those typed, not offered again.
    t.ok(GM, &["encounter", "add"], &[("npc", "Goblin")]);
    let more = crate::app::encounter::suggest_targets(&t.app, &caller(ANN), CH, "Goblin 1, gob");
    assert!(more.contains(&"Goblin 1, Goblin 2".to_owned()), "{more:?}");
    assert!(more.iter().all(|n| n.starts_with("Goblin 1, ")), "{more:?}");
    assert!(!more.contains(&"Goblin 1, Goblin 1".to_owned()), "{more:?}");
}

/// A TFT wizard in a fight: the movement boost in hexes, and a spell among several actions.
fn tft_wizard(seed: u64) -> Table {
    let t = Table::new(seed);
    let sheet = Sheet::Tft(TftSheet {
        st: 16,
        dx: 28,
        iq: 12,
        ma: Some(12),
        spells: vec!["Complex Image".to_owned()],
        ..TftSheet::default()
    })
    .to_json();
    t.character("Kara", System::Tft, ANN, false, &sheet);
    let orc = Sheet::Tft(TftSheet {
        st: 12,
        dx: 8,
        iq: 8,
        ..TftSheet::default()
    })
    .to_json();
    t.character("Orc", System::Tft, GM, true, &orc);
    t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Kara")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Orc")]);
    t.ok(GM, &["encounter", "next"], &[]);
    assert_eq!(t.current(), "Kara");
    t
}

#[test]
fn the_movement_boost_is_shown_in_hexes() {
    let t = tft_wizard(61);
    // tft-multiple-actions.txt: the boost is MA/3 rounded: 12 / 3 = 4 hexes. adjDX 28 beats
    // any initiative sum (at most 12) by the 18 two actions and the boost need.
    let r = t.ok(
        ANN,
        &["encounter", "declare"],
        &[("actions", "1"), ("boost", "true")],
    );
    assert!(r.content.contains("+4 hexes"), "{}", r.content);
    assert!(t.status_text().contains("1 action + move"));
}

#[test]
fn a_spell_among_several_actions_costs_iq_and_dice_and_counts_as_an_action() {
    let t = tft_wizard(62);
    // One action: IQ 12 casts Complex Image (IQ 10), on the plain 3 dice.
    let one = t.ok(ANN, &["tftkit", "cast"], &[("spell", "Complex Image")]);
    assert!(one.all_text().contains("3d:"), "{}", one.all_text());
    assert!(!one.all_text().contains("multiple actions"));
    // Two actions (x1): 4 IQ less, 12 - 4 = 8 < 10, so the spell is out of reach
    // (tft-multiple-actions.txt, "Action Segment").
    t.ok(ANN, &["encounter", "declare"], &[("actions", "2")]);
    let refused = t.refused(ANN, &["tftkit", "cast"], &[("spell", "Complex Image")]);
    assert!(refused.contains("cannot cast"), "{refused}");
    // The first cast counted as one of the turn's actions: of the two declared, one attack is
    // left, and the next is refused.
    let s = t.state();
    assert_eq!(s.figure(t.id("Kara").unwrap()).unwrap().rolls_this_turn, 1);
    t.ok(
        GM,
        &["tft", "attack"],
        &[("target", "Orc 1"), ("weapon", "hands")],
    );
    assert!(
        t.refused(
            ANN,
            &["tft", "attack"],
            &[("target", "Orc 1"), ("weapon", "hands")]
        )
        .contains("taken them all")
    );
}

#[test]
fn a_spell_with_enough_iq_takes_the_multiple_actions_dice() {
    let t = tft_wizard(63);
    t.ok(ANN, &["encounter", "declare"], &[("actions", "2")]);
    // Raise IQ to 14: 14 - 4 = 10 casts Complex Image, on one more die.
    t.ok(
        ANN,
        &["character", "set"],
        &[("name", "Kara"), ("field", "iq"), ("value", "14")],
    );
    let r = t.ok(ANN, &["tftkit", "cast"], &[("spell", "Complex Image")]);
    assert!(
        r.all_text().contains("multiple actions ×1"),
        "{}",
        r.all_text()
    );
    assert!(r.all_text().contains("on 4 dice"), "{}", r.all_text());
    // Issue 60: the roll shows the four dice rolled, not three.
    let roll = r.embeds[0]
        .fields
        .iter()
        .find(|f| f.name == "Roll")
        .map(|f| f.value.clone())
        .unwrap_or_default();
    assert!(roll.starts_with("4d: "), "{roll}");
    let (dice, total) = roll["4d: ".len()..].split_once(" = ").unwrap();
    assert_eq!(dice.split(" + ").count(), 4, "{roll}");
    assert!(total.parse::<u32>().is_ok(), "{roll}");
}

#[test]
fn a_gm_moves_a_figures_next_turn_in_the_thiz_order() {
    let t = thiz_table(71);
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Alys")]);
    t.ok(BOB, &["encounter", "add"], &[("character", "Bren")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Goblin")]);
    // Before the fight there is no order to change.
    assert!(
        t.refused(
            GM,
            &["encounter", "move"],
            &[("figure", "Alys"), ("position", "1")]
        )
        .contains("begins")
    );
    t.ok(GM, &["encounter", "next"], &[]);
    let s = t.state();
    let alys = t.id("Alys").unwrap();
    let last = s.order.len();
    // Only a GM reorders.
    assert!(
        t.refused(
            ANN,
            &["encounter", "move"],
            &[("figure", "Alys"), ("position", "2")]
        )
        .contains("only a GM")
    );
    // The turn under way (place 1) cannot be taken over.
    assert!(
        t.refused(
            GM,
            &["encounter", "move"],
            &[("figure", "Alys"), ("position", "1")]
        )
        .contains("taken already")
    );
    // The goblin's Speed + Perception 24 puts it first.
    assert_ne!(s.order[0].figure, alys);
    // Alys's next turn to place 2 (right after the current one): the rest keep their order.
    t.ok(
        GM,
        &["encounter", "move"],
        &[("figure", "Alys"), ("position", "2")],
    );
    let moved = t.state();
    assert_eq!(moved.order[1].figure, alys);
    assert_eq!(moved.order.len(), last);
    let mut rest: Vec<_> = s.order.clone();
    let from = rest.iter().skip(1).position(|o| o.figure == alys).unwrap() + 1;
    let slot = rest.remove(from);
    rest.insert(1, slot);
    assert_eq!(moved.order, rest);
    // A place past the end means last.
    t.ok(
        GM,
        &["encounter", "move"],
        &[("figure", "Alys"), ("position", "200")],
    );
    assert_eq!(t.state().order.last().unwrap().figure, alys);
    assert!(t.status_text().contains("moves to place"));
    // An unknown figure is refused plainly.
    assert!(
        t.refused(
            GM,
            &["encounter", "move"],
            &[("figure", "Nobody"), ("position", "2")]
        )
        .contains("not in this encounter")
    );
}

#[test]
fn disbelieving_among_several_actions_rolls_two_more_dice_and_counts_as_an_action() {
    // tft-multiple-actions.txt: "a 3/IQ disbelieve becomes 5/IQ" with two actions (x1).
    let t = tft_wizard(64);
    let one = t.ok(ANN, &["tftkit", "check"], &[("check", "disbelieve")]);
    assert!(
        one.all_text().contains("3d against IQ"),
        "{}",
        one.all_text()
    );
    assert!(!one.all_text().contains("multiple actions"));
    t.ok(GM, &["encounter", "next"], &[]);
    t.ok(GM, &["encounter", "next"], &[]);
    assert_eq!(t.current(), "Kara", "Kara's turn again, next round");
    t.ok(ANN, &["encounter", "declare"], &[("actions", "2")]);
    let two = t.ok(ANN, &["tftkit", "check"], &[("check", "disbelieve")]);
    assert!(
        two.all_text().contains("5d against IQ"),
        "{}",
        two.all_text()
    );
    assert!(two.all_text().contains("+2 dice"), "{}", two.all_text());
    let s = t.state();
    assert_eq!(s.figure(t.id("Kara").unwrap()).unwrap().rolls_this_turn, 1);
    // A second disbelieve is the second action; a third is refused.
    t.ok(ANN, &["tftkit", "check"], &[("check", "disbelieve")]);
    let refused = t.refused(ANN, &["tftkit", "check"], &[("check", "disbelieve")]);
    assert!(refused.contains("taken them all"), "{refused}");
}
