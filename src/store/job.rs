//! The calling thread's job: the deadline of its writes, whether it may write at all, and the
//! guild it writes ([`with_job`], [`in_guild`]). Set by `app` around each command, read by the
//! backends when they write.
//!
//! A leaf of the store: the backends import it; it imports none of them.

use std::cell::Cell;
use std::time::{Duration, Instant};

use super::ids::GuildId;

/// What the calling thread's current job allows: set by [`with_job`] around one command.
#[derive(Debug, Clone, Copy, Default)]
pub struct Job {
    /// When a write stops waiting for the write lock (then [`super::StoreError::Busy`]).
    pub deadline: Option<Instant>,
    /// Writes are refused at once with [`super::StoreError::NeedsWriter`].
    pub read_only: bool,
    /// The guild whose data the job writes ([`in_guild`]): on PostgreSQL its writes lock that
    /// guild alone, so jobs of other guilds write beside them. `None` (a job of no one guild:
    /// the outbox's recovery at start-up, a copy) locks the whole database.
    pub guild: Option<GuildId>,
    /// A log-only roll may go to the roll journal (`super::journal`) instead of a write: set
    /// with `read_only`, so that anything else the job would write stops it first.
    pub journal: bool,
}

impl Job {
    /// When the job's writes stop waiting for the write lock: its deadline, else `wait` from
    /// now (the backends' default wait).
    pub fn deadline_or(&self, wait: Duration) -> Instant {
        self.deadline.unwrap_or_else(|| Instant::now() + wait)
    }
}

thread_local! {
    static JOB: Cell<Job> = const {
        Cell::new(Job {
            deadline: None,
            read_only: false,
            guild: None,
            journal: false,
        })
    };
}

/// Runs `f` with every [`super::Store::write`] it makes declared as writing `guild`'s data only (the
/// rest of the job unchanged). A write must then touch no other guild's rows: the `app` runs
/// each command so, since a command acts in the caller's guild.
pub fn in_guild<T>(guild: GuildId, f: impl FnOnce() -> T) -> T {
    with_job(
        Job {
            guild: Some(guild),
            ..current_job()
        },
        f,
    )
}

/// Runs `f` as `job` on this thread: every [`super::Store::write`] it makes honours the job's deadline
/// and read-only mark. The previous job is restored afterwards, even if `f` panics.
pub fn with_job<T>(job: Job, f: impl FnOnce() -> T) -> T {
    struct Restore(Job);
    impl Drop for Restore {
        fn drop(&mut self) {
            JOB.with(|j| j.set(self.0));
        }
    }
    let _restore = Restore(JOB.with(|j| j.replace(job)));
    f()
}

/// The calling thread's current job (see [`with_job`]).
pub(crate) fn current_job() -> Job {
    JOB.with(Cell::get)
}
