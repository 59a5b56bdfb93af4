//! The JSON bodies of the endpoint's answers: interaction responses, as serenity's own builders
//! serialize them for the callback route (so the gateway and `referee serve` send the same
//! bytes for the same reply). Pure.

use poise::serenity_prelude as serenity;

use crate::app::Reply;
use crate::bot::render;

/// PONG, the answer to Discord's PING.
pub fn pong() -> Vec<u8> {
    br#"{"type":1}"#.to_vec()
}

/// `reply` as a new message (type 4). Its file, if any, cannot travel in JSON: see
/// [`super::rest::answer`].
pub fn message(reply: &Reply) -> Vec<u8> {
    json(&serenity::CreateInteractionResponse::Message(
        render::interaction_message(reply),
    ))
}

/// The answer comes later (type 5): Discord shows "thinking…", to the caller alone when
/// `ephemeral`, and the answer is edited in.
pub fn deferred(ephemeral: bool) -> Vec<u8> {
    json(&serenity::CreateInteractionResponse::Defer(
        serenity::CreateInteractionResponseMessage::new().ephemeral(ephemeral),
    ))
}

/// A button press acknowledged, its message left as it is for now (type 6).
pub fn acknowledged() -> Vec<u8> {
    json(&serenity::CreateInteractionResponse::Acknowledge)
}

/// The pressed button's message rewritten (type 7).
pub fn update(message: serenity::CreateInteractionResponseMessage) -> Vec<u8> {
    json(&serenity::CreateInteractionResponse::UpdateMessage(message))
}

/// Autocomplete suggestions (type 8).
pub fn choices(choices: serenity::CreateAutocompleteResponse) -> Vec<u8> {
    json(&serenity::CreateInteractionResponse::Autocomplete(choices))
}

/// No suggestions (type 8).
pub fn no_choices() -> Vec<u8> {
    choices(serenity::CreateAutocompleteResponse::new())
}

