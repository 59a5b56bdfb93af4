//! Interactions serenity cannot read still get an answer (issue 33).
//!
//! serenity turns each gateway event into its model before anyone sees it; an interaction that
//! does not fit (an option whose value is `null`, an integer option of `1e30`) becomes an
//! "unknown event", which poise never sees, and the user would read "The application did not
//! respond". serenity hands such events, with their JSON, to raw event handlers: this one answers
//! an `INTERACTION_CREATE` with an id and a token ephemerally over REST (an autocomplete with no
//! suggestions), runs nothing, and counts it under the metrics' command `unreadable`.

use std::sync::Arc;
use std::time::Instant;

use poise::serenity_prelude as serenity;
use serde_json::Value;

use super::answer;
use super::metrics::{Metrics, Outcome};
use crate::app::reply::Reply;

/// The metrics' command label for these interactions.
const LABEL: &str = "unreadable";

/// What the user reads.
pub const UNREADABLE: &str = "Discord sent this command in a form the bot could not read, so nothing was done. Try it again; if it keeps failing, tell the server's admins.";

/// An interaction to answer: its id, token and type (4 is an autocomplete).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unread {
    pub id: u64,
    pub token: String,
    pub kind: u64,
}

/// The interaction in an unknown event's JSON (its `d`), if it carries an id and a token.
pub fn interaction_in(d: &Value) -> Option<Unread> {
    let id = match &d["id"] {
        Value::String(s) => s.parse().ok()?,
        Value::Number(n) => n.as_u64()?,
        _ => return None,
    }
    .max(1);
    let token = d["token"].as_str().filter(|t| !t.is_empty())?.to_owned();
    // A PING (1) comes only over HTTP; the rest are answerable.
    let kind = d["type"].as_u64().filter(|k| (2..=5).contains(k))?;
    Some(Unread { id, token, kind })
}

/// The raw event handler (see the module's docs).
pub struct Unreadable {
    pub metrics: Option<Arc<Metrics>>,
}

#[serenity::async_trait]
impl serenity::RawEventHandler for Unreadable {
    async fn raw_event(&self, ctx: serenity::Context, event: serenity::Event) {
        let serenity::Event::Unknown(unknown) = event else {
            return;
        };
        if unknown.kind != "INTERACTION_CREATE" {
            return;
        }
        let Some(unread) = interaction_in(&unknown.value) else {
            tracing::warn!("an interaction serenity could not read, without an id and token");
            return;
        };
        let arrived = Instant::now();
        tracing::warn!(
            id = unread.id,
            kind = unread.kind,
            "an interaction serenity could not read: answered, nothing run"
        );
        let interaction = (
            serenity::InteractionId::new(unread.id),
            unread.token.as_str(),
        );
        let answered = if unread.kind == 4 {
            let none = serenity::CreateInteractionResponse::Autocomplete(
                serenity::CreateAutocompleteResponse::new(),
            );
            matches!(
                answer::callback(&ctx.http, interaction, &none, arrived).await,
                answer::Callback::Acknowledged
            )
        } else {
            answer::answer(
                &ctx.http,
                interaction,
                &Reply::ephemeral(UNREADABLE),
                arrived,
            )
            .await
        };
        if let Some(metrics) = &self.metrics {
            let outcome = if answered {
                Outcome::Stale
            } else {
                Outcome::Unanswered
            };
            metrics.interaction(LABEL, outcome, arrived);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    #[test]
    fn an_interaction_is_found_in_an_unknown_events_json() {
        let d = json!({"id": "1234", "token": "tok", "type": 2,
            "data": {"name": "roll", "options": [{"name": "expression", "type": 3, "value": null}]}});
        assert_eq!(
            interaction_in(&d),
            Some(Unread {
                id: 1234,
                token: "tok".into(),
                kind: 2
            })
        );
    }

    #[test]
    fn what_carries_no_interaction_is_left_alone() {
        let cases = [
            // No token, an empty one, no id, a bad id, a PING, an unknown type.
            json!({"id": "1", "type": 2}),
            json!({"id": "1", "token": "", "type": 2}),
            json!({"token": "t", "type": 2}),
            json!({"id": "x", "token": "t", "type": 2}),
            json!({"id": "1", "token": "t", "type": 1}),
            json!({"id": "1", "token": "t", "type": 9}),
            json!("not an object"),
        ];
        for d in cases {
            assert_eq!(interaction_in(&d), None, "{d}");
        }
    }
}
