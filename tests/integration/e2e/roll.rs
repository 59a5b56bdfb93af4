//! `/roll` and `/check` through Discord: the public reply, private rolls with the GM channel's
//! copy, and autocomplete.

use serde_json::Value;

use super::{GM_CHANNEL_ID, Session, message_text};

/// The dice and total of a `/roll` reply: "rolled `2d6+1`\n2d6 (3, 5) + 1" and "Total: **9**".
fn dice_and_total(text: &str) -> (Vec<i64>, i64) {
    let list = text
        .split_once("d6 (")
        .and_then(|(_, rest)| rest.split_once(')'))
        .unwrap_or_else(|| panic!("no dice list in {text}"))
        .0;
    let dice = list
        .split(',')
        .map(|d| {
            d.trim()
                .parse()
                .unwrap_or_else(|_| panic!("a die {d:?} in {text}"))
        })
        .collect();
    let total = text
        .split_once("Total: **")
        .and_then(|(_, rest)| rest.split_once("**"))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("no total in {text}"));
    (dice, total)
}

#[test]
fn a_public_roll_answers_in_the_channel_with_a_correct_total() {
    let s = Session::start();
    let reply = s.run(&s.player(10), "/roll expression:2d6+1 label:stats");
    assert_eq!(reply.kind(), 4, "{}", reply.callback_body());
    assert!(!reply.ephemeral(), "a public roll is seen by all");
    assert_eq!(
        reply.data()["allowed_mentions"]["parse"],
        Value::Array(vec![]),
        "the bot never pings anyone"
    );
    let text = reply.text();
    assert!(text.contains("2d6+1"), "{text}");
    let (dice, total) = dice_and_total(&text);
    assert_eq!(dice.len(), 2, "{text}");
    assert!(dice.iter().all(|d| (1..=6).contains(d)), "{text}");
    assert_eq!(total, dice.iter().sum::<i64>() + 1, "{text}");
}

#[test]
fn a_private_roll_is_ephemeral_and_copied_to_the_gm_channel() {
    let s = Session::start();
    let gm = s.gm(1);
    let setup = s.run(&gm, &format!("/gm setup gm_channel:{GM_CHANNEL_ID}"));
    assert!(setup.text().contains("Settings saved"), "{}", setup.text());

    let reply = s.run(&s.player(10), "/roll expression:2d6+1 mode:private");
    assert_eq!(reply.kind(), 4);
    assert!(reply.ephemeral(), "a private roll answers the roller only");
    let (dice, total) = dice_and_total(&reply.text());
    let copy = reply.channel_message(GM_CHANNEL_ID);
    let copy_text = message_text(copy.body());
    assert!(copy_text.contains("Private roll"), "{copy_text}");
    assert_eq!(
        dice_and_total(&copy_text),
        (dice, total),
        "the GM sees the same roll"
    );
    assert_eq!(
        copy.body()["allowed_mentions"]["parse"],
        Value::Array(vec![])
    );
}

/// Issue 32: without a GM channel a player's private roll is refused with the fix, rather than
/// answered as if a copy went somewhere; nothing is posted.
#[test]
fn a_private_check_without_a_gm_channel_is_refused_and_posts_nowhere() {
    let s = Session::start();
    let reply = s.run(&s.player(10), "/check rating:4 mode:private");
    assert!(reply.ephemeral(), "{}", reply.callback_body());
    assert!(
        reply.content().starts_with("No GM channel is set here")
            && reply.content().contains("/gm setup gm_channel:"),
        "{}",
        reply.callback_body()
    );
    // A later public roll's callback is a barrier: the bot handled the first interaction
    // completely (it sends the GM copy right after the callback) before this one's answer.
    let later = s.run(&s.player(10), "/roll expression:1d4");
    assert!(!later.ephemeral());
    let posted = s
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.route().starts_with("/channels/"))
        .count();
    assert_eq!(posted, 0, "no GM channel is set, so no copy is posted");
}

#[test]
fn autocomplete_offers_the_characters_the_caller_may_see() {
    let s = Session::start();
    let owner = s.player(10);
    let gm = s.gm(1);
    s.run(&owner, "/character create name:Gala system:thiz");
    s.run(&gm, "/character create name:Gaunt system:thiz npc:true");
    let names = |caller| -> Vec<String> {
        s.autocomplete(caller, "/check character:Ga", "character")
            .iter()
            .map(|c| {
                assert_eq!(c["name"], c["value"], "a suggestion types the name itself");
                c["name"].as_str().expect("a name").to_owned()
            })
            .collect()
    };
    let seen_by_owner = names(&owner);
    assert!(
        seen_by_owner.contains(&"Gala".to_owned()),
        "{seen_by_owner:?}"
    );
    assert!(
        !seen_by_owner.contains(&"Gaunt".to_owned()),
        "an NPC is the referee's secret: {seen_by_owner:?}"
    );
    let seen_by_gm = names(&gm);
    assert!(
        seen_by_gm.contains(&"Gala".to_owned()) && seen_by_gm.contains(&"Gaunt".to_owned()),
        "{seen_by_gm:?}"
    );
}
