//! Interactions that do not fit the registered commands — what a Discord client with an old copy
//! of the commands sends after an update — each get exactly one ephemeral answer, are logged with
//! what was wrong, and make the bot register its commands again (issue 18). Bodies are checked
//! against Discord's OpenAPI spec when the session ends.
//!
//! Also here: an internal error is logged without a backtrace even with `RUST_BACKTRACE=1`.

use serde_json::{Value, json};

use super::Session;
use crate::fake::TIMEOUT;
use crate::fake::payload::{self, integer, option, string, subcommand};

/// The answer's opening words (the bot's `stale::CHANGED`).
const CHANGED: &str = "This command has changed since your Discord app loaded it; try again";

fn is_registration(r: &crate::fake::Request) -> bool {
    r.method == "PUT"
        && r.path.starts_with("/api/v10/applications/")
        && r.path.ends_with("/commands")
}

#[test]
fn every_malformed_or_stale_interaction_gets_one_ephemeral_answer() {
    let mut s = Session::start();
    let alice = s.player(10);
    let cases: Vec<(&str, payload::Built)> = vec![
        (
            "an unknown command",
            payload::command(&alice, "teleport", vec![], Value::Null),
        ),
        (
            "an unknown subcommand",
            payload::command(
                &alice,
                "character",
                vec![subcommand("fly", vec![])],
                Value::Null,
            ),
        ),
        (
            "a command without its subcommand",
            payload::command(&alice, "character", vec![], Value::Null),
        ),
        (
            "a missing required option",
            payload::command(&alice, "roll", vec![], Value::Null),
        ),
        (
            "an option of the wrong type",
            payload::command(&alice, "roll", vec![integer("expression", 4)], Value::Null),
        ),
        (
            "a number option sent as text",
            payload::command(&alice, "check", vec![string("rating", "four")], Value::Null),
        ),
        (
            "a choice out of range",
            payload::command(
                &alice,
                "roll",
                vec![string("expression", "1d6"), integer("mode", 99)],
                Value::Null,
            ),
        ),
        (
            "a choice sent by its old text value",
            payload::command(
                &alice,
                "roll",
                vec![
                    string("expression", "1d6"),
                    option("mode", 3, json!("private")),
                ],
                Value::Null,
            ),
        ),
    ];
    let mut sent = Vec::new();
    for (what, built) in cases {
        let (id, token) = (built.id, built.token.clone());
        let reply = s.send(built);
        assert_eq!(reply.kind(), 4, "{what}: {}", reply.callback_body());
        assert!(reply.ephemeral(), "{what}: {}", reply.callback_body());
        assert!(
            reply.content().starts_with(CHANGED),
            "{what}: {}",
            reply.callback_body()
        );
        sent.push((what, id, token));
    }
    // An autocomplete request for a command the bot does not have: an empty list.
    let complete = s.send(payload::autocomplete(
        &alice,
        "teleport",
        vec![string("place", "Ca")],
        "place",
    ));
    assert_eq!(complete.kind(), 8, "{}", complete.callback_body());
    assert_eq!(complete.data()["choices"], json!([]));
    sent.push((
        "an unknown autocomplete",
        complete.interaction.id,
        String::new(),
    ));

    // A barrier: a good command answered after every bad one, then exactly one answer each.
    let ok = s.run(&alice, "/roll expression:1d6");
    assert!(!ok.content().starts_with(CHANGED), "{}", ok.text());
    for (what, id, token) in &sent {
        let answers = s.fake.count_requests(0, |r| r.is_callback_of(*id));
        assert_eq!(answers, 1, "{what}: {answers} callbacks");
        if !token.is_empty() {
            let followups = s.fake.count_requests(0, |r| r.is_followup_of(token));
            assert_eq!(followups, 0, "{what}: follow-ups");
        }
    }
    // The commands were registered again, once (it is rate-limited).
    s.fake
        .wait_for_n(2, "the commands registered again", TIMEOUT, is_registration);
    assert_eq!(s.fake.count_requests(0, is_registration), 2);
    // Logged with what was wrong.
    let log = s
        .bot()
        .wait_stderr("an interaction's options do not fit the command", TIMEOUT);
    assert!(
        log.contains("teleport"),
        "the unknown command is named in the log"
    );
}

