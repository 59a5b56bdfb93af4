//! Issue 57 in the tracker: buttons act only on the fight they were made for (ids of ended
//! things are never reused, End asks first), one action a turn in TFT as in THIZ, effects that
//! bind, and a Defend that reads as the target's number, never the attacker's modifier.

use super::players::turn_of;
use super::*;

/// The buttons the status message carries now.
fn status_buttons(t: &Table) -> Vec<String> {
    t.app
        .encounter_status(G, CH)
        .unwrap()
        .map(|s| {
            s.reply
                .buttons
                .iter()
                .map(|b| b.custom_id.clone())
                .collect()
        })
        .unwrap_or_default()
}

/// What a press may change: the encounter row and every character's wounds, hits and condition.
fn snapshot(t: &Table) -> String {
    let sheets = t
        .app
        .store
        .read(|c| -> crate::store::Result<Vec<String>> {
            let mut out = Vec::new();
            for ch in characters::all(c, G)? {
                out.push(format!(
                    "{} {:?} {:?} {:?}",
                    ch.name,
                    characters::wounds(c, G, ch.id)?,
                    characters::tft_damage(c, G, ch.id)?,
                    crate::store::conditions::get(c, G, ch.id)?
                ));
            }
            Ok(out)
        })
        .unwrap();
    format!("{:?} {sheets:?}", t.row())
}

/// One fight of `system` in the channel: Alys (or Kara) against two NPC copies, begun, with
/// the player's figure having attacked once (so the hit buttons and dying buttons exist).
fn fight(t: &Table, system: System) -> (CharacterId, CharacterId) {
    let (me, npc, attack): (&str, &str, &[&str]) = match system {
        System::Thiz => ("Alys", "Goblin", &["attack"]),
        System::Tft => ("Kara", "Orc", &["tft", "attack"]),
    };
    let start = match system {
        System::Thiz => [("surprise", "none")],
        System::Tft => [("system", "tft")],
    };
    t.ok(GM, &["encounter", "start"], &start);
    t.ok(ANN, &["encounter", "add"], &[("character", me)]);
    t.ok(GM, &["encounter", "add"], &[("npc", npc), ("count", "2")]);
    t.ok(GM, &["encounter", "next"], &[]);
    let first = t.id(&format!("{npc} 1")).unwrap();
    let second = t.id(&format!("{npc} 2")).unwrap();
    turn_of(t, me);
    let _ = t.run(ANN, attack, &[("target", &format!("{npc} 1"))]);
    (first, second)
}

/// The replay the issue asks for: every button an ended fight showed (the status message's
/// next, undo, end and its confirmations, attack help, the target buttons, the dying checks of
/// both systems for its NPC copies), pressed by the GM in a new fight of the same channel, is
/// refused and changes nothing; the new fight's NPC copies have ids of their own.
#[test]
fn the_buttons_of_an_ended_fight_do_nothing_in_the_next() {
    for system in [System::Thiz, System::Tft] {
        let t = match system {
            System::Thiz => thiz_table(57),
            System::Tft => tft_table(57),
        };
        let (old1, old2) = fight(&t, system);
        let version = t.version();
        let turns = t.state().turns;
        let me = t.state().current().unwrap().id;
        let mut old: Vec<String> = status_buttons(&t);
        for v in 1..=version {
            for action in [
                "next",
                "undo",
                "end",
                "end-yes",
                "end-keep",
                "attack",
                "first-party",
            ] {
                old.push(format!("enc:{action}:{v}"));
            }
        }
        for id in [old1, old2] {
            old.push(format!("enc:dying:{}", id.0));
            old.push(format!("dying:{}", id.0));
            for rolls in 0..3 {
                old.push(format!("enc:hit:{}:{}:{turns}:{rolls}", me.0, id.0));
            }
        }
        t.ok(GM, &["encounter", "end"], &[]);
        assert!(t.id("Goblin 1").is_none() && t.id("Orc 1").is_none());

        let (new1, new2) = fight(&t, system);
        assert!(
            new1 > old2 && new2 > old2,
            "{system:?}: the new copies take new ids ({new1:?}, {new2:?} after {old1:?}, {old2:?})"
        );
        assert!(t.version() > version, "{system:?}: versions only rise");
        // Make the new copies dying, so a dying button would have something to act on.
        for id in [new1, new2] {
            t.app
                .store
                .write(|tx| crate::store::conditions::set(tx, G, id, Some("dying")))
                .unwrap();
        }
        let before = snapshot(&t);
        for id in &old {
            let pressed = t.run(GM, &["button"], &[("id", id)]);
            let refusal = pressed
                .err()
                .unwrap_or_else(|| panic!("{system:?}: the old button {id} was accepted"));
            assert_eq!(refusal.visibility, Visibility::Ephemeral, "{id}");
            assert_eq!(snapshot(&t), before, "{system:?}: {id} changed something");
        }
    }
}

