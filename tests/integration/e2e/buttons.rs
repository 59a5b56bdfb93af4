//! The luck and dying buttons through Discord: the owner's press updates the message (buttons
//! disabled) and posts the result as a follow-up; anyone else's press is refused privately.

use super::{Session, custom_ids};

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
