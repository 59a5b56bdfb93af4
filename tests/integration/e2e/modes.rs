//! Roll modes over Discord (`/roll` and `/check` in public, private, blind and self), GM
//! commands refused to a player, and bad input answered in one ephemeral line.
//!
//! Owns only these tests; the harness is `super::Session`. Never sleeps: "no GM copy" is shown
//! by a later private roll whose copy is the only message the GM channel got since.

use super::commands::{assert_refusal, number_after};
use super::{GM_CHANNEL_ID, Reply, Session, message_text};
use crate::fake::payload::Caller;

/// Sets the GM channel through Discord, as a member with Manage Server.
fn set_gm_channel(s: &Session, gm: &Caller) {
    let reply = s.run(gm, &format!("/gm setup gm_channel:{GM_CHANNEL_ID}"));
    assert!(reply.text().contains("Settings saved"), "{}", reply.text());
}

/// The GM channel's messages from request index `from` on, waiting first for a later private
/// roll's copy: the bot sends a copy right after its callback, so once the later copy is in, any
/// copy of what came before it is too. Returns the texts before that barrier copy.
fn gm_channel_since(s: &Session, from: usize, roller: &Caller) -> Vec<String> {
    let barrier = s.run(roller, "/roll expression:1d2+909000 mode:private");
    let copy = barrier.channel_message(GM_CHANNEL_ID);
    assert!(
        message_text(copy.body()).contains("90900"),
        "the barrier's copy"
    );
    s.fake
        .requests()
        .into_iter()
        .skip(from)
        .filter(|r| r.index < copy.index && r.is_channel_message(GM_CHANNEL_ID))
        .map(|r| message_text(r.body()))
        .collect()
}

/// `"Total: **N**"` of a `/roll` reply or copy.
fn total(text: &str) -> i64 {
    number_after(text, "Total: **")
}

/// `"Roll: d100: N"` of a `/check` reply or copy.
fn d100(text: &str) -> i64 {
    let n = number_after(text, "d100: ");
    assert!((1..=100).contains(&n), "{text}");
    n
}

/// Runs `line` and returns the reply and the request count before it.
fn run_from<'s>(s: &'s Session, caller: &Caller, line: &str) -> (Reply<'s>, usize) {
    let from = s.fake.requests().len();
    (s.run(caller, line), from)
}

#[test]
fn public_rolls_and_checks_are_seen_by_all_and_not_copied() {
    let s = Session::start();
    let (alys, gm) = (s.player(10), s.gm(1));
    set_gm_channel(&s, &gm);
    for line in [
        "/roll expression:2d6+1 mode:public",
        "/check rating:4 mode:public",
    ] {
        let (reply, from) = run_from(&s, &alys, line);
        assert_eq!(reply.kind(), 4, "{line}");
        assert!(!reply.ephemeral(), "{line}: public");
        let text = reply.text();
        if line.starts_with("/roll") {
            assert!((3..=13).contains(&total(&text)), "{text}");
        } else {
            d100(&text);
        }
        let copies = gm_channel_since(&s, from, &alys);
        assert!(copies.is_empty(), "{line}: no GM copy, got {copies:?}");
    }
}

#[test]
fn private_rolls_and_checks_answer_the_roller_and_copy_the_result_to_the_gm() {
    let s = Session::start();
    let (alys, gm) = (s.player(10), s.gm(1));
    set_gm_channel(&s, &gm);

    let reply = s.run(&alys, "/roll expression:2d6+1 mode:private");
    assert!(reply.ephemeral(), "a private roll answers the roller only");
    let mine = total(&reply.text());
    let copy = message_text(reply.channel_message(GM_CHANNEL_ID).body());
    assert_eq!(total(&copy), mine, "the GM's copy has the result: {copy}");

    let reply = s.run(&alys, "/check rating:4 mode:private");
    assert!(reply.ephemeral(), "a private check answers the roller only");
    let mine = d100(&reply.text());
    let copy = message_text(reply.channel_message(GM_CHANNEL_ID).body());
    assert_eq!(d100(&copy), mine, "the GM's copy has the roll: {copy}");
}

#[test]
fn blind_rolls_and_checks_hide_the_result_from_the_roller() {
    let s = Session::start();
    let (alys, gm) = (s.player(10), s.gm(1));
    set_gm_channel(&s, &gm);

    let reply = s.run(&alys, "/roll expression:1d2+515100 mode:blind");
    let text = reply.text();
    assert!(
        text.contains("blind"),
        "the roller is told it was rolled: {text}"
    );
    assert!(
        !text.contains("515101") && !text.contains("515102"),
        "the roller does not see the result: {text}"
    );
    let copy = message_text(reply.channel_message(GM_CHANNEL_ID).body());
    assert!(
        (515_101..=515_102).contains(&total(&copy)),
        "the GM's copy has the result: {copy}"
    );

    let reply = s.run(&alys, "/check rating:4 mode:blind");
    let text = reply.text();
    assert!(text.contains("blind"), "{text}");
    for hidden in [
        "d100", "Black", "Red", "Yellow", "Green", "Failure", "success",
    ] {
        assert!(
            !text.contains(hidden),
            "{hidden} shown to the roller: {text}"
        );
    }
    let copy = message_text(reply.channel_message(GM_CHANNEL_ID).body());
    d100(&copy);
}

