//! The luck and dying buttons through Discord: the owner's press updates the message (buttons
//! disabled) and posts the result as a follow-up; anyone else's press is refused privately.

use super::{Session, custom_ids};
use std::time::Duration;

#[test]
fn only_the_owner_spends_luck_with_the_reroll_button() {
    let s = Session::start();
    let owner = s.player(10);
    let gm = s.gm(1);
    s.run(&owner, "/character create name:Gala system:thiz");
    // Luck is rolled in secret at creation; give Gala a known amount to spend.
    let set = s.run(&gm, "/luck set character:Gala points:3");
    assert!(set.ephemeral(), "luck is the GM's secret: {}", set.text());

    let check = s.run(&owner, "/check rating:4 character:Gala");
    let buttons = check.custom_ids();
    let reroll = buttons
        .iter()
        .find(|id| id.starts_with("luck:reroll:"))
        .unwrap_or_else(|| panic!("a reroll button on the owner's check: {buttons:?}"))
        .clone();
    let message = check.message();

    let stranger = s.press(&s.player(11), &message, &reroll);
    assert_eq!(stranger.kind(), 4, "{}", stranger.callback_body());
    assert!(stranger.ephemeral(), "the refusal is for the presser only");
    assert!(
        s.fake
            .requests()
            .iter()
            .all(|r| !r.is_followup_of(&stranger.interaction.token)),
        "a refused press posts nothing"
    );

    let press = s.press(&owner, &message, &reroll);
    assert_eq!(press.kind(), 7, "the owner's press updates the message");
    let rows = &press.data()["components"];
    let disabled: Vec<bool> = rows
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .map(|b| b["disabled"] == true)
        .collect();
    assert!(
        !disabled.is_empty() && disabled.iter().all(|d| *d),
        "every button is disabled after use: {rows}"
    );
    let followup = press.followup(0);
    let text = super::message_text(followup.body());
    assert!(text.contains("Gala"), "the reroll's result: {text}");
    assert!(
        custom_ids(followup.body()).iter().all(|id| *id != reroll),
        "the spent button is not offered again: {text}"
    );
}

/// Luck in a fight, through Discord: the attacker's press rerolls an attack's hit, and the
/// wounded player lowers a Black wound twice, the second time with the "lower again" button.
#[test]
fn luck_rerolls_an_attack_and_lowers_a_wound_twice() {
    let s = Session::start();
    let ann = s.player(10);
    let bob = s.player(11);
    let gm = s.gm(1);
    s.run(&ann, "/character create name:Gala system:thiz");
    s.run(&bob, "/character create name:Brom system:thiz");
    s.run(&gm, "/luck set character:Gala points:3");
    s.run(&gm, "/luck set character:Brom points:3");
    // Gala strikes Brom outside a fight: the table allows it (issue 57: off by default).
    s.run(&gm, "/gm rules name:players_strike_anywhere value:true");

    let attack = s.run(&ann, "/attack attacker:Gala target:Brom location:head");
    let ids = attack.custom_ids();
    let reroll = ids
        .iter()
        .find(|id| id.starts_with("luck:reroll:"))
        .unwrap_or_else(|| panic!("every attack offers the attacker a reroll of the hit: {ids:?}"))
        .clone();
    let press = s.press(&ann, &attack.message(), &reroll);
    assert_eq!(press.kind(), 7, "{}", press.callback_body());
    let text = super::message_text(press.followup(0).body());
    assert!(
        text.contains("Gala: luck rerolls the hit"),
        "the reroll's result: {text}"
    );
    assert!(
        !text.contains("(3 → 2)") && !text.contains("luck point"),
        "no total: {text}"
    );

    // A wound the GM wrote, lowered by Brom's luck one colour per point.
    s.run(&gm, "/wound heal character:Brom");
    s.run(&gm, "/wound add character:Brom location:gut level:black");
    let first = s.run(&bob, "/luck spend kind:wound character:Brom");
    assert!(
        first
            .text()
            .contains("The Black wound on the Gut is now Red"),
        "{}",
        first.text()
    );
    let again = first
        .custom_ids()
        .into_iter()
        .find(|id| id.starts_with("luck:lower:"))
        .unwrap_or_else(|| panic!("a lower-again button: {}", first.text()));
    let stranger = s.press(&ann, &first.message(), &again);
    assert!(stranger.ephemeral(), "{}", stranger.callback_body());
    let second = s.press(&bob, &first.message(), &again);
    assert_eq!(second.kind(), 7, "{}", second.callback_body());
    let text = super::message_text(second.followup(0).body());
    assert!(
        text.contains("The Red wound on the Gut is now Yellow"),
        "{text}"
    );
    let sheet = s.run(&bob, "/character show name:Brom");
    assert!(sheet.text().contains("Gut: Yellow"), "{}", sheet.text());
}

