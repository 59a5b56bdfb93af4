//! Interactions serenity cannot read still get an answer (issue 33).
//!
//! serenity turns each gateway event into its model before anyone sees it; an interaction that
//! does not fit (an option whose value is `null`, an integer option of `1e30`) becomes an
//! "unknown event", which poise never sees, and the user would read "The application did not
//! respond". [`Unreadable`] watches each shard's events for an `INTERACTION_CREATE` among them
//! with an id and a token, answers it ephemerally over REST (an autocomplete with no
//! suggestions), runs nothing, and counts it under the metrics' command `unreadable`.
//!
//! It watches through a collector (serenity's `ShardMessenger::add_collector`, what its own
//! collectors use): a callback the shard's runner calls with a reference to every event, in
//! line. A raw event handler would do the same, but serenity clones every event for it and
//! spawns a task to hand it over, thousands a second for the one in a great many that is
//! unknown; that clone and task were a tenth of the heap past saturation. A runner starts with
//! no collectors, so the door starts a watch on each READY (a restarted runner identifies
//! again; a resumed one keeps its watch), and a shard's new watch ends the old one. The door
//! sees READY in a task of its own: an unreadable interaction read in the same instant, before
//! that task has run, goes unwatched, as every one did before issue 33.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
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

/// Watches every shard for unknown interactions (see the module's docs).
pub struct Unreadable {
    metrics: Option<Arc<Metrics>>,
    /// Each shard's current watch, by shard id: clearing one ends it.
    watching: Mutex<HashMap<u32, Arc<AtomicBool>>>,
}

impl Unreadable {
    pub fn new(metrics: Option<Arc<Metrics>>) -> Self {
        Self {
            metrics,
            watching: Mutex::default(),
        }
    }

    /// Watches `ctx`'s shard from now on, ending its earlier watch if there was one. Called on
    /// the shard's READY, before anything else sees it.
    pub fn watch(&self, ctx: &serenity::Context) {
        let live = self.begin(ctx.shard_id.0);
        let (http, metrics) = (Arc::clone(&ctx.http), self.metrics.clone());
        let callback = watcher(live, move |found| {
            let (http, metrics) = (Arc::clone(&http), metrics.clone());
            tokio::spawn(answer_unread(http, found, metrics));
        });
        ctx.shard
            .add_collector(serenity::CollectorCallback(Box::new(callback)));
    }

    /// A new watch of `shard`, live; the shard's earlier watch, if any, ends.
    fn begin(&self, shard: u32) -> Arc<AtomicBool> {
        let live = Arc::new(AtomicBool::new(true));
        let earlier = self
            .watching
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(shard, Arc::clone(&live));
        if let Some(earlier) = earlier {
            earlier.store(false, Ordering::Relaxed);
        }
        live
    }
}

/// What the shard's runner calls with each event: `found` gets every unknown
/// `INTERACTION_CREATE` (with what could be read of it), for as long as `live` is set; the
/// callback returns false, and serenity removes it, once it is not.
fn watcher(
    live: Arc<AtomicBool>,
    found: impl Fn(Option<Unread>) + Send + Sync + 'static,
) -> impl Fn(&serenity::Event) -> bool + Send + Sync + 'static {
    move |event| {
        if !live.load(Ordering::Relaxed) {
            return false;
        }
        if let serenity::Event::Unknown(unknown) = event
            && unknown.kind == "INTERACTION_CREATE"
        {
            found(interaction_in(&unknown.value));
        }
        true
    }
}

/// Answers an unknown interaction (`None`: one without an id and a token, only logged).
async fn answer_unread(
    http: Arc<serenity::Http>,
    unread: Option<Unread>,
    metrics: Option<Arc<Metrics>>,
) {
    let Some(unread) = unread else {
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
            answer::callback(&http, interaction, &none, arrived).await,
            answer::Callback::Acknowledged
        )
    } else {
        answer::answer(&http, interaction, &Reply::ephemeral(UNREADABLE), arrived).await
    };
    if let Some(metrics) = &metrics {
        let outcome = if answered {
            Outcome::Stale
        } else {
            Outcome::Unanswered
        };
        metrics.interaction(LABEL, outcome, arrived);
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

    fn unknown(kind: &str, d: &Value) -> serenity::Event {
        serenity::Event::Unknown(
            serde_json::from_value(json!({"t": kind, "d": d})).expect("an unknown event"),
        )
    }

    #[test]
    fn a_watch_finds_unknown_interactions_until_it_ends() {
        let found = Arc::new(Mutex::new(Vec::new()));
        let live = Arc::new(AtomicBool::new(true));
        let sink = Arc::clone(&found);
        let watch = watcher(Arc::clone(&live), move |unread| {
            sink.lock().unwrap().push(unread);
        });
        let readable = json!({"id": "7", "token": "tok", "type": 4});
        let cases = [
            // (event, kept watching, found)
            (
                unknown("INTERACTION_CREATE", &readable),
                true,
                Some(Some(7)),
            ),
            (
                unknown("INTERACTION_CREATE", &json!({"type": 2})),
                true,
                Some(None),
            ),
            (unknown("SOMETHING_NEW", &readable), true, None),
        ];
        for (event, kept, expected) in cases {
            found.lock().unwrap().clear();
            assert_eq!(watch(&event), kept, "{event:?}");
            let seen: Vec<Option<u64>> = found
                .lock()
                .unwrap()
                .iter()
                .map(|u| u.as_ref().map(|u| u.id))
                .collect();
            assert_eq!(seen, expected.into_iter().collect::<Vec<_>>(), "{event:?}");
        }
        // Ended: serenity is told to drop it, and it finds nothing more.
        found.lock().unwrap().clear();
        live.store(false, Ordering::Relaxed);
        assert!(!watch(&unknown("INTERACTION_CREATE", &readable)));
        assert!(found.lock().unwrap().is_empty());
    }

    #[test]
    fn a_shards_new_watch_ends_its_earlier_one_only() {
        let unreadable = Unreadable::new(None);
        let first = unreadable.begin(0);
        let other = unreadable.begin(1);
        assert!(first.load(Ordering::Relaxed) && other.load(Ordering::Relaxed));
        let second = unreadable.begin(0);
        assert!(
            !first.load(Ordering::Relaxed),
            "shard 0's first watch ended"
        );
        assert!(second.load(Ordering::Relaxed) && other.load(Ordering::Relaxed));
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
