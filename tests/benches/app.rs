//! The `app` layer on a file database: latency, throughput, CPU and memory of `/check`,
//! `/character show` and a luck spend (`/luck spend kind:stunt`), on a database of many guilds
//! (default 10,000 × 10 characters; `REFEREE_BENCH_GUILDS` changes it, `REFEREE_BENCH_OPS` the
//! commands per case, default 5,000). Run with `cargo bench --bench app`.
//!
//! Targets (issue 4): p99 ≤ 200 µs for a read and ≤ 1 ms for a luck spend with 64 in flight, on
//! 2 cores, under 40 MB resident.
//!
//! ## Method
//! - The database is populated by a child process (this same binary, re-run with
//!   `REFEREE_BENCH_POPULATE` set), so the measuring process's memory holds no trace of the setup:
//!   it opens the finished file like a bot starting up.
//! - **sequential**: one thread, one command at a time; latency is the service time.
//! - **64 in flight**: served the way the bot serves interactions — a fixed set of worker threads
//!   the size of the machine (`available_parallelism`, or `REFEREE_BENCH_WORKERS`) takes commands
//!   from one queue, as tokio's blocking pool does when it is the bottleneck. The driver keeps 64
//!   commands outstanding (a closed loop: each completion submits the next), and latency runs from
//!   submission to completion, so time spent queued counts. With `w` workers and service time `s`,
//!   expect p50 ≈ 64·s / w: the queue, not the store, dominates.
//! - Each case also reports throughput (commands/s of wall time) and CPU per command (user +
//!   system time of the whole process, checkpoint thread included, divided by the commands).
//! - Memory: VmRSS after opening the store (before any command), after all cases, and VmHWM
//!   (the peak) of the serving process.
//! - Every command must succeed (no "Something went wrong"); a luck spend has a fresh interaction
//!   id, so none is a duplicate, and the characters have luck enough for every spend.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use referee::app::command::Invocation;
use referee::app::{App, Caller, Command, Dice};
use referee::rules::dice::expr::Limits;
use referee::store::characters::{self, NewCharacter};
use referee::store::guilds::System;
use referee::store::secrets::{self, LedgerEntry, LuckKind};
use referee::store::{CharacterId, GuildId, Store, UserId};

/// Builds the command for the i-th operation.
type MakeInvocation = fn(u64) -> Invocation;

const PER_GUILD: u64 = 10;
const IN_FLIGHT: usize = 64;
/// Luck each character starts with: more than the spends of any run can take.
const LUCK: i64 = 900;
const POPULATE_ENV: &str = "REFEREE_BENCH_POPULATE";