#[test]
fn the_dying_button_rolls_the_owners_dying_check() {
    let s = Session::start();
    let owner = s.player(10);
    let gm = s.gm(1);
    s.run(&owner, "/character create name:Gala system:thiz");
    let wounded = s.run(&gm, "/wound add character:Gala location:head level:black");
    assert!(!wounded.ephemeral(), "a player character's wound is public");
    let dying = wounded
        .custom_ids()
        .into_iter()
        .find(|id| id.starts_with("dying:"))
        .unwrap_or_else(|| panic!("a dying button: {}", wounded.text()));
    let message = wounded.message();

    let stranger = s.press(&s.player(11), &message, &dying);
    assert_eq!(stranger.kind(), 4, "{}", stranger.callback_body());
    assert!(stranger.ephemeral(), "the refusal is for the presser only");
    assert!(
        stranger.text().contains("belongs to another player"),
        "{}",
        stranger.text()
    );

    let press = s.press(&owner, &message, &dying);
    assert_eq!(press.kind(), 7, "the owner's press updates the message");
    let followup = press.followup(0);
    let text = super::message_text(followup.body());
    assert!(text.contains("Gala: dying check"), "{text}");
    let again = custom_ids(followup.body()).contains(&dying);
    assert_eq!(
        again,
        text.contains("still dying"),
        "the button comes back exactly while Gala is still dying: {text}"
    );
}

/// The status message's latest "Attack" button: its id carries the encounter's version, so it is
/// read from the last post or edit of a message in the channel that had one, among the requests
/// after the first `since`. The bot brings the status message up to date after a command's
/// answer has gone out, so this waits for it (10 s at most).
fn status_attack_button(s: &super::Session, since: usize) -> String {
    status_button(s, since, "enc:attack:", "")
}

/// The status message's latest button whose id starts with `prefix`, on a post or edit that
/// reads `showing` (the change the button must follow: an earlier command's edit may still
/// arrive after `since`); see [`status_attack_button`].
fn status_button(s: &super::Session, since: usize, prefix: &str, showing: &str) -> String {
    let route = format!("/channels/{}/messages", super::CHANNEL_ID);
    let button_of = |r: &crate::fake::Request| {
        if !((r.method == "POST" || r.method == "PATCH") && r.route().starts_with(&route)) {
            return None;
        }
        r.json
            .as_ref()
            .filter(|body| super::message_text(body).contains(showing))
            .map(custom_ids)
            .and_then(|ids| ids.into_iter().find(|id| id.starts_with(prefix)))
    };
    s.fake.wait_for_from(
        since,
        &format!("the status message carries a {prefix} button"),
        Duration::from_secs(10),
        |r| button_of(r).is_some(),
    );
    s.fake
        .requests()
        .iter()
        .skip(since)
        .rev()
        .find_map(button_of)
        .expect("the status message carries the button")
}