fn json(response: &serenity::CreateInteractionResponse) -> Vec<u8> {
    serde_json::to_vec(response).unwrap_or_else(|e| {
        // serenity's builders are plain data; this would be a bug, still answered.
        tracing::error!(error = %e, "an interaction response does not serialize");
        format!(
            r#"{{"type":4,"data":{{"content":"{}","flags":64,"allowed_mentions":{{"parse":[]}}}}}}"#,
            render::SOMETHING_WENT_WRONG
        )
        .into_bytes()
    })
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn parsed(body: &[u8]) -> Value {
        serde_json::from_slice(body).expect("JSON")
    }

    /// Replies past Discord's limits: /help's 8 buttons, content over 2,000 characters, an
    /// embed of 30 fields, and one carrying every copy the console routes.
    fn replies_past_the_limits() -> Vec<Reply> {
        use crate::app::reply::{Button, Embed, Field};
        let button = |i: usize| Button {
            custom_id: format!("help:{i}"),
            label: format!("Topic {i}"),
            disabled: false,
        };
        let mut help = Reply::ephemeral("Pick a topic");
        for i in 0..8 {
            help = help.with_button(button(i));
        }
        let thirty = Reply::public("").with_embed(Embed {
            title: "Thirty".into(),
            fields: (0..30)
                .map(|i| Field {
                    name: format!("f{i}"),
                    value: "v".repeat(100),
                    inline: true,
                })
                .collect(),
            ..Embed::default()
        });
        let routed = Reply::public("x".repeat(2_500))
            .with_gm_copy(Reply::public("g".repeat(2_100)))
            .with_update(help.clone())
            .with_file("vexa.json", "{}");
        let routed = Reply {
            caller_copy: Some(Box::new(thirty.clone())),
            notice: Some(Box::new(help.clone())),
            ..routed
        };
        vec![help, Reply::public("y".repeat(2_001)), thirty, routed]
    }

    /// Issue 57, item 9: `referee console --json` prints exactly what `run` and `serve` send
    /// (the same builders' output, compared as JSON), within Discord's limits.
    #[test]
    fn the_console_prints_what_run_and_serve_send() {
        for reply in replies_past_the_limits() {
            let mut console = crate::console::to_json(&reply, true);
            let routing: Vec<(&str, Value)> = crate::console::ROUTING_KEYS
                .iter()
                .filter_map(|k| Some((*k, console.as_object_mut()?.remove(*k)?)))
                .collect();
            let run = serde_json::to_value(crate::bot::answer::response_message(&reply)).unwrap();
            assert_eq!(run["type"], 4);
            assert_eq!(console, run["data"], "run");
            // serve defers a reply with a file and edits it in; any other goes in the answer.
            if reply.file.is_none() {
                assert_eq!(console, parsed(&message(&reply))["data"], "serve");
            }
            for (key, value) in routing {
                let sent = match key {
                    "visibility" => json!(reply.visibility),
                    "gm_copy" => reply
                        .gm_copy
                        .as_deref()
                        .map_or(Value::Null, |c| json!(render::create_message(c))),
                    "update" => json!(render::updated_message(reply.update.as_deref().unwrap())),
                    "caller_copy" => json!(render::followup(reply.caller_copy.as_deref().unwrap())),
                    "notice" => json!(render::followup(reply.notice.as_deref().unwrap())),
                    other => panic!("{other} is not routed by to_json"),
                };
                assert_eq!(value, sent, "{key}");
            }
            for body in [&console, &run["data"]] {
                assert!(body["content"].as_str().unwrap().chars().count() <= render::CONTENT_MAX);
                for row in body["components"].as_array().into_iter().flatten() {
                    let buttons = row["components"].as_array().unwrap().len();
                    assert!((1..=render::BUTTONS_PER_ROW).contains(&buttons), "{row}");
                }
                for embed in body["embeds"].as_array().unwrap() {
                    let fields = embed["fields"].as_array().map_or(0, Vec::len);
                    assert!(fields <= render::FIELDS_MAX, "{fields} fields");
                }
                assert_eq!(body["allowed_mentions"]["parse"], json!([]));
            }
        }
        // /help's 8 buttons: two rows, 5 and 3, flagged ephemeral.
        let help = crate::console::to_json(&replies_past_the_limits()[0], false);
        let rows: Vec<usize> = help["components"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["components"].as_array().unwrap().len())
            .collect();
        assert_eq!(rows, [5, 3]);
        assert_eq!(help["flags"], 64);
    }

    #[test]
    fn each_body_has_its_callback_type_and_no_mentions() {
        assert_eq!(parsed(&pong()), json!({"type": 1}));
        let public = parsed(&message(&Reply::public("@everyone rolled 7")));
        assert_eq!(public["type"], 4);
        assert_eq!(public["data"]["content"], "@everyone rolled 7");
        assert_eq!(public["data"]["allowed_mentions"]["parse"], json!([]));
        assert_eq!(public["data"]["flags"].as_u64().unwrap_or(0) & 64, 0);
        let private = parsed(&message(&Reply::ephemeral("only you")));
        assert_eq!(private["data"]["flags"], 64);
        let thinking = parsed(&deferred(true));
        assert_eq!(
            (&thinking["type"], &thinking["data"]["flags"]),
            (&json!(5), &json!(64))
        );
        assert_eq!(parsed(&deferred(false))["type"], 5);
        assert_eq!(
            parsed(&deferred(false))["data"]["flags"]
                .as_u64()
                .unwrap_or(0)
                & 64,
            0
        );
        assert_eq!(parsed(&acknowledged())["type"], 6);
        assert_eq!(
            parsed(&no_choices()),
            json!({"type": 8, "data": {"choices": []}})
        );
        let updated = parsed(&update(render::updated_message(&Reply::public(
            "2 of 3 rolled",
        ))));
        assert_eq!(updated["type"], 7);
        assert_eq!(updated["data"]["content"], "2 of 3 rolled");
    }
}