fn env_num(key: &str, default: u64) -> u64 {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    // Errors behind "Something went wrong" are logged: show them.
    let _ = tracing_subscriber::fmt()
        .with_env_filter("error")
        .with_writer(std::io::stderr)
        .try_init();
    let guilds = env_num("REFEREE_BENCH_GUILDS", 10_000).max(1);
    if let Ok(path) = std::env::var(POPULATE_ENV) {
        let store = Store::open(Path::new(&path)).expect("open");
        populate(&store, guilds);
        return;
    }
    let ops = env_num("REFEREE_BENCH_OPS", 5_000).max(1) as usize;
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    let workers = env_num("REFEREE_BENCH_WORKERS", cores as u64).max(1) as usize;

    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bench.sqlite3");
    let start = Instant::now();
    let status = std::process::Command::new(std::env::current_exe().expect("own path"))
        .env(POPULATE_ENV, &path)
        .status()
        .expect("run the populating child");
    assert!(status.success(), "populating child failed: {status}");
    let size = std::fs::metadata(&path).map_or(0, |m| m.len());
    println!(
        "populated {guilds} guilds x {PER_GUILD} characters in {:.1} s (child process), file {} MB",
        start.elapsed().as_secs_f64(),
        size / (1024 * 1024)
    );

    let store = Arc::new(Store::open(&path).expect("open"));
    // Production dice: a seeded generator is one lock shared by every command.
    let app = Arc::new(App::new(store, Dice::Thread, Limits::default()));
    let rss_setup = status_kib("VmRSS");
    println!(
        "{cores} cores; {workers} worker threads for the in-flight cases; {ops} commands per case"
    );

    let workloads: [(&str, MakeInvocation); 3] = [
        ("/check", |i| {
            Invocation::new(
                &["check"],
                &[("skill", "Swimming"), ("character", &name(i))],
            )
        }),
        ("/character show", |i| {
            Invocation::new(&["character", "show"], &[("name", &name(i))])
        }),
        ("/luck spend", |i| {
            Invocation::new(
                &["luck", "spend"],
                &[("kind", "stunt"), ("character", &name(i)), ("points", "1")],
            )
        }),
    ];
    println!(
        "{:<17} {:>9} {:>9} {:>9} {:>10} {:>10} {:>9}",
        "workload", "in flight", "p50 µs", "p99 µs", "max µs", "cmds/s", "CPU µs"
    );
    let mut seq = 0_u64;
    for (label, make) in workloads {
        for in_flight in [1, IN_FLIGHT] {
            let cpu_before = cpu_time();
            let wall = Instant::now();
            let mut lat = if in_flight == 1 {
                sequential(&app, guilds, ops, seq, make)
            } else {
                pooled(&app, guilds, ops, seq, workers, in_flight, make)
            };
            let wall = wall.elapsed();
            let cpu = cpu_time().saturating_sub(cpu_before);
            seq += ops as u64;
            lat.sort_unstable();
            println!(
                "{label:<17} {in_flight:>9} {:>9.1} {:>9.1} {:>10.1} {:>10.0} {:>9.1}",
                micros(pct(&lat, 50.0)),
                micros(pct(&lat, 99.0)),
                micros(*lat.last().unwrap_or(&Duration::ZERO)),
                ops as f64 / wall.as_secs_f64(),
                micros(cpu) / ops as f64,
            );
        }
    }
    println!(
        "resident memory: {} KiB after opening the store, {} KiB after the run, peak {} KiB (VmHWM)",
        rss_setup,
        status_kib("VmRSS"),
        status_kib("VmHWM")
    );
}

fn name(i: u64) -> String {
    format!("Hero {}", i % PER_GUILD)
}

fn guild_of(i: u64, guilds: u64) -> u64 {
    1 + (i.wrapping_mul(2_654_435_761) % guilds)
}

fn caller(guild: u64) -> Caller {
    // The owner of every character: user 10 of its guild.
    Caller {
        guild: GuildId(guild),
        user: UserId(10),
        name: "Bench".into(),
        roles: Vec::new(),
        manage_server: false,
    }
}

/// Runs the i-th command of a case and checks it did not fail.
fn serve(app: &App, guilds: u64, i: u64, make: MakeInvocation) {
    let caller = caller(guild_of(i, guilds));
    let inv = make(i);
    let id = format!("bench-{i}-{}", inv.display_path());
    let cmd = Command::parse(&inv).expect("a valid command");
    let reply = app.handle(&caller, &id, cmd);
    assert!(
        !reply.all_text().contains("Something went wrong"),
        "{reply:?}"
    );
}

fn sequential(
    app: &App,
    guilds: u64,
    ops: usize,
    first: u64,
    make: MakeInvocation,
) -> Vec<Duration> {
    (0..ops as u64)
        .map(|k| {
            let start = Instant::now();
            serve(app, guilds, first + k, make);
            start.elapsed()
        })
        .collect()
}

/// A submitted command: its number and when it was submitted.
type Job = (u64, Instant);

/// The queue the workers take from; `None` in the queue tells a worker to stop.
struct Queue {
    jobs: Mutex<VecDeque<Option<Job>>>,
    ready: Condvar,
}