/// Issue 57: the status message's End asks the GM first (what ending does, two buttons that
/// name the version it was pressed at); a confirmation from before the fight moved on is
/// refused; a current one ends it, deleting the NPC copies (or keeping them), and the end
/// keeps the fight's last events. A player cannot press it.
#[test]
fn end_asks_first_and_its_confirmation_acts_only_on_the_fight_it_was_asked_for() {
    let t = thiz_table(58);
    fight(&t, System::Thiz);
    let v = t.version();
    assert!(status_buttons(&t).contains(&format!("enc:end:{v}")));
    assert!(
        t.refused(ANN, &["button"], &[("id", &format!("enc:end:{v}"))])
            .contains("GM")
    );
    let asked = t.ok(GM, &["button"], &[("id", &format!("enc:end:{v}"))]);
    assert_eq!(asked.visibility, Visibility::Ephemeral);
    assert!(asked.content.contains("cannot be undone"), "{asked:?}");
    assert!(asked.content.contains("2 NPC copies"), "{asked:?}");
    let ids: Vec<&str> = asked.buttons.iter().map(|b| b.custom_id.as_str()).collect();
    let yes = format!("enc:end-yes:{v}");
    assert_eq!(ids, [yes.as_str(), &format!("enc:end-keep:{v}")]);
    assert_eq!(t.version(), v, "asking changes nothing");
    // The fight moves on: the confirmation is stale now.
    t.ok(GM, &["encounter", "next"], &[]);
    let stale = t.refused(GM, &["button"], &[("id", &yes)]);
    assert!(stale.contains("earlier status"), "{stale}");
    assert!(t.id("Goblin 1").is_some());
    // Asked again at the current version, and confirmed.
    let v = t.version();
    t.ok(GM, &["button"], &[("id", &format!("enc:end:{v}"))]);
    let ended = t.ok(GM, &["button"], &[("id", &format!("enc:end-yes:{v}"))]);
    assert!(ended.content.contains("The encounter is over"), "{ended:?}");
    assert!(ended.content.contains("Last in the fight"), "{ended:?}");
    assert!(t.id("Goblin 1").is_none(), "the copies are deleted");
    // A second press of the same confirmation finds no fight.
    assert!(
        t.run(GM, &["button"], &[("id", &format!("enc:end-yes:{v}"))])
            .is_err()
    );

    // "End, keep the copies" keeps them.
    let t = thiz_table(59);
    fight(&t, System::Thiz);
    let v = t.version();
    t.ok(GM, &["button"], &[("id", &format!("enc:end-keep:{v}"))]);
    assert!(t.id("Goblin 1").is_some());
    let row = t.app.store.read(|c| encounters::get(c, G, CH)).unwrap();
    assert!(row.is_some_and(|r| r.ended));
}

