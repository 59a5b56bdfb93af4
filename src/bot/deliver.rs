//! The outbox's delivery task: posts the GM channel's copies the database holds (issue 18).
//!
//! `app` writes each copy to the outbox in the roll's own transaction and wakes this task when
//! one is ready ([`Outbox::wake`]). The task posts ready copies oldest first, each with its row id
//! as the message nonce (`enforce_nonce`), so a copy posted just before a crash and posted again
//! after the restart appears once. A copy Discord takes is deleted; one that fails for now (a
//! 5xx, a 429, a timeout) is tried again after an exponential backoff with jitter, capped
//! (`[delivery]` in the configuration), and holds back the later copies of its channel so they
//! keep their order; one refused for good (403 no access, 404 no such channel, another 4xx) is
//! marked failed and never retried, and the next command of a GM of that guild gets one
//! ephemeral message saying so ([`Outbox::has_notice`], `App::outbox_notice`). Rows left when
//! the process stops are delivered after the next start.
//!
//! Why tell the GM in an ephemeral follow-up to their next command: the GM channel is the thing
//! that is broken, a direct message needs a particular user (a GM is a role) and may be closed,
//! and a message in the roll's channel would tell the players. The failure is marked told in the
//! same write that reads it, so it is told once, also across restarts.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;

use super::answer::{Sent, backoff, classify};
use super::render;
use super::workers::Workers;
use crate::app::App;
use crate::app::outbox::Delivery;
use crate::config::DeliveryConfig;
use crate::store::GuildId;

/// Copies read from the database in one go.
const BATCH: u32 = 64;
/// The longest one post may take before it counts as failed for now.
const ATTEMPT: Duration = Duration::from_secs(10);
/// The longest the task sleeps without a wake-up: held copies whose command never settled them
/// become due after a while (`app::outbox::ORPHAN_AFTER_SECS`), and nothing wakes the task then.
const IDLE: Duration = Duration::from_secs(30);
/// The wait after the database itself failed.
const STORE_RETRY: Duration = Duration::from_secs(1);

/// What the delivery task shares with the command handlers.
pub struct Outbox {
    wake: tokio::sync::Notify,
    /// Guilds with a failed copy whose GM has not been told yet.
    notices: Mutex<HashSet<GuildId>>,
    retry_first: Duration,
    retry_max: Duration,
}

impl Outbox {
    pub fn new(config: &DeliveryConfig) -> Self {
        Self {
            wake: tokio::sync::Notify::new(),
            notices: Mutex::default(),
            retry_first: Duration::from_millis(config.retry_first_ms.max(1)),
            retry_max: Duration::from_millis(config.retry_max_ms.max(config.retry_first_ms)),
        }
    }

    /// Some copies are ready: the task looks at once (a wake-up while it works is kept).
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Whether the guild's GM has a failure to be told of (a cheap check before asking `app`).
    pub fn has_notice(&self, guild: GuildId) -> bool {
        self.notices().contains(&guild)
    }

    /// The guild's GM has been told.
    pub fn told(&self, guild: GuildId) {
        self.notices().remove(&guild);
    }

    fn notices(&self) -> std::sync::MutexGuard<'_, HashSet<GuildId>> {
        self.notices.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Starts the delivery task. It first makes ready what a previous process left, then delivers
/// until aborted.
pub fn start(
    outbox: Arc<Outbox>,
    app: Arc<App>,
    workers: Arc<Workers>,
    http: Arc<serenity::Http>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let task = Task {
            outbox,
            app,
            workers,
            http,
        };
        task.recover().await;
        task.run().await;
    })
}

struct Task {
    outbox: Arc<Outbox>,
    app: Arc<App>,
    workers: Arc<Workers>,
    http: Arc<serenity::Http>,
}

/// Milliseconds since the Unix epoch.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