#[test]
fn self_rolls_and_checks_are_the_rollers_alone_and_in_the_gms_history() {
    let s = Session::start();
    let (alys, bram, gm) = (s.player(10), s.player(20), s.gm(1));
    set_gm_channel(&s, &gm);

    let (roll, from) = run_from(&s, &alys, "/roll expression:1d2+616100 mode:self");
    assert!(roll.ephemeral(), "a self roll answers the roller only");
    let rolled = total(&roll.text());
    assert!((616_101..=616_102).contains(&rolled), "{}", roll.text());
    let (check, _) = run_from(&s, &alys, "/check rating:4 mode:self");
    assert!(check.ephemeral(), "a self check answers the roller only");
    d100(&check.text());
    let copies = gm_channel_since(&s, from, &alys);
    assert!(copies.is_empty(), "no GM copy of a self roll: {copies:?}");

    let history = s.run(&gm, "/history").text();
    assert!(
        history.contains("roll · self") && history.contains(&format!("**{rolled}**")),
        "the GM's history has the self roll and its result: {history}"
    );
    assert!(history.contains("check · self"), "{history}");
    let others = s.run(&bram, "/history").text();
    assert!(
        !others.contains("· self") && !others.contains(&rolled.to_string()),
        "another player does not see a self roll: {others}"
    );
}

#[test]
fn gm_commands_are_refused_to_a_player_and_change_nothing() {
    let s = Session::start();
    let (alys, gm) = (s.player(10), s.gm(1));
    assert!(
        s.run(&alys, "/character create name:Alys system:thiz")
            .text()
            .contains("Alys is ready")
    );
    assert!(
        s.run(&gm, "/luck set character:Alys points:7")
            .text()
            .contains("now has 7")
    );
    for line in [
        "/luck set character:Alys points:99",
        "/luck award character:Alys points:5",
        "/luck roll character:Alys",
        "/luck show character:Alys",
        "/luck log character:Alys",
        "/gm hidden character:Alys key:sleepless value:3",
        "/gm note character:Alys text:meddled",
        "/gm setup gm_channel:700000000000000001",
        "/gm rules name:tft_house_rules value:false",
        "/gm roll expression:1d6",
        "/wound add character:Alys location:head level:red",
        "/reveal roll:1",
    ] {
        let reply = s.run(&alys, line);
        assert_refusal(&reply, line);
        // "only a GM can do that…", or "Only a member with Manage Server…" for /gm setup.
        assert!(
            reply.text().to_lowercase().contains("only a"),
            "{line}: {}",
            reply.text()
        );
    }
    // The GM finds everything as it was.
    let luck = s.run(&gm, "/luck show character:Alys").text();
    assert!(luck.contains("Alys has 7 luck points"), "{luck}");
    let hidden = s.run(&gm, "/gm hidden character:Alys key:sleepless").text();
    assert!(!hidden.contains(": 3"), "{hidden}");
    let notes = s.run(&gm, "/gm note character:Alys").text();
    assert!(!notes.contains("meddled"), "{notes}");
    let rules = s.run(&gm, "/gm rules").text();
    assert!(rules.contains("tft_house_rules: on"), "{rules}");
    let sheet = s.run(&gm, "/character show name:Alys").text();
    assert!(sheet.contains("Wounds: none"), "{sheet}");
    let history = s.run(&gm, "/history").text();
    assert!(
        !history.contains("gm roll"),
        "no secret roll was made: {history}"
    );
    // No GM channel was set: a private roll is copied nowhere.
    let (private, from) = run_from(&s, &alys, "/roll expression:1d4 mode:private");
    assert!(private.ephemeral());
    s.run(&alys, "/roll expression:1d4");
    let posted = s
        .fake
        .requests()
        .into_iter()
        .skip(from)
        .filter(|r| r.route().starts_with("/channels/"))
        .count();
    assert_eq!(posted, 0, "the refused /gm setup set no channel");
}

#[test]
fn bad_input_gets_one_ephemeral_line() {
    let s = Session::start();
    let alys = s.player(10);
    s.run(&alys, "/character create name:Alys system:thiz");
    for (line, says) in [
        ("/check character:Nobody rating:3", "Nobody"),
        ("/character show name:Nobody", "Nobody"),
        ("/attack attacker:Alys target:Nobody", "Nobody"),
        ("/tft save attribute:st dice:3 character:Nobody", "Nobody"),
        ("/roll expression:1000d6", "100"),
        ("/roll expression:2d6+", ""),
        ("/roll expression:banana", ""),
        ("/check", ""),
    ] {
        let reply = s.run(&alys, line);
        assert_refusal(&reply, line);
        let text = reply.text();
        assert!(text.contains(says), "{line}: {text}");
        assert!(
            !text.contains("Something went wrong"),
            "{line}: an answer, not an internal error: {text}"
        );
    }
}
