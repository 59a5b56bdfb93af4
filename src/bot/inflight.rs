//! The interactions in flight: counted so a shutdown lets them finish, and bounded so that past
//! [`Inflight::limit`] of them a new one waits for a slot, or, past [`WAIT_LIMIT`] waiting, is
//! dropped at once (admission control).
//!
//! A leaf of the bot: `door` admits each interaction, `run` drains them at shutdown and
//! `metrics` reports the count; it imports none of them. It also keeps the moment the door saw
//! an interaction ([`arriving`], [`arrived`]), so the command's deadlines count the wait.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Commands being handled right now, so a shutdown lets them finish, and so that past
/// [`Inflight::limit`] of them a new one waits, or is dropped (admission control: each one in
/// flight holds its event, poise's dispatch and its answer's connection, so the limit bounds
/// memory).
pub struct Inflight {
    /// Admitted and waiting ones, for the shutdown's drain and the metrics.
    count: AtomicUsize,
    idle: tokio::sync::Notify,
    limit: usize,
    /// One permit per slot: [`Inflight::limit`] of them. A semaphore's waiters are served in
    /// the order they came.
    slots: Arc<Semaphore>,
    /// Interactions waiting for a slot.
    waiting: AtomicUsize,
}

impl Default for Inflight {
    fn default() -> Self {
        Self::with_limit(usize::MAX)
    }
}

/// The environment variable that sets [`Inflight::limit`].
pub const INFLIGHT_ENV: &str = "REFEREE_MAX_INFLIGHT";
/// Interactions in flight at most, by default. At 10,000 a second answered in 3 ms about 30
/// are in flight, and past saturation more slots add memory and latency, not answers: the
/// cores are what limits (a stall is waited out at the door, [`WAIT_LIMIT`]). Measured with
/// `bot_load`'s overload phase (`/roll` offered at 16,000 a second on 2 cores, the fake
/// Discord beside the bot), peak RSS and answers a second, one day's runs: 2,048 slots
/// 70–73 MiB, 8,600–9,900 (2 runs); 256 slots 70 MiB, 10,200 (1); 128 slots 55–72 MiB,
/// 4,200–9,960 (7: the machine's speed varied that much). Since unknown interactions are
/// watched without a raw event handler (`unparsed`), on a faster day: 128 slots 46–53 MiB,
/// 13,000–15,900 (6), and 52–53 MiB, 7,500–10,200 (5) beside busy loops taking one or both
/// cores.
pub const MAX_INFLIGHT: usize = 128;
/// Interactions that may wait for a slot at most ([`Inflight::admit_waiting`]); past them a
/// new one is dropped. A waiting one holds its event and its task, not poise's dispatch (a
/// few KB): a stall of 200 ms at 5,000 a second is waited out, not dropped.
pub const WAIT_LIMIT: usize = 1024;

/// Counts one command in flight (or waiting for a slot) until dropped.
pub struct InflightGuard {
    owner: Arc<Inflight>,
    _slot: Option<OwnedSemaphorePermit>,
}

/// Counts one waiter until dropped (a waiting task may be dropped, say at shutdown).
struct Waiter<'a>(&'a AtomicUsize);

impl Drop for Waiter<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Inflight {
    /// At most `limit` in flight (see [`Inflight::admit`]).
    pub fn with_limit(limit: usize) -> Self {
        let limit = limit.clamp(1, Semaphore::MAX_PERMITS);
        Self {
            count: AtomicUsize::new(0),
            idle: tokio::sync::Notify::new(),
            limit,
            slots: Arc::new(Semaphore::new(limit)),
            waiting: AtomicUsize::new(0),
        }
    }

    /// The limit `REFEREE_MAX_INFLIGHT` sets (at least 1), else [`MAX_INFLIGHT`].
    pub fn limit_from(setting: Option<&str>) -> usize {
        super::workers::count_setting(setting).unwrap_or(MAX_INFLIGHT)
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    fn guard(self: &Arc<Self>, slot: Option<OwnedSemaphorePermit>) -> InflightGuard {
        self.count.fetch_add(1, Ordering::SeqCst);
        InflightGuard {
            owner: Arc::clone(self),
            _slot: slot,
        }
    }

    /// Counts one more in flight, whatever the limit (shutdown's accounting).
    pub fn enter(self: &Arc<Self>) -> InflightGuard {
        self.guard(None)
    }

    /// Takes a slot, unless [`Inflight::limit`] are already taken: then `None`, and the
    /// interaction is to be dropped.
    pub fn admit(self: &Arc<Self>) -> Option<InflightGuard> {
        let slot = Arc::clone(&self.slots).try_acquire_owned().ok()?;
        Some(self.guard(Some(slot)))
    }

    /// Takes a slot, waiting for one if need be (first come, first served), unless
    /// [`WAIT_LIMIT`] already wait: then `None` at once, and the interaction is to be dropped.
    /// A waiting one is counted in flight ([`Inflight::current`]), so a shutdown waits for it.
    pub async fn admit_waiting(self: &Arc<Self>) -> Option<InflightGuard> {
        self.admit_waiting_up_to(WAIT_LIMIT).await
    }

    async fn admit_waiting_up_to(self: &Arc<Self>, wait_limit: usize) -> Option<InflightGuard> {
        if let Some(admitted) = self.admit() {
            return Some(admitted);
        }
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= wait_limit {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        let waiter = Waiter(&self.waiting);
        // Counted while it waits; the admitted guard is counted before this one leaves, so the
        // count never touches zero between the two.
        let waiting = self.enter();
        // The semaphore is never closed.
        let slot = Arc::clone(&self.slots).acquire_owned().await.ok()?;
        drop(waiter);
        let admitted = self.guard(Some(slot));
        drop(waiting);
        Some(admitted)
    }

    /// Admitted interactions and those waiting for a slot.
    pub fn current(&self) -> usize {
        self.count.load(Ordering::SeqCst)
    }

    /// Interactions waiting for a slot.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::SeqCst)
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
        if self.owner.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.owner.idle.notify_waiters();
        }
    }
}

