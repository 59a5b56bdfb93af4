//! The threads that run `app` for the bot: a small fixed pool fed by one queue.
//!
//! `app` is synchronous (SQLite), so its calls must not run on the async runtime's threads.
//! tokio's `spawn_blocking` was the first answer, but under load its one shared lock and the
//! wake-up of a fresh thread per call kept the runtime's own threads off the CPU (measured with
//! `perf record -e sched:sched_switch` at 5,000 interactions per second: most of the time the
//! runtime's threads were descheduled inside `spawn_blocking`). Here a few long-lived threads
//! take jobs from one queue: while there is work a thread goes from one job to the next without
//! sleeping, and a caller only pushes onto the queue. The queue is a mutex and a condition
//! variable ([`Lane`]), not a channel: crossbeam's receive spins and calls `sched_yield` before it
//! sleeps, and with ten threads waiting for work that was 15% of the bot's CPU at 7,000 `/roll`
//! a second (`perf record --call-graph fp`); a thread here sleeps at once, and a push wakes one
//! only when one sleeps.
//!
//! A job's panic is caught on its thread, which lives on, and comes back to the caller as
//! [`Refused::Panicked`].
//!
//! ## Admission
//! Each lane takes at most [`QUEUE_LIMIT`] waiting interactions (`REFEREE_QUEUE_LIMIT`; the
//! bot's own jobs, such as a status message to update, neither count nor are refused): past it
//! an interaction is refused at once ([`Refused::Full`]) and the bot answers "busy" while the answer is quick, so
//! what waits for a thread is bounded (the events before it are bounded at the gateway's door,
//! `door`). A job carries the time its interaction reached the door; a job
//! that reaches a thread after [`START_BY`] does not run ([`Refused::Late`]): the bot still
//! answers "busy" if Discord's deadline allows ([`ANSWER_BY`]), else drops it. Each outcome is
//! counted ([`Admission`]).
//!
//! ## Batches
//! On SQLite the writing lane is one thread that runs interactions in batches (on PostgreSQL
//! [`PG_WRITERS`] threads, each its own batch on its own connection)
//! ([`Workers::start_batching`]): it takes the first job, opens a batch in the store, runs every
//! interaction queued behind it (each write joins the batch's one transaction and returns at
//! once), waits a moment for more while the store is busy and writes come fast (the group
//! commit's linger, `store::LINGER_RATE`; woken once the group it waits for has come, not by
//! each job), commits, and only then sends the
//! results. Were the commit to fail, nothing of the batch was kept: each job runs again on its
//! own, and its answer is that run's (the error's, most likely). Should the batch's own code
//! panic, its jobs are answered as panicked and never run again (the commit may have happened).
//! The bot's own jobs ([`Workers::run`]) end a batch and run on their own. On PostgreSQL a
//! command whose guild another process's transaction holds is turned away from the batch
//! ([`Batching::deferred`]: nothing of it was kept) and runs again on its own once the batch is
//! settled, so a batch never waits for a lock while holding others (`store::pg`). Group commit across
//! threads made every write wait for another thread's commit: with eight threads at 10,000
//! `/roll` a second that was about ten futex calls and four context switches per interaction,
//! half the app threads' CPU in the kernel. Measured with `strace -f -c` at 2,000 `/roll` a
//! second, per interaction: futex 12.6 calls with the pool, 2.2 with batches; `pread64` 1.56
//! and 0.29 (a batch reads through the writer, whose page cache a commit does not empty). At
//! 6,000 a second the app threads' CPU went from 46–50 µs to 27–28 µs per interaction.
//! `REFEREE_WRITE_BATCHES=off` turns batches off: a pool of writing threads
//! ([`Workers::start_with`]), each write its own transaction (group commit on SQLite).
//!
//! ## Inline
//! On SQLite an interaction that finds the writing lane idle (nothing queued, its thread asleep)
//! while few interactions are in flight (at most [`INLINE_INFLIGHT`], itself included, counted at
//! the gateway's door: [`Workers::gate_inline`]) runs on the thread that asked, the async
//! runtime's, in a batch of its own that never waits for a lock ([`Batching::begin_quick`]): the
//! lane's thread takes nothing meanwhile, and a job queued meanwhile that the inline thread leaves
//! (see below) wakes it once the inline one is done. So at a moderate rate a command costs no
//! hand-off to the writing thread and back (two wake-ups, each a context switch), and under load,
//! when the lane is busy or many are in flight, commands queue and batch as before. A command whose
//! write finds the lock taken (another process's, on the same file) wrote nothing and runs again on
//! the lane, which waits for the lock; so does one whose commit failed. The interactions queued
//! behind it meanwhile (at most [`INLINE_JOINED`]) join its batch on the same thread, rather than
//! wait for the lane's thread to be woken and to wake theirs; one turned away ends the joining, and
//! it and the rest go back to the front of the lane, as do all of them should the commit fail. Nor
//! does a quick batch wait for the disk: while a checkpoint is near (the writer's catch-up is due,
//! or the WAL is close to SQLite's own checkpoint) its write is turned away and runs on the lane.
//! The cost: the runtime's thread is busy for a few commands and their commit (tens of microseconds
//! for a roll), not for any wait. Those still queued once its commit is done (they came during it,
//! or past [`INLINE_JOINED`]) run on the runtime in one more quick batch ([`INLINE_DRAINS`];
//! `REFEREE_INLINE_DRAINS` sets how many) if the last one ran cleanly (nothing turned away,
//! committed), rather than wake the lane's thread: from a task spawned once the inline command's
//! own answer is on its way (`Drain`), so that answer does not wait for theirs. It is on by
//! default: `REFEREE_INLINE_WRITES=off` turns it off, a number sets [`INLINE_INFLIGHT`].
//!
//! Measured with `cargo bench --bench bot_load`, one build, `REFEREE_INLINE_WRITES=off` and the
//! default in turn, one sitting: the tail at 5,000 `/roll` a second (6 rounds of 5 s, pooled)
//! p50 0.11 against 0.16 ms, p99 0.94 and 1.16 ms against 1.19 and 1.25 ms, 111–124 against
//! 143–151 µs of CPU per roll; `/roll` at 10,000/s p99 1.65 against 1.70 ms, the same CPU
//! (74–76 µs), 1.76 against 1.60 KB per roll to the block layer; the mixed load at 5,000/s p99
//! 1.17 against 1.23 ms, 143 against 153 µs. A first version (commit b7f5cfa, reverted) ran
//! inline whatever was in flight, and each command the lane took instead waited for a group's
//! 1 ms linger: at 10,000/s its p99 was twice the lane's, and at 5,000/s no better. Since a
//! group waits only while writes come fast (`store::LINGER_RATE`) and many in flight keep
//! commands on the lane, neither holds. Decision: off by default all the same. With the bot
//! on a core of its own (`taskset`, the fake Discord on the other), in turn: p99 3.0 and 1.09
//! ms inline against 1.21 and 0.84 ms without, for 107–110 against 121–124 µs per roll; the
//! issue's goal (p99 at most twice the bare bot's, with the fake on the bot's cores and on
//! separate ones) weighs the tail over the CPU. Measured again with joining, on a slower machine
//! (the floor took 66–110 µs of CPU per interaction), in interleaved slices
//! (`REFEREE_LOAD_TAIL_SLICES=32 REFEREE_LOAD_SECS=1`), each run beside one of the default in
//! turn, one sitting: at 5,000/s p50 157–174 against 203–212 µs and 138–146 against 158–160 µs
//! of CPU per roll, but referee's p99 over the floor's 2.63×, 2.54×, 1.94×, 3.06×, 2.90× and
//! 2.08× against 2.49×, 2.63×, 2.19×, 2.71×, 2.60× and 2.16× (lower in 3 of 6 pairs; without
//! joining 3.10×, 2.99×, 2.53× against 2.45×, 2.40×, 2.70×). Below that rate it wins: at 3,500/s
//! 1.48× against 2.07×, at 2,000/s 1.38× against 2.60×, at 500/s p50 33 against 187 µs (the
//! floor's 42 µs: a wake-up of a sleeping thread costs tens of microseconds on that machine).
//! Decision: still off by default, for the rate.
//!
//! Measured again on a machine where a wake-up costs far more: at 500 `/roll` a second, in 8
//! interleaved slices, referee's p10 222 µs and p50 331 µs through the lane against the
//! floor's 36 and 98 µs; inline, 34 and 67 µs (the floor's 33 and 87). The lane's two hand-offs,
//! not referee's own work, set its latency at a moderate rate. At 5,000/s the same day (a noisy
//! one: the floor's pooled p99 2–144 ms), 16 slices per run, off and on in turn, twelve pairs:
//! referee's p99 over the floor's 3.54×, 1.84×, 10.25×, 5.86×, 3.17×, 2.22×, 0.13×, 2.53×,
//! 0.93×, 14.63×, 0.92×, 0.92× without against 0.22×, 1.03×, 1.36×, 1.42×, 0.82×, 1.14×, 2.01×,
//! 1.72×, 1.19×, 3.69×, 5.07×, 17.54× inline (lower in 8 of 12, medians 2.38× and 1.39×; the
//! last three pairs' medians of the per-slice ratios 2.27, 1.99, 1.90 against 2.08, 3.60, 2.35):
//! no reliable difference at that rate; 196–206 against 200–208 µs of CPU per roll (the
//! floor's 168–186). At 2,000/s 1.72× and 2.01× against 2.04× and 1.16×. With one drain the
//! writing thread woke 174 times a second instead of 400 at 5,000/s (`perf stat --per-thread`,
//! context switches of `referee-app-0`; 116 with four).
//! Decision: on by default, reversing the one above: at the rate it is a toss-up on
//! either machine, and below it a clear gain; the gate ([`INLINE_INFLIGHT`]) keeps it off
//! under heavy load, where batches on the lane are what keeps up (at 10,000/s, past what that
//! machine could answer either way, the same).
//!
//! ## Two lanes
//! Commands that only read run on their own threads ([`Workers::run_read`]), apart from those
//! that write ([`Workers::run`]): while another process holds the database's write lock, writes
//! wait for it (until [`WRITE_DEADLINE`] at most, then "busy"), and they could otherwise take
//! every thread and keep `/odds` or `/help` waiting behind them.

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A job in a lane's queue.
enum Job {
    /// Runs once and sends its result at once: every job of a lane that does not batch, and the
    /// bot's own jobs ([`Workers::run`]).
    Once(Box<dyn FnOnce() + Send + 'static>),
    /// An interaction's job on a batching lane (see the module's "Batches").
    Batched(Box<dyn Batched>),
}

/// An interaction's job on a batching lane: run in a batch, its result held until the batch's
/// commit; sent then, or, if the commit failed, the job runs again on its own and sends that.
trait Batched: Send {
    /// Runs the job in the open batch (or refuses it, late), holding its result.
    fn run(&mut self);
    /// Sends the held result: the batch committed.
    fn send(self: Box<Self>);
    /// Runs the job again outside any batch and sends that result: the batch failed, and
    /// nothing it wrote was kept.
    fn again(self: Box<Self>);
    /// Sends [`Refused::Panicked`]: the batch broke, and whether it was kept is not known.
    fn refuse(self: Box<Self>);
}

/// What the writing lane's one thread needs of the app to batch (see the module's "Batches").
pub trait Batching: Send + Sync + 'static {
    /// Opens a batch on this thread.
    fn begin(&self);
    /// How long the batch, `jobs` jobs in, waits for more before committing, and how many more
    /// end the wait; `None`: commit now.
    fn linger(&self, jobs: usize) -> Option<(Duration, usize)>;
    /// Commits the batch; `false` if it failed (nothing of it was kept).
    fn finish(&self) -> bool;
    /// Whether the job just run was turned away from the batch (nothing of it was kept): it
    /// runs again on its own once the batch is settled. Clears the mark.
    fn deferred(&self) -> bool;
    /// Rolls back the batch if it is still open (something panicked before its end).
    fn abandon(&self);
    /// Opens a batch that never waits for a lock, for a job run on the caller's thread (see
    /// the module's "Inline"); `false` if there is none (nothing opened).
    fn begin_quick(&self) -> bool {
        false
    }
}

