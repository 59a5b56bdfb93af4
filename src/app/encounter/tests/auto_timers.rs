//! Timers the tracker sets itself (issue 31): a crossbow's reload when it is shot, and a
//! continuing spell's round when it takes effect or is renewed; each shown on the status,
//! counted down, ended with a line; a shot while reloading and a renewal out of its round are
//! refused and change nothing.

use super::*;
use crate::app::encounter::state::TimeUnit;

/// A TFT table of Kara (the party's, ST 16) with the DX given and a crossbow, and a Troll NPC
/// (ST 80, DX 8) that outlasts any volley and always acts after her.
fn archer(seed: u64, dx: i32, crossbow: &str) -> Table {
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
    let kara = t.character("Kara", System::Tft, ANN, false, &sheet(16, dx));
    t.character("Troll", System::Tft, GM, true, &sheet(80, 8));
    t.app
        .store
        .write(|tx| characters::add_item(tx, G, kara, "weapon", crossbow, "{}"))
        .unwrap();
    t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Kara")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Troll")]);
    t.ok(GM, &["encounter", "next"], &[]);
    assert_eq!(t.current(), "Kara");
    t
}

/// Next until Kara's turn comes again; returns the Next replies' text on the way.
fn to_karas_turn(t: &Table) -> String {
    let mut said = String::new();
    for _ in 0..4 {
        said.push_str(&t.ok(GM, &["encounter", "next"], &[]).content);
        said.push('\n');
        if t.current() == "Kara" {
            return said;
        }
    }
    panic!("Kara's turn never came: {said}");
}

// `Err` is the refusal as a reply, as `App::run` gives it.
#[allow(clippy::result_large_err)]
fn shoot(t: &Table, crossbow: &str) -> Result<Reply, Reply> {
    t.run(
        ANN,
        &["tft", "attack"],
        &[("target", "Troll 1"), ("weapon", crossbow)],
    )
}

/// tft-rules-summary.md, "MISSILE WEAPONS": a light crossbow fires once in 2 turns, once a turn
/// at adjDX 14 or more; a heavy one once in 3, once in 2 at adjDX 16 or more. Each side of both
/// thresholds: the turns the shot starts (its own included), the refusals while they run, the
/// line that ends them, and the shot after.
#[test]
fn a_crossbow_reloads_for_its_turns_by_adj_dx_and_refuses_to_shoot_meanwhile() {
    // (weapon, DX = adjDX here, turns a shot takes; 1: no reload to wait for)
    let cases = [
        ("light crossbow", 13, 2),
        ("light crossbow", 14, 1),
        ("heavy crossbow", 15, 3),
        ("heavy crossbow", 16, 2),
    ];
    for (i, (crossbow, dx, turns)) in cases.into_iter().enumerate() {
        let t = archer(170 + i as u64, dx, crossbow);
        let table_name = crate::rules::tft::gear::weapon(crossbow).unwrap().name;
        let what = format!("reloading {table_name}");
        let shot = shoot(&t, crossbow).unwrap_or_else(|e| panic!("{}", e.content));
        let case = format!("{crossbow} at adjDX {dx}");
        if turns == 1 {
            assert!(t.state().timed.is_empty(), "{case}");
            assert!(!shot.all_text().contains("reloads"), "{case}");
            continue;
        }
        assert!(
            shot.all_text()
                .contains(&format!("ready to shoot again in {turns} turns")),
            "{case}: {}",
            shot.all_text()
        );
        let s = t.state();
        assert_eq!(s.timed.len(), 1, "{case}");
        assert_eq!(
            (s.timed[0].what.as_str(), s.timed[0].left, s.timed[0].unit),
            (what.as_str(), turns, TimeUnit::Turn),
            "{case}"
        );
        assert!(
            t.status_text()
                .contains(&format!("Kara: {what}, {turns} turns left")),
            "{case}"
        );
        // Another shot in the same turn, and in each turn still to wait, is refused (and a
        // refusal changes nothing); the Next that ends the last of them says it is over.
        for waited in 0..turns {
            let refusal = t.refused(
                ANN,
                &["tft", "attack"],
                &[("target", "Troll 1"), ("weapon", crossbow)],
            );
            // In the shot's own turn the figure has acted already (issue 57: one action a
            // turn), which is refused first; in the turns after, the reload.
            let why = if waited == 0 {
                "has already acted this turn"
            } else {
                "still reloading"
            };
            assert!(refusal.contains(why), "{case}: {refusal}");
            let said = to_karas_turn(&t);
            let over = said.contains(&format!("Kara: {what} is over."));
            assert_eq!(over, waited == turns - 1, "{case}, turn {waited}: {said}");
        }
        assert!(t.state().timed.is_empty(), "{case}");
        let again = shoot(&t, crossbow);
        assert!(again.is_ok(), "{case}: {}", again.unwrap_err().content);
    }
}

/// A caster of Bladeturn (tft-house-rules.txt: 4 ST to cast, 1 ST a turn to keep up).
fn mage(seed: u64) -> Table {
    let t = Table::new(seed);
    let sheet = Sheet::Tft(TftSheet {
        st: 14,
        dx: 17,
        iq: 15,
        spells: vec!["Bladeturn".to_owned()],
        ..TftSheet::default()
    })
    .to_json();
    t.character("Mira", System::Tft, ANN, false, &sheet);
    let troll = Sheet::Tft(TftSheet {
        st: 80,
        dx: 8,
        iq: 8,
        ..TftSheet::default()
    })
    .to_json();
    t.character("Troll", System::Tft, GM, true, &troll);
    t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Mira")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Troll")]);
    t.ok(GM, &["encounter", "next"], &[]);
    t
}