impl Task {
    /// Runs `f` with the app on its threads; a panic or a store error is logged and `None`.
    async fn app<T: Send + 'static>(
        &self,
        what: &str,
        f: impl FnOnce(&App) -> crate::app::AppResult<T> + Send + 'static,
    ) -> Option<T> {
        let app = Arc::clone(&self.app);
        match self.workers.run(move || f(&app)).await {
            Ok(Ok(value)) => Some(value),
            Ok(Err(e)) => {
                tracing::error!(error = %e, "outbox: {what} failed");
                None
            }
            Err(e) => {
                tracing::error!(error = %e, "outbox: {what} panicked");
                None
            }
        }
    }

    async fn recover(&self) {
        if let Some(n) = self.app("recovery", App::outbox_recover).await
            && n > 0
        {
            tracing::info!(copies = n, "outbox: copies left by the last run are ready");
        }
        if let Some(guilds) = self.app("reading failures", App::outbox_unreported).await {
            self.outbox.notices().extend(guilds);
        }
        if let Some(depth) = self.app("counting", App::outbox_depth).await
            && depth.waiting > 0
        {
            tracing::info!(
                waiting = depth.waiting,
                "outbox: delivering copies left from before"
            );
        }
    }

    async fn run(&self) {
        loop {
            let Some(due) = self
                .app("reading due copies", |app| app.outbox_due(now_ms(), BATCH))
                .await
            else {
                tokio::time::sleep(STORE_RETRY).await;
                continue;
            };
            let full = due.len() == BATCH as usize;
            // Channels that failed in this pass: their later copies wait for the retry.
            let mut held_back = HashSet::new();
            for delivery in due {
                if held_back.contains(&delivery.channel) {
                    continue;
                }
                if !self.deliver(delivery.clone()).await {
                    held_back.insert(delivery.channel);
                }
            }
            if full {
                continue;
            }
            let wait = match self
                .app("reading the next retry", App::outbox_next_due)
                .await
            {
                Some(Some(at)) => {
                    Duration::from_millis(u64::try_from(at.saturating_sub(now_ms())).unwrap_or(0))
                        .min(IDLE)
                }
                Some(None) => IDLE,
                None => STORE_RETRY,
            };
            if wait.is_zero() {
                continue;
            }
            tokio::select! {
                () = self.outbox.wake.notified() => {}
                () = tokio::time::sleep(wait) => {}
            }
        }
    }

    /// Posts one copy and records the outcome. False when it failed for now (its channel's
    /// later copies then wait).
    async fn deliver(&self, delivery: Delivery) -> bool {
        let Delivery {
            id,
            guild,
            channel,
            copy,
            attempts,
        } = delivery;
        let message = render::create_message(&copy)
            .nonce(serenity::Nonce::String(format!("referee-{id}")))
            .enforce_nonce(true);
        let started = Instant::now();
        let sent = tokio::time::timeout(
            ATTEMPT,
            serenity::ChannelId::new(channel).send_message(&self.http, message),
        )
        .await;
        let outcome = match sent {
            Err(_) => Sent::Retry(format!("no answer within {ATTEMPT:?}")),
            Ok(Ok(_)) => Sent::Done,
            Ok(Err(e)) => classify(&e),
        };
        match outcome {
            Sent::Done => {
                self.app("recording a delivery", move |app| {
                    app.outbox_delivered(guild, id)
                })
                .await;
                true
            }
            Sent::Retry(why) => {
                let wait = backoff(
                    attempts.saturating_add(1),
                    self.outbox.retry_first,
                    self.outbox.retry_max,
                );
                let next = now_ms() + i64::try_from(wait.as_millis()).unwrap_or(i64::MAX);
                tracing::warn!(%guild, channel, attempts = attempts + 1, %why, ?wait, took = ?started.elapsed(),
                    "outbox: a GM channel copy failed; will retry");
                self.app("scheduling a retry", move |app| {
                    app.outbox_retry(guild, id, next, &why)
                })
                .await;
                false
            }
            Sent::Refused { status, code, why } => {
                let (reason, whole_channel) = refusal(status, code, &why);
                let failed = self
                    .app("recording a failure", move |app| {
                        app.outbox_failed(guild, id, &reason, whole_channel)
                    })
                    .await;
                // After the write, so a GM command that sees the flag finds the failure.
                self.outbox.notices().insert(guild);
                tracing::warn!(%guild, channel, status, code, %why, copies = failed.unwrap_or(0),
                    "outbox: a GM channel copy failed for good; the GM will be told");
                true
            }
        }
    }
}

/// What to tell the GM about a refusal, and whether it closes the whole channel (no channel,
/// no access: every copy for it would fail the same way).
fn refusal(status: u16, code: isize, why: &str) -> (String, bool) {
    match (status, code) {
        (404, _) => (
            format!("Discord says the channel does not exist ({why})"),
            true,
        ),
        (403, 50_013) => (
            format!("referee lacks the permission to post there ({why})"),
            true,
        ),
        (403, _) => (format!("referee cannot see that channel ({why})"), true),
        _ => (format!("Discord refused the message ({why})"), false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_channel_and_no_access_close_the_channel_other_refusals_do_not() {
        let cases = [
            (404, 10_003, true, "does not exist"),
            (403, 50_001, true, "cannot see"),
            (403, 50_013, true, "lacks the permission"),
            (400, 50_035, false, "refused"),
            (413, 40_005, false, "refused"),
        ];
        for (status, code, whole, words) in cases {
            let (reason, closes) = refusal(status, code, "x");
            assert_eq!(closes, whole, "{status}/{code}");
            assert!(reason.contains(words), "{status}/{code}: {reason}");
        }
    }
}