/// tft-rules-summary.md (each figure takes one action in its turn) and tft-multiple-actions.txt
/// (more only as declared): a player's second attack in Kara's turn is refused and changes
/// nothing, and so is a spell or another action after it; the GM's goes ahead and says it was
/// the GM's call. The next turn attacks again.
#[test]
fn a_tft_figure_acts_once_a_turn_unless_it_declared_more() {
    let t = tft_table(60);
    t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Kara")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Orc"), ("count", "2")]);
    t.ok(GM, &["encounter", "next"], &[]);
    turn_of(&t, "Kara");
    #[allow(clippy::result_large_err)] // the refusal as a reply, as `App::run` gives it
    let run = |user: u64, target: &str| {
        t.run(
            user,
            &["tft", "attack"],
            &[("target", target), ("weapon", "hands")],
        )
    };
    assert!(run(ANN, "Orc 1").is_ok());
    for target in ["Orc 1", "Orc 2"] {
        let before = t.row();
        let refusal = run(ANN, target).expect_err("a second attack in the turn");
        assert!(
            refusal.content.contains("Kara has already acted this turn")
                && refusal.content.contains("one action a turn"),
            "{}",
            refusal.content
        );
        assert_eq!(t.row(), before);
    }
    // Nor may she try to close to hand-to-hand after it.
    let hth = t
        .run(ANN, &["tft", "hth"], &[("character", "Kara")])
        .expect_err("an HTH entry after the attack");
    assert!(
        hth.content.contains("Kara has already acted this turn"),
        "{}",
        hth.content
    );
    // A GM may override, and the reply says so.
    let call = run(GM, "Orc 2").expect("the GM's call").all_text();
    assert!(
        call.contains("GM's call: Kara acts again this turn (TFT gives a figure one action a turn; this is action 2 of the turn)"),
        "{call}"
    );
    // Kara's next turn: one attack again.
    t.ok(GM, &["encounter", "next"], &[]);
    turn_of(&t, "Kara");
    assert!(run(ANN, "Orc 1").is_ok());
    assert!(run(ANN, "Orc 1").is_err());
}

/// thiz-rulebook.md, chapter 9 "Falls" ("Stunned characters may take no actions") and
/// tft-rules-summary.md, "STAND UP" (a figure knocked down stands up before attacking): a
/// figure under such a timed effect is refused its attack with the effect and the turns left;
/// with the effect counted off (count:0) it attacks; a GM's attack goes ahead and says so.
#[test]
fn a_stunned_or_knocked_down_figure_is_refused_its_attack() {
    for (system, what) in [(System::Thiz, "stunned"), (System::Tft, "knocked down")] {
        let t = match system {
            System::Thiz => thiz_table(61),
            System::Tft => tft_table(61),
        };
        let (me, npc, attack): (&str, &str, &[&str]) = match system {
            System::Thiz => ("Alys", "Goblin 1", &["attack"]),
            System::Tft => ("Kara", "Orc 1", &["tft", "attack"]),
        };
        let start = match system {
            System::Thiz => [("surprise", "none")],
            System::Tft => [("system", "tft")],
        };
        t.ok(GM, &["encounter", "start"], &start);
        t.ok(ANN, &["encounter", "add"], &[("character", me)]);
        t.ok(
            GM,
            &["encounter", "add"],
            &[("npc", npc.trim_end_matches(" 1"))],
        );
        t.ok(GM, &["encounter", "next"], &[]);
        turn_of(&t, me);
        t.ok(
            GM,
            &["encounter", "timer"],
            &[("figure", me), ("what", what), ("count", "2")],
        );
        let refusal = t.refused(ANN, attack, &[("target", npc)]);
        assert!(
            refusal.contains(&format!("{me} is {what} for 2 turns more")),
            "{system:?}: {refusal}"
        );
        let call = t.ok(GM, attack, &[("target", npc)]).all_text();
        assert!(
            call.contains(&format!("GM's call: {me} is {what}")),
            "{system:?}: {call}"
        );
        // Taken off (THIZ: by the GM; TFT: by standing up, which ends the count), the figure
        // acts again on its next turn: this one's action is spent.
        if system == System::Thiz {
            t.ok(
                GM,
                &["encounter", "timer"],
                &[("figure", me), ("what", what), ("count", "0")],
            );
        } else {
            let stood = t
                .ok(ANN, &["tft", "stand"], &[("character", me)])
                .all_text();
            assert!(stood.contains("Kara: knocked down is over"), "{stood}");
            assert!(t.state().timed.is_empty());
        }
        t.ok(GM, &["encounter", "next"], &[]);
        turn_of(&t, me);
        assert!(t.run(ANN, attack, &[("target", npc)]).is_ok(), "{system:?}");
    }
}

