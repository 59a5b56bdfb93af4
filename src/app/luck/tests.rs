//! `/luck` through `App::handle`: spends, buttons, the GM's commands, concurrency and secrecy.

use crate::app::command::Command;
use crate::app::invocation::Invocation;
use crate::app::reply::{Reply, Visibility};
use crate::app::sheet::{Sheet, ThizSheet};
use crate::app::{App, Caller};
use crate::store::characters::{self, NewCharacter, WoundRow};
use crate::store::guilds::System;
use crate::store::rolls::{self, Mode, NewRoll};
use crate::store::secrets::{self, GmProof, LedgerEntry, LuckKind};
use crate::store::{CharacterId, GuildId, RollId, UserId};

const GUILD: GuildId = GuildId(1);
const GM: u64 = 1;
const ANN: u64 = 10;
const BOB: u64 = 20;

struct World {
    _dir: tempfile::TempDir,
    app: App,
}

fn caller(user: u64, gm: bool) -> Caller {
    Caller {
        guild: GUILD,
        user: UserId(user),
        name: format!("user{user}"),
        roles: vec![],
        manage_server: gm,
    }
}

fn world() -> World {
    let (dir, app) = crate::app::temp_app(7);
    let w = World { _dir: dir, app };
    w.character("Vexa", ANN, false, System::Thiz, &ThizSheet::default());
    w.character("Bruno", BOB, false, System::Thiz, &ThizSheet::default());
    w.character("Grut", GM, true, System::Thiz, &ThizSheet::default());
    // Owned by a third player, so Ann's default character is always Vexa.
    w.character("Tess", 30, false, System::Tft, &ThizSheet::default());
    w
}

impl World {
    fn character(&self, name: &str, owner: u64, npc: bool, system: System, sheet: &ThizSheet) {
        let json = match system {
            System::Thiz => Sheet::Thiz(sheet.clone()).to_json(),
            System::Tft => Sheet::new(System::Tft).to_json(),
        };
        self.app
            .store
            .write(|tx| {
                characters::create(
                    tx,
                    GUILD,
                    &NewCharacter {
                        name,
                        system,
                        owner_id: UserId(owner),
                        npc,
                        sheet_json: &json,
                    },
                )
            })
            .unwrap()
            .unwrap();
    }

    fn id(&self, name: &str) -> CharacterId {
        self.app
            .store
            .read(|c| characters::by_name(c, GUILD, name))
            .unwrap()
            .unwrap()
            .id
    }

    fn run(
        &self,
        user: u64,
        gm: bool,
        interaction: &str,
        path: &[&str],
        opts: &[(&str, &str)],
    ) -> Reply {
        match Command::parse(&Invocation::new(path, opts)) {
            Ok(cmd) => self.app.handle(&caller(user, gm), interaction, cmd),
            Err(e) => Reply::ephemeral(e.to_string()),
        }
    }

    fn set_luck(&self, name: &str, points: i64) {
        let id = self.id(name);
        self.app
            .store
            .write(|tx| {
                secrets::set_luck(
                    tx,
                    GUILD,
                    id,
                    points,
                    &LedgerEntry {
                        actor: UserId(GM),
                        kind: LuckKind::Set,
                        reason: "test",
                        roll: None,
                        idem_key: None,
                    },
                )
            })
            .unwrap();
    }

    fn luck(&self, name: &str) -> Option<i64> {
        let id = self.id(name);
        self.app
            .store
            .read(|c| secrets::luck(c, GmProof::verified(GUILD), id))
            .unwrap()
    }

    fn ledger_kinds(&self, name: &str) -> Vec<String> {
        let id = self.id(name);
        self.app
            .store
            .read(|c| secrets::ledger(c, GmProof::verified(GUILD), id))
            .unwrap()
            .into_iter()
            .map(|r| r.kind)
            .collect()
    }

    fn insert_roll(
        &self,
        user: u64,
        character: CharacterId,
        command: &str,
        mode: Mode,
        json: &str,
    ) -> RollId {
        self.app
            .store
            .write(|tx| {
                rolls::insert(
                    tx,
                    GUILD,
                    &NewRoll {
                        user: UserId(user),
                        character: Some(character),
                        command,
                        mode,
                        label: "",
                        result_json: json,
                        commitment: None,
                        nonce: None,
                        parent: None,
                    },
                )
            })
            .unwrap()
    }

    /// Logs a check as `thiz` does (its `ThizRecord::Check`), at rating 4 with roll 90 (a Failure).
    fn log_check(&self, name: &str, mode: Mode) -> RollId {
        let id = self.id(name);
        let json = serde_json::json!({
            "kind": "check", "character_id": id, "character": name, "subject": "Swimming",
            "skill": "Swimming", "base": 4, "modifier": 0, "wound_penalty": 0, "unlucky": false,
            "shifty": false, "roll": 90, "adjusted": 4, "row_rating": 4,
            "chart_level": "Failure", "level": "Failure",
        })
        .to_string();
        self.insert_roll(ANN, id, "check", mode, &json)
    }