impl Queue {
    fn push(&self, job: Option<Job>) {
        self.jobs.lock().expect("queue lock").push_back(job);
        self.ready.notify_one();
    }

    fn pop(&self) -> Option<Job> {
        let mut jobs = self.jobs.lock().expect("queue lock");
        loop {
            if let Some(job) = jobs.pop_front() {
                return job;
            }
            jobs = self.ready.wait(jobs).expect("queue lock");
        }
    }
}

/// `ops` commands through `workers` threads with `in_flight` outstanding at once; each latency
/// runs from submission to completion.
fn pooled(
    app: &Arc<App>,
    guilds: u64,
    ops: usize,
    first: u64,
    workers: usize,
    in_flight: usize,
    make: MakeInvocation,
) -> Vec<Duration> {
    let queue = Arc::new(Queue {
        jobs: Mutex::new(VecDeque::new()),
        ready: Condvar::new(),
    });
    let (done_tx, done_rx) = mpsc::channel::<Duration>();
    let threads: Vec<_> = (0..workers)
        .map(|_| {
            let app = Arc::clone(app);
            let queue = Arc::clone(&queue);
            let done = done_tx.clone();
            std::thread::spawn(move || {
                while let Some((i, submitted)) = queue.pop() {
                    serve(&app, guilds, i, make);
                    if done.send(submitted.elapsed()).is_err() {
                        break;
                    }
                }
            })
        })
        .collect();
    drop(done_tx);
    let submit = |k: usize| queue.push(Some((first + k as u64, Instant::now())));
    let mut submitted = in_flight.min(ops);
    (0..submitted).for_each(submit);
    let mut lat = Vec::with_capacity(ops);
    while lat.len() < ops {
        let d = done_rx
            .recv_timeout(Duration::from_mins(1))
            .expect("a worker finished a command within a minute");
        lat.push(d);
        if submitted < ops {
            submit(submitted);
            submitted += 1;
        }
    }
    for _ in 0..workers {
        queue.push(None);
    }
    for t in threads {
        t.join().expect("bench worker");
    }
    lat
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let idx = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[idx.min(sorted.len() - 1)]
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// User + system CPU time of the whole process so far (every thread, finished ones too), from
/// `/proc/self/stat`, in clock ticks of 10 ms.
fn cpu_time() -> Duration {
    let ticks = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // Fields after the command name (which may hold spaces) start at field 3.
            let rest = s.rsplit_once(')')?.1;
            let f: Vec<&str> = rest.split_whitespace().collect();
            let utime: u64 = f.get(11)?.parse().ok()?;
            let stime: u64 = f.get(12)?.parse().ok()?;
            Some(utime + stime)
        })
        .unwrap_or(0);
    Duration::from_millis(ticks * 10)
}

fn status_kib(key: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with(key)).and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|kb| kb.parse::<u64>().ok())
            })
        })
        .unwrap_or(0)
}

fn populate(store: &Store, guilds: u64) {
    let mut g = 1;
    while g <= guilds {
        let end = (g + 500).min(guilds + 1);
        store
            .write(|tx| {
                for guild in g..end {
                    for c in 0..PER_GUILD {
                        let id: CharacterId = characters::create(
                            tx,
                            GuildId(guild),
                            &NewCharacter {
                                name: &format!("Hero {c}"),
                                system: System::Thiz,
                                owner_id: UserId(10),
                                npc: false,
                                sheet_json: "{}",
                            },
                        )?
                        .expect("fresh name");
                        characters::set_skill(tx, GuildId(guild), id, "Swimming", 4)?;
                        secrets::set_luck(
                            tx,
                            GuildId(guild),
                            id,
                            LUCK,
                            &LedgerEntry {
                                actor: UserId(1),
                                kind: LuckKind::Set,
                                reason: "bench",
                                roll: None,
                                idem_key: None,
                            },
                        )?;
                    }
                }
                Ok::<_, referee::store::StoreError>(())
            })
            .expect("populate");
        g = end;
    }
}