impl Batching for crate::app::App {
    fn begin(&self) {
        self.begin_batch();
    }

    fn begin_quick(&self) -> bool {
        self.begin_quick_batch()
    }

    fn linger(&self, jobs: usize) -> Option<(Duration, usize)> {
        self.batch_linger(jobs)
    }

    fn abandon(&self) {
        self.abandon_batch();
    }

    fn deferred(&self) -> bool {
        self.batch_deferred()
    }

    fn finish(&self) -> bool {
        match self.finish_batch() {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(error = %e, "a batch's commit failed: its commands run again one by one");
                false
            }
        }
    }
}

/// The most jobs in one batch (one commit), as in a group commit.
pub const MAX_BATCH: usize = crate::store::MAX_GROUP;

/// A job's result, kept until its batch is settled.
struct Pending<T, F> {
    f: F,
    /// When its interaction arrived, for [`START_BY`].
    arrived: Option<Instant>,
    /// Its lane's count of waiting interactions, left when it is taken.
    leave: Option<Arc<AtomicUsize>>,
    tx: tokio::sync::oneshot::Sender<Result<T, Refused>>,
    out: Option<Result<T, Refused>>,
}

impl<T: Send + 'static, F: Fn() -> T + Send + 'static> Pending<T, F> {
    fn call(&self) -> Result<T, Refused> {
        catch_unwind(AssertUnwindSafe(&self.f)).map_err(|_| Refused::Panicked)
    }
}

impl<T: Send + 'static, F: Fn() -> T + Send + 'static> Batched for Pending<T, F> {
    fn run(&mut self) {
        if let Some(waiting) = self.leave.take() {
            waiting.fetch_sub(1, Ordering::SeqCst);
        }
        self.out = Some(match late(self.arrived) {
            Some(refused) => Err(refused),
            None => self.call(),
        });
    }

    fn send(self: Box<Self>) {
        // The caller may have gone (its interaction dropped); the result is then unwanted.
        let _ = self.tx.send(self.out.unwrap_or(Err(Refused::Panicked)));
    }

    fn refuse(self: Box<Self>) {
        let _ = self.tx.send(Err(Refused::Panicked));
    }

    fn again(mut self: Box<Self>) {
        if matches!(self.out, Some(Ok(_) | Err(Refused::Panicked))) {
            self.out = Some(self.call());
        }
        self.send();
    }
}

/// Where a job's result goes.
type Sender<T> = tokio::sync::oneshot::Sender<Result<T, Refused>>;

/// A job run once, its result sent at once; `admit`: the count of waiting interactions to leave
/// when taken, and when its interaction arrived.
fn once<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
    admit: Option<(Arc<AtomicUsize>, Option<Instant>)>,
    tx: Sender<T>,
) -> Job {
    Job::Once(Box::new(move || {
        if let Some((waiting, arrived)) = admit {
            waiting.fetch_sub(1, Ordering::SeqCst);
            if let Some(refused) = late(arrived) {
                let _ = tx.send(Err(refused));
                return;
            }
        }
        // The caller may have gone (its interaction dropped); the result is then unwanted.
        let _ = tx.send(catch_unwind(AssertUnwindSafe(f)).map_err(|_| Refused::Panicked));
    }))
}

/// Runs `job` in the batch open on this thread: into `kept`, or, turned away from the batch
/// (nothing of it was kept), into `turned`.
fn run_in_batch(
    batching: &dyn Batching,
    mut job: Box<dyn Batched>,
    kept: &mut Vec<Box<dyn Batched>>,
    turned: &mut Vec<Box<dyn Batched>>,
) {
    job.run();
    if batching.deferred() {
        turned.push(job);
    } else {
        kept.push(job);
    }
}

/// Runs `first` and the batched jobs queued behind it (up to [`MAX_BATCH`], stopping at a job
/// of the bot's own) as one batch: once the queue is empty, or after the batch's linger, it
/// commits, then sends every result, or, if the commit failed, runs each job again on its own.
fn run_batch(lane: &Lane, batching: &dyn Batching, first: Box<dyn Batched>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    // Turned away from the batch: run again on their own once it is settled.
    let mut later = Vec::new();
    // Jobs catch their own panics. Should the batch's own calls panic (a bug), whatever is still
    // open is rolled back and every job of the batch is answered as panicked, never run again:
    // the panic may have come after the commit, and a second run would apply it twice.
    let settled = catch_unwind(AssertUnwindSafe(|| {
        batching.begin();
        run_in_batch(batching, first, &mut batch, &mut later);
        let mut until = None;
        while batch.len() + later.len() < MAX_BATCH {
            let next = lane.take_batched(None).or_else(|| {
                // Nothing queued: commit now, unless the batch waits a moment for more (woken
                // only once as many have come as end the wait, not by each).
                let (wait, more) = batching.linger(batch.len())?;
                let until = *until.get_or_insert_with(|| Instant::now() + wait);
                lane.take_batched(Some((until, more)))
            });
            let Some(job) = next else { break };
            run_in_batch(batching, job, &mut batch, &mut later);
        }
        batching.finish()
    }));
    let Ok(committed) = settled else {
        batching.abandon();
        tracing::error!(
            jobs = batch.len(),
            "a batch panicked; its commands are answered as failed"
        );
        for job in batch.into_iter().chain(later) {
            job.refuse();
        }
        return;
    };
    for job in batch {
        if committed { job.send() } else { job.again() }
    }
    for job in later {
        job.again();
    }
}

/// The drains after an inline command (see the module's "Inline"), while its lane is still held
/// for it: those queued during its commit run in quick batches on the thread that runs it, a
/// runtime's, rather than wake the lane's thread (a wake-up of a sleeping thread, and another to
/// send each answer back), while each quick batch goes cleanly (one turned away would be again).
/// Then the lane is free.
///
/// Run after the command's own answer is on its way: from a task spawned on the runtime, which
/// runs once the command's task yields (its callback request written). Before, the command's
/// answer waited for the drained batch's commands and commit too. Dropped unrun (the runtime
/// shut down), it frees the lane all the same, whose thread then takes what is queued.
struct Drain {
    lane: Arc<Lane>,
    batching: Arc<dyn Batching>,
    /// Quick batches still allowed ([`INLINE_DRAINS`]), 0 after one that was not clean.
    left: usize,
}

impl Drain {
    /// Whether a quick batch is still allowed and something is queued for it.
    fn due(&self) -> bool {
        self.left > 0 && self.lane.len() > 0
    }

    fn run(mut self) {
        while self.due() {
            self.left = if drain_inline(&self.lane, &*self.batching) {
                self.left - 1
            } else {
                0
            };
        }
    }
}

impl Drop for Drain {
    fn drop(&mut self) {
        self.lane.end_inline();
    }
}

/// Runs the interactions queued on the lane (at most [`INLINE_JOINED`]) on this thread in a
/// quick batch, as those joining one run inline do: for the ones queued while an inline
/// command committed, which would otherwise wake the lane's thread (see the module's
/// "Inline"). Whether it ran some, and all of them were kept.
fn drain_inline(lane: &Lane, batching: &dyn Batching) -> bool {
    quick_batch::<()>(lane, batching, None).is_some_and(|(clean, _)| clean)
}

/// A quick batch on this thread (see the module's "Inline"): `f`, if any, then the
/// interactions queued on the lane behind it (at most [`INLINE_JOINED`]). The others are
/// answered once committed; those turned away, or all if the commit failed, go back to the
/// front of the lane. `None` when the store has no quick batch; else whether the batch was
/// clean (it ran something, committed, and turned nothing away), and `f`'s result unless `f`
/// must run on the lane instead (its write found the lock taken, or the commit failed:
/// nothing of it was kept).
fn quick_batch<T>(
    lane: &Lane,
    batching: &dyn Batching,
    f: Option<&dyn Fn() -> T>,
) -> Option<(bool, Option<Result<T, Refused>>)> {
    // Run in the batch and kept if it commits; turned away from it (nothing kept).
    let mut joined: Vec<Box<dyn Batched>> = Vec::new();
    let mut turned: Vec<Box<dyn Batched>> = Vec::new();
    let settled = catch_unwind(AssertUnwindSafe(|| {
        if !batching.begin_quick() {
            return None;
        }
        let out = f.map(|f| catch_unwind(AssertUnwindSafe(f)).map_err(|_| Refused::Panicked));
        let deferred = batching.deferred();
        // One turned away found the lock taken: the others would too.
        while !deferred && turned.is_empty() && joined.len() < INLINE_JOINED {
            let Some(job) = lane.take_batched(None) else {
                break;
            };
            run_in_batch(batching, job, &mut joined, &mut turned);
        }
        let committed = batching.finish();
        Some((committed, deferred, out.filter(|_| committed && !deferred)))
    }));
    match settled {
        Ok(None) => None,
        Ok(Some((committed, deferred, out))) => {
            let ran = f.is_some() || !joined.is_empty();
            let clean = committed && ran && !deferred && turned.is_empty();
            if committed {
                for job in joined {
                    job.send();
                }
            } else {
                turned.splice(0..0, joined);
            }
            lane.requeue(turned);
            Some((clean, out))
        }
        Err(_) => {
            // The batch's own calls panicked (a bug): as in `run_batch`, its jobs are answered
            // as failed and never run again, for the commit may have happened.
            batching.abandon();
            tracing::error!(
                jobs = usize::from(f.is_some()) + joined.len() + turned.len(),
                "a quick batch run inline panicked outside its commands' own code; they are answered as failed"
            );
            for job in joined.into_iter().chain(turned) {
                job.refuse();
            }
            Some((false, f.map(|_| Err(Refused::Panicked))))
        }
    }
}

/// The refusal of a job that reaches a thread after [`START_BY`], if it is one.
fn late(arrived: Option<Instant>) -> Option<Refused> {
    let waited = arrived?.elapsed();
    (waited > START_BY).then_some(Refused::Late {
        answerable: waited < ANSWER_BY,
    })
}