/// Issue 57, through Discord: the status message's End asks the GM alone first (nothing ends);
/// a player's press is refused; once the fight has moved on, the confirmation is refused as
/// stale and the fight goes on; End pressed again and confirmed ends it, and says so.
#[test]
fn the_status_messages_end_asks_first_and_a_stale_confirmation_ends_nothing() {
    let s = Session::start();
    let ann = s.player(10);
    let gm = s.gm(1);
    s.run(&ann, "/character create name:Gala system:thiz");
    s.run(&gm, "/character create name:Grimlok system:thiz npc:true");
    s.run(&gm, "/encounter start system:thiz surprise:none");
    s.run(&ann, "/encounter add character:Gala");
    let since = s.fake.requests().len();
    let added = s.run(&gm, "/encounter add npc:Grimlok");
    let end = status_button(&s, since, "enc:end:", "Grimlok 1");
    let carrier = added.message();
    let refused = s.press(&ann, &carrier, &end);
    assert!(refused.ephemeral(), "{}", refused.callback_body());
    let asked = s.press(&gm, &carrier, &end);
    assert!(asked.ephemeral(), "{}", asked.callback_body());
    assert!(
        asked.text().contains("cannot be undone"),
        "{}",
        asked.text()
    );
    let yes = asked
        .custom_ids()
        .into_iter()
        .find(|id| id.starts_with("enc:end-yes:"))
        .expect("an End it button");
    assert!(
        asked
            .custom_ids()
            .iter()
            .any(|id| id.starts_with("enc:end-keep:")),
        "{}",
        asked.callback_body()
    );
    assert!(
        !s.run(&gm, "/encounter show")
            .text()
            .contains("Encounter over"),
        "asking ends nothing"
    );
    // The fight moves on: the confirmation is stale.
    let since = s.fake.requests().len();
    s.run(&gm, "/encounter next");
    let stale = s.press(&gm, &asked.message(), &yes);
    assert!(stale.ephemeral(), "{}", stale.callback_body());
    assert!(stale.text().contains("earlier status"), "{}", stale.text());
    let shown = s.run(&gm, "/encounter show").text();
    assert!(shown.contains("Initiative Pass 1"), "still on: {shown}");
    // Asked again from the current status, and confirmed.
    let end = status_button(&s, since, "enc:end:", "Initiative Pass 1");
    let asked = s.press(&gm, &carrier, &end);
    let yes = asked
        .custom_ids()
        .into_iter()
        .find(|id| id.starts_with("enc:end-yes:"))
        .expect("an End it button");
    let ended = s.press(&gm, &asked.message(), &yes);
    let said = if ended.kind() == 4 {
        ended.text()
    } else {
        super::message_text(ended.followup(0).body())
    };
    assert!(said.contains("The encounter is over"), "{said}");
    let shown = s.run(&gm, "/encounter show").text();
    assert!(
        shown.contains("no encounter") || shown.contains("Encounter over"),
        "ended: {shown}"
    );
}

