//! Reply models → Discord builders, within Discord's limits. Pure: no I/O, unit-tested.
//!
//! [`fit`] first cuts a reply to Discord's limits on our own model (so the cutting is tested
//! without serenity), then the builders copy it field by field. Colours come from the reply's
//! [`Tone`](crate::app::reply::Tone) (THIZ levels: black, red, yellow, green; grey for failure).
//! Every message goes out with no mentions allowed (SPEC §3).
//!
//! These builders are the only renderer of a reply: `run` and `serve` send what they build, and
//! `referee console --json` prints the same builders serialized ([`response_data`] and its
//! siblings), so what one checks in the console is what Discord gets. They hand the console
//! plain JSON, never a serenity type.

use poise::serenity_prelude as serenity;

use crate::app::layout;
use crate::app::reply::{Embed, Field, Reply, ReplyFile, Visibility};

/// The answer to any internal failure (the details are logged, never shown).
pub const SOMETHING_WENT_WRONG: &str =
    "Something went wrong. The error was logged; please try again.";

// Discord's limits, kept beside the reply model (a use case pages a list by them).
pub use crate::app::layout::{
    BUTTONS_PER_ROW, CONTENT_MAX, CUSTOM_ID_MAX, DESCRIPTION_MAX, EMBEDS_MAX, EMBEDS_TOTAL_MAX,
    FIELD_NAME_MAX, FIELD_VALUE_MAX, FIELDS_MAX, FOOTER_MAX, LABEL_MAX, ROWS_MAX, TITLE_MAX,
};

/// What Discord shows for an empty field name or value (both must be non-empty).
const BLANK: &str = "\u{200b}";

/// `text` cut to at most `max` characters, ending in "…" when cut.
pub fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// "3 more fields not shown": the field that stands for what [`fit`] left out of an embed.
fn left_out_field(count: usize) -> Field {
    Field {
        name: "More".into(),
        value: format!("{count} more fields not shown"),
        inline: false,
    }
}

/// The reply cut to Discord's limits, the last resort behind `app::layout` (which pages the
/// lists that can grow, so that nothing is lost): a field value over its limit is split at line
/// boundaries into numbered fields ("Equipment (1/2)"), never cut mid-line; long texts end in
/// "…"; fields past 25, and past the 6,000 characters the embeds share (the last embed's last
/// fields first, then whole embeds), are left out, and a last field or a line of the content
/// says how many; extra buttons are dropped; empty field texts become a blank Discord accepts,
/// and a reply with nothing to show gets a dash.
pub fn fit(reply: &Reply) -> Reply {
    let mut out = reply.clone();
    out.embeds.truncate(EMBEDS_MAX);
    // Fields each embed had to leave out.
    let mut left_out: Vec<usize> = Vec::with_capacity(out.embeds.len());
    for e in &mut out.embeds {
        e.title = cut(&e.title, TITLE_MAX);
        e.description = cut(&e.description, DESCRIPTION_MAX);
        e.footer = e.footer.as_ref().map(|f| cut(f, FOOTER_MAX));
        e.fields = e.fields.iter().flat_map(layout::split_field).collect();
        let mut dropped = 0;
        if e.fields.len() > FIELDS_MAX {
            dropped = e.fields.len() - (FIELDS_MAX - 1);
            e.fields.truncate(FIELDS_MAX - 1);
        }
        for f in &mut e.fields {
            f.name = if f.name.trim().is_empty() {
                BLANK.into()
            } else {
                cut(&f.name, FIELD_NAME_MAX)
            };
            f.value = if f.value.trim().is_empty() {
                BLANK.into()
            } else {
                cut(&f.value, FIELD_VALUE_MAX)
            };
        }
        left_out.push(dropped);
    }
    // Over the shared budget: the last embed's fields go, last first, then the embed itself.
    let total = |embeds: &[Embed], left_out: &[usize]| -> usize {
        embeds
            .iter()
            .zip(left_out)
            .map(|(e, &n)| {
                layout::embed_chars(e)
                    + if n > 0 {
                        let f = left_out_field(n);
                        f.name.chars().count() + f.value.chars().count()
                    } else {
                        0
                    }
            })
            .sum()
    };
    let mut embeds_left_out = 0;
    while total(&out.embeds, &left_out) > EMBEDS_TOTAL_MAX {
        let (Some(last), Some(dropped)) = (out.embeds.last_mut(), left_out.last_mut()) else {
            break;
        };
        if last.fields.pop().is_some() {
            *dropped += 1;
        } else {
            out.embeds.pop();
            left_out.pop();
            embeds_left_out += 1;
        }
    }
    for (e, &n) in out.embeds.iter_mut().zip(&left_out) {
        if n > 0 {
            e.fields.push(left_out_field(n));
        }
    }
    out.content = if embeds_left_out > 0 {
        // Decision: an embed left out is said in the content, which has its own budget, so the
        // note costs no field; the content is cut first to make room for it.
        let note = format!(
            "({embeds_left_out} more embeds did not fit in one message and are not shown.)"
        );
        let room = CONTENT_MAX - note.chars().count() - 1;
        let content = cut(&out.content, room);
        if content.is_empty() {
            note
        } else {
            format!("{content}\n{note}")
        }
    } else {
        cut(&out.content, CONTENT_MAX)
    };
    out.buttons.truncate(BUTTONS_PER_ROW * ROWS_MAX);
    for b in &mut out.buttons {
        b.label = cut(&b.label, LABEL_MAX);
        // A custom id is ours (`luck:reroll:{roll}`), far below the limit; a longer one would be
        // a bug, and cutting it would point at another roll, so it is disabled instead.
        if b.custom_id.chars().count() > CUSTOM_ID_MAX {
            b.custom_id = cut(&b.custom_id, CUSTOM_ID_MAX);
            b.disabled = true;
        }
    }
    if out.content.trim().is_empty() && out.embeds.is_empty() {
        out.content = "—".into();
    }
    out.gm_copy = reply.gm_copy.as_ref().map(|c| Box::new(fit(c)));
    out.caller_copy = reply.caller_copy.as_ref().map(|c| Box::new(fit(c)));
    out.notice = reply.notice.as_ref().map(|c| Box::new(fit(c)));
    out
}

