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
//! what waits for a thread is bounded (events serenity has not yet handed over are not: see the
//! README's "Configure it"). A job carries the time its interaction arrived; a job
//! that reaches a thread after [`START_BY`] does not run ([`Refused::Late`]): the bot still
//! answers "busy" if Discord's deadline allows ([`ANSWER_BY`]), else drops it. Each outcome is
//! counted ([`Admission`]).
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

type Job = Box<dyn FnOnce() + Send + 'static>;

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
    /// No more jobs are taken; the threads stop once the queue is empty.
    closed: bool,
}

impl Lane {
    fn lock(&self) -> std::sync::MutexGuard<'_, LaneState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `job`, waking a sleeping thread if there is one; `false` once closed.
    fn push(&self, job: Job) -> bool {
        let mut state = self.lock();
        if state.closed {
            return false;
        }
        state.jobs.push_back(job);
        let wake = state.sleeping > 0;
        drop(state);
        if wake {
            self.ready.notify_one();
        }
        true
    }

    /// The next job, sleeping until there is one; `None` once closed and empty.
    fn take(&self) -> Option<Job> {
        let mut state = self.lock();
        loop {
            if let Some(job) = state.jobs.pop_front() {
                return Some(job);
            }
            if state.closed {
                return None;
            }
            state.sleeping += 1;
            state = self
                .ready
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
            state.sleeping -= 1;
        }
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
            threads: Mutex::new(threads),
            admission: Admission::default(),
        })
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
                        while let Some(job) = jobs.take() {
                            job();
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
    ///
    /// # Errors
    /// [`Refused`] when `f` panicked, the queue is full, or the pool has shut down.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Refused> {
        Self::run_on(&self.queue, None, f).await
    }

    /// Runs `f` for an interaction that arrived at `arrived` on the writing lane; it does not
    /// run if it reaches a thread after [`START_BY`] (see the module's "Admission").
    ///
    /// # Errors
    /// [`Refused`].
    pub async fn run_for<T: Send + 'static>(
        &self,
        arrived: Instant,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Refused> {
        Self::run_on(&self.queue, Some((arrived, &self.waiting.0, self.limit)), f).await
    }

    /// Runs `f` on the read-only lane (see the module's "Two lanes").
    ///
    /// # Errors
    /// [`Refused`] when `f` panicked, the queue is full, or the pool has shut down.
    pub async fn run_read<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Refused> {
        Self::run_on(&self.reads, None, f).await
    }

    /// [`Workers::run_for`] on the read-only lane.
    ///
    /// # Errors
    /// [`Refused`].
    pub async fn run_read_for<T: Send + 'static>(
        &self,
        arrived: Instant,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Refused> {
        Self::run_on(&self.reads, Some((arrived, &self.waiting.1, self.limit)), f).await
    }

    /// Queues `f`. An interaction's job (`admit`: when it arrived, its lane's count of waiting
    /// interactions and the limit) is refused at once past the limit, and does not run if it
    /// reaches a thread after [`START_BY`]; the bot's own jobs are neither.
    async fn run_on<T: Send + 'static>(
        queue: &Lane,
        admit: Option<(Instant, &Arc<AtomicUsize>, usize)>,
        f: impl FnOnce() -> T + Send + 'static,
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
        let arrived = admit.map(|(arrived, ..)| arrived);
        let (tx, rx) = tokio::sync::oneshot::channel();
        let leave = counted.clone();
        let job: Job = Box::new(move || {
            if let Some(waiting) = leave {
                waiting.fetch_sub(1, Ordering::SeqCst);
            }
            if let Some(arrived) = arrived {
                let waited = arrived.elapsed();
                if waited > START_BY {
                    let answerable = waited < ANSWER_BY;
                    let _ = tx.send(Err(Refused::Late { answerable }));
                    return;
                }
            }
            // The caller may have gone (its interaction dropped); the result is then unwanted.
            let _ = tx.send(catch_unwind(AssertUnwindSafe(f)).map_err(|_| Refused::Panicked));
        });
        let sent = queue.push(job);
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
        let (release_tx, release_rx) = crossbeam_channel::unbounded::<()>();
        let (held_tx, held_rx) = crossbeam_channel::unbounded::<()>();
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .expect("a runtime");
        let holder = {
            let workers = Arc::clone(&workers);
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
}