#[test]
fn an_internal_error_is_logged_without_a_backtrace_even_with_rust_backtrace() {
    let mut s = Session::start_with(|o| {
        o.env.push(("RUST_BACKTRACE".into(), "1".into()));
        o.env.push(("RUST_LIB_BACKTRACE".into(), "1".into()));
    });
    let alice = s.player(10);
    s.run(&alice, "/character create name:Corra system:thiz");
    let c = rusqlite::Connection::open(s.options().db()).expect("open");
    c.execute(
        "UPDATE characters SET sheet_json = 'not json' WHERE name = 'Corra'",
        [],
    )
    .expect("break the sheet");
    drop(c);
    let r = s.run(&alice, "/character show name:Corra");
    assert!(r.ephemeral());
    assert!(r.text().contains("Something went wrong"), "{}", r.text());
    let log = s.bot().wait_stderr("is corrupt", TIMEOUT);
    assert!(
        !log.to_lowercase().contains("stack backtrace"),
        "a backtrace was logged:\n{log}"
    );
}

/// Payloads serenity cannot turn into its model (issue 33): poise never sees them, so the shard's
/// watch answers each once, ephemerally, from the event's JSON, running nothing, after a new
/// session and a resume too.
#[test]
fn interactions_serenity_cannot_read_get_one_ephemeral_answer() {
    let s = Session::start_with(|o| o.log = "referee=info".into());
    let alice = s.player(10);
    let before = s.run(&alice, "/history").text();
    // Built readable, then spoilt as a buggy or changed Discord client might send them.
    let spoilt = |built: payload::Built, value: Value| {
        let mut built = built;
        built.json["data"]["options"][0]["value"] = value;
        built
    };
    let null_roll = || {
        spoilt(
            payload::command(
                &alice,
                "roll",
                vec![string("expression", "1d6")],
                Value::Null,
            ),
            Value::Null,
        )
    };
    let cases: Vec<(&str, payload::Built)> = vec![
        ("an option whose value is null", null_roll()),
        (
            "an integer option of 1e30",
            spoilt(
                payload::command(&alice, "check", vec![integer("rating", 4)], Value::Null),
                json!(1e30),
            ),
        ),
    ];
    let check = |what: &str, built: payload::Built| {
        let id = built.id;
        let reply = s.send_unreadable(built);
        assert_eq!(reply.kind(), 4, "{what}: {}", reply.callback_body());
        assert!(reply.ephemeral(), "{what}: {}", reply.callback_body());
        assert!(
            reply.content().contains("could not read"),
            "{what}: {}",
            reply.callback_body()
        );
        // A barrier, then exactly one answer.
        s.run(&alice, "/odds thiz rating:4");
        assert_eq!(
            s.fake.count_requests(0, |r| r.is_callback_of(id)),
            1,
            "{what}"
        );
    };
    for (what, built) in cases {
        check(what, built);
    }
    // The watch is per shard runner: a runner restarted (IDENTIFY afresh) gets a new one, and a
    // resumed one keeps its own, each answering once. A barrier command first: the watch starts
    // when the door sees READY, which an interaction in the same instant could overtake.
    s.fake.invalidate_session(false);
    s.fake.wait_ready(2, TIMEOUT);
    s.run(&alice, "/odds thiz rating:4");
    check("after a new session", null_roll());
    s.fake.reconnect();
    s.fake.wait_resumed(1, TIMEOUT);
    s.run(&alice, "/odds thiz rating:4");
    check("after a resume", null_roll());
    // Nothing ran: the roll log is as it was.
    let after = s.run(&alice, "/history");
    assert_eq!(before, after.text());
}