/// Issue 57, item 1: a player's attack on an NPC that declared Defend. The NPC's weapon skill
/// (the sentinel 7) is its number: the channel reads the player's typed modifier as typed
/// (-1), never the sum with the Defend (-8), and the Defend itself as hidden; the GM's copy
/// has it.
#[test]
fn a_defend_shows_the_channel_no_npc_number_and_no_modifier_that_carries_one() {
    let t = Table::new(62);
    let alys = t.character("Alys", System::Thiz, ANN, false, "{}");
    t.skill(alys, "Speed", 4);
    t.skill(alys, "Perception", 3);
    t.skill(alys, "Weapon Skill (Sword)", 5);
    let hob = t.character("Hobgoblin", System::Thiz, GM, true, "{}");
    t.skill(hob, "Speed", 13);
    t.skill(hob, "Perception", 11);
    t.skill(hob, "Weapon Skill (Sword)", 7);
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Alys")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Hobgoblin")]);
    t.ok(GM, &["encounter", "next"], &[]);
    turn_of(&t, "Hobgoblin 1");
    t.ok(GM, &["encounter", "declare"], &[("option", "defend")]);
    turn_of(&t, "Alys");
    let r = t.ok(
        ANN,
        &["attack"],
        &[("target", "Hobgoblin 1"), ("modifier", "-1")],
    );
    let channel = r.channel_text();
    assert!(channel.contains("defends: (hidden)"), "{channel}");
    assert!(channel.contains("· modifier -1 "), "{channel}");
    for derived in ["-8", "+7", "-7", " 7 ", "+8"] {
        assert!(!channel.contains(derived), "{derived} in {channel}");
    }
    let gm = r.gm_copy.as_deref().expect("the GM's copy").all_text();
    assert!(gm.contains("defending +7"), "{gm}");
}

/// Issue 57, item 5: outside an encounter both are in, a player's attack on another player's
/// character is refused and rolls nothing (THIZ `/attack`, TFT `/tft attack`); inside one it is
/// played; a GM may always roll it; a table that turns `players_strike_anywhere` on allows it.
#[test]
fn a_player_strikes_another_players_character_only_in_a_fight_both_are_in() {
    let t = thiz_table(63);
    let rolls = |t: &Table| {
        t.app
            .store
            .read(|c| crate::store::rolls::recent(c, G, None, None, 100))
            .unwrap()
            .len()
    };
    let swing = [("attacker", "Alys"), ("target", "Bren")];
    let before = rolls(&t);
    let refusal = t.refused(ANN, &["attack"], &swing);
    assert!(
        refusal.contains("Bren is another player's character")
            && refusal.contains("Nothing was rolled"),
        "{refusal}"
    );
    assert_eq!(rolls(&t), before);
    // Alys strikes her own side only where it is played: in a fight with Bren in it.
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Alys")]);
    assert!(
        t.refused(ANN, &["attack"], &swing)
            .contains("another player's")
    );
    t.ok(BOB, &["encounter", "add"], &[("character", "Bren")]);
    assert!(t.run(ANN, &["attack"], &swing).is_ok());
    t.ok(GM, &["encounter", "end"], &[]);
    // A GM rolls it anywhere; the table's switch lets players.
    assert!(t.run(GM, &["attack"], &swing).is_ok());
    t.ok(
        GM,
        &["gm", "rules"],
        &[("name", "players_strike_anywhere"), ("value", "on")],
    );
    assert!(t.run(ANN, &["attack"], &swing).is_ok());
    // Issue 59: outside a fight, the attacker left out is the caller's own character of the
    // command's system (it was refused with "Name the attacker").
    let own = t.ok(ANN, &["attack"], &[("target", "Bren")]).all_text();
    assert!(own.contains("Alys attacks Bren"), "{own}");
    let none = t
        .run(ANN, &["tft", "attack"], &[("target", "Bren")])
        .expect_err("Ann has no TFT character");
    assert!(
        none.content.contains("no TFT character"),
        "{}",
        none.content
    );

    // TFT alike.
    let t = tft_table(64);
    let sheet = Sheet::Tft(TftSheet {
        st: 12,
        dx: 12,
        iq: 10,
        ..TftSheet::default()
    })
    .to_json();
    t.character("Carol", System::Tft, BOB, false, &sheet);
    let blow = [
        ("attacker", "Kara"),
        ("target", "Carol"),
        ("weapon", "hands"),
    ];
    let before = rolls(&t);
    assert!(
        t.run(ANN, &["tft", "attack"], &blow)
            .expect_err("refused")
            .content
            .contains("Carol is another player's character")
    );
    assert_eq!(rolls(&t), before);
    assert!(t.run(GM, &["tft", "attack"], &blow).is_ok());
}

