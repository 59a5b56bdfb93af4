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

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::thread::JoinHandle;

type Job = Box<dyn FnOnce() + Send + 'static>;

/// The environment variable that sets the pool's size.
pub const THREADS_ENV: &str = "REFEREE_APP_THREADS";
/// App threads per core (see [`Workers::count`]).
pub const THREADS_PER_CORE: usize = 4;
/// The fewest app threads by default: enough that a slow job (a write waiting on another
/// process's lock, say) does not hold up every read.
pub const MIN_THREADS: usize = 4;

/// A job panicked (or the pool was shutting down and dropped it).
#[derive(Debug, thiserror::Error)]
#[error("the job panicked or was dropped")]
pub struct Panicked;

/// A fixed pool of threads running jobs from one queue, in the order they came.
pub struct Workers {
    queue: Mutex<Option<crossbeam_channel::Sender<Job>>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

impl Workers {
    /// Starts `count` threads (at least one).
    ///
    /// # Errors
    /// When the system refuses a new thread.
    pub fn start(count: usize) -> std::io::Result<Self> {
        let (tx, rx) = crossbeam_channel::unbounded::<Job>();
        let mut threads = Vec::new();
        for n in 0..count.max(1) {
            let rx = rx.clone();
            threads.push(
                std::thread::Builder::new()
                    .name(format!("referee-app-{n}"))
                    .spawn(move || {
                        for job in rx {
                            job();
                        }
                    })?,
            );
        }
        Ok(Self {
            queue: Mutex::new(Some(tx)),
            threads: Mutex::new(threads),
        })
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

    /// Runs `f` on the pool and waits for its result without blocking the async runtime.
    ///
    /// # Errors
    /// [`Panicked`] when `f` panicked, or the pool has shut down.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Panicked> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            // The caller may have gone (its interaction dropped); the result is then unwanted.
            let _ = tx.send(catch_unwind(AssertUnwindSafe(f)));
        });
        {
            let queue = self
                .queue
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
        self.queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
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