tokio::task_local! {
    /// When the door saw the interaction this task handles.
    static ARRIVED: Instant;
}

/// Runs `handling` (poise's handling of one interaction) knowing it arrived at `at`: what
/// [`arrived`] returns inside it, so the time spent waiting at the door counts towards the
/// command's deadlines.
pub async fn arriving<F: std::future::Future>(at: Instant, handling: F) -> F::Output {
    ARRIVED.scope(at, handling).await
}

/// When the door saw the interaction this task handles ([`arriving`]); now, outside the door.
pub fn arrived() -> Instant {
    ARRIVED
        .try_with(|at| *at)
        .unwrap_or_else(|_| Instant::now())
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

    /// Whether `future` is still pending after the runtime has run everything else it can.
    async fn pending<F: std::future::Future + Unpin>(future: &mut F) -> bool {
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
        futures_util::FutureExt::now_or_never(future).is_none()
    }

    #[tokio::test]
    async fn a_full_door_makes_one_wait_until_a_slot_frees_and_counts_it_meanwhile() {
        let inflight = Arc::new(Inflight::with_limit(1));
        let first = inflight
            .admit_waiting()
            .await
            .expect("a free slot: at once");
        let mut second = Box::pin(inflight.admit_waiting());
        assert!(pending(&mut second).await, "no slot: it waits");
        assert_eq!(inflight.waiting(), 1);
        assert_eq!(
            inflight.current(),
            2,
            "the waiting one is counted for the drain"
        );
        drop(first);
        let second = second.await.expect("the freed slot");
        assert_eq!((inflight.waiting(), inflight.current()), (0, 1));
        assert!(inflight.admit().is_none(), "the slot is taken again");
        drop(second);
        assert_eq!(inflight.current(), 0);
    }

    #[tokio::test]
    async fn past_the_waiting_limit_one_is_refused_at_once_and_changes_no_count() {
        // Both sides of the limit of 2 waiting: the second waits, the third is refused.
        let inflight = Arc::new(Inflight::with_limit(1));
        let _taken = inflight.admit().expect("the one slot");
        let mut waiters = Vec::new();
        for n in 1..=2 {
            let mut w = Box::pin(inflight.admit_waiting_up_to(2));
            assert!(pending(&mut w).await, "waiter {n} of 2 waits");
            waiters.push(w);
        }
        assert_eq!(inflight.waiting(), 2);
        assert!(
            inflight.admit_waiting_up_to(2).await.is_none(),
            "a third is refused"
        );
        assert_eq!((inflight.waiting(), inflight.current()), (2, 3));
        // A waiter given up (its task dropped) leaves both counts.
        drop(waiters.pop());
        assert_eq!((inflight.waiting(), inflight.current()), (1, 2));
    }

    #[tokio::test]
    async fn the_drain_waits_for_an_interaction_still_waiting_for_a_slot() {
        let inflight = Arc::new(Inflight::with_limit(1));
        let first = inflight.admit().expect("the one slot");
        let waiting = {
            let inflight = Arc::clone(&inflight);
            tokio::spawn(async move {
                let admitted = inflight.admit_waiting().await;
                tokio::time::sleep(Duration::from_millis(20)).await;
                drop(admitted);
            })
        };
        while inflight.waiting() == 0 {
            tokio::task::yield_now().await;
        }
        let release = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(20)).await;
            drop(first);
        });
        assert_eq!(inflight.drain(Duration::from_secs(5)).await, 0);
        assert!(
            waiting.is_finished(),
            "drained only once the waiter had run"
        );
        release.await.expect("released");
    }

    #[tokio::test]
    async fn the_door_s_arrival_is_what_a_command_inside_it_reads() {
        let at = Instant::now()
            .checked_sub(Duration::from_millis(700))
            .expect("an earlier instant");
        assert_eq!(arriving(at, async { arrived() }).await, at);
        assert!(arrived() > at, "outside the door: now");
    }

    #[test]
    fn a_limit_past_what_a_semaphore_holds_is_its_most() {
        assert_eq!(Inflight::default().limit(), Semaphore::MAX_PERMITS);
        assert_eq!(Inflight::with_limit(0).limit(), 1);
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