/// thiz-rulebook.md, "Determining Initiative and Initiative Passes" (a turn permits a single
/// action) and chapter 9 "Falls" (stunned: no actions): a maneuver in a THIZ fight is the turn's
/// action, so an attack (or a casting check) after a trip is refused for a player, and a stunned
/// figure's trip or casting is refused; a GM's goes ahead as the GM's call. Listening is not an
/// action; a casting check is.
#[test]
fn a_thiz_maneuver_is_the_turns_action_and_a_stunned_figure_makes_none() {
    let t = thiz_table(65);
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Alys")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Goblin")]);
    t.ok(GM, &["encounter", "next"], &[]);
    turn_of(&t, "Alys");
    let trip = [("attacker", "Alys"), ("target", "Goblin 1")];
    t.ok(ANN, &["maneuver", "listen"], &[("character", "Alys")]);
    t.ok(ANN, &["maneuver", "trip"], &trip);
    let refusal = t.refused(ANN, &["attack"], &[("target", "Goblin 1")]);
    assert!(
        refusal.contains("Alys has already acted this turn"),
        "{refusal}"
    );
    assert!(
        t.refused(ANN, &["maneuver", "trip"], &trip)
            .contains("already acted")
    );
    // A casting check is a turn's action too.
    t.skill(t.id("Alys").unwrap(), "Elementalism", 4);
    let cast = [
        ("skill", "elementalism"),
        ("level", "red"),
        ("character", "Alys"),
    ];
    assert!(
        t.refused(ANN, &["magic", "cast"], &cast)
            .contains("already acted")
    );
    let call = t.ok(GM, &["maneuver", "trip"], &trip).all_text();
    assert!(
        call.contains("GM's call: Alys acts again this turn"),
        "{call}"
    );
    // Stunned on her next turn: no maneuver.
    t.ok(GM, &["encounter", "next"], &[]);
    turn_of(&t, "Alys");
    t.ok(
        GM,
        &["encounter", "timer"],
        &[("figure", "Alys"), ("what", "stunned"), ("count", "1")],
    );
    let stunned = t.refused(ANN, &["maneuver", "trip"], &trip);
    assert!(
        stunned.contains("Alys is stunned for 1 turn more"),
        "{stunned}"
    );
    assert!(
        t.refused(ANN, &["magic", "cast"], &cast)
            .contains("stunned")
    );
    // Taken off, she casts (the check counts as her action).
    t.ok(
        GM,
        &["encounter", "timer"],
        &[("figure", "Alys"), ("what", "stunned"), ("count", "0")],
    );
    t.ok(ANN, &["magic", "cast"], &cast);
    assert_eq!(t.state().current().unwrap().rolls_this_turn, 1);
}
