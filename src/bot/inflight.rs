//! The interactions in flight: counted so a shutdown lets them finish, and bounded so that past
//! [`Inflight::limit`] of them a new one is dropped at once (admission control).
//!
//! A leaf of the bot: `invoke` admits each interaction, `run` drains them at shutdown and
//! `metrics` reports the count; it imports none of them.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Commands being handled right now, so a shutdown lets them finish, and so that past
/// [`Inflight::limit`] of them a new one is dropped at once (admission control: each one in
/// flight holds its event and its answer's connection, so the limit bounds memory).
pub struct Inflight {
    count: AtomicUsize,
    idle: tokio::sync::Notify,
    limit: usize,
}

impl Default for Inflight {
    fn default() -> Self {
        Self::with_limit(usize::MAX)
    }
}

/// The environment variable that sets [`Inflight::limit`].
pub const INFLIGHT_ENV: &str = "REFEREE_MAX_INFLIGHT";
/// Interactions in flight at most, by default: at 10,000 a second with answers taking 100 ms,
/// about 1,000 are in flight.
pub const MAX_INFLIGHT: usize = 2048;

/// Counts one command in flight until dropped.
pub struct InflightGuard(Arc<Inflight>);

impl Inflight {
    /// At most `limit` in flight (see [`Inflight::admit`]).
    pub fn with_limit(limit: usize) -> Self {
        Self {
            count: AtomicUsize::new(0),
            idle: tokio::sync::Notify::new(),
            limit: limit.max(1),
        }
    }

    /// The limit `REFEREE_MAX_INFLIGHT` sets (at least 1), else [`MAX_INFLIGHT`].
    pub fn limit_from(setting: Option<&str>) -> usize {
        super::workers::count_setting(setting).unwrap_or(MAX_INFLIGHT)
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Counts one more in flight, whatever the limit (shutdown's accounting).
    pub fn enter(self: &Arc<Self>) -> InflightGuard {
        self.count.fetch_add(1, Ordering::SeqCst);
        InflightGuard(Arc::clone(self))
    }

    /// Counts one more in flight, unless [`Inflight::limit`] are already: then `None`, and the
    /// interaction is to be dropped.
    pub fn admit(self: &Arc<Self>) -> Option<InflightGuard> {
        let before = self.count.fetch_add(1, Ordering::SeqCst);
        let guard = InflightGuard(Arc::clone(self));
        (before < self.limit).then_some(guard)
    }

    pub fn current(&self) -> usize {
        self.count.load(Ordering::SeqCst)
    }

    /// Waits until nothing is in flight, or `limit` has passed; returns how many were left.
    pub async fn drain(&self, limit: Duration) -> usize {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let notified = self.idle.notified();
            let left = self.current();
            if left == 0 {
                return 0;
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return self.current();
            }
        }
    }
}

impl Drop for InflightGuard {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn past_the_limit_an_interaction_is_not_admitted_and_leaves_the_count_as_it_was() {
        let inflight = Arc::new(Inflight::with_limit(2));
        let first = inflight.admit().expect("one of two");
        let second = inflight.admit().expect("two of two");
        assert!(inflight.admit().is_none(), "a third is refused");
        assert_eq!(inflight.current(), 2, "the refused one is not counted");
        drop(first);
        let third = inflight.admit().expect("room again");
        assert_eq!(inflight.current(), 2);
        drop((second, third));
        assert_eq!(inflight.current(), 0);
    }

    #[test]
    fn the_inflight_limit_is_the_default_unless_set() {
        for (setting, want) in [
            (None, MAX_INFLIGHT),
            (Some("64"), 64),
            (Some("0"), 1),
            (Some("x"), MAX_INFLIGHT),
        ] {
            assert_eq!(Inflight::limit_from(setting), want, "{setting:?}");
        }
    }
}
