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