    /// Logs an attack by Bruno that left a wound on `target` (as `thiz`'s `ThizRecord::Attack`),
    /// and records the wound.
    fn log_wound(&self, target: &str, location: &str, level: &str) -> RollId {
        let id = self.id(target);
        let json = serde_json::json!({
            "kind": "attack", "attacker_id": self.id("Bruno"), "attacker": "Bruno",
            "target_id": id, "target": target, "roll": 10, "level": "Red",
            "wound": { "location": location, "inflicted": level, "recorded": level },
        })
        .to_string();
        let mut rows = self.wounds(target);
        rows.push(WoundRow {
            location: location.to_ascii_lowercase(),
            level: level.to_ascii_lowercase(),
            count: 1,
        });
        self.app
            .store
            .write(|tx| characters::set_wounds(tx, GUILD, id, &rows))
            .unwrap();
        self.insert_roll(BOB, self.id("Bruno"), "attack", Mode::Public, &json)
    }

    fn wounds(&self, name: &str) -> Vec<WoundRow> {
        let id = self.id(name);
        self.app
            .store
            .read(|c| characters::wounds(c, GUILD, id))
            .unwrap()
    }

    fn roll(&self, id: RollId) -> rolls::RollRow {
        self.app
            .store
            .read(|c| rolls::get(c, GUILD, id))
            .unwrap()
            .unwrap()
    }

    fn roll_count(&self) -> usize {
        self.app
            .store
            .read(|c| rolls::recent(c, GUILD, None, None, 1000))
            .unwrap()
            .len()
    }
}

/// Everything the caller receives, without the GM copy.
fn player_text(reply: &Reply) -> String {
    Reply {
        gm_copy: None,
        ..reply.clone()
    }
    .all_text()
}

fn gm_text(reply: &Reply) -> String {
    reply
        .gm_copy
        .as_ref()
        .map(|c| c.all_text())
        .unwrap_or_default()
}

fn spend<'a>(kind: &'a str, more: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut opts = vec![("kind", kind)];
    opts.extend_from_slice(more);
    opts
}

// ---- Concurrency and idempotency ---------------------------------------------------------------