fn fatigue(t: &Table, name: &str) -> i64 {
    let id = t.id(name).unwrap();
    t.app
        .store
        .read(|c| characters::tft_damage(c, G, id))
        .unwrap()
        .1
}

/// Next until a new round begins; the replies' text.
fn to_next_round(t: &Table) -> String {
    let round = t.state().round;
    let mut said = String::new();
    while t.state().round == round {
        said.push_str(&t.ok(GM, &["encounter", "next"], &[]).content);
        said.push('\n');
    }
    said
}

/// tft-rules-summary.md, "RENEW SPELLS": a continuing spell lasts to the end of the round it is
/// cast (or renewed) in; as the next begins it ends unless renewed, for its upkeep and no roll.
#[test]
fn a_continuing_spell_lasts_its_round_and_is_renewed_for_its_upkeep_or_ends() {
    let t = mage(81);
    let renew = [("spell", "Bladeturn"), ("renew", "true")];
    // Not cast yet: nothing to renew.
    assert!(
        t.refused(ANN, &["tftkit", "cast"], &renew)
            .contains("did not lapse")
    );
    let cast = t.ok(ANN, &["tftkit", "cast"], &[("spell", "Bladeturn")]);
    assert!(
        cast.all_text().contains("The spell works"),
        "pick a seed whose cast works: {}",
        cast.all_text()
    );
    assert!(
        cast.all_text()
            .contains("Bladeturn lasts to the end of round 1"),
        "{}",
        cast.all_text()
    );
    let s = t.state();
    assert_eq!(
        (
            s.timed[0].what.as_str(),
            s.timed[0].left,
            s.timed[0].unit,
            s.timed[0].upkeep
        ),
        ("Bladeturn", 1, TimeUnit::Round, Some(1))
    );
    assert!(
        t.status_text()
            .contains("Mira: Bladeturn, 1 round left (kept up: 1 ST a round to renew)")
    );
    // Kept up this round already: renewing is refused, and bad options too.
    assert!(
        t.refused(ANN, &["tftkit", "cast"], &renew)
            .contains("already")
    );
    let mut with_st = renew.to_vec();
    with_st.push(("st", "3"));
    assert!(
        t.refused(ANN, &["tftkit", "cast"], &with_st)
            .contains("takes only")
    );
    // The round ends: the spell lapses, with a line, and may be renewed in this round.
    let said = to_next_round(&t);
    assert!(
        said.contains("Mira: Bladeturn ends unless renewed now (1 ST"),
        "{said}"
    );
    let s = t.state();
    assert!(s.timed.is_empty());
    assert_eq!(s.lapsed.len(), 1);
    assert!(
        t.status_text()
            .contains("lapsed; renewable this round only")
    );
    let before = fatigue(&t, "Mira");
    let renewed = t.ok(ANN, &["tftkit", "cast"], &renew);
    assert!(
        renewed.all_text().contains("Mira renews Bladeturn"),
        "{}",
        renewed.all_text()
    );
    assert_eq!(fatigue(&t, "Mira"), before + 1);
    assert_eq!(t.state().timed[0].upkeep, Some(1));
    assert!(t.state().lapsed.is_empty());
    // Not renewed at the next round's start, it lapses; a round later it is gone for good.
    to_next_round(&t);
    assert_eq!(t.state().lapsed.len(), 1);
    to_next_round(&t);
    assert!(t.state().lapsed.is_empty() && t.state().timed.is_empty());
    assert!(
        t.refused(ANN, &["tftkit", "cast"], &renew)
            .contains("did not lapse")
    );
    assert_eq!(fatigue(&t, "Mira"), before + 1, "refusals paid nothing");
}

/// A caster who falls unconscious keeps no spell up; and a spell the bot has no upkeep for
/// (the house rules off) sets no timer.
#[test]
fn a_caster_down_ends_its_spells_and_without_house_rules_no_upkeep_is_kept() {
    let t = mage(81);
    t.ok(ANN, &["tftkit", "cast"], &[("spell", "Bladeturn")]);
    assert_eq!(t.state().timed.len(), 1);
    // ST 14, 14 hits: unconscious (tft-rules-summary.md, "STRENGTH").
    t.ok(
        GM,
        &["tft", "condition"],
        &[("character", "Mira"), ("hits", "14")],
    );
    t.ok(GM, &["encounter", "next"], &[]);
    let s = t.state();
    assert!(s.timed.is_empty(), "{:?}", s.timed);
    assert!(
        s.events
            .iter()
            .any(|e| e.contains("Bladeturn ends with its caster down")),
        "{:?}",
        s.events
    );

    let t = mage(81);
    t.ok(
        GM,
        &["gm", "rules"],
        &[("name", "tft_house_rules"), ("value", "off")],
    );
    let cast = t.ok(
        ANN,
        &["tftkit", "cast"],
        &[("spell", "Bladeturn"), ("kind", "thrown"), ("st", "4")],
    );
    assert!(
        cast.all_text().contains("The spell works"),
        "{}",
        cast.all_text()
    );
    assert!(t.state().timed.is_empty());
    assert!(
        t.refused(
            ANN,
            &["tftkit", "cast"],
            &[("spell", "Bladeturn"), ("renew", "true")]
        )
        .contains("house rules are off")
    );
}
