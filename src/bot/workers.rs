//! The threads that run `app` for the bot: a small fixed pool fed by one queue.
//!
//! `app` is synchronous (SQLite), so its calls must not run on the async runtime's threads.
//! tokio's `spawn_blocking` was the first answer, but under load its one shared lock and the
//! wake-up of a fresh thread per call kept the runtime's own threads off the CPU (measured with
//! `perf record -e sched:sched_switch` at 5,000 interactions per second: most of the time the
//! runtime's threads were descheduled inside `spawn_blocking`). Here a few long-lived threads
//! take jobs from one queue: while there is work a thread goes from one job to the next without
//! sleeping, and a caller only pushes onto the queue.
//!
//! A job's panic is caught on its thread, which lives on, and comes back to the caller as
//! [`Panicked`].
//!
//! ## Two lanes
//! Commands that only read run on their own threads ([`Workers::run_read`]), apart from those
//! that write ([`Workers::run`]): while another process holds the database's write lock, writes
//! wait for it (until [`WRITE_DEADLINE`] at most, then "busy"), and they could otherwise take
//! every thread and keep `/odds` or `/help` waiting behind them.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::thread::JoinHandle;
use std::time::Duration;

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

/// A job panicked (or the pool was shutting down and dropped it).
#[derive(Debug, thiserror::Error)]
#[error("the job panicked or was dropped")]
pub struct Panicked;

/// Two fixed pools of threads (writing and read-only commands), each running jobs from its own
/// queue in the order they came.
pub struct Workers {
    queue: Mutex<Option<crossbeam_channel::Sender<Job>>>,
    reads: Mutex<Option<crossbeam_channel::Sender<Job>>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

impl Workers {
    /// Starts `count` threads for commands that write (at least one), and
    /// [`Workers::read_count`] for commands that only read.
    ///
    /// # Errors
    /// When the system refuses a new thread.
    pub fn start(count: usize) -> std::io::Result<Self> {
        let mut threads = Vec::new();
        let queue = Self::lane("referee-app", count, &mut threads)?;
        let reads = Self::lane("referee-read", Self::read_count(count), &mut threads)?;
        Ok(Self {
            queue: Mutex::new(Some(queue)),
            reads: Mutex::new(Some(reads)),
            threads: Mutex::new(threads),
        })
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
    ) -> std::io::Result<crossbeam_channel::Sender<Job>> {
        let (tx, rx) = crossbeam_channel::unbounded::<Job>();
        for n in 0..count.max(1) {
            let rx = rx.clone();
            threads.push(
                std::thread::Builder::new()
                    .name(format!("{name}-{n}"))
                    .spawn(move || {
                        for job in rx {
                            job();
                        }
                    })?,
            );
        }
        Ok(tx)
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
        match setting.and_then(|v| v.trim().parse::<usize>().ok()) {
            Some(n) => n.max(1),
            None => (cores * THREADS_PER_CORE).max(MIN_THREADS),
        }
    }

    /// Runs `f` on the writing lane and waits for its result without blocking the async runtime.
    ///
    /// # Errors
    /// [`Panicked`] when `f` panicked, or the pool has shut down.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Panicked> {
        Self::run_on(&self.queue, f).await
    }

    /// Runs `f` on the read-only lane (see the module's "Two lanes").
    ///
    /// # Errors
    /// [`Panicked`] when `f` panicked, or the pool has shut down.
    pub async fn run_read<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Panicked> {
        Self::run_on(&self.reads, f).await
    }

    async fn run_on<T: Send + 'static>(
        queue: &Mutex<Option<crossbeam_channel::Sender<Job>>>,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Panicked> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            // The caller may have gone (its interaction dropped); the result is then unwanted.
            let _ = tx.send(catch_unwind(AssertUnwindSafe(f)));
        });
        {
            let queue = queue
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let sender = queue.as_ref().ok_or(Panicked)?;
            sender.send(job).map_err(|_| Panicked)?;
        }
        match rx.await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(_)) | Err(_) => Err(Panicked),
        }
    }

    /// Lets the queued jobs finish, then stops the threads. Later calls to [`Workers::run`] get
    /// [`Panicked`].
    pub fn shutdown(&self) {
        for queue in [&self.queue, &self.reads] {
            queue
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .take();
        }
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