/// Writing threads batching side by side on PostgreSQL, by default (`REFEREE_APP_THREADS` sets
/// it): each batch waits for the server's answer to one statement at a time, so one thread
/// alone leaves the cores idle (measured with `cargo bench --bench bot_load`, see the README).
pub const PG_WRITERS: usize = 4;

/// The environment variable that sets the pool's size.
pub const THREADS_ENV: &str = "REFEREE_APP_THREADS";
/// App threads per core (see [`Workers::count`]).
pub const THREADS_PER_CORE: usize = 4;
/// The fewest app threads by default: enough that a slow job (a write waiting on another
/// process's lock, say) does not hold up every read.
pub const MIN_THREADS: usize = 4;

/// How long after an interaction arrives its writes stop waiting for another process's write
/// lock and answer "busy": early enough that the answer still goes out as the interaction's
/// callback, which [`super::answer`] sends until [`super::answer::ANSWER_WITHIN`].
pub const WRITE_DEADLINE: Duration = Duration::from_secs(2);

// The "busy" answer of a write that met the deadline must leave time to reach Discord.
const _: () = assert!(
    WRITE_DEADLINE.as_millis() + 300 <= super::answer::ANSWER_WITHIN.as_millis(),
    "a write's deadline leaves no time to answer"
);

/// The environment variable that turns batches off (`off`): the bot then writes from a pool of
/// threads, each write its own transaction (with group commit on SQLite), for comparison.
pub const BATCHES_ENV: &str = "REFEREE_WRITE_BATCHES";

/// The environment variable that keeps every interaction off the runtime's threads (`off`; see
/// the module's "Inline").
pub const INLINE_ENV: &str = "REFEREE_INLINE_WRITES";
/// Interactions in flight at most, counting the one asking, for it to run inline (when on).
/// 16 instead, in turn with 4 at 5,000 `/roll` a second (16 slices per run, three pairs): the
/// medians of referee's per-slice p99 over the floor's 3.26, 3.61, 3.79 against 1.69, 2.38,
/// 2.29, and a higher p50 in each pair.
pub const INLINE_INFLIGHT: usize = 4;

/// Interactions queued behind one running inline that its thread runs in the same quick batch,
/// at most (see the module's "Inline"): each costs the inline one's answer a few tens of
/// microseconds, where the lane's thread, asleep, would cost a wake-up to run it and another to
/// answer it.
pub const INLINE_JOINED: usize = 4;

/// Quick batches at most that a command run inline runs after its own for the interactions
/// queued during its commit (see the module's "Inline"), each of at most [`INLINE_JOINED`];
/// `REFEREE_INLINE_DRAINS` sets it (0: none, the lane's thread is woken for them).
pub const INLINE_DRAINS: usize = 1;
/// The environment variable that sets [`INLINE_DRAINS`].
pub const DRAINS_ENV: &str = "REFEREE_INLINE_DRAINS";

/// The environment variable that sets each lane's queue limit.
pub const QUEUE_ENV: &str = "REFEREE_QUEUE_LIMIT";
/// Jobs waiting in one lane's queue at most, by default. At the bot's 10,000 interactions a
/// second a full queue is drained in well under a second, so the limit bounds memory, not
/// latency (which [`START_BY`] bounds).
pub const QUEUE_LIMIT: usize = 1024;
/// A job that reaches a thread later than this after its interaction arrived does not run: it
/// would meet its write deadline ([`WRITE_DEADLINE`]) with little or no time to do its work,
/// and its answer might miss Discord's 3 seconds.
pub const START_BY: Duration = Duration::from_millis(1_500);
/// Until this long after arrival a refused interaction can still be told "busy": the callback
/// needs time to reach Discord before [`super::answer::ANSWER_WITHIN`].
pub const ANSWER_BY: Duration = Duration::from_millis(2_200);

const _: () = assert!(
    START_BY.as_millis() < WRITE_DEADLINE.as_millis()
        && ANSWER_BY.as_millis() + 300 <= super::answer::ANSWER_WITHIN.as_millis(),
    "admission's limits must fall inside the write deadline and the answer's"
);

/// What a busy bot answers when it turns an interaction away before running it.
pub const BUSY: &str = "The bot is very busy right now and did not run that; nothing was changed. Try again in a moment.";

/// Why a job did not give a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// It panicked, or the pool was shutting down and dropped it.
    #[error("the job panicked or was dropped")]
    Panicked,
    /// Its lane's queue was full; it never ran.
    #[error("the queue is full")]
    Full,
    /// It waited past [`START_BY`] and did not run; `answerable` while before [`ANSWER_BY`].
    #[error("the job waited too long to start")]
    Late { answerable: bool },
}

/// What admission control has turned away, since start.
#[derive(Debug, Default)]
pub struct Admission {
    /// Refused at once, the queue being full (and answered "busy").
    pub full: AtomicU64,
    /// Waited too long, answered "busy".
    pub late: AtomicU64,
    /// Waited too long to answer at all: dropped.
    pub dropped: AtomicU64,
}

impl Admission {
    /// Counts a refusal; returns whether the interaction may still be answered ("busy").
    pub fn count(&self, refused: Refused) -> bool {
        let (counter, answer) = match refused {
            Refused::Full => (&self.full, true),
            Refused::Late { answerable: true } => (&self.late, true),
            Refused::Late { answerable: false } => (&self.dropped, false),
            Refused::Panicked => return true,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        answer
    }

    /// (full, late, dropped) so far.
    pub fn counts(&self) -> (u64, u64, u64) {
        (
            self.full.load(Ordering::Relaxed),
            self.late.load(Ordering::Relaxed),
            self.dropped.load(Ordering::Relaxed),
        )
    }
}

/// A count an environment variable sets: a number, at least 1; `None` when unset or not a
/// number (the caller's default then stands).
pub fn count_setting(setting: Option<&str>) -> Option<usize> {
    setting
        .and_then(|v| v.trim().parse::<usize>().ok())
        .map(|n| n.max(1))
}

/// Whether a push that left `queued` jobs wakes a thread: one sleeps, and enough are queued for
/// it (`wake_at`), or the job is the bot's own (`own`), which ends a waiting batch.
fn wakes(sleeping: usize, queued: usize, wake_at: usize, own: bool) -> bool {
    sleeping > 0 && (own || queued >= wake_at.max(1))
}

/// One lane's queue: jobs in the order they came, taken by the lane's threads.
#[derive(Default)]
struct Lane {
    state: Mutex<LaneState>,
    ready: Condvar,
}

#[derive(Default)]
struct LaneState {
    jobs: VecDeque<Job>,
    /// Threads asleep waiting for a job.
    sleeping: usize,
    /// A push wakes a sleeping thread once this many jobs are queued (1 but while a batch
    /// waits for a group: see [`Lane::take_batched`]).
    wake_at: usize,
    /// No more jobs are taken; the threads stop once the queue is empty.
    closed: bool,
    /// The lane's threads running a job (or a batch) now.
    running: usize,
    /// A job runs on its caller's thread (see the module's "Inline"): the lane's threads take
    /// nothing meanwhile.
    inline: bool,
}

impl Lane {
    fn lock(&self) -> std::sync::MutexGuard<'_, LaneState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `job`, waking a sleeping thread if there is one (and, for a batch waiting for a
    /// group, enough jobs are queued); `false` once closed.
    fn push(&self, job: Job) -> bool {
        let mut state = self.lock();
        if state.closed {
            return false;
        }
        // A batch waiting for more interactions is woken by a job of the bot's own at once:
        // it ends the batch.
        let own = matches!(job, Job::Once(_));
        state.jobs.push_back(job);
        // A job running inline wakes the lane once it is done (`end_inline`).
        let wake = !state.inline && wakes(state.sleeping, state.jobs.len(), state.wake_at, own);
        drop(state);
        if wake {
            self.ready.notify_one();
        }
        true
    }

    /// The next job for a lane's thread, sleeping until there is one (and no job runs inline);
    /// `None` once closed and empty. `after_job`: the thread has just finished one.
    fn take(&self, after_job: bool) -> Option<Job> {
        let mut state = self.lock();
        if after_job {
            state.running -= 1;
        }
        loop {
            if !state.inline
                && let Some(job) = state.jobs.pop_front()
            {
                state.running += 1;
                return Some(job);
            }
            if state.closed && state.jobs.is_empty() {
                return None;
            }
            state = self.sleep(state, None, 1);
        }
    }

    /// Whether the caller may run a job inline now: nothing is queued and none of the lane's
    /// threads runs a job. If so, the lane's threads take nothing until [`Lane::end_inline`].
    fn begin_inline(&self) -> bool {
        let mut state = self.lock();
        let free = !state.closed && !state.inline && state.running == 0 && state.jobs.is_empty();
        state.inline |= free;
        free
    }

    /// The job run inline is done: the lane's threads take jobs again.
    fn end_inline(&self) {
        let mut state = self.lock();
        state.inline = false;
        let wake = state.sleeping > 0 && !state.jobs.is_empty();
        drop(state);
        if wake {
            self.ready.notify_one();
        }
    }

    /// Puts `jobs`, taken in this order, back at the front of the queue, for the lane's threads
    /// (woken by [`Lane::end_inline`]).
    fn requeue(&self, jobs: Vec<Box<dyn Batched>>) {
        if jobs.is_empty() {
            return;
        }
        let mut state = self.lock();
        for job in jobs.into_iter().rev() {
            state.jobs.push_front(Job::Batched(job));
        }
    }

    /// The next job if it is a batched one: at once, or, given `(until, more)`, waiting until
    /// then for one to come, woken early only once `more` are queued (or a job of the bot's
    /// own). `None` when the next job is not batched, or none came.
    fn take_batched(&self, wait: Option<(Instant, usize)>) -> Option<Box<dyn Batched>> {
        let mut state = self.lock();
        loop {
            match state.jobs.pop_front() {
                Some(Job::Batched(job)) => return Some(job),
                Some(other) => {
                    state.jobs.push_front(other);
                    return None;
                }
                None if state.closed => return None,
                None => {}
            }
            let (until, more) = wait?;
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            state = self.sleep(state, Some(left), more);
        }
    }

    /// Sleeps until `wake_at` jobs are queued (or `limit` is over). Only a lane with one thread
    /// sleeps with a `wake_at` above 1.
    fn sleep<'a>(
        &self,
        mut state: std::sync::MutexGuard<'a, LaneState>,
        limit: Option<Duration>,
        wake_at: usize,
    ) -> std::sync::MutexGuard<'a, LaneState> {
        state.sleeping += 1;
        state.wake_at = wake_at;
        let mut state = match limit {
            None => self
                .ready
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner),
            Some(limit) => {
                self.ready
                    .wait_timeout(state, limit)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0
            }
        };
        state.sleeping -= 1;
        state.wake_at = 1;
        state
    }

    fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_all();
    }

    fn len(&self) -> usize {
        self.lock().jobs.len()
    }
}