fn embed(e: &Embed) -> serenity::CreateEmbed {
    let mut b = serenity::CreateEmbed::new();
    if !e.title.is_empty() {
        b = b.title(&e.title);
    }
    if !e.description.is_empty() {
        b = b.description(&e.description);
    }
    if let Some(tone) = e.tone {
        b = b.colour(tone.color());
    }
    b = b.fields(
        e.fields
            .iter()
            .map(|f| (f.name.clone(), f.value.clone(), f.inline)),
    );
    if let Some(footer) = &e.footer {
        b = b.footer(serenity::CreateEmbedFooter::new(footer));
    }
    b
}

fn embeds(r: &Reply) -> Vec<serenity::CreateEmbed> {
    r.embeds.iter().map(embed).collect()
}

fn components(r: &Reply) -> Vec<serenity::CreateActionRow> {
    r.buttons
        .chunks(BUTTONS_PER_ROW)
        .map(|row| {
            serenity::CreateActionRow::Buttons(
                row.iter()
                    .map(|b| {
                        serenity::CreateButton::new(&b.custom_id)
                            .label(&b.label)
                            .style(serenity::ButtonStyle::Primary)
                            .disabled(b.disabled)
                    })
                    .collect(),
            )
        })
        .collect()
}

fn no_mentions() -> serenity::CreateAllowedMentions {
    serenity::CreateAllowedMentions::new()
}

/// Nobody, or the one user the reply names to ping (a turn's player): never roles, never
/// everyone, never anyone a name in the text happens to spell.
fn allowed(r: &Reply) -> serenity::CreateAllowedMentions {
    match r.mention {
        Some(user) => no_mentions().users([serenity::UserId::new(user.max(1))]),
        None => no_mentions(),
    }
}

/// The reply to a slash command.
pub fn create_reply(reply: &Reply) -> poise::CreateReply {
    let r = fit(reply);
    let mut b = poise::CreateReply::default()
        .content(&r.content)
        .ephemeral(r.visibility == Visibility::Ephemeral)
        .allowed_mentions(allowed(&r));
    for e in embeds(&r) {
        b = b.embed(e);
    }
    if !r.buttons.is_empty() {
        b = b.components(components(&r));
    }
    if let Some(file) = &r.file {
        b = b.attachment(attachment(file));
    }
    b
}

fn attachment(file: &ReplyFile) -> serenity::CreateAttachment {
    serenity::CreateAttachment::bytes(file.content.as_slice(), file.name.as_str())
}