/// Issue 31, through Discord: the GM presses Attack on the encounter's status message for an
/// NPC's turn, then the target's button. The channel's message shows who hit whom and the wound,
/// with no NPC number; the GM alone gets them, in an ephemeral follow-up; the wounded player's
/// figure keeps its "lower wound" button on the channel's message.
#[test]
fn the_gms_attack_button_keeps_npc_numbers_behind_the_screen() {
    // Sentinels on the NPC's sheet: Unarmed Combat 27, Speed 13.
    const NUMBERS: [&str; 2] = ["Unarmed Combat 27", "Speed 13"];
    let s = Session::start();
    let ann = s.player(10);
    let gm = s.gm(1);
    s.run(&ann, "/character create name:Gala system:thiz");
    s.run(&gm, "/character create name:Grimlok system:thiz npc:true");
    s.run(
        &gm,
        "/character skill name:Grimlok skill:\"Unarmed Combat\" rating:27",
    );
    s.run(&gm, "/character skill name:Grimlok skill:Speed rating:13");
    s.run(&gm, "/encounter start system:thiz surprise:none");
    s.run(&ann, "/encounter add character:Gala");
    s.run(&gm, "/encounter add npc:Grimlok");
    // To Grimlok 1's turn: Next until the Attack button answers for it.
    let grimlok_turn = || {
        for _ in 0..6 {
            let since = s.fake.requests().len();
            let next = s.run(&gm, "/encounter next");
            let carrier = next.message();
            let attack = s.press(&gm, &carrier, &status_attack_button(&s, since));
            assert!(attack.ephemeral(), "{}", attack.callback_body());
            if attack.text().starts_with("Grimlok 1 attacks") {
                let hit = attack
                    .custom_ids()
                    .into_iter()
                    .find(|id| id.starts_with("enc:hit:"))
                    .expect("a target button for Gala");
                return (carrier, hit);
            }
        }
        panic!("Grimlok 1's turn never came");
    };
    // Bare hands at 27 against Speed 0: nearly every blow lands; a wound comes within a few
    // turns (THIZ gives a turn one attack, and a target button acts once).
    let mut wounded = false;
    for turn in 0..6 {
        let (carrier, hit) = grimlok_turn();
        let press = s.press(&gm, &carrier, &hit);
        assert!(
            !press.ephemeral(),
            "a public roll: {}",
            press.callback_body()
        );
        let channel = press.text();
        assert!(channel.contains("Grimlok 1 attacks Gala"), "{channel}");
        for n in NUMBERS {
            assert!(!channel.contains(n), "{n} reached the channel: {channel}");
        }
        let copy = press.followup(0);
        assert_eq!(copy.body()["flags"], 64, "the GM's copy is ephemeral");
        let gm_text = super::message_text(copy.body());
        assert!(gm_text.contains("Unarmed Combat 27"), "{gm_text}");
        if turn == 0 {
            // Issue 32: the same button pressed again attacks nothing, and says why.
            let twice = s.press(&gm, &carrier, &hit);
            assert!(twice.ephemeral(), "{}", twice.callback_body());
            assert!(
                twice.text().contains("an Attack button acts once"),
                "{}",
                twice.callback_body()
            );
        }
        if press
            .custom_ids()
            .iter()
            .any(|id| id.starts_with("luck:wound:"))
        {
            wounded = true;
            break;
        }
    }
    assert!(wounded, "Gala was wounded and kept her own luck button");
}

/// Issue 59, through Discord: "next" into a player's figure's turn mentions that player, with
/// `allowed_mentions` naming them alone (the fake holds every body to Discord's OpenAPI spec);
/// an NPC's turn pings nobody; the GM's switch turns it off.
#[test]
fn a_players_turn_mentions_that_player_alone() {
    let s = Session::start();
    let ann = s.player(10);
    let gm = s.gm(1);
    s.run(&ann, "/character create name:Gala system:thiz");
    s.run(&gm, "/character create name:Grimlok system:thiz npc:true");
    s.run(&gm, "/encounter start system:thiz surprise:none");
    s.run(&ann, "/encounter add character:Gala");
    s.run(&gm, "/encounter add npc:Grimlok");
    let (mut player_turns, mut npc_turns) = (0, 0);
    for _ in 0..8 {
        let next = s.run(&gm, "/encounter next");
        let (content, allowed) = (next.content().to_owned(), &next.data()["allowed_mentions"]);
        assert_eq!(allowed["parse"], serde_json::json!([]), "{allowed}");
        if content.contains("Gala's turn") {
            player_turns += 1;
            assert!(content.starts_with("<@10> "), "{content}");
            assert_eq!(allowed["users"], serde_json::json!(["10"]), "{allowed}");
            assert!(
                allowed
                    .get("roles")
                    .is_none_or(|r| r == &serde_json::json!([]))
            );
        } else {
            npc_turns += 1;
            assert!(!content.contains("<@"), "{content}");
            assert!(
                allowed
                    .get("users")
                    .is_none_or(|u| u == &serde_json::json!([])),
                "{allowed}"
            );
        }
    }
    assert!(
        player_turns > 0 && npc_turns > 0,
        "{player_turns} {npc_turns}"
    );
    s.run(&gm, "/gm rules name:turn_pings value:false");
    for _ in 0..4 {
        let next = s.run(&gm, "/encounter next");
        assert!(!next.content().contains("<@"), "{}", next.content());
    }
}