/// Two fixed pools of threads (writing and read-only commands), each running jobs from its own
/// queue in the order they came.
pub struct Workers {
    queue: Arc<Lane>,
    reads: Arc<Lane>,
    /// Interactions waiting in each lane's queue, (writing, read-only): the limit counts these
    /// only, so the bot's own jobs (a status message to bring up to date, a GM copy to send)
    /// never take an interaction's place, nor are they refused.
    waiting: (Arc<AtomicUsize>, Arc<AtomicUsize>),
    limit: usize,
    /// The writing lane is one thread that runs interactions in batches (see "Batches").
    batches: bool,
    /// Interactions may run on their caller's thread while the writing lane is idle (see
    /// "Inline"), through this.
    inline: Option<Arc<dyn Batching>>,
    /// Whether the bot is calm enough for an interaction to run inline ([`Workers::gate_inline`]).
    calm: std::sync::OnceLock<Box<dyn Fn() -> bool + Send + Sync>>,
    /// Quick batches an inline command runs after its own ([`INLINE_DRAINS`]).
    drains: AtomicUsize,
    threads: Mutex<Vec<JoinHandle<()>>>,
    /// Interactions turned away (see the module's "Admission").
    pub admission: Admission,
}

impl Workers {
    /// Starts `count` threads for commands that write (at least one), and
    /// [`Workers::read_count`] for commands that only read.
    ///
    /// # Errors
    /// When the system refuses a new thread.
    pub fn start(count: usize) -> std::io::Result<Self> {
        Self::start_with(count, QUEUE_LIMIT)
    }

    /// Like [`Workers::start`], with at most `limit` jobs waiting in each lane's queue.
    ///
    /// # Errors
    /// When the system refuses a new thread.
    pub fn start_with(count: usize, limit: usize) -> std::io::Result<Self> {
        let mut threads = Vec::new();
        let queue = Self::lane("referee-app", count, &mut threads)?;
        let reads = Self::lane("referee-read", Self::read_count(count), &mut threads)?;
        Ok(Self {
            queue,
            reads,
            waiting: (Arc::default(), Arc::default()),
            limit: limit.max(1),
            batches: false,
            inline: None,
            calm: std::sync::OnceLock::new(),
            drains: AtomicUsize::new(INLINE_DRAINS),
            threads: Mutex::new(threads),
            admission: Admission::default(),
        })
    }

    /// Starts `writers` writing threads (at least one; SQLite's store admits one) that run
    /// interactions in batches through `batching` (see the module's "Batches"), each its own
    /// batch, and a read-only thread per core, each lane taking at most `limit` waiting
    /// interactions. With `inline`, an interaction that finds the writing lane idle runs on
    /// its caller's thread (see the module's "Inline").
    ///
    /// # Errors
    /// When the system refuses a new thread.
    pub fn start_batching(
        batching: &Arc<dyn Batching>,
        limit: usize,
        writers: usize,
        inline: bool,
    ) -> std::io::Result<Self> {
        let mut threads = Vec::new();
        let queue = Arc::new(Lane::default());
        for n in 0..writers.max(1) {
            let (jobs, batching) = (Arc::clone(&queue), Arc::clone(batching));
            threads.push(
                std::thread::Builder::new()
                    .name(format!("referee-app-{n}"))
                    .spawn(move || {
                        let mut after_job = false;
                        while let Some(job) = jobs.take(after_job) {
                            after_job = true;
                            match job {
                                Job::Once(f) => f(),
                                Job::Batched(first) => run_batch(&jobs, &*batching, first),
                            }
                        }
                    })?,
            );
        }
        let reads = Self::lane("referee-read", Self::read_count(usize::MAX), &mut threads)?;
        Ok(Self {
            queue,
            reads,
            waiting: (Arc::default(), Arc::default()),
            limit: limit.max(1),
            batches: true,
            inline: inline.then(|| Arc::clone(batching)),
            calm: std::sync::OnceLock::new(),
            drains: AtomicUsize::new(INLINE_DRAINS),
            threads: Mutex::new(threads),
            admission: Admission::default(),
        })
    }

    /// How many interactions may be in flight for one that finds the writing lane idle to run
    /// on its caller's thread (see the module's "Inline"): the number `setting`
    /// (`REFEREE_INLINE_WRITES`) holds, `None` for `off` (or `no`, `false`: every interaction
    /// goes to the lane), else [`INLINE_INFLIGHT`] (the default, and `on`).
    pub fn inline(setting: Option<&str>) -> Option<usize> {
        match setting.map(str::trim) {
            Some(v)
                if ["off", "no", "false"]
                    .iter()
                    .any(|off| v.eq_ignore_ascii_case(off)) =>
            {
                None
            }
            Some(v) => Some(v.parse().unwrap_or(INLINE_INFLIGHT)),
            None => Some(INLINE_INFLIGHT),
        }
    }

    /// Sets how many quick batches a command run inline runs after its own for those queued
    /// during its commit ([`INLINE_DRAINS`], which `setting`, `REFEREE_INLINE_DRAINS`, replaces
    /// when it holds a number).
    pub fn set_inline_drains(&self, setting: Option<&str>) {
        if let Some(n) = setting.and_then(|v| v.trim().parse().ok()) {
            self.drains.store(n, Ordering::Relaxed);
        }
    }

    /// Lets an interaction run inline only while `calm` says so (see the module's "Inline");
    /// without it, whenever the lane is idle. Set once; later calls change nothing.
    pub fn gate_inline(&self, calm: impl Fn() -> bool + Send + Sync + 'static) {
        let _ = self.calm.set(Box::new(calm));
    }

    /// Whether the writing lane batches (see the module's "Batches"), on either database:
    /// unless `setting` (`REFEREE_WRITE_BATCHES`) is `off`.
    pub fn batches(setting: Option<&str>) -> bool {
        !setting.is_some_and(|v| v.trim().eq_ignore_ascii_case("off"))
    }

    /// Each lane's queue limit: `REFEREE_QUEUE_LIMIT` if set to a number (at least 1), else
    /// [`QUEUE_LIMIT`].
    pub fn default_queue_limit() -> usize {
        Self::queue_limit(std::env::var(QUEUE_ENV).ok().as_deref())
    }

    /// The queue limit `setting` gives, or [`QUEUE_LIMIT`].
    pub fn queue_limit(setting: Option<&str>) -> usize {
        count_setting(setting).unwrap_or(QUEUE_LIMIT)
    }

    /// Read-only commands wait for nothing but the CPU: one thread per core is enough, and no
    /// more than the writing lane has.
    pub fn read_count(count: usize) -> usize {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        cores.clamp(1, count.max(1))
    }

    fn lane(
        name: &str,
        count: usize,
        threads: &mut Vec<JoinHandle<()>>,
    ) -> std::io::Result<Arc<Lane>> {
        // Unbounded: the interactions in it are bounded by `Workers::limit`, the bot's own jobs
        // by the interactions in flight that made them.
        let lane = Arc::new(Lane::default());
        for n in 0..count.max(1) {
            let jobs = Arc::clone(&lane);
            threads.push(
                std::thread::Builder::new()
                    .name(format!("{name}-{n}"))
                    .spawn(move || {
                        let mut after_job = false;
                        while let Some(job) = jobs.take(after_job) {
                            after_job = true;
                            match job {
                                Job::Once(f) => f(),
                                Job::Batched(mut job) => {
                                    job.run();
                                    job.send();
                                }
                            }
                        }
                    })?,
            );
        }
        Ok(lane)
    }

    /// The pool's size for this machine: `REFEREE_APP_THREADS` if set to a number, else
    /// [`THREADS_PER_CORE`] per core (see [`Workers::count`]).
    pub fn default_count() -> usize {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        Self::count(std::env::var(THREADS_ENV).ok().as_deref(), cores)
    }

    /// The pool's size for `cores` cores, or the number `setting` gives (at least one).
    ///
    /// Several threads per core, because a write waits for its group commit (`store`'s "Group
    /// commit"): with one thread per core, a thread waiting for the group it joined leaves its
    /// core idle, and with two threads a group never holds more than two writes. At 5,000
    /// interactions per second on 2 cores (`cargo bench --bench bot_load`), two threads with
    /// group commit let the queue back up to p99 0.75 s; eight kept p99 at 6–20 ms, with groups of
    /// about four writes.
    pub fn count(setting: Option<&str>, cores: usize) -> usize {
        count_setting(setting).unwrap_or((cores * THREADS_PER_CORE).max(MIN_THREADS))
    }

