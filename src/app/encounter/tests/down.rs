//! A figure that goes down by any means leaves the order at once (`/wound add`, a hazard, TFT
//! hits or death set by `/tft condition`), is never shown as having taken the turns it lost, and
//! comes back with `/encounter add` once its sheet lets it act.

use super::*;
use crate::app::encounter::loaded::{At, load};

/// The encounter as every command reads it: the sheets' news applied.
fn loaded(t: &Table) -> State {
    t.app
        .store
        .read(|c| -> crate::store::Result<_> {
            Ok(load(
                c,
                At {
                    guild: G,
                    channel: CH,
                },
            ))
        })
        .unwrap()
        .unwrap()
        .expect("an encounter")
        .state
}

/// A THIZ fight of Alys, Bren and two goblins, begun; returns a figure (not the current one)
/// whose every turn in this pass is still to come.
fn thiz_fight(t: &Table) -> (String, CharacterId) {
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    t.ok(GM, &["encounter", "add"], &[("character", "Alys")]);
    t.ok(GM, &["encounter", "add"], &[("character", "Bren")]);
    t.ok(
        GM,
        &["encounter", "add"],
        &[("npc", "Goblin"), ("count", "2")],
    );
    t.ok(GM, &["encounter", "next"], &[]);
    let s = t.state();
    assert_eq!(s.turn, 0);
    let id = s
        .order
        .iter()
        .map(|o| o.figure)
        .find(|&f| f != s.order[0].figure)
        .expect("two figures in the order");
    (s.figure(id).unwrap().name.clone(), id)
}

fn turns_of(s: &State, id: CharacterId) -> Vec<usize> {
    (0..s.order.len())
        .filter(|&i| s.order[i].figure == id)
        .collect()
}

#[test]
fn a_thiz_figure_knocked_out_by_wound_add_leaves_the_order_and_rejoins_when_healed() {
    let t = thiz_table(41);
    let (name, id) = thiz_fight(&t);
    assert!(!turns_of(&t.state(), id).is_empty());
    // thiz-rulebook.md, "Damage": a Black wound to the Chest incapacitates.
    t.ok(
        GM,
        &["wound", "add"],
        &[
            ("character", name.as_str()),
            ("location", "chest"),
            ("level", "black"),
        ],
    );
    // At once, before anyone presses Next: out of the order, its turns gone.
    let s = loaded(&t);
    assert!(s.figure(id).unwrap().down);
    assert!(turns_of(&s, id).is_empty(), "{:?}", s.order);
    let status = t.status_text();
    assert!(status.contains("Out of the order"), "{status}");
    assert!(!status.contains(&format!("• {name} [")), "{status}");
    // Play the pass out: its lost turns are never marked as taken.
    let round = t.state().round;
    while t.state().round == round {
        t.ok(GM, &["encounter", "next"], &[]);
        let status = t.status_text();
        assert!(!status.contains(&format!("✓ {name} [")), "{status}");
        assert!(turns_of(&t.state(), id).is_empty());
    }
    assert!(t.state().figure(id).unwrap().down);
    // Still incapacitated: /encounter add says why and changes nothing.
    let still = t.refused(GM, &["encounter", "add"], &[("character", name.as_str())]);
    assert!(still.contains("heal them first"), "{still}");
    // Healed, it comes back, from the next Initiative Pass (a newcomer's rule).
    t.ok(GM, &["wound", "heal"], &[("character", name.as_str())]);
    let back = t.ok(GM, &["encounter", "add"], &[("character", name.as_str())]);
    assert!(
        back.content.contains("next Initiative Pass"),
        "{}",
        back.content
    );
    let s = t.state();
    let f = s.figure(id).unwrap();
    assert!(!f.down && f.late);
    assert!(t.status_text().contains("joins next pass"));
    // A standing figure is in the encounter already.
    let again = t.refused(GM, &["encounter", "add"], &[("character", name.as_str())]);
    assert!(again.contains("already"), "{again}");
    let round = s.round;
    while t.state().round == round {
        t.ok(GM, &["encounter", "next"], &[]);
    }
    let s = t.state();
    assert!(!s.figure(id).unwrap().late);
    assert!(
        !turns_of(&s, id).is_empty(),
        "back in the order: {:?}",
        s.order
    );
}

#[test]
fn a_thiz_figure_knocked_out_by_a_hazard_leaves_the_order() {
    let t = thiz_table(42);
    let (name, id) = thiz_fight(&t);
    // thiz-rulebook.md, "Suffocation": turns past the breath wound the Chest, and wounds there
    // stack up to Black; a GM repeats it until the figure is down.
    for _ in 0..40 {
        if loaded(&t).figure(id).unwrap().down {
            break;
        }
        t.ok(
            GM,
            &["hazard", "suffocation"],
            &[("character", name.as_str()), ("turn", "200")],
        );
    }
    let s = loaded(&t);
    assert!(s.figure(id).unwrap().down, "never went down");
    assert!(turns_of(&s, id).is_empty());
    t.ok(GM, &["encounter", "next"], &[]);
    let s = t.state();
    assert!(s.figure(id).unwrap().down);
    assert!(turns_of(&s, id).is_empty());
    assert!(
        s.events
            .iter()
            .any(|e| e.contains(&name) && e.contains("down"))
    );
}

#[test]
fn tft_hits_and_death_set_by_a_gm_take_a_figure_out_and_healing_brings_it_back() {
    let t = tft_table(43);
    t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
    t.ok(GM, &["encounter", "add"], &[("character", "Kara")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Orc"), ("count", "2")]);
    t.ok(GM, &["encounter", "next"], &[]);
    assert_eq!(t.current(), "Kara");
    let orc2 = t.id("Orc 2").unwrap();
    // ST 12 less 14 hits: below zero, out (tft-rules-summary.md, "ST Damage").
    t.ok(
        GM,
        &["tft", "condition"],
        &[("character", "Orc 2"), ("hits", "14")],
    );
    let s = loaded(&t);
    assert!(s.figure(orc2).unwrap().down);
    let status = t.status_text();
    assert!(!status.contains("• Orc 2 ["), "{status}");
    assert!(status.contains("Out of the order"), "{status}");
    t.ok(GM, &["encounter", "next"], &[]);
    assert_eq!(t.current(), "Orc 1");
    let still = t.refused(GM, &["encounter", "add"], &[("character", "Orc 2")]);
    assert!(still.contains("heal them first"), "{still}");
    // Hits taken back: Orc 2 has not acted this round, so it acts in it.
    t.ok(
        GM,
        &["tft", "condition"],
        &[("character", "Orc 2"), ("hits", "0")],
    );
    let back = t.ok(GM, &["encounter", "add"], &[("character", "Orc 2")]);
    assert!(back.content.contains("this round"), "{}", back.content);
    assert!(!t.state().figure(orc2).unwrap().down);
    t.ok(GM, &["encounter", "next"], &[]);
    assert_eq!(t.current(), "Orc 2");
    // Dead by the GM's word: out at once.
    t.ok(
        GM,
        &["tft", "condition"],
        &[("character", "Kara"), ("dead", "true")],
    );
    let kara = t.id("Kara").unwrap();
    assert!(loaded(&t).figure(kara).unwrap().down);
}