#[test]
fn two_hundred_concurrent_spends_take_exactly_the_total() {
    let w = world();
    w.set_luck("Vexa", 5);
    let ids: Vec<String> = (0..200).map(|i| format!("i{i}")).collect();
    let replies: Vec<Reply> = std::thread::scope(|s| {
        let handles: Vec<_> = ids
            .iter()
            .map(|id| {
                let w = &w;
                s.spawn(move || {
                    w.run(
                        ANN,
                        false,
                        id,
                        &["luck", "spend"],
                        &[("kind", "stunt"), ("points", "1"), ("character", "Vexa")],
                    )
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let spent = replies
        .iter()
        .filter(|r| player_text(r).contains("Luck spent"))
        .count();
    let refused = replies
        .iter()
        .filter(|r| player_text(r).contains("no luck left"))
        .count();
    assert_eq!((spent, refused), (5, 195));
    assert_eq!(w.luck("Vexa"), Some(0));
    let spends = w
        .ledger_kinds("Vexa")
        .iter()
        .filter(|k| k.starts_with("spent"))
        .count();
    assert_eq!(spends, 5);
}

#[test]
fn the_same_interaction_spends_once() {
    let w = world();
    w.set_luck("Vexa", 3);
    let first = w.run(
        ANN,
        false,
        "same",
        &["luck", "spend"],
        &spend("stunt", &[("points", "1")]),
    );
    assert!(player_text(&first).contains("Luck spent"), "{first:?}");
    let again = w.run(
        ANN,
        false,
        "same",
        &["luck", "spend"],
        &spend("stunt", &[("points", "1")]),
    );
    assert!(player_text(&again).contains("already spent"), "{again:?}");
    assert_eq!(again.visibility, Visibility::Ephemeral);
    assert_eq!(w.luck("Vexa"), Some(2));
    assert_eq!(w.ledger_kinds("Vexa"), ["set", "spent: stunt"]);
}

/// Who runs it, the options, what the answer says.
type Case<'a> = (u64, Vec<(&'a str, &'a str)>, &'a str);

// ---- Reroll ------------------------------------------------------------------------------------

#[test]
fn reroll_rerolls_the_latest_check_once() {
    let w = world();
    w.set_luck("Vexa", 4);
    let old = w.log_check("Vexa", Mode::Public);
    let reply = w.run(ANN, false, "r1", &["luck", "spend"], &spend("reroll", &[]));
    let text = player_text(&reply);
    assert!(text.contains("Swimming rerolled"), "{text}");
    assert!(text.contains("Luck spent."), "{text}");
    assert_eq!(reply.visibility, Visibility::Public);
    assert!(gm_text(&reply).contains("4 → 3"), "{}", gm_text(&reply));
    assert_eq!(w.luck("Vexa"), Some(3));
    assert_eq!(w.roll(old).luck_used.as_deref(), Some("reroll"));
    // The new roll is logged as a check with its parent, and offers its own button.
    let new = RollId(old.0 + 1);
    let row = w.roll(new);
    assert_eq!((row.parent, row.command.as_str()), (Some(old), "check"));
    assert_eq!(reply.buttons[0].custom_id, format!("luck:reroll:{}", new.0));
    let logged = super::logged::check_of(row.public_json.as_deref().unwrap()).unwrap();
    assert_eq!((logged.base, logged.what()), (4, "Swimming"));
    assert!(row.public_json.unwrap().contains(r#""character":"Vexa""#));

    // A second reroll of the same roll is refused and changes nothing.
    let rolls_before = w.roll_count();
    let again = w.run(
        ANN,
        false,
        "r2",
        &["luck", "spend"],
        &spend("reroll", &[("roll", &old.0.to_string())]),
    );
    assert!(player_text(&again).contains("already used"), "{again:?}");
    assert_eq!(w.luck("Vexa"), Some(3));
    assert_eq!(w.roll_count(), rolls_before);
    assert_eq!(w.ledger_kinds("Vexa").len(), 2);
}

#[test]
fn reroll_refusals_change_nothing() {
    let w = world();
    w.set_luck("Vexa", 4);
    w.set_luck("Bruno", 4);
    let cases: Vec<Case<'_>> = vec![
        // No check yet.
        (ANN, spend("reroll", &[]), "no check or attack to reroll"),
        // Someone else's character.
        (
            ANN,
            spend("reroll", &[("character", "Bruno")]),
            "belongs to another player",
        ),
        // An NPC is invisible to players.
        (
            ANN,
            spend("reroll", &[("character", "Grut")]),
            "no character named Grut",
        ),
        // A roll that does not exist.
        (ANN, spend("reroll", &[("roll", "99")]), "no roll #99"),
        // A TFT character (the GM may act for it, but it has no luck).
        (
            GM,
            spend("stunt", &[("character", "Tess"), ("points", "1")]),
            "THIZ rule",
        ),
    ];
    for (user, opts, want) in cases {
        let reply = w.run(user, user == GM, "x", &["luck", "spend"], &opts);
        assert!(player_text(&reply).contains(want), "{opts:?}: {reply:?}");
        assert_eq!(reply.visibility, Visibility::Ephemeral);
    }
    // Rolls of the wrong kind, or of another character, or blind.
    let attack = w.log_wound("Vexa", "Head", "green");
    let dice = w.insert_roll(ANN, w.id("Vexa"), "roll", Mode::Public, "{}");
    let old_attack = w.insert_roll(
        ANN,
        w.id("Vexa"),
        "attack",
        Mode::Public,
        &serde_json::json!({
            "kind": "attack", "attacker_id": w.id("Vexa"), "attacker": "Vexa",
            "target_id": w.id("Bruno"), "target": "Bruno", "weapon": null, "missile": false,
            "called_shot": false, "rating": 2, "roll": 90, "level": "Failure", "hit": null,
            "location": null, "location_roll": null, "toughness": null, "wound": null,
            "mook_defeated": false, "incapacitated": false,
        })
        .to_string(),
    );
    let bruno = w.log_check("Bruno", Mode::Public);
    let blind = w.log_check("Vexa", Mode::Blind);
    let cases = [
        (attack, "belongs to another player"),
        (dice, "not a check luck can roll again"),
        (old_attack, "logged before attacks could be rerolled"),
        (bruno, "belongs to another player"),
        (blind, "was blind"),
    ];
    for (roll, want) in cases {
        let id = roll.0.to_string();
        let reply = w.run(
            ANN,
            false,
            "y",
            &["luck", "spend"],
            &spend("reroll", &[("roll", &id)]),
        );
        assert!(player_text(&reply).contains(want), "{reply:?}");
    }
    let mismatch = w.run(
        ANN,
        false,
        "z",
        &["luck", "spend"],
        &spend(
            "reroll",
            &[("roll", &bruno.0.to_string()), ("character", "Vexa")],
        ),
    );
    assert!(
        player_text(&mismatch).contains("was rolled by Bruno, not Vexa"),
        "{mismatch:?}"
    );
    assert_eq!((w.luck("Vexa"), w.luck("Bruno")), (Some(4), Some(4)));
    assert_eq!(w.ledger_kinds("Vexa"), ["set"]);
    assert!(w.roll(blind).luck_used.is_none());
    // A GM may spend luck on a blind roll; the result stays blind.
    let gm = w.run(
        GM,
        true,
        "g",
        &["luck", "spend"],
        &spend("reroll", &[("roll", &blind.0.to_string())]),
    );
    assert!(player_text(&gm).contains("blind"), "{gm:?}");
    assert!(gm_text(&gm).contains("4 → 3"));
    assert_eq!(w.luck("Vexa"), Some(3));
}

#[test]
fn reroll_button_is_for_the_owner_and_works_once() {
    let w = world();
    w.set_luck("Vexa", 4);
    let roll = w.log_check("Vexa", Mode::Private);
    let id = format!("luck:reroll:{}", roll.0);
    for (user, gm) in [(BOB, false), (GM, true)] {
        let reply = w.run(user, gm, "b", &["button"], &[("id", &id)]);
        assert!(
            player_text(&reply).contains("only they can spend"),
            "{reply:?}"
        );
        assert_eq!(reply.visibility, Visibility::Ephemeral);
    }
    assert_eq!(w.luck("Vexa"), Some(4));
    let pressed = w.run(ANN, false, "b1", &["button"], &[("id", &id)]);
    assert!(player_text(&pressed).contains("rerolled"), "{pressed:?}");
    // The private roll's reroll is private too: the roller sees it, the GM gets a copy.
    assert_eq!(pressed.visibility, Visibility::Ephemeral);
    assert!(gm_text(&pressed).contains("Private roll"));
    assert!(gm_text(&pressed).contains("4 → 3"));
    let twice = w.run(ANN, false, "b2", &["button"], &[("id", &id)]);
    assert!(player_text(&twice).contains("already used"), "{twice:?}");
    assert_eq!(w.luck("Vexa"), Some(3));
    let stale = w.run(ANN, false, "b3", &["button"], &[("id", "luck:reroll:999")]);
    assert!(player_text(&stale).contains("no roll #999"), "{stale:?}");
}

/// Issue 57 (thiz-rulebook.md, chapter 10 "Luck": the referee tells the *player* when luck
/// runs out): a reroll that takes the last point reads "Luck spent." in the channel, the
/// caller alone hears it ran out, and the new roll carries no reroll button. With a point
/// left, the same reroll keeps its button and says nothing of the total.
#[test]
fn a_reroll_that_takes_the_last_point_tells_the_player_alone_and_offers_no_button() {
    for (points, ran_out) in [(2, false), (1, true)] {
        let w = world();
        w.set_luck("Vexa", points);
        let roll = w.log_check("Vexa", Mode::Public);
        let id = format!("luck:reroll:{}", roll.0);
        let r = w.run(ANN, false, "z1", &["button"], &[("id", &id)]);
        assert_eq!(r.visibility, Visibility::Public, "{r:?}");
        let channel = r.channel_text();
        assert!(channel.contains("Luck spent."), "{channel}");
        assert!(!channel.contains("run out"), "{channel}");
        let has_button = r
            .buttons
            .iter()
            .any(|b| b.custom_id.starts_with("luck:reroll:"));
        assert_eq!(has_button, !ran_out, "{points} point(s): {:?}", r.buttons);
        let note = r.caller_copy.as_deref().map(|c| c.content.clone());
        assert_eq!(
            note.is_some_and(|n| n.contains("Vexa's luck has run out")),
            ran_out,
            "{r:?}"
        );
        assert_eq!(w.luck("Vexa"), Some(points - 1));
    }
}

/// Issue 57: luck rerolls only the character's latest check. Once a newer one is logged, the
/// older roll's button (or `roll:` naming it) is refused with the newer roll's number and
/// spends nothing; the newest is rerolled as before.
#[test]
fn luck_rerolls_only_the_latest_check_of_the_character() {
    let w = world();
    w.set_luck("Vexa", 3);
    let old = w.log_check("Vexa", Mode::Public);
    let new = w.log_check("Vexa", Mode::Public);
    // Someone else's later roll does not make Vexa's older.
    let bruno = w.log_check("Bruno", Mode::Public);
    assert!(bruno.0 > new.0);
    let stale = w.run(
        ANN,
        false,
        "l1",
        &["button"],
        &[("id", &format!("luck:reroll:{}", old.0))],
    );
    let text = player_text(&stale);
    assert!(
        text.contains(&format!("roll #{} came after it", new.0))
            && text.contains("only the latest"),
        "{text}"
    );
    assert_eq!(stale.visibility, Visibility::Ephemeral);
    assert_eq!(w.luck("Vexa"), Some(3));
    assert!(w.roll(old).luck_used.is_none());
    let named = w.run(
        ANN,
        false,
        "l2",
        &["luck", "spend"],
        &spend("reroll", &[("roll", &old.0.to_string())]),
    );
    assert!(player_text(&named).contains("only the latest"), "{named:?}");
    assert_eq!(w.luck("Vexa"), Some(3));
    let latest = w.run(
        ANN,
        false,
        "l3",
        &["button"],
        &[("id", &format!("luck:reroll:{}", new.0))],
    );
    assert!(player_text(&latest).contains("rerolled"), "{latest:?}");
    assert_eq!(w.luck("Vexa"), Some(2));
}

// ---- Wound -------------------------------------------------------------------------------------

/// thiz-rulebook.md, chapter 10 "Luck": each point lowers a wound one colour, so points can be
/// spent on the same wound again and again, and on any wound, whatever made it.
#[test]
#[allow(clippy::too_many_lines)] // One story: the same wound lowered three times, then the edges.
fn wound_lowers_one_colour_per_point_on_any_wound() {
    let w = world();
    w.set_luck("Vexa", 4);
    w.log_wound("Vexa", "Head", "green");
    let roll = w.log_wound("Vexa", "Left Arm", "black");
    let reply = w.run(ANN, false, "w1", &["luck", "spend"], &spend("wound", &[]));
    let text = player_text(&reply);
    assert!(
        text.contains("The Black wound on the Left Arm is now Red"),
        "{text}"
    );
    assert!(gm_text(&reply).contains("4 → 3"));
    let again_id = reply.buttons[0].custom_id.clone();
    assert_eq!(again_id, "luck:lower:1:4:w1");
    assert_eq!(reply.buttons[0].label, "Spend luck: lower again");

    // A second point on the same roll lowers the same wound again: Red → Yellow.
    let second = w.run(
        ANN,
        false,
        "w2",
        &["luck", "spend"],
        &spend("wound", &[("roll", &roll.0.to_string())]),
    );
    assert!(
        player_text(&second).contains("The Red wound on the Left Arm is now Yellow"),
        "{second:?}"
    );
    assert!(w.roll(roll).luck_used.is_none());
    // The "lower again" button: not Bruno's to press; Ann's press takes Yellow to Green, and a
    // second press of the same button spends nothing.
    let refused = w.run(BOB, false, "w3", &["button"], &[("id", &again_id)]);
    assert!(
        player_text(&refused).contains("only they can spend"),
        "{refused:?}"
    );
    let pressed = w.run(ANN, false, "w4", &["button"], &[("id", &again_id)]);
    assert!(
        player_text(&pressed).contains("The Yellow wound on the Left Arm is now Green"),
        "{pressed:?}"
    );
    let twice = w.run(ANN, false, "w5", &["button"], &[("id", &again_id)]);
    assert!(player_text(&twice).contains("already spent"), "{twice:?}");
    assert_eq!(w.luck("Vexa"), Some(1));
    let arm: Vec<_> = w
        .wounds("Vexa")
        .into_iter()
        .filter(|r| r.location == "left arm")
        .collect();
    assert_eq!(
        arm,
        [WoundRow {
            location: "left arm".into(),
            level: "green".into(),
            count: 1
        }]
    );

    // Two wounded sections and no attack to point at: the player is asked which.
    let id = w.id("Vexa");
    w.app
        .store
        .write(|tx| {
            characters::set_wounds(
                tx,
                GUILD,
                id,
                &[
                    WoundRow {
                        location: "gut".into(),
                        level: "red".into(),
                        count: 1,
                    },
                    WoundRow {
                        location: "right leg".into(),
                        level: "yellow".into(),
                        count: 1,
                    },
                ],
            )
        })
        .unwrap();
    let ask = w.run(ANN, false, "w6", &["luck", "spend"], &spend("wound", &[]));
    assert!(
        player_text(&ask).contains("wounded on the Gut, Right Leg; say which with location"),
        "{ask:?}"
    );
    let wrong = w.run(
        ANN,
        false,
        "w7",
        &["luck", "spend"],
        &spend("wound", &[("location", "gut"), ("level", "black")]),
    );
    assert!(
        player_text(&wrong).contains("no Black wound on the Gut"),
        "{wrong:?}"
    );
    assert_eq!(w.luck("Vexa"), Some(1));
    // A GM's wound (no attack at all) takes luck too; the last point says luck has run out and
    // offers no button.
    let last = w.run(
        ANN,
        false,
        "w8",
        &["luck", "spend"],
        &spend("wound", &[("location", "right leg")]),
    );
    let text = player_text(&last);
    assert!(
        text.contains("The Yellow wound on the Right Leg is now Green"),
        "{text}"
    );
    // Issue 57: the channel reads only "Luck spent."; the caller alone hears it ran out.
    assert!(
        !last.channel_text().contains("run out"),
        "{}",
        last.channel_text()
    );
    let mine = last.caller_copy.as_deref().expect("the caller's note");
    assert_eq!(mine.visibility, crate::app::reply::Visibility::Ephemeral);
    assert!(mine.content.contains("Vexa's luck has run out"), "{mine:?}");
    assert!(last.buttons.is_empty());
    assert_eq!(w.luck("Vexa"), Some(0));
}

#[test]
fn a_healed_wound_or_no_luck_spends_nothing() {
    let w = world();
    w.set_luck("Vexa", 1);
    let roll = w.log_wound("Vexa", "Gut", "yellow");
    let id = w.id("Vexa");
    w.app
        .store
        .write(|tx| characters::set_wounds(tx, GUILD, id, &[]))
        .unwrap();
    let reply = w.run(ANN, false, "h", &["luck", "spend"], &spend("wound", &[]));
    assert!(
        player_text(&reply).contains("no wounds, so there is nothing for luck to lower"),
        "{reply:?}"
    );
    assert_eq!(w.luck("Vexa"), Some(1));
    assert!(w.roll(roll).luck_used.is_none());

    w.set_luck("Vexa", 0);
    let roll = w.log_wound("Vexa", "Gut", "yellow");
    let reply = w.run(ANN, false, "h2", &["luck", "spend"], &spend("wound", &[]));
    assert!(player_text(&reply).contains("no luck left"), "{reply:?}");
    assert!(w.roll(roll).luck_used.is_none());
    assert!(w.wounds("Vexa").iter().any(|r| r.level == "yellow"));
    let none = w.run(
        ANN,
        false,
        "h3",
        &["luck", "spend"],
        &spend("wound", &[("character", "Bruno")]),
    );
    assert!(
        player_text(&none).contains("belongs to another player"),
        "{none:?}"
    );
}

// ---- Stunt, Luck Everlasting, secrecy ----------------------------------------------------------

#[test]
fn stunts_spend_at_most_the_total_and_say_only_how_it_went() {
    let w = world();
    w.set_luck("Vexa", 2);
    let reply = w.run(
        ANN,
        false,
        "s1",
        &["luck", "spend"],
        &spend("stunt", &[("points", "3")]),
    );
    let text = player_text(&reply);
    assert!(text.contains("pushes their luck"), "{text}");
    assert!(text.contains("Vexa's luck has run out"), "{text}");
    assert!(
        !reply.channel_text().contains("run out"),
        "told to the player alone: {}",
        reply.channel_text()
    );
    assert!(!text.chars().any(|c| c.is_ascii_digit()), "{text}");
    assert!(
        gm_text(&reply).contains("3 named, rolled at rating 2"),
        "{}",
        gm_text(&reply)
    );
    assert_eq!(w.luck("Vexa"), Some(0));
    let broke = w.run(
        ANN,
        false,
        "s2",
        &["luck", "spend"],
        &spend("stunt", &[("points", "1")]),
    );
    assert!(player_text(&broke).contains("no luck left"), "{broke:?}");
    // Never rolled counts as none.
    let never = w.run(
        BOB,
        false,
        "s3",
        &["luck", "spend"],
        &spend("stunt", &[("points", "1")]),
    );
    assert!(player_text(&never).contains("no luck left"), "{never:?}");
    // The stunt roll is logged, blind.
    let rows = w
        .app
        .store
        .read(|c| rolls::recent(c, GUILD, None, None, 10))
        .unwrap();
    assert!(
        rows.iter()
            .any(|r| r.command == "luck stunt" && r.mode == Mode::Blind && r.public_json.is_none())
    );
}

#[test]
fn no_player_reply_holds_the_total() {
    let w = world();
    // 9 points: no reply below may show a 9 (nor the 8, 7… the total passes through).
    w.set_luck("Vexa", 9);
    let mut replies = Vec::new();
    for i in 0..3 {
        replies.push(w.run(
            ANN,
            false,
            &format!("a{i}"),
            &["luck", "spend"],
            &spend("stunt", &[("points", "1")]),
        ));
    }
    w.log_wound("Vexa", "Chest", "black");
    replies.push(w.run(ANN, false, "b", &["luck", "spend"], &spend("wound", &[])));
    replies.push(w.run(
        ANN,
        false,
        "c",
        &["luck", "spend"],
        &spend("stunt", &[("points", "2")]),
    ));
    for reply in &replies {
        let text = player_text(reply);
        for total in ["9", "8", "7", "6", "5", "4", "3"] {
            assert!(!text.contains(total), "{total} in {text}");
        }
        assert!(gm_text(reply).contains("Luck: Vexa spent"));
    }
    assert_eq!(w.luck("Vexa"), Some(3));
    // The GM commands refuse a player outright.
    for path in ["show", "log", "roll"] {
        let reply = w.run(ANN, false, "p", &["luck", path], &[("character", "Vexa")]);
        assert!(player_text(&reply).contains("only a GM"), "{reply:?}");
        assert!(!player_text(&reply).contains('3'));
    }
}

#[test]
fn luck_everlasting_is_rolled_in_secret() {
    let w = world();
    let sheet = ThizSheet {
        quirks: vec!["Luck Everlasting".into()],
        ..ThizSheet::default()
    };
    w.character("Lucky", ANN, false, System::Thiz, &sheet);
    w.set_luck("Lucky", 3);
    let reply = w.run(
        ANN,
        false,
        "e",
        &["luck", "spend"],
        &spend("stunt", &[("character", "Lucky"), ("points", "2")]),
    );
    let gm = gm_text(&reply);
    assert_eq!(gm.matches("Luck Everlasting: d100").count(), 2, "{gm}");
    assert!(!player_text(&reply).contains("Everlasting"));
    let kept = gm.matches("the point is kept").count() as i64;
    assert_eq!(w.luck("Lucky"), Some(3 - 2 + kept));
    let rows = w
        .app
        .store
        .read(|c| rolls::recent(c, GUILD, None, None, 10))
        .unwrap();
    assert!(
        rows.iter()
            .any(|r| r.command == "luck everlasting" && r.mode == Mode::Blind)
    );
}

// ---- The GM's commands -------------------------------------------------------------------------

#[test]
fn gm_luck_commands() {
    let w = world();
    let rolled = w.run(GM, true, "1", &["luck", "roll"], &[("character", "Vexa")]);
    let points = w.luck("Vexa").unwrap();
    assert!((1..=10).contains(&points));
    assert_eq!(rolled.visibility, Visibility::Ephemeral);
    assert!(
        rolled.content.contains(&format!("Vexa now has {points}")),
        "{rolled:?}"
    );

    let shown = w.run(GM, true, "2", &["luck", "show"], &[("character", "vexa")]);
    assert!(
        shown
            .content
            .contains(&format!("Vexa has {points} luck point")),
        "{shown:?}"
    );
    assert_eq!(shown.visibility, Visibility::Ephemeral);

    let awarded = w.run(
        GM,
        true,
        "3",
        &["luck", "award"],
        &[("character", "Vexa"), ("points", "2")],
    );
    assert!(
        awarded
            .content
            .contains(&format!("now has {} luck points", points + 2)),
        "{awarded:?}"
    );
    w.run(
        GM,
        true,
        "4",
        &["luck", "set"],
        &[("character", "Vexa"), ("points", "4")],
    );
    let shown = w.run(GM, true, "5", &["luck", "show"], &[("character", "Vexa")]);
    assert_eq!(shown.content, "Vexa has 4 luck points.");
    w.run(
        GM,
        true,
        "6",
        &["luck", "set"],
        &[("character", "Vexa"), ("points", "1")],
    );
    let shown = w.run(GM, true, "7", &["luck", "show"], &[("character", "Vexa")]);
    assert_eq!(shown.content, "Vexa has 1 luck point.");

    let log = w.run(GM, true, "8", &["luck", "log"], &[("character", "Vexa")]);
    let text = log.all_text();
    assert!(
        text.contains("rolled") && text.contains("awarded") && text.contains("→ 1 · set"),
        "{text}"
    );
    assert_eq!(log.visibility, Visibility::Ephemeral);

    // NPCs are the GM's to manage; a never-rolled total says so.
    let npc = w.run(GM, true, "9", &["luck", "show"], &[("character", "Grut")]);
    assert!(npc.content.contains("never rolled"), "{npc:?}");
    let empty = w.run(GM, true, "10", &["luck", "log"], &[("character", "Grut")]);
    assert!(empty.content.contains("empty"));
    let tft = w.run(GM, true, "11", &["luck", "roll"], &[("character", "Tess")]);
    assert!(tft.content.contains("THIZ rule"));
    let unknown = w.run(
        GM,
        true,
        "12",
        &["luck", "show"],
        &[("character", "Nobody")],
    );
    assert!(unknown.content.contains("no character named Nobody"));
}

#[test]
fn players_cannot_run_gm_luck_commands() {
    let w = world();
    w.set_luck("Vexa", 6);
    let cases: [(&str, &[(&str, &str)]); 5] = [
        ("roll", &[("character", "Vexa")]),
        ("show", &[("character", "Vexa")]),
        ("log", &[("character", "Vexa")]),
        ("award", &[("character", "Vexa"), ("points", "3")]),
        ("set", &[("character", "Vexa"), ("points", "9")]),
    ];
    for (sub, opts) in cases {
        let reply = w.run(ANN, false, "p", &["luck", sub], opts);
        assert!(reply.content.contains("only a GM"), "{sub}: {reply:?}");
        assert_eq!(reply.visibility, Visibility::Ephemeral);
        assert!(!player_text(&reply).contains('6'));
    }
    assert_eq!(w.luck("Vexa"), Some(6));
    assert_eq!(w.ledger_kinds("Vexa"), ["set"]);
    assert_eq!(w.roll_count(), 0);
}

/// thiz-rulebook.md, chapter 4: Berserk spends a point to fight on past a fatal blow, Sleepless
/// one to rouse from the long sleep; each needs its quirk, and the player learns no total.
#[test]
fn berserk_and_rouse_need_their_quirk() {
    let w = world();
    let sheet = ThizSheet {
        quirks: vec!["Berserk".into(), "Sleepless".into()],
        ..ThizSheet::default()
    };
    w.character("Hald", ANN, false, System::Thiz, &sheet);
    w.set_luck("Hald", 3);
    w.set_luck("Vexa", 3);
    let cases = [
        ("berserk", "Hald fights on, Berserk!", "spent: berserk"),
        ("rouse", "Hald rouses from the long sleep", "spent: rouse"),
    ];
    for (i, (kind, title, ledger)) in cases.into_iter().enumerate() {
        let reply = w.run(
            ANN,
            false,
            &format!("q{i}"),
            &["luck", "spend"],
            &spend(kind, &[("character", "Hald")]),
        );
        assert_eq!(reply.visibility, Visibility::Public);
        assert!(player_text(&reply).contains(title), "{reply:?}");
        assert!(!player_text(&reply).contains('→'), "{reply:?}");
        assert_eq!(
            w.ledger_kinds("Hald").last().map(String::as_str),
            Some(ledger)
        );
        // Vexa has neither quirk: refused, nothing spent.
        let refused = w.run(
            ANN,
            false,
            &format!("r{i}"),
            &["luck", "spend"],
            &spend(kind, &[("character", "Vexa")]),
        );
        assert_eq!(refused.visibility, Visibility::Ephemeral);
        assert!(
            player_text(&refused).contains("Vexa does not have it"),
            "{refused:?}"
        );
    }
    assert_eq!((w.luck("Hald"), w.luck("Vexa")), (Some(1), Some(3)));
}

/// A hazard's check (staying afloat) is the character's resolution check: luck rolls it again
/// from its logged input; the hazard's own roll (a fall) is not.
#[test]
fn luck_rerolls_a_hazards_check_but_not_the_hazards_own_roll() {
    use crate::app::thiz::record::{CheckRecord, HazardRecord, HazardRoll, ThizRecord};
    use crate::rules::thiz::check::{CheckInput, resolve_check};
    let w = world();
    w.set_luck("Vexa", 2);
    let vexa = w.id("Vexa");
    let outcome = resolve_check(&CheckInput::at(3), 95).unwrap();
    let record = |check: Option<CheckRecord>, roll: Option<HazardRoll>, what: &str| {
        serde_json::to_string(&ThizRecord::Hazard(HazardRecord {
            hazard: what.into(),
            character_id: vexa,
            character: "Vexa".into(),
            hazard_roll: roll,
            check,
            location: None,
            location_roll: None,
            toughness: None,
            wound: None,
            outcome: "under water".into(),
        }))
        .unwrap()
    };
    let check = CheckRecord::new(Some((vexa, "Vexa")), "staying afloat", None, &outcome);
    let water = w.insert_roll(
        ANN,
        vexa,
        "hazard water",
        Mode::Public,
        &record(Some(check), None, "water"),
    );
    let reply = w.run(ANN, false, "hz1", &["luck", "spend"], &spend("reroll", &[]));
    let text = player_text(&reply);
    assert!(text.contains("Vexa: staying afloat rerolled"), "{text}");
    assert!(text.contains(&format!("Was (roll #{})", water.0)), "{text}");
    assert_eq!(w.roll(water).luck_used.as_deref(), Some("reroll"));
    assert_eq!(w.luck("Vexa"), Some(1));

    let fall = w.insert_roll(
        ANN,
        vexa,
        "hazard fall",
        Mode::Public,
        &record(
            None,
            Some(HazardRoll {
                rating: 25,
                roll: 40,
                level: "Red".into(),
            }),
            "fall",
        ),
    );
    let refused = w.run(
        ANN,
        false,
        "hz2",
        &["luck", "spend"],
        &spend("reroll", &[("roll", &fall.0.to_string())]),
    );
    assert!(
        player_text(&refused).contains("not a check luck can roll again"),
        "{refused:?}"
    );
    assert_eq!(w.luck("Vexa"), Some(1));
}

/// thiz-rulebook.md, "Pocket-Picking": 96–100 fails and is noticed, however high the rating; a
/// reroll that lands there reads the same, and says so.
#[test]
fn a_rerolled_pocket_picking_keeps_its_special_result() {
    use crate::rules::dice::{DieSource, SeededDice};
    let seed = (0..100_000u64)
        .find(|s| SeededDice::new(*s).d100() >= 96)
        .unwrap();
    let (dir, app) = crate::app::temp_app(seed);
    let w = World { _dir: dir, app };
    w.character("Vexa", ANN, false, System::Thiz, &ThizSheet::default());
    w.set_luck("Vexa", 2);
    let id = w.id("Vexa");
    let json = serde_json::json!({
        "kind": "check", "character_id": id, "character": "Vexa", "subject": "Pocket-Picking",
        "skill": "Pocket-Picking", "base": 30, "modifier": 0, "wound_penalty": 0,
        "unlucky": false, "shifty": false, "roll": 50, "adjusted": 30, "row_rating": 30,
        "chart_level": "Black", "level": "Black",
    })
    .to_string();
    let roll = w.insert_roll(ANN, id, "check", Mode::Public, &json);
    let reply = w.run(
        ANN,
        false,
        "pp",
        &["luck", "spend"],
        &spend("reroll", &[("roll", &roll.0.to_string())]),
    );
    let text = player_text(&reply);
    assert!(
        text.contains(r"Pocket\-Picking rerolled: Failure"),
        "{text}"
    );
    assert!(text.contains("the mark notices it"), "{text}");
}

/// Issue 59 (luck that explains itself): a GM's `/luck roll` on a character that has luck says
/// what it replaced (and nothing of the kind when there was none); the log names who made each
/// change.
#[test]
fn luck_roll_says_what_it_replaced_and_the_log_names_who() {
    let w = world();
    let first = w.run(GM, true, "r0", &["luck", "roll"], &[("character", "Bruno")]);
    assert!(!first.content.contains("replaces"), "{first:?}");
    w.set_luck("Vexa", 4);
    let rolled = w.run(GM, true, "r1", &["luck", "roll"], &[("character", "Vexa")]);
    assert_eq!(rolled.visibility, Visibility::Ephemeral);
    assert!(
        rolled
            .content
            .contains("It replaces the 4 luck points Vexa had."),
        "{rolled:?}"
    );
    let log = w.run(GM, true, "r2", &["luck", "log"], &[("character", "Vexa")]);
    let text = log.all_text();
    assert!(
        text.contains("rolled") && text.contains(&format!("by <@{GM}>")),
        "{text}"
    );
}