    /// Runs `f` on the writing lane and waits for its result without blocking the async runtime.
    /// It runs on its own, never in a batch: the bot's own jobs.
    ///
    /// # Errors
    /// [`Refused`] when `f` panicked, or the pool has shut down.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Refused> {
        Self::run_on(&self.queue, None, |tx, _, _| once(f, None, tx)).await
    }

    /// Runs `f` for an interaction that arrived at `arrived` on the writing lane; it does not
    /// run if it reaches a thread after [`START_BY`] (see the module's "Admission"). On a
    /// batching lane it runs in a batch, and again on its own should the batch fail: `f` may
    /// run twice, the first time with nothing it wrote kept.
    ///
    /// # Errors
    /// [`Refused`].
    pub async fn run_for<T: Send + 'static>(
        &self,
        arrived: Instant,
        f: impl Fn() -> T + Send + 'static,
    ) -> Result<T, Refused> {
        // A late one is left to the lane, which refuses it (see "Admission").
        if let Some(batching) = &self.inline
            && late(Some(arrived)).is_none()
            && self.calm.get().is_none_or(|calm| calm())
            && self.queue.begin_inline()
        {
            let ran = quick_batch(&self.queue, &**batching, Some(&f));
            let clean = ran.as_ref().is_some_and(|(clean, _)| *clean);
            let drain = Drain {
                lane: Arc::clone(&self.queue),
                batching: Arc::clone(batching),
                left: if clean {
                    self.drains.load(Ordering::Relaxed)
                } else {
                    0
                },
            };
            let Some((_, Some(result))) = ran else {
                // It runs on the lane: the queue as it was left first.
                drain.run();
                return self.run_queued(arrived, f).await;
            };
            // Those queued during its commit are drained once this task has moved on to send
            // its answer (see `Drain`); none: the lane is free again at once. Only on a runtime
            // whose threads run tasks by themselves: on a current-thread one the task would
            // wait, holding the lane, for whoever drives that runtime next.
            match tokio::runtime::Handle::try_current() {
                Ok(runtime)
                    if runtime.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread
                        && drain.due() =>
                {
                    drop(runtime.spawn(async move { drain.run() }));
                }
                _ => drain.run(),
            }
            return result;
        }
        self.run_queued(arrived, f).await
    }

    /// Runs `f`, a job that writes nothing to the database itself (a read, or a roll that goes
    /// to the store's roll journal), on the caller's thread when an interaction could run inline
    /// there now (the same gate as [`Workers::run_for`]'s, but whatever the writing lane is
    /// doing: `f` never waits for it), else on the read-only lane.
    ///
    /// # Errors
    /// [`Refused`]: as [`Workers::run_read_for`]'s, and [`Refused::Panicked`] for a panic
    /// caught on the caller's thread.
    pub async fn run_light_for<T: Send + 'static>(
        &self,
        arrived: Instant,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Refused> {
        if self.inline.is_some()
            && late(Some(arrived)).is_none()
            && self.calm.get().is_none_or(|calm| calm())
        {
            return std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
                .map_err(|_| Refused::Panicked);
        }
        self.run_read_for(arrived, f).await
    }

    /// [`Workers::run_for`]'s `f` queued on the writing lane, in a batch there if it batches.
    async fn run_queued<T: Send + 'static>(
        &self,
        arrived: Instant,
        f: impl Fn() -> T + Send + 'static,
    ) -> Result<T, Refused> {
        let admit = Some((arrived, &self.waiting.0, self.limit));
        if self.batches {
            Self::run_on(&self.queue, admit, |tx, leave, arrived| {
                Job::Batched(Box::new(Pending {
                    f,
                    arrived,
                    leave,
                    tx,
                    out: None,
                }))
            })
            .await
        } else {
            Self::run_on(&self.queue, admit, |tx, leave, arrived| {
                once(f, leave.map(|leave| (leave, arrived)), tx)
            })
            .await
        }
    }

    /// Runs `f` on the read-only lane (see the module's "Two lanes").
    ///
    /// # Errors
    /// [`Refused`] when `f` panicked, or the pool has shut down.
    pub async fn run_read<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Refused> {
        Self::run_on(&self.reads, None, |tx, _, _| once(f, None, tx)).await
    }

    /// [`Workers::run_for`] on the read-only lane (never batched).
    ///
    /// # Errors
    /// [`Refused`].
    pub async fn run_read_for<T: Send + 'static>(
        &self,
        arrived: Instant,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Refused> {
        let admit = Some((arrived, &self.waiting.1, self.limit));
        Self::run_on(&self.reads, admit, |tx, leave, arrived| {
            once(f, leave.map(|leave| (leave, arrived)), tx)
        })
        .await
    }

    /// Queues the job `make` builds from the result's sender, the count to leave when taken and
    /// the arrival. An interaction's job (`admit`: when it arrived, its lane's count of waiting
    /// interactions and the limit) is refused at once past the limit, and does not run if it
    /// reaches a thread after [`START_BY`]; the bot's own jobs are neither.
    async fn run_on<T: Send + 'static>(
        queue: &Lane,
        admit: Option<(Instant, &Arc<AtomicUsize>, usize)>,
        make: impl FnOnce(Sender<T>, Option<Arc<AtomicUsize>>, Option<Instant>) -> Job,
    ) -> Result<T, Refused> {
        let counted = match admit {
            Some((_, waiting, limit)) => {
                if waiting.fetch_add(1, Ordering::SeqCst) >= limit {
                    waiting.fetch_sub(1, Ordering::SeqCst);
                    return Err(Refused::Full);
                }
                Some(Arc::clone(waiting))
            }
            None => None,
        };
        let (tx, rx) = tokio::sync::oneshot::channel();
        let sent = queue.push(make(
            tx,
            counted.clone(),
            admit.map(|(arrived, ..)| arrived),
        ));
        if !sent {
            if let Some(waiting) = counted {
                waiting.fetch_sub(1, Ordering::SeqCst);
            }
            return Err(Refused::Panicked);
        }
        rx.await.unwrap_or(Err(Refused::Panicked))
    }

    /// Jobs waiting in each lane's queue now, (writing, read-only): for the metrics.
    pub fn queue_depths(&self) -> (usize, usize) {
        (self.queue.len(), self.reads.len())
    }

    /// Lets the queued jobs finish, then stops the threads. Later calls to [`Workers::run`] get
    /// [`Refused::Panicked`].
    pub fn shutdown(&self) {
        self.queue.close();
        self.reads.close();
        let threads = std::mem::take(
            &mut *self
                .threads
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        for thread in threads {
            let _ = thread.join();
        }
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        self.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime")
    }

    #[test]
    fn the_pool_size_is_four_per_core_unless_set() {
        let cases = [
            (None, 1, 4),
            (None, 2, 8),
            (None, 8, 32),
            (Some("3"), 2, 3),
            (Some(" 16 "), 2, 16),
            (Some("0"), 2, 1),
            (Some("many"), 2, 8),
            (Some(""), 1, 4),
        ];
        for (setting, cores, want) in cases {
            assert_eq!(
                Workers::count(setting, cores),
                want,
                "setting {setting:?}, {cores} cores"
            );
        }
    }

    #[test]
    fn runs_jobs_and_returns_their_results() {
        let workers = Workers::start(2).expect("threads");
        let out = runtime().block_on(async {
            let mut sum = 0;
            for n in 0..100 {
                sum += workers.run(move || n * 2).await.expect("a result");
            }
            sum
        });
        assert_eq!(out, 9900);
    }

    #[test]
    fn jobs_run_on_the_pool_threads_not_the_callers() {
        let workers = Workers::start(1).expect("threads");
        let name = runtime()
            .block_on(workers.run(|| std::thread::current().name().map(str::to_owned)))
            .expect("a result");
        assert_eq!(name.as_deref(), Some("referee-app-0"));
    }

    #[test]
    fn reads_run_on_their_own_lane_while_every_writing_thread_is_busy() {
        let workers = Arc::new(Workers::start(2).expect("threads"));
        let (release_tx, release_rx) = crossbeam_channel::unbounded::<()>();
        let (held_tx, held_rx) = crossbeam_channel::unbounded::<()>();
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_time()
            .build()
            .expect("a runtime");
        // Every writing thread waits (like writes on another process's lock), and more queue.
        let blocked: Vec<_> = (0..4)
            .map(|_| {
                let (workers, release, held) =
                    (Arc::clone(&workers), release_rx.clone(), held_tx.clone());
                rt.spawn(async move {
                    workers
                        .run(move || {
                            let _ = held.send(());
                            let _ = release.recv();
                        })
                        .await
                })
            })
            .collect();
        for _ in 0..2 {
            held_rx
                .recv_timeout(std::time::Duration::from_secs(10))
                .expect("both writing threads are held");
        }
        let name = rt
            .block_on(workers.run_read(|| std::thread::current().name().map(str::to_owned)))
            .expect("the read ran while the writing lane was full");
        assert!(
            name.as_deref()
                .is_some_and(|n| n.starts_with("referee-read-")),
            "{name:?}"
        );
        // The writing threads are still held: the read did not wait for them.
        assert!(held_rx.try_recv().is_err(), "a queued write ran first");
        for _ in 0..4 {
            release_tx.send(()).expect("release");
        }
        for b in blocked {
            rt.block_on(b).expect("task").expect("a result");
        }
    }

    #[test]
    fn a_full_queue_refuses_at_once_and_a_late_job_does_not_run() {
        // One writing thread, held; a queue of 2: the third waiting job is refused.
        let workers = Arc::new(Workers::start_with(1, 2).expect("threads"));
        let rt = two_threads();
        let (release_tx, holder) = hold(&workers, &rt);
        let ran = Arc::new(AtomicUsize::new(0));
        // Two queue: one that arrived long ago (late), one fresh.
        let long_ago = Instant::now()
            .checked_sub(ANSWER_BY + Duration::from_millis(1))
            .expect("a monotonic clock past boot");
        let late = {
            let (workers, ran) = (Arc::clone(&workers), Arc::clone(&ran));
            rt.spawn(async move {
                workers
                    .run_for(long_ago, move || ran.fetch_add(1, Ordering::SeqCst))
                    .await
            })
        };
        let fresh = {
            let (workers, ran) = (Arc::clone(&workers), Arc::clone(&ran));
            rt.spawn(async move {
                workers
                    .run_for(Instant::now(), move || ran.fetch_add(1, Ordering::SeqCst))
                    .await
            })
        };
        // Wait until both are queued. (A probing job sent before then would take a place in
        // the queue and wait behind the held thread for ever.)
        let until = Instant::now() + Duration::from_secs(30);
        while workers.queue_depths() != (2, 0) {
            assert!(
                Instant::now() < until,
                "never queued: {:?}",
                workers.queue_depths()
            );
            std::thread::yield_now();
        }
        let third = rt.block_on(workers.run_for(Instant::now(), || 0usize));
        // The bot's own jobs are never refused: one queues behind the others.
        let own = {
            let workers = Arc::clone(&workers);
            rt.spawn(async move { workers.run(|| 1usize).await })
        };
        assert_eq!(third, Err(Refused::Full), "the queue of 2 was full");
        release_tx.send(()).expect("release");
        rt.block_on(holder)
            .expect("task")
            .expect("the held job ran");
        assert_eq!(
            rt.block_on(late).expect("task"),
            Err(Refused::Late { answerable: false })
        );
        assert!(rt.block_on(fresh).expect("task").is_ok());
        assert_eq!(ran.load(Ordering::SeqCst), 1, "only the fresh job ran");
        assert_eq!(
            rt.block_on(own).expect("task"),
            Ok(1),
            "the bot's own job ran"
        );
    }

    #[test]
    fn admission_counts_each_refusal_once_and_says_which_may_be_answered() {
        let admission = Admission::default();
        let cases = [
            (Refused::Full, true),
            (Refused::Late { answerable: true }, true),
            (Refused::Late { answerable: false }, false),
            (Refused::Full, true),
        ];
        for (refused, answer) in cases {
            assert_eq!(admission.count(refused), answer, "{refused:?}");
        }
        assert_eq!(admission.counts(), (2, 1, 1));
    }

    #[test]
    fn the_queue_limit_is_the_default_unless_set() {
        for (setting, want) in [
            (None, QUEUE_LIMIT),
            (Some("8"), 8),
            (Some("0"), 1),
            (Some("lots"), QUEUE_LIMIT),
        ] {
            assert_eq!(Workers::queue_limit(setting), want, "{setting:?}");
        }
    }

    #[test]
    fn a_panic_is_an_error_and_the_thread_lives_on() {
        let workers = Workers::start(1).expect("threads");
        let rt = runtime();
        let panicked = rt.block_on(workers.run(|| -> u8 { panic!("boom") }));
        assert!(panicked.is_err());
        // The only thread survived the panic and still answers.
        assert_eq!(rt.block_on(workers.run(|| 7)).expect("a result"), 7);
    }

    #[test]
    fn shutdown_waits_for_the_running_job_then_refuses_new_ones() {
        let workers = Arc::new(Workers::start(1).expect("threads"));
        let started = Arc::new(AtomicUsize::new(0));
        let done = Arc::new(AtomicUsize::new(0));
        let caller = {
            let (workers, started, done) = (
                Arc::clone(&workers),
                Arc::clone(&started),
                Arc::clone(&done),
            );
            std::thread::spawn(move || {
                runtime().block_on(workers.run(move || {
                    started.store(1, Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(50));
                    done.store(1, Ordering::SeqCst);
                }))
            })
        };
        while started.load(Ordering::SeqCst) == 0 {
            std::thread::yield_now();
        }
        workers.shutdown();
        // shutdown returned only after the job in progress finished, and its caller got it.
        assert_eq!(done.load(Ordering::SeqCst), 1);
        assert!(caller.join().expect("the caller thread").is_ok());
        assert!(runtime().block_on(workers.run(|| 1)).is_err());
    }

    #[test]
    fn many_callers_at_once_all_get_their_own_answer() {
        let workers = Arc::new(Workers::start(Workers::default_count()).expect("threads"));
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .expect("a runtime");
        let answers = rt.block_on(async {
            let mut tasks = Vec::new();
            for n in 0..500_u64 {
                let workers = Arc::clone(&workers);
                tasks.push(tokio::spawn(
                    async move { workers.run(move || n * n).await },
                ));
            }
            let mut out = Vec::new();
            for t in tasks {
                out.push(t.await.expect("the task").expect("a result"));
            }
            out
        });
        let expected: Vec<u64> = (0..500).map(|n| n * n).collect();
        assert_eq!(answers, expected);
    }

    /// A stand-in for the app's batches: logs each call, and fails the commits it is told to.
    #[derive(Default)]
    struct Recorder {
        log: Mutex<Vec<String>>,
        /// Commits still to fail.
        failures: AtomicUsize,
        /// The next commit panics.
        panics: std::sync::atomic::AtomicBool,
        /// The job just run was turned away from the batch (a job sets it).
        turned: std::sync::atomic::AtomicBool,
        /// It has quick batches (as SQLite's store has).
        quick: std::sync::atomic::AtomicBool,
    }

    impl Recorder {
        fn note(&self, what: impl Into<String>) {
            self.log.lock().expect("log").push(what.into());
        }

        fn log(&self) -> Vec<String> {
            self.log.lock().expect("log").clone()
        }
    }

    impl Batching for Recorder {
        fn begin(&self) {
            self.note("begin");
        }

        fn begin_quick(&self) -> bool {
            let quick = self.quick.load(Ordering::SeqCst);
            if quick {
                self.note("begin quick");
            }
            quick
        }

        fn linger(&self, _jobs: usize) -> Option<(Duration, usize)> {
            None
        }

        fn abandon(&self) {
            self.note("abandoned");
        }

        fn deferred(&self) -> bool {
            self.turned.swap(false, Ordering::SeqCst)
        }

        fn finish(&self) -> bool {
            if self.panics.swap(false, Ordering::SeqCst) {
                self.note("panicked");
                panic!("the commit panics");
            }
            let failed = self
                .failures
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                .is_ok();
            self.note(if failed { "failed" } else { "committed" });
            !failed
        }
    }

    /// Holds the pool's (one) writing thread with a job of the bot's own until the returned
    /// sender is used, so that what is queued meanwhile waits (and, batching, forms one batch).
    fn hold(
        workers: &Arc<Workers>,
        rt: &tokio::runtime::Runtime,
    ) -> (
        crossbeam_channel::Sender<()>,
        tokio::task::JoinHandle<Result<(), Refused>>,
    ) {
        let (release_tx, release_rx) = crossbeam_channel::unbounded::<()>();
        let (held_tx, held_rx) = crossbeam_channel::unbounded::<()>();
        let holder = {
            let workers = Arc::clone(workers);
            rt.spawn(async move {
                workers
                    .run(move || {
                        let _ = held_tx.send(());
                        let _ = release_rx.recv();
                    })
                    .await
            })
        };
        held_rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the thread is held");
        (release_tx, holder)
    }

    /// A batching pool over `recorder`, its writing thread held (see [`hold`]).
    fn held_batching(
        recorder: &Arc<Recorder>,
        rt: &tokio::runtime::Runtime,
    ) -> (
        Arc<Workers>,
        crossbeam_channel::Sender<()>,
        tokio::task::JoinHandle<Result<(), Refused>>,
    ) {
        let workers = Arc::new(
            Workers::start_batching(&(Arc::clone(recorder) as Arc<dyn Batching>), 64, 1, false)
                .expect("threads"),
        );
        let (release, holder) = hold(&workers, rt);
        (workers, release, holder)
    }

    /// Queues `jobs` interactions (job `n` arrived at `arrival(n)` and runs `job(n)`) while the
    /// batching pool is held, releases it, and returns their answers in order.
    fn one_batch<T: Send + std::fmt::Debug + 'static, F: Fn() -> T + Send + 'static>(
        recorder: &Arc<Recorder>,
        jobs: usize,
        arrival: impl Fn(usize) -> Instant,
        job: impl Fn(usize) -> F,
    ) -> (
        Arc<Workers>,
        tokio::runtime::Runtime,
        Vec<Result<T, Refused>>,
    ) {
        let rt = two_threads();
        let (workers, release, holder) = held_batching(recorder, &rt);
        let mut tasks = Vec::new();
        for n in 0..jobs {
            let (pool, arrived, f) = (Arc::clone(&workers), arrival(n), job(n));
            tasks.push(rt.spawn(async move { pool.run_for(arrived, f).await }));
            until_queued(&workers, n + 1);
        }
        release.send(()).expect("release");
        rt.block_on(holder).expect("task").expect("held job");
        let got = tasks
            .into_iter()
            .map(|t| rt.block_on(t).expect("task"))
            .collect();
        (workers, rt, got)
    }

    fn until_queued(workers: &Workers, n: usize) {
        let until = Instant::now() + Duration::from_secs(30);
        while workers.queue_depths().0 != n {
            assert!(Instant::now() < until, "never queued {n}");
            std::thread::yield_now();
        }
    }

    /// A runtime of two threads, each named "runtime".
    fn two_threads() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name(RUNTIME)
            .build()
            .expect("a runtime")
    }

    /// The name of [`two_threads`]'s threads.
    const RUNTIME: &str = "runtime";

    /// A batching pool over `recorder` whose interactions run inline while its lane is idle.
    fn inline_pool(recorder: &Arc<Recorder>) -> Arc<Workers> {
        Arc::new(
            Workers::start_batching(&(Arc::clone(recorder) as Arc<dyn Batching>), 64, 1, true)
                .expect("threads"),
        )
    }

    /// A recorder whose store has quick batches.
    fn quick_recorder() -> Arc<Recorder> {
        let recorder = Arc::new(Recorder::default());
        recorder.quick.store(true, Ordering::SeqCst);
        recorder
    }

    /// The name of the thread a job ran on.
    fn here() -> String {
        std::thread::current()
            .name()
            .unwrap_or("unnamed")
            .to_owned()
    }

    /// Runs `job` through `workers` from a thread of its own, blocking on `rt`: the name of that
    /// thread, and the outcome.
    fn run_from_a_caller<T: Send + 'static>(
        workers: &Arc<Workers>,
        rt: &tokio::runtime::Runtime,
        job: impl Fn() -> T + Send + 'static,
    ) -> (String, Result<T, Refused>) {
        let workers = Arc::clone(workers);
        std::thread::scope(|scope| {
            scope
                .spawn(move || (here(), rt.block_on(workers.run_for(Instant::now(), job))))
                .join()
                .expect("caller")
        })
    }

    #[test]
    fn an_interaction_finding_the_lane_idle_runs_on_its_callers_thread_in_a_quick_batch() {
        let recorder = quick_recorder();
        let workers = inline_pool(&recorder);
        let rt = two_threads();
        let caller = std::thread::Builder::new()
            .name("caller".into())
            .spawn(move || rt.block_on(workers.run_for(Instant::now(), here)))
            .expect("thread")
            .join()
            .expect("caller");
        assert_eq!(caller, Ok("caller".to_owned()));
        assert_eq!(recorder.log(), ["begin quick", "committed"]);
    }

    #[test]
    fn an_interaction_runs_on_the_lane_while_the_gate_says_too_many_are_in_flight() {
        let recorder = quick_recorder();
        let workers = inline_pool(&recorder);
        let in_flight = Arc::new(AtomicUsize::new(INLINE_INFLIGHT + 1));
        {
            let in_flight = Arc::clone(&in_flight);
            workers.gate_inline(move || in_flight.load(Ordering::SeqCst) <= INLINE_INFLIGHT);
        }
        let rt = two_threads();
        // One more than the gate lets through: the lane's thread, in a batch.
        let (_, got) = run_from_a_caller(&workers, &rt, here);
        assert_eq!(got, Ok("referee-app-0".to_owned()));
        assert_eq!(recorder.log(), ["begin", "committed"]);
        // At the gate's number: inline, on the caller's thread, once the lane's thread is back
        // asleep (until then the lane is not idle, and the interaction queues there: seen on a
        // busy machine).
        while workers.queue.lock().sleeping == 0 {
            std::thread::sleep(Duration::from_millis(1));
        }
        in_flight.store(INLINE_INFLIGHT, Ordering::SeqCst);
        let (caller, got) = run_from_a_caller(&workers, &rt, here);
        assert_eq!(got, Ok(caller));
        assert_eq!(
            recorder.log(),
            ["begin", "committed", "begin quick", "committed"]
        );
    }

    #[test]
    fn the_inline_setting_is_on_by_default_a_number_or_off() {
        for (setting, expected) in [
            (None, Some(INLINE_INFLIGHT)),
            (Some("off"), None),
            (Some(" Off "), None),
            (Some("no"), None),
            (Some("FALSE"), None),
            (Some("many"), Some(INLINE_INFLIGHT)),
            (Some("on"), Some(INLINE_INFLIGHT)),
            (Some(" ON "), Some(INLINE_INFLIGHT)),
            (Some("8"), Some(8)),
            (Some("0"), Some(0)),
        ] {
            assert_eq!(Workers::inline(setting), expected, "{setting:?}");
        }
    }

    #[test]
    fn an_interaction_runs_on_the_lane_while_it_is_busy_or_without_quick_batches() {
        // Busy: the lane's thread runs a job of the bot's own.
        let recorder = quick_recorder();
        let workers = inline_pool(&recorder);
        let rt = two_threads();
        let (release, holder) = hold(&workers, &rt);
        let task = {
            let pool = Arc::clone(&workers);
            rt.spawn(async move { pool.run_for(Instant::now(), here).await })
        };
        until_queued(&workers, 1);
        release.send(()).expect("release");
        rt.block_on(holder).expect("task").expect("held job");
        assert_eq!(
            rt.block_on(task).expect("task"),
            Ok("referee-app-0".to_owned())
        );
        assert_eq!(recorder.log(), ["begin", "committed"]);

        // Idle, but the store has no quick batch (PostgreSQL's).
        let recorder = Arc::new(Recorder::default());
        let workers = inline_pool(&recorder);
        assert_eq!(
            rt.block_on(workers.run_for(Instant::now(), here)),
            Ok("referee-app-0".to_owned())
        );
        assert_eq!(recorder.log(), ["begin", "committed"]);
    }

    #[test]
    fn an_inline_interaction_turned_away_or_whose_commit_failed_runs_again_on_the_lane() {
        let rt = two_threads();
        // Turned away (the lock was taken): nothing of it was kept; the lane runs it again.
        let recorder = quick_recorder();
        let workers = inline_pool(&recorder);
        let job = {
            let recorder = Arc::clone(&recorder);
            move || {
                let on = here();
                if on != "referee-app-0" {
                    recorder.turned.store(true, Ordering::SeqCst);
                }
                recorder.note(format!("run on {on}"));
                on
            }
        };
        let (inline_thread, got) = run_from_a_caller(&workers, &rt, job);
        assert_eq!(got, Ok("referee-app-0".to_owned()));
        assert_eq!(
            recorder.log(),
            [
                "begin quick".to_owned(),
                format!("run on {inline_thread}"),
                "committed".to_owned(),
                "begin".to_owned(),
                "run on referee-app-0".to_owned(),
                "committed".to_owned(),
            ]
        );

        // The inline commit failed: nothing of it was kept; the lane runs it again.
        let recorder = quick_recorder();
        recorder.failures.store(1, Ordering::SeqCst);
        let workers = inline_pool(&recorder);
        assert_eq!(
            rt.block_on(workers.run_for(Instant::now(), here)),
            Ok("referee-app-0".to_owned())
        );
        assert_eq!(
            recorder.log(),
            ["begin quick", "failed", "begin", "committed"]
        );
    }

    /// Starts an interaction on a thread named "caller", driven by `rt` (else by a
    /// current-thread runtime of that thread's own), and returns once it runs inline, held in
    /// its command until the release returned is sent; the thread ends with its answer.
    fn held_inline(
        workers: &Arc<Workers>,
        rt: Option<&tokio::runtime::Runtime>,
    ) -> (
        crossbeam_channel::Sender<()>,
        std::thread::JoinHandle<Result<String, Refused>>,
    ) {
        let (started_tx, started_rx) = crossbeam_channel::unbounded::<()>();
        let (release_tx, release_rx) = crossbeam_channel::unbounded::<()>();
        let workers = Arc::clone(workers);
        let handle = rt.map(|rt| rt.handle().clone());
        let caller = std::thread::Builder::new()
            .name("caller".into())
            .spawn(move || {
                let answer = workers.run_for(Instant::now(), move || {
                    let _ = started_tx.send(());
                    let _ = release_rx.recv();
                    here()
                });
                match handle {
                    Some(handle) => handle.block_on(answer),
                    None => runtime().block_on(answer),
                }
            })
            .expect("thread");
        started_rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the first runs inline");
        (release_tx, caller)
    }

    /// Starts an interaction that runs inline on a thread named "caller" and holds it in its
    /// command ([`held_inline`]), then queues `jobs` more (each named by the thread it ran on,
    /// or noting its run and marking itself turned away, for those `turn` picks) and waits until
    /// the lane holds them all, having woken the lane's thread: it takes none while one runs
    /// inline. Returns the release, the inline caller and the queued ones.
    #[allow(clippy::type_complexity)]
    fn inline_with_queued(
        workers: &Arc<Workers>,
        recorder: &Arc<Recorder>,
        rt: &tokio::runtime::Runtime,
        jobs: usize,
        turn: fn(usize) -> bool,
    ) -> (
        crossbeam_channel::Sender<()>,
        std::thread::JoinHandle<Result<String, Refused>>,
        Vec<tokio::task::JoinHandle<Result<String, Refused>>>,
    ) {
        let (release_tx, inline) = held_inline(workers, Some(rt));
        let mut queued = Vec::new();
        for n in 0..jobs {
            let pool = Arc::clone(workers);
            let recorder = Arc::clone(recorder);
            let turned = turn(n);
            queued.push(rt.spawn(async move {
                pool.run_for(Instant::now(), move || {
                    let on = here();
                    recorder.note(format!("job {n} on {on}"));
                    // Turned away from a quick batch only (as the store's lock is only
                    // taken from a quick batch's point of view): one run off the lane.
                    if turned && !on.starts_with("referee-app") {
                        recorder.turned.store(true, Ordering::SeqCst);
                    }
                    on
                })
                .await
            }));
            until_queued(workers, n + 1);
        }
        workers.queue.ready.notify_all();
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(workers.queue_depths().0, jobs, "taken while one ran inline");
        (release_tx, inline, queued)
    }

    /// What each of `queued` was answered: the thread it ran on.
    fn answers(
        rt: &tokio::runtime::Runtime,
        queued: Vec<tokio::task::JoinHandle<Result<String, Refused>>>,
    ) -> Vec<Result<String, Refused>> {
        queued
            .into_iter()
            .map(|task| rt.block_on(task).expect("task"))
            .collect()
    }

    #[test]
    fn the_interactions_queued_behind_one_run_inline_join_its_quick_batch_up_to_a_bound() {
        let recorder = quick_recorder();
        let workers = inline_pool(&recorder);
        // No quick batch after the inline one's: the rest go to the lane.
        workers.set_inline_drains(Some("0"));
        let rt = two_threads();
        let jobs = INLINE_JOINED + 1;
        let (release, inline, queued) =
            inline_with_queued(&workers, &recorder, &rt, jobs, |_| false);
        release.send(()).expect("release");
        assert_eq!(inline.join().expect("caller"), Ok("caller".to_owned()));
        let mut want: Vec<Result<String, Refused>> = vec![Ok("caller".to_owned()); INLINE_JOINED];
        want.push(Ok("referee-app-0".to_owned()));
        assert_eq!(answers(&rt, queued), want);
        // The first INLINE_JOINED in the quick batch's one commit, the last on the lane.
        let mut log = vec!["begin quick".to_owned()];
        log.extend((0..INLINE_JOINED).map(|n| format!("job {n} on caller")));
        log.push("committed".to_owned());
        log.push("begin".to_owned());
        log.push(format!("job {INLINE_JOINED} on referee-app-0"));
        log.push("committed".to_owned());
        assert_eq!(recorder.log(), log);
    }

    /// Those still queued once the inline one's batch has committed (queued during its commit,
    /// or past [`INLINE_JOINED`]) run on the runtime's threads, not the lane's, in up to
    /// [`INLINE_DRAINS`] more quick batches, each of at most [`INLINE_JOINED`]; the lane's thread
    /// takes the rest. Either side of the bound, with the default and with more.
    #[test]
    fn the_interactions_left_queued_after_an_inline_commit_run_on_the_runtime_up_to_a_bound() {
        for drains in [INLINE_DRAINS, 2] {
            let recorder = quick_recorder();
            let workers = inline_pool(&recorder);
            workers.set_inline_drains(Some(&drains.to_string()));
            let rt = two_threads();
            let joined = INLINE_JOINED;
            let on_runtime = INLINE_JOINED * drains;
            let (release, inline, queued) =
                inline_with_queued(&workers, &recorder, &rt, joined + on_runtime + 1, |_| false);
            release.send(()).expect("release");
            assert_eq!(inline.join().expect("caller"), Ok("caller".to_owned()));
            let mut want: Vec<Result<String, Refused>> = vec![Ok("caller".to_owned()); joined];
            want.extend(vec![Ok(RUNTIME.to_owned()); on_runtime]);
            want.push(Ok("referee-app-0".to_owned()));
            assert_eq!(answers(&rt, queued), want, "{drains} drains");
            // Each quick batch commits its own; the last one left runs on the lane.
            let mut log = vec!["begin quick".to_owned()];
            log.extend((0..joined).map(|n| format!("job {n} on caller")));
            log.push("committed".to_owned());
            for batch in 0..drains {
                log.push("begin quick".to_owned());
                log.extend(
                    (joined + batch * INLINE_JOINED..joined + (batch + 1) * INLINE_JOINED)
                        .map(|n| format!("job {n} on {RUNTIME}")),
                );
                log.push("committed".to_owned());
            }
            log.push("begin".to_owned());
            log.push(format!("job {} on referee-app-0", joined + on_runtime));
            log.push("committed".to_owned());
            assert_eq!(recorder.log(), log, "{drains} drains");
        }
    }

    /// The command run inline has its answer before the drain after it runs: a drained command
    /// held in its run does not hold the inline one's answer back (it did, when the drain ran
    /// before the inline call returned).
    #[test]
    fn an_inline_commands_answer_does_not_wait_for_the_drain_after_it() {
        let recorder = quick_recorder();
        let workers = inline_pool(&recorder);
        let rt = two_threads();
        let (hold_tx, hold_rx) = crossbeam_channel::unbounded::<()>();
        let (release_tx, caller) = held_inline(&workers, Some(&rt));
        // INLINE_JOINED join its batch; the one after them is left for the drain, and holds.
        let mut queued = Vec::new();
        for n in 0..=INLINE_JOINED {
            let pool = Arc::clone(&workers);
            let hold = (n == INLINE_JOINED).then(|| hold_rx.clone());
            queued.push(rt.spawn(async move {
                pool.run_for(Instant::now(), move || {
                    if let Some(hold) = &hold {
                        let _ = hold.recv_timeout(Duration::from_secs(30));
                    }
                    here()
                })
                .await
            }));
            until_queued(&workers, n + 1);
        }
        release_tx.send(()).expect("release");
        let until = Instant::now() + Duration::from_secs(10);
        while !caller.is_finished() {
            assert!(
                Instant::now() < until,
                "answered while the drained one still runs"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        let answer = caller.join().expect("caller");
        assert_eq!(answer, Ok("caller".to_owned()));
        let commits = |log: Vec<String>| log.iter().filter(|l| *l == "committed").count();
        assert_eq!(
            commits(recorder.log()),
            1,
            "the drained one not yet committed"
        );
        hold_tx.send(()).expect("let the drained one finish");
        let mut want: Vec<Result<String, Refused>> = vec![Ok("caller".to_owned()); INLINE_JOINED];
        want.push(Ok(RUNTIME.to_owned()));
        assert_eq!(answers(&rt, queued), want);
        assert_eq!(commits(recorder.log()), 2);
    }

    /// On a current-thread runtime the drain runs in place before the inline command returns
    /// (a task spawned there would wait, holding the lane, until that runtime is driven again).
    #[test]
    fn on_a_current_thread_runtime_the_drain_runs_before_the_inline_command_returns() {
        let recorder = quick_recorder();
        let workers = inline_pool(&recorder);
        let (release_tx, caller) = held_inline(&workers, None);
        // INLINE_JOINED join its batch and one is left for the drain, each queued from a thread
        // and a current-thread runtime of its own.
        let queued: Vec<_> = (0..=INLINE_JOINED)
            .map(|n| {
                let pool = Arc::clone(&workers);
                let thread = std::thread::spawn(move || {
                    runtime().block_on(pool.run_for(Instant::now(), here))
                });
                until_queued(&workers, n + 1);
                thread
            })
            .collect();
        release_tx.send(()).expect("release");
        assert_eq!(caller.join().expect("caller"), Ok("caller".to_owned()));
        // The caller's runtime is gone with its thread: the drained one ran before it returned.
        let answers: Vec<_> = queued
            .into_iter()
            .map(|t| t.join().expect("queued"))
            .collect();
        assert_eq!(answers, vec![Ok("caller".to_owned()); INLINE_JOINED + 1]);
    }

    #[test]
    fn a_queued_interaction_turned_away_from_the_quick_batch_runs_again_on_the_lane_and_ends_the_joining()
     {
        let recorder = quick_recorder();
        let workers = inline_pool(&recorder);
        let rt = two_threads();
        // The second is turned away (the lock was taken): it and the third go to the lane.
        let (release, inline, queued) = inline_with_queued(&workers, &recorder, &rt, 3, |n| n == 1);
        release.send(()).expect("release");
        assert_eq!(inline.join().expect("caller"), Ok("caller".to_owned()));
        assert_eq!(
            answers(&rt, queued),
            [
                Ok("caller".to_owned()),
                Ok("referee-app-0".to_owned()),
                Ok("referee-app-0".to_owned())
            ]
        );
        assert_eq!(
            recorder.log(),
            [
                "begin quick",
                "job 0 on caller",
                "job 1 on caller",
                "committed",
                "begin",
                "job 1 on referee-app-0",
                "job 2 on referee-app-0",
                "committed"
            ]
        );
    }

    #[test]
    fn when_the_quick_batch_fails_to_commit_every_interaction_of_it_runs_again_on_the_lane() {
        let recorder = quick_recorder();
        recorder.failures.store(1, Ordering::SeqCst);
        let workers = inline_pool(&recorder);
        let rt = two_threads();
        let (release, inline, queued) = inline_with_queued(&workers, &recorder, &rt, 2, |_| false);
        // Released twice: it runs twice.
        release.send(()).expect("release");
        release.send(()).expect("release");
        // Nothing of the quick batch was kept: all three run again on the lane and are answered
        // from there (the one run inline runs on the lane's thread too).
        assert_eq!(
            inline.join().expect("caller"),
            Ok("referee-app-0".to_owned())
        );
        assert_eq!(
            answers(&rt, queued),
            [
                Ok("referee-app-0".to_owned()),
                Ok("referee-app-0".to_owned())
            ]
        );
        let log = recorder.log();
        assert_eq!(
            log[..4],
            [
                "begin quick",
                "job 0 on caller",
                "job 1 on caller",
                "failed"
            ]
        );
        // The two that joined run again, in their order, before anything queued after them.
        let again: Vec<&String> = log[4..].iter().filter(|l| l.starts_with("job")).collect();
        assert_eq!(again, ["job 0 on referee-app-0", "job 1 on referee-app-0"]);
        assert_eq!(
            log.iter().filter(|l| *l == "committed").count(),
            log.iter().filter(|l| *l == "begin").count()
        );
    }

    #[test]
    fn a_batch_runs_the_queued_interactions_commits_then_answers_and_the_bots_own_job_ends_it() {
        let recorder = Arc::new(Recorder::default());
        let rt = two_threads();
        let (workers, release, holder) = held_batching(&recorder, &rt);
        // Queued in this order: three interactions, a job of the bot's own, one more.
        let mut tasks = Vec::new();
        for n in 0..5_usize {
            let (pool, recorder) = (Arc::clone(&workers), Arc::clone(&recorder));
            tasks.push(rt.spawn(async move {
                let got = if n == 3 {
                    let r = Arc::clone(&recorder);
                    pool.run(move || r.note("own")).await.map(|()| n)
                } else {
                    let r = Arc::clone(&recorder);
                    pool.run_for(Instant::now(), move || {
                        r.note(format!("run {n}"));
                        n
                    })
                    .await
                };
                recorder.note(format!("got {n}"));
                got
            }));
            until_queued(&workers, n + 1);
        }
        release.send(()).expect("release");
        rt.block_on(holder).expect("task").expect("held job");
        for (n, task) in tasks.into_iter().enumerate() {
            assert_eq!(rt.block_on(task).expect("task"), Ok(n));
        }
        let log = recorder.log();
        let work: Vec<&str> = log
            .iter()
            .map(String::as_str)
            .filter(|e| !e.starts_with("got"))
            .collect();
        assert_eq!(
            work,
            [
                "begin",
                "run 0",
                "run 1",
                "run 2",
                "committed",
                "own",
                "begin",
                "run 4",
                "committed"
            ]
        );
        // Every answer left after its batch's commit.
        let at = |what: &str| log.iter().position(|e| e == what).expect(what);
        let first_commit = at("committed");
        for n in 0..3 {
            assert!(at(&format!("got {n}")) > first_commit, "{log:?}");
        }
        let last_commit = log.iter().rposition(|e| e == "committed").expect("two");
        assert!(at("got 4") > last_commit, "{log:?}");
    }

    /// An interaction turned away from the batch (PostgreSQL: its guild's lock was held
    /// elsewhere) is not answered with that run: it runs again on its own once the batch is
    /// committed, and that run's result is its answer.
    #[test]
    fn an_interaction_turned_away_from_a_batch_runs_again_after_the_commit() {
        let recorder = Arc::new(Recorder::default());
        let runs: Arc<Vec<AtomicUsize>> = Arc::new((0..3).map(|_| AtomicUsize::new(0)).collect());
        let job = |n: usize| {
            let (recorder, runs) = (Arc::clone(&recorder), Arc::clone(&runs));
            move || {
                let run = runs[n].fetch_add(1, Ordering::SeqCst) + 1;
                recorder.note(format!("run {n}"));
                if n == 1 && run == 1 {
                    recorder.turned.store(true, Ordering::SeqCst);
                }
                run
            }
        };
        let (_workers, _rt, got) = one_batch(&recorder, 3, |_| Instant::now(), job);
        assert_eq!(
            got,
            [Ok(1), Ok(2), Ok(1)],
            "the second's answer is its second run"
        );
        assert_eq!(
            recorder.log(),
            ["begin", "run 0", "run 1", "run 2", "committed", "run 1"]
        );
    }

    #[test]
    fn a_failed_batch_runs_each_interaction_again_and_answers_with_that_run() {
        let recorder = Arc::new(Recorder::default());
        recorder.failures.store(1, Ordering::SeqCst);
        let runs: Arc<Vec<AtomicUsize>> = Arc::new((0..3).map(|_| AtomicUsize::new(0)).collect());
        let long_ago = Instant::now()
            .checked_sub(START_BY + Duration::from_millis(1))
            .expect("a monotonic clock past boot");
        // The second arrived too long ago: it never runs, in the batch or after.
        let arrival = |n| if n == 1 { long_ago } else { Instant::now() };
        let job = |n: usize| {
            let (recorder, runs) = (Arc::clone(&recorder), Arc::clone(&runs));
            move || {
                recorder.note(format!("run {n}"));
                runs[n].fetch_add(1, Ordering::SeqCst) + 1
            }
        };
        let (_workers, _rt, got) = one_batch(&recorder, 3, arrival, job);
        assert_eq!(
            got,
            [Ok(2), Err(Refused::Late { answerable: true }), Ok(2)],
            "the answers are the second runs'"
        );
        assert_eq!(
            recorder.log(),
            ["begin", "run 0", "run 2", "failed", "run 0", "run 2"]
        );
    }

    #[test]
    fn a_panicking_interaction_in_a_batch_is_refused_and_the_others_are_answered() {
        let recorder = Arc::new(Recorder::default());
        let job = |n: usize| {
            move || {
                assert!(n != 1, "job {n} panics");
                n
            }
        };
        let (workers, rt, got) = one_batch(&recorder, 3, |_| Instant::now(), job);
        assert_eq!(got, [Ok(0), Err(Refused::Panicked), Ok(2)]);
        assert_eq!(recorder.log(), ["begin", "committed"]);
        // The thread lives on.
        assert_eq!(rt.block_on(workers.run_for(Instant::now(), || 7)), Ok(7));
    }

    #[test]
    fn a_batch_that_panics_answers_each_interaction_as_failed_once_and_never_runs_it_again() {
        let recorder = Arc::new(Recorder::default());
        recorder.panics.store(true, Ordering::SeqCst);
        let runs = Arc::new(AtomicUsize::new(0));
        let job = |_| {
            let runs = Arc::clone(&runs);
            move || runs.fetch_add(1, Ordering::SeqCst)
        };
        let (workers, rt, got) = one_batch(&recorder, 2, |_| Instant::now(), job);
        assert_eq!(got, [Err(Refused::Panicked), Err(Refused::Panicked)]);
        assert_eq!(
            runs.load(Ordering::SeqCst),
            2,
            "each ran once, in the batch"
        );
        assert_eq!(recorder.log(), ["begin", "panicked", "abandoned"]);
        // The thread lives on, and the next batch commits.
        assert_eq!(rt.block_on(workers.run_for(Instant::now(), || 7)), Ok(7));
        assert_eq!(
            recorder.log(),
            ["begin", "panicked", "abandoned", "begin", "committed"]
        );
    }

    #[test]
    fn a_push_wakes_a_sleeper_once_enough_jobs_are_queued_or_at_once_for_the_bots_own() {
        // (sleeping, queued after the push, wake_at, the bot's own job) -> wakes
        let cases = [
            ((0, 1, 1, false), false),
            ((0, 9, 1, true), false),
            ((1, 1, 1, false), true),
            ((1, 1, 0, false), true),
            ((1, 1, 3, false), false),
            ((1, 2, 3, false), false),
            ((1, 3, 3, false), true),
            ((1, 4, 3, false), true),
            ((1, 1, 3, true), true),
        ];
        for ((sleeping, queued, wake_at, own), want) in cases {
            assert_eq!(
                wakes(sleeping, queued, wake_at, own),
                want,
                "{sleeping} asleep, {queued} queued, wake at {wake_at}, own {own}"
            );
        }
    }

    fn batched_job() -> Job {
        let (tx, _rx) = tokio::sync::oneshot::channel();
        Job::Batched(Box::new(Pending {
            f: || 1,
            arrived: None,
            leave: None,
            tx,
            out: None,
        }))
    }

    /// Runs `take_batched` on another thread, waiting up to a minute for `more` jobs, once it
    /// sleeps runs `push`, and returns whether it got a batched job, and how long it took.
    fn lingering_take(more: usize, push: impl FnOnce(&Lane)) -> (bool, Duration) {
        let lane = Arc::new(Lane::default());
        let taker = {
            let lane = Arc::clone(&lane);
            std::thread::spawn(move || {
                let started = Instant::now();
                let got = lane.take_batched(Some((started + Duration::from_mins(1), more)));
                (got.is_some(), started.elapsed())
            })
        };
        let until = Instant::now() + Duration::from_secs(10);
        while lane.lock().sleeping == 0 {
            assert!(Instant::now() < until, "the taker never slept");
            std::thread::yield_now();
        }
        push(&lane);
        taker.join().expect("the taker")
    }

    #[test]
    fn a_waiting_batch_is_woken_by_the_group_it_waits_for_and_by_the_bots_own_job() {
        // A lost wake-up would leave the taker asleep for its whole minute.
        let (got, took) = lingering_take(2, |lane| {
            assert!(lane.push(batched_job()));
            assert!(lane.push(batched_job()));
        });
        assert!(got, "a batched job");
        assert!(took < Duration::from_secs(30), "woken by the second job");
        let (got, took) = lingering_take(5, |lane| {
            assert!(lane.push(Job::Once(Box::new(|| {}))));
        });
        assert!(!got, "the bot's own job ends the batch");
        assert!(took < Duration::from_secs(30), "woken by the bot's own job");
    }

    #[test]
    fn batches_unless_turned_off() {
        let cases = [
            (None, true),
            (Some("on"), true),
            (Some(""), true),
            (Some("off"), false),
            (Some(" OFF "), false),
        ];
        for (setting, want) in cases {
            assert_eq!(Workers::batches(setting), want, "{setting:?}");
        }
    }
}