/// The answer to an interaction as a new message (the `data` of a type 4 callback), with its
/// file: what `run` answers a command or a press with, what `serve` puts in its HTTP answer (a
/// reply with a file, which JSON cannot carry, is deferred there and edited in), and what the
/// console prints ([`response_data`]).
pub fn interaction_message(reply: &Reply) -> serenity::CreateInteractionResponseMessage {
    let r = fit(reply);
    let mut b = serenity::CreateInteractionResponseMessage::new()
        .content(&r.content)
        .embeds(embeds(&r))
        .ephemeral(r.visibility == Visibility::Ephemeral)
        .allowed_mentions(allowed(&r));
    if !r.buttons.is_empty() {
        b = b.components(components(&r));
    }
    if let Some(file) = &r.file {
        b = b.add_file(attachment(file));
    }
    b
}

/// The new text of the message whose button was pressed (a roll request's status): content,
/// embeds and buttons replaced whole, so buttons it no longer has disappear.
pub fn updated_message(reply: &Reply) -> serenity::CreateInteractionResponseMessage {
    let r = fit(reply);
    serenity::CreateInteractionResponseMessage::new()
        .content(&r.content)
        .embeds(embeds(&r))
        .components(components(&r))
        .allowed_mentions(no_mentions())
}

/// A follow-up message to an interaction, with its file: an answer whose callback may not have
/// arrived, a GM's copy of the NPC numbers, a notice to the channel.
pub fn followup(reply: &Reply) -> serenity::CreateInteractionResponseFollowup {
    let r = fit(reply);
    let mut b = serenity::CreateInteractionResponseFollowup::new()
        .content(&r.content)
        .embeds(embeds(&r))
        .ephemeral(r.visibility == Visibility::Ephemeral)
        .allowed_mentions(allowed(&r));
    if !r.buttons.is_empty() {
        b = b.components(components(&r));
    }
    if let Some(file) = &r.file {
        b = b.add_file(attachment(file));
    }
    b
}

/// The reply as the content of a deferred interaction response (`referee serve` edits its
/// placeholder into the answer), with its file.
pub fn edit_response(reply: &Reply) -> serenity::EditInteractionResponse {
    let r = fit(reply);
    let mut b = serenity::EditInteractionResponse::new()
        .content(&r.content)
        .embeds(embeds(&r))
        .allowed_mentions(no_mentions())
        .components(components(&r));
    if let Some(file) = &r.file {
        b = b.new_attachment(attachment(file));
    }
    b
}

/// The reply as the new body of a message the bot posted earlier (the encounter's status):
/// content, embeds and buttons replaced; an empty button list clears them.
pub fn edit_message(reply: &Reply) -> serenity::EditMessage {
    let r = fit(reply);
    serenity::EditMessage::new()
        .content(&r.content)
        .embeds(embeds(&r))
        .allowed_mentions(no_mentions())
        .components(components(&r))
}

/// A message posted to a channel: the GM channel's copy, the encounter's status.
pub fn create_message(reply: &Reply) -> serenity::CreateMessage {
    let r = fit(reply);
    let mut b = serenity::CreateMessage::new()
        .content(&r.content)
        .embeds(embeds(&r))
        .allowed_mentions(allowed(&r));
    if !r.buttons.is_empty() {
        b = b.components(components(&r));
    }
    b
}

/// A builder as the JSON it goes out as. serenity's builders are plain data, so this cannot
/// fail; if it ever did, that is logged and the console shows `null`.
fn json(builder: &impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(builder).unwrap_or_else(|e| {
        tracing::error!(error = %e, "a rendered reply does not serialize");
        serde_json::Value::Null
    })
}

/// [`interaction_message`] as JSON: the `data` of the callback `run` and `serve` answer with.
pub fn response_data(reply: &Reply) -> serde_json::Value {
    json(&interaction_message(reply))
}

/// [`updated_message`] as JSON: the message a button press rewrites (a type 7 callback's `data`).
pub fn update_data(reply: &Reply) -> serde_json::Value {
    json(&updated_message(reply))
}

/// [`followup`] as JSON: the body of a follow-up message.
pub fn followup_data(reply: &Reply) -> serde_json::Value {
    json(&followup(reply))
}

/// [`create_message`] as JSON: the body of a message posted to a channel (the outbox adds its
/// nonce when it delivers a GM copy).
pub fn message_data(reply: &Reply) -> serde_json::Value {
    json(&create_message(reply))
}

