//! The Discord layer: poise commands, rendering of reply models to Discord messages, the luck
//! buttons, autocomplete, `referee run` (the gateway), and `referee serve` (the HTTP
//! Interactions Endpoint, [`serve`]).
//!
//! Owns everything serenity and poise; calls only `app`. A command here is a thin wrapper: its
//! typed options become an [`Invocation`](crate::app::invocation::Invocation) with the same option
//! names the console types, `app` decides everything (permissions, roll modes, secrets), and
//! [`render`] turns the reply model into Discord builders. Must never decide who may do what, read
//! the store, or format game results itself.
//!
//! Layout: [`Data`], shared by every handler, holds only leaves (`workers`, `inflight`, `deliver`,
//! `metrics`, each importing no handler); the handlers (`door`, `invoke`, `buttons`, `commands`,
//! `stale`, `status`, `run`) import it, never the reverse. `invoke` reports to `metrics`; `metrics`
//! counts what `inflight` holds, and imports no handler (`tests/integration/modules.rs`).

mod answer;
mod autocomplete;
mod buttons;
mod choices;
mod commands;
mod deliver;
mod door;
mod inflight;
mod invoke;
pub mod metrics;
pub mod render;
mod run;
pub mod serve;
mod stale;
mod status;
pub mod unparsed;
pub mod workers;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::app::App;

pub use commands::all as commands;
pub use run::run;
pub use serve::{ServeOptions, register, serve};

/// What every command handler shares: the application, the threads that run it, and the count
/// of commands in flight (so a shutdown waits for them).
pub struct Data {
    pub app: Arc<App>,
    pub workers: Arc<workers::Workers>,
    pub inflight: Arc<inflight::Inflight>,
    /// Where the commands are registered, to register them again after a stale interaction.
    pub registration: Registration,
    /// The GM channel copies' delivery (see [`deliver`]).
    pub outbox: Arc<deliver::Outbox>,
    /// READY events so far, one per shard started (`run`'s IDENTIFY turn waits for them).
    pub readies: Arc<Readies>,
    /// The operator's metrics, when `[metrics]` turns them on.
    pub metrics: Option<Arc<metrics::Metrics>>,
}

/// The least time between two registrations made because of stale interactions.
pub const REREGISTER_EVERY: Duration = Duration::from_mins(1);

/// Where the commands are registered, and when they last were because of a stale interaction
/// ([`stale`] reads and claims it; it is kept here, with [`Data`], so the data imports no
/// handler).
#[derive(Debug, Default)]
pub struct Registration {
    /// The development guild the commands go to, or `None` for global commands.
    pub dev_guild: Option<u64>,
    last: Mutex<Option<Instant>>,
}

impl Registration {
    pub fn new(dev_guild: Option<u64>) -> Self {
        Self {
            dev_guild,
            last: Mutex::new(None),
        }
    }

    /// Whether a registration may go now (and, if so, counts it as made).
    fn claim(&self) -> bool {
        let mut last = self
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if last.is_some_and(|at| at.elapsed() < REREGISTER_EVERY) {
            return false;
        }
        *last = Some(Instant::now());
        true
    }
}

/// Counts READY events and wakes whoever waits for a number of them.
#[derive(Default)]
pub struct Readies {
    count: std::sync::atomic::AtomicUsize,
    changed: tokio::sync::Notify,
}

impl Readies {
    /// One more shard is READY.
    pub fn ready(&self) {
        self.count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.changed.notify_waiters();
    }

    /// Waits until `n` READY events have come.
    pub async fn wait_for(&self, n: usize) {
        loop {
            let changed = self.changed.notified();
            if self.count.load(std::sync::atomic::Ordering::SeqCst) >= n {
                return;
            }
            changed.await;
        }
    }
}

impl Data {
    /// Counts one interaction of `command` that arrived at `arrived`, when metrics are on.
    pub fn count(&self, command: &str, outcome: metrics::Outcome, arrived: Instant) {
        if let Some(metrics) = &self.metrics {
            metrics.interaction(command, outcome, arrived);
        }
    }
}

/// Internal failures only: a user's mistake is already a reply from `app`.
pub type Error = anyhow::Error;
pub type Context<'a> = poise::Context<'a, Data, Error>;
