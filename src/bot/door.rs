//! The gateway's door: every interaction is admitted ([`Inflight::admit_waiting`]) or turned
//! away before poise sees it (issue 33).
//!
//! serenity reads the gateway and spawns a task per event; the framework's `dispatch` runs in
//! that task. Admission used to happen in the command itself, after poise had boxed its dispatch
//! (about 11 KB an interaction, by a heap profile), found the command and parsed its options,
//! and it bounded only the interactions admitted. Past saturation the events read but not yet
//! reached piled up in front of it, in the runtime's queue: at 16,000 `/roll` a second offered
//! on 2 cores, resident memory rose by 145 MiB within a second and answers came 0.7–1 s late.
//! Here an interaction is turned away, unanswered and counted, before poise does anything, when
//! [`BACKLOG_LIMIT`] tasks already wait for a thread (the events behind it would be late too).
//! Otherwise it takes one of [`Inflight::limit`] slots, waiting for one if all are taken, and
//! is turned away only when [`super::inflight::WAIT_LIMIT`] already wait: a short stall is waited
//! out, while memory stays bounded (the slots hold poise's dispatch, the waiting only their
//! events). Its deadlines count from the moment it reached the door
//! ([`super::inflight::arriving`]), the wait included.
//!
//! Every interaction is counted here, a command, a button, an autocomplete or a modal alike, and
//! stays counted until poise's handling of it (the command's answer included) has finished, so a
//! shutdown waits for it. The door also starts each shard's watch for the interactions serenity
//! cannot read (`unparsed`) when it sees the shard's READY. The HTTP Interactions Endpoint
//! (`serve`) admits on its own, before it parses a command.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;

use super::inflight::Inflight;
use super::metrics::{BUTTON, Metrics, Outcome, UNKNOWN_COMMAND};
use super::serve::schema::Registered;
use super::unparsed::Unreadable;
use super::workers::{Refused, Workers};
use super::{Data, Error};

/// Tasks waiting for a thread in the runtime's shared queue past which an interaction is turned
/// away at the door. Each event serenity reads becomes one task (the framework's; unreadable
/// interactions are watched in line, `unparsed`), and each thread's own queue holds 256 before
/// the rest spill into the shared one, so this bounds the events read but not yet reached to
/// about 1,500; in the steady state, even at 10,000 interactions a second, the shared queue is
/// nearly empty. At 512 the overload phase of `bot_load` answered a third fewer (4,970–6,030 a
/// second against 8,340–9,960) for no less memory (55–67 MiB against 55–66; measured when a raw
/// event handler still made two tasks of each event): past saturation the queue is that deep in
/// the ordinary run of things, and work turned away there leaves slots idle.
pub const BACKLOG_LIMIT: usize = 1024;

/// The log names each turned-away interaction at debug level only; at warn it reports how many
/// were turned away, at most this often: past saturation a warn line for each of thousands a
/// second would take the very CPU the bot lacks (the metrics and the shutdown's admission
/// counts stay exact).
pub const REPORT_EVERY: Duration = Duration::from_secs(1);

/// Why an interaction was turned away at the door.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Why {
    /// More than [`BACKLOG_LIMIT`] tasks waited for a thread.
    Backlog,
    /// Every slot was taken and [`super::inflight::WAIT_LIMIT`] waited for one.
    Full,
}

impl Why {
    fn text(self) -> &'static str {
        match self {
            Self::Backlog => "too many events waiting",
            Self::Full => "too many interactions in flight and waiting",
        }
    }
}

/// Interactions turned away since the log last reported them, and when it did.
#[derive(Debug, Default)]
struct Unreported {
    backlog: u64,
    full: u64,
    last: Option<Instant>,
}

impl Unreported {
    /// Counts one turned away for `why` at `now`; the counts to report now, if the last report
    /// is [`REPORT_EVERY`] old (or there was none), which then start again from zero.
    fn note(&mut self, why: Why, now: Instant) -> Option<(u64, u64)> {
        match why {
            Why::Backlog => self.backlog += 1,
            Why::Full => self.full += 1,
        }
        if self
            .last
            .is_some_and(|last| now.saturating_duration_since(last) < REPORT_EVERY)
        {
            return None;
        }
        self.last = Some(now);
        Some((
            std::mem::take(&mut self.backlog),
            std::mem::take(&mut self.full),
        ))
    }
}

/// The framework serenity runs: poise's, behind the door.
pub struct Door {
    inner: poise::Framework<Data, Error>,
    inflight: Arc<Inflight>,
    workers: Arc<Workers>,
    metrics: Option<Arc<Metrics>>,
    /// The registered commands: a dropped command is counted under its registered name only,
    /// so the metrics' labels stay bounded.
    registered: Registered,
    unreported: Mutex<Unreported>,
    /// Watches each shard, from its READY, for interactions serenity cannot read.
    unreadable: Unreadable,
}

impl Door {
    pub fn new(
        inner: poise::Framework<Data, Error>,
        inflight: Arc<Inflight>,
        workers: Arc<Workers>,
        metrics: Option<Arc<Metrics>>,
        unreadable: Unreadable,
    ) -> Self {
        let registered = Registered::of(&inner.options().commands);
        Self {
            inner,
            inflight,
            workers,
            metrics,
            registered,
            unreported: Mutex::default(),
            unreadable,
        }
    }

    /// Turns `interaction` away unanswered, for `why`, and counts it.
    fn turn_away(&self, interaction: &serenity::Interaction, arrived: Instant, why: Why) {
        self.workers
            .admission
            .count(Refused::Late { answerable: false });
        tracing::debug!(interaction = %interaction.id(), "dropped: {}", why.text());
        let report = self
            .unreported
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .note(why, Instant::now());
        if let Some((backlog, full)) = report {
            tracing::warn!(
                events_waiting = backlog,
                in_flight = full,
                "interactions dropped unanswered at the door, the bot being past what it can answer (since the last such line)"
            );
        }
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
            if matches!(event, serenity::FullEvent::Ready { .. }) {
                self.unreadable.watch(&ctx);
            }
            self.inner.dispatch(ctx, event).await;
            return;
        };
        let arrived = Instant::now();
        if backlogged(
            tokio::runtime::Handle::current()
                .metrics()
                .global_queue_depth(),
        ) {
            self.turn_away(interaction, arrived, Why::Backlog);
            return;
        }
        let Some(admitted) = self.inflight.admit_waiting().await else {
            self.turn_away(interaction, arrived, Why::Full);
            return;
        };
        super::inflight::arriving(arrived, self.inner.dispatch(ctx, event)).await;
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
    fn drops_are_reported_at_most_once_a_second_with_every_one_counted_once() {
        let start = Instant::now();
        let ms = |n: u64| start + Duration::from_millis(n);
        let mut unreported = Unreported::default();
        // (when, why, the report it makes): the first at once; then none until the last report
        // is a second old, which carries everything since; both sides of the second.
        let cases = [
            (0, Why::Full, Some((0, 1))),
            (1, Why::Backlog, None),
            (500, Why::Full, None),
            (999, Why::Full, None),
            (1000, Why::Backlog, Some((2, 2))),
            (1999, Why::Full, None),
            (2001, Why::Full, Some((0, 2))),
            (9000, Why::Backlog, Some((1, 0))),
        ];
        let mut reported = 0;
        for (at, why, want) in cases {
            let got = unreported.note(why, ms(at));
            assert_eq!(got, want, "a drop at {at} ms");
            reported += got.map_or(0, |(b, f)| b + f);
        }
        assert_eq!(reported, cases.len() as u64, "each drop reported once");
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