/// The components of `message` with every button disabled: a luck button is used once.
pub fn disabled_components(message: &serenity::Message) -> Vec<serenity::CreateActionRow> {
    message
        .components
        .iter()
        .map(|row| {
            serenity::CreateActionRow::Buttons(
                row.components
                    .iter()
                    .filter_map(|c| match c {
                        serenity::ActionRowComponent::Button(b) => Some(b),
                        _ => None,
                    })
                    .map(|b| {
                        let mut nb = match &b.data {
                            serenity::ButtonKind::Link { url } => {
                                serenity::CreateButton::new_link(url)
                            }
                            serenity::ButtonKind::Premium { sku_id } => {
                                serenity::CreateButton::new_premium(*sku_id)
                            }
                            serenity::ButtonKind::NonLink { custom_id, style } => {
                                serenity::CreateButton::new(custom_id).style(*style)
                            }
                        };
                        if let Some(label) = &b.label {
                            nb = nb.label(label);
                        }
                        nb.disabled(true)
                    })
                    .collect(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::reply::{Button, Tone};
    use serde_json::Value;

    fn field(name: &str, value: &str) -> Field {
        Field {
            name: name.into(),
            value: value.into(),
            inline: true,
        }
    }

    fn embed_of(fields: Vec<Field>) -> Embed {
        Embed {
            title: "t".into(),
            description: "d".into(),
            tone: Some(Tone::Red),
            fields,
            footer: None,
        }
    }

    // twilight-validate's habit: both sides of every limit.
    #[test]
    fn content_is_cut_only_past_the_limit() {
        let at = "a".repeat(CONTENT_MAX);
        assert_eq!(fit(&Reply::public(at.clone())).content, at);
        let over = fit(&Reply::public("a".repeat(CONTENT_MAX + 1))).content;
        assert_eq!(over.chars().count(), CONTENT_MAX);
        assert!(over.ends_with('…'));
        // Characters, not bytes.
        let wide = "é".repeat(CONTENT_MAX);
        assert_eq!(fit(&Reply::public(wide.clone())).content, wide);
    }

    #[test]
    fn embed_texts_are_cut_at_their_limits() {
        for (max, set) in [
            (
                TITLE_MAX,
                (|e: &mut Embed, s: String| e.title = s) as fn(&mut Embed, String),
            ),
            (DESCRIPTION_MAX, |e, s| e.description = s),
            (FOOTER_MAX, |e, s| e.footer = Some(s)),
        ] {
            for (len, cut_expected) in [(max, false), (max + 1, true)] {
                let mut e = embed_of(vec![]);
                set(&mut e, "x".repeat(len));
                let out = fit(&Reply::public("").with_embed(e));
                let all = serde_json::to_string(&out.embeds[0]).unwrap();
                assert_eq!(all.contains('…'), cut_expected, "max {max} len {len}");
            }
        }
    }

    // Issue 57, item 6: a field value past its limit is split, never cut.
    #[test]
    fn a_field_of_the_limit_is_kept_whole_and_one_past_it_split() {
        let at =
            fit(&Reply::public("")
                .with_embed(embed_of(vec![field("n", &"v".repeat(FIELD_VALUE_MAX))])));
        assert_eq!(at.embeds[0].fields.len(), 1);
        assert_eq!(at.embeds[0].fields[0].value, "v".repeat(FIELD_VALUE_MAX));
        let over = fit(&Reply::public("")
            .with_embed(embed_of(vec![field("n", &"v".repeat(FIELD_VALUE_MAX + 1))])));
        let parts: Vec<(&str, usize)> = over.embeds[0]
            .fields
            .iter()
            .map(|f| (f.name.as_str(), f.value.chars().count()))
            .collect();
        assert_eq!(parts, [("n (1/2)", FIELD_VALUE_MAX), ("n (2/2)", 1)]);
        // A list is split between its lines: 48 lines of 20 and one of 17, 1,025 characters.
        let mut list: Vec<String> = (0..48).map(|i| format!("{i:>20}")).collect();
        list.push("x".repeat(17));
        let value = list.join("\n");
        assert_eq!(value.chars().count(), FIELD_VALUE_MAX + 1);
        let over = fit(&Reply::public("").with_embed(embed_of(vec![field("Gear", &value)])));
        let fields = &over.embeds[0].fields;
        assert_eq!(fields.len(), 2);
        assert_eq!(fields[0].name, "Gear (1/2)");
        assert_eq!(fields[0].value, list[..48].join("\n"));
        assert_eq!(fields[1].value, list[48]);
    }

    #[test]
    fn what_the_shared_budget_leaves_out_is_said() {
        // 5,012 characters, then 5 fields of 402: the second keeps what fits beside the first
        // (988 characters, a note of 27 among them) and says what it lost.
        let of = |len: usize| {
            embed_of(
                (0..5)
                    .map(|i| field(&format!("f{i}"), &"v".repeat(len)))
                    .collect(),
            )
        };
        let out = fit(&Reply::public("").with_embed(of(1000)).with_embed(of(400)));
        assert_eq!(out.embeds.len(), 2);
        let second = &out.embeds[1].fields;
        assert_eq!(second.len(), 2 + 1, "two fields fit beside the first embed");
        assert_eq!(second[2].value, "3 more fields not shown");
        assert!(out.embeds.iter().map(layout::embed_chars).sum::<usize>() <= EMBEDS_TOTAL_MAX);
        // An embed with no field left to drop is left out whole, and the content says so.
        let huge = || Embed {
            description: "d".repeat(DESCRIPTION_MAX),
            ..embed_of(vec![])
        };
        let out = fit(&Reply::public("hi").with_embed(huge()).with_embed(huge()));
        assert_eq!(out.embeds.len(), 1);
        assert_eq!(
            out.content,
            "hi\n(1 more embeds did not fit in one message and are not shown.)"
        );
    }

    #[test]
    fn fields_beyond_twenty_five_are_summarised() {
        let fields = |n: usize| {
            (0..n)
                .map(|i| field(&format!("f{i}"), "v"))
                .collect::<Vec<_>>()
        };
        let at = fit(&Reply::public("").with_embed(embed_of(fields(FIELDS_MAX))));
        assert_eq!(at.embeds[0].fields.len(), FIELDS_MAX);
        assert_eq!(at.embeds[0].fields[24].name, "f24");
        let over = fit(&Reply::public("").with_embed(embed_of(fields(FIELDS_MAX + 3))));
        assert_eq!(over.embeds[0].fields.len(), FIELDS_MAX);
        assert_eq!(over.embeds[0].fields[24].value, "4 more fields not shown");
    }

    #[test]
    fn empty_fields_become_blank_and_empty_replies_a_dash() {
        let out = fit(&Reply::public("").with_embed(embed_of(vec![field("", " ")])));
        assert_eq!(out.embeds[0].fields[0].name, BLANK);
        assert_eq!(out.embeds[0].fields[0].value, BLANK);
        assert_eq!(fit(&Reply::public("")).content, "—");
    }

    #[test]
    fn embeds_share_six_thousand_characters() {
        // "t" + "d" + "n" + 996 characters = 999 each: six fit in 6000, seven do not.
        let big = || embed_of(vec![field("n", &"v".repeat(996))]);
        let mut r = Reply::public("");
        for _ in 0..6 {
            r = r.with_embed(big());
        }
        assert_eq!(layout::embed_chars(&big()), 999);
        assert_eq!(fit(&r).embeds.len(), 6);
        let r = r.with_embed(big());
        assert_eq!(
            fit(&r).embeds.len(),
            6,
            "the seventh (6993 characters in all) is dropped"
        );
    }

    #[test]
    fn builders_carry_colour_flags_buttons_and_no_mentions() {
        let r = Reply::ephemeral("hi")
            .with_embed(embed_of(vec![field("Roll", "42")]))
            .with_button(Button {
                custom_id: "luck:reroll:3".into(),
                label: "Spend luck: reroll".into(),
                disabled: false,
            });
        let msg: Value = serde_json::to_value(interaction_message(&r)).unwrap();
        assert_eq!(msg["flags"], 64);
        assert_eq!(msg["allowed_mentions"]["parse"], serde_json::json!([]));
        assert_eq!(msg["embeds"][0]["color"], Tone::Red.color());
        assert_eq!(
            msg["components"][0]["components"][0]["custom_id"],
            "luck:reroll:3"
        );
        let public: Value = serde_json::to_value(create_message(&Reply::public("x"))).unwrap();
        assert_eq!(public["allowed_mentions"]["parse"], serde_json::json!([]));
        assert!(public.get("flags").is_none_or(|f| f != 64));
        let follow: Value = serde_json::to_value(followup(&r)).unwrap();
        assert_eq!(follow["flags"], 64);
        assert_eq!(follow["allowed_mentions"]["parse"], serde_json::json!([]));
    }

    #[test]
    fn a_mention_in_a_name_stays_text() {
        // The escaping is app's; here the point is that nothing turns mentions back on.
        let r = Reply::public("@everyone rolled");
        let msg: Value = serde_json::to_value(create_message(&r)).unwrap();
        let allowed = &msg["allowed_mentions"];
        assert_eq!(allowed["parse"], serde_json::json!([]));
        for list in ["users", "roles"] {
            assert!(
                allowed[list].as_array().is_none_or(Vec::is_empty),
                "{allowed}"
            );
        }
        assert!(allowed.get("replied_user").is_none_or(|v| v == false));
    }
}
