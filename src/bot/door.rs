//! The gateway's door: every interaction is admitted ([`Inflight::admit`]) or turned away before
//! poise sees it (issue 33).
//!
//! serenity reads the gateway and spawns a task per event; the framework's `dispatch` runs in
//! that task. Admission used to happen in the command itself, after poise had boxed its dispatch
//! (about 11 KB an interaction, by a heap profile), found the command and parsed its options,
//! and it bounded only the interactions admitted. Past saturation the events read but not yet
//! reached piled up in front of it, in the runtime's queue: at 16,000 `/roll` a second offered
//! on 2 cores, resident memory rose by 145 MiB within a second and answers came 0.7–1 s late.
//! Here an interaction is turned away, unanswered and counted, before poise does anything, when
//! [`BACKLOG_LIMIT`] tasks already wait for a thread (the events behind it would be late too) or
//! [`Inflight::limit`] are in flight.
//!
//! Every interaction is counted here, a command, a button, an autocomplete or a modal alike, and
//! stays counted until poise's handling of it (the command's answer included) has finished, so a
//! shutdown waits for it. The HTTP Interactions Endpoint (`serve`) admits on its own, before it
//! parses a command.

use std::sync::Arc;
use std::time::Instant;

use poise::serenity_prelude as serenity;

use super::inflight::Inflight;
use super::metrics::{BUTTON, Metrics, Outcome, UNKNOWN_COMMAND};
use super::serve::schema::Registered;
use super::workers::{Refused, Workers};
use super::{Data, Error};

/// Tasks waiting for a thread in the runtime's shared queue past which an interaction is turned
/// away at the door. Each event serenity reads becomes two tasks (its raw handler's and the
/// framework's), and a thread's own queue holds 256 before the rest spill into the shared one,
/// so this bounds the events read but not yet reached to about a thousand; in the steady state,
/// even at 10,000 interactions a second, the shared queue is nearly empty.
pub const BACKLOG_LIMIT: usize = 1024;

/// The framework serenity runs: poise's, behind the door.
pub struct Door {
    inner: poise::Framework<Data, Error>,
    inflight: Arc<Inflight>,
    workers: Arc<Workers>,
    metrics: Option<Arc<Metrics>>,
    /// The registered commands: a dropped command is counted under its registered name only,
    /// so the metrics' labels stay bounded.
    registered: Registered,
}

impl Door {
    pub fn new(
        inner: poise::Framework<Data, Error>,
        inflight: Arc<Inflight>,
        workers: Arc<Workers>,
        metrics: Option<Arc<Metrics>>,
    ) -> Self {
        let registered = Registered::of(&inner.options().commands);
        Self {
            inner,
            inflight,
            workers,
            metrics,
            registered,
        }
    }

    /// Turns `interaction` away unanswered, for `why`, and counts it.
    fn turn_away(&self, interaction: &serenity::Interaction, arrived: Instant, why: &str) {
        self.workers
            .admission
            .count(Refused::Late { answerable: false });
        tracing::warn!(interaction = %interaction.id(), "dropped: {why}");
        if let Some(metrics) = &self.metrics {
            metrics.interaction(
                &label(interaction, &self.registered),
                Outcome::Dropped,
                arrived,
            );
        }
    }
}

#[serenity::async_trait]
impl serenity::Framework for Door {
    async fn init(&mut self, client: &serenity::Client) {
        self.inner.init(client).await;
    }

    async fn dispatch(&self, ctx: serenity::Context, event: serenity::FullEvent) {
        let serenity::FullEvent::InteractionCreate { interaction } = &event else {
            self.inner.dispatch(ctx, event).await;
            return;
        };
        let arrived = Instant::now();
        if backlogged(
            tokio::runtime::Handle::current()
                .metrics()
                .global_queue_depth(),
        ) {
            self.turn_away(interaction, arrived, "too many events waiting");
            return;
        }
        let Some(admitted) = self.inflight.admit() else {
            self.turn_away(interaction, arrived, "too many interactions in flight");
            return;
        };
        self.inner.dispatch(ctx, event).await;
        drop(admitted);
    }
}

/// Whether `waiting` tasks in the runtime's shared queue are too many to let one more interaction in.
fn backlogged(waiting: usize) -> bool {
    waiting > BACKLOG_LIMIT
}

/// The metrics' label of an interaction: a registered command's name, [`BUTTON`] for a
/// component, else [`UNKNOWN_COMMAND`].
fn label(interaction: &serenity::Interaction, registered: &Registered) -> String {
    match interaction {
        serenity::Interaction::Command(c) | serenity::Interaction::Autocomplete(c) => registered
            .label(&c.data)
            .unwrap_or_else(|| UNKNOWN_COMMAND.to_owned()),
        serenity::Interaction::Component(_) => BUTTON.to_owned(),
        _ => UNKNOWN_COMMAND.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(json: serde_json::Value) -> serenity::Interaction {
        let mut base = serde_json::json!({
            "id": "11", "application_id": "12", "type": 2, "token": "t", "version": 1,
            "channel_id": "13", "guild_id": "14", "locale": "en-US", "entitlements": [],
            "authorizing_integration_owners": {}, "context": 0, "attachment_size_limit": 1,
            "user": {"id": "15", "username": "u", "discriminator": "0", "global_name": null, "avatar": null},
        });
        base["data"] = json;
        serde_json::from_value(base).expect("a command interaction")
    }

    #[test]
    fn the_door_closes_past_the_backlog_limit() {
        for (waiting, closed) in [
            (0, false),
            (BACKLOG_LIMIT - 1, false),
            (BACKLOG_LIMIT, false),
            (BACKLOG_LIMIT + 1, true),
        ] {
            assert_eq!(backlogged(waiting), closed, "{waiting} waiting");
        }
    }

    #[test]
    fn a_dropped_interaction_is_labelled_by_its_registered_name_only() {
        let registered = Registered::of(&crate::bot::commands());
        let cases = [
            (
                serde_json::json!({"id": "1", "name": "roll", "type": 1, "options": [
                {"name": "dice", "type": 3, "value": "2d6"}]}),
                "roll",
            ),
            (
                serde_json::json!({"id": "1", "name": "character", "type": 1, "options": [
                {"name": "create", "type": 1, "options": []}]}),
                "character create",
            ),
            // A subcommand that is not registered, and a name nobody registered.
            (
                serde_json::json!({"id": "1", "name": "character", "type": 1, "options": [
                {"name": "explode", "type": 1, "options": []}]}),
                UNKNOWN_COMMAND,
            ),
            (
                serde_json::json!({"id": "1", "name": "anything at all", "type": 1}),
                UNKNOWN_COMMAND,
            ),
        ];
        for (data, want) in cases {
            assert_eq!(label(&command(data.clone()), &registered), want, "{data}");
        }
    }
}
