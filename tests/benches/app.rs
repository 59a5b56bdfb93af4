//! The `app` layer on a file database: latency, throughput, CPU and memory of `/check`, `/roll`,
//! `/character show` and a luck spend (`/luck spend kind:stunt`), on a database of many guilds
//! (default 10,000 × 10 characters; `REFEREE_BENCH_GUILDS` changes it, `REFEREE_BENCH_OPS` the
//! commands per case, default 5,000; `REFEREE_BENCH_ONLY` a part of one workload's label, to run
//! that one alone). Run with `cargo bench --bench app`.
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
//!   as many as the bot runs (`bot::workers::Workers::default_count`, four per core, or
//!   `REFEREE_BENCH_WORKERS`) takes commands
//!   from one queue, as the bot's own app threads do (`bot::workers`). The driver keeps 64
//!   commands outstanding (a closed loop: each completion submits the next), and latency runs from
//!   submission to completion, so time spent queued counts. With `w` workers and service time `s`,
//!   expect p50 ≈ 64·s / w: the queue, not the store, dominates.
//! - **1000/s**: an open loop at the bot's target rate (p99 ≤ 2 ms at 1,000 interactions/s):
//!   commands arrive on a fixed schedule through the same workers, and latency runs from the
//!   scheduled arrival, so a stall counts against every command queued behind it.
//! - **Floors**, to tell the cost of serving from the cost of a command: `/help` (reads only the
//!   guild's settings, one indexed SELECT, and answers fixed text) and `write floor` (one store
//!   write that finds a character by name and marks it used, the least any roll writes, committed
//!   like every write). With 64 in flight on `c` cores, no command can do better than
//!   64 × (its CPU time) / c, so these two bound what any read or write can reach.
//! - For the sequential case, the line under it gives the slowest 1%'s mean wall time and how
//!   much of it the thread was runnable but waiting for a CPU (`/proc/thread-self/schedstat`):
//!   on a shared machine that part is other processes' doing, not the store's.
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

use referee::app::invocation::Invocation;
use referee::app::{App, Caller, Command, Dice};
use referee::rules::dice::expr::Limits;
use referee::store::characters::{self, NewCharacter};
use referee::store::guilds::System;
use referee::store::secrets::{self, LedgerEntry, LuckKind};
use referee::store::{CharacterId, GuildId, Store, UserId};

/// Builds the command for the i-th operation.
type MakeInvocation = fn(u64) -> Invocation;

/// What a case runs.
#[derive(Clone, Copy)]
enum Work {
    /// A command through `App::handle`, built for the i-th operation.
    Command(MakeInvocation),
    /// The write floor: one store write that finds a character by name and marks it used (what
    /// every roll adds to the log), with no command around it.
    Touch,
}

const PER_GUILD: u64 = 10;
const IN_FLIGHT: usize = 64;
/// The bot's target rate (issue 4: p99 ≤ 2 ms at 1,000 interactions/s).
const RATE: u64 = 1_000;

/// How commands arrive in a case.
#[derive(Clone, Copy)]
enum Load {
    /// One at a time, on the calling thread.
    Sequential,
    /// A closed loop: this many outstanding at once.
    InFlight(usize),
    /// An open loop: this many per second on a fixed schedule, whatever the latency.
    Rate(u64),
}

impl std::fmt::Display for Load {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            Load::Sequential => "1".to_owned(),
            Load::InFlight(n) => n.to_string(),
            Load::Rate(r) => format!("{r}/s"),
        };
        f.pad(&text)
    }
}
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
    let workers = env_num(
        "REFEREE_BENCH_WORKERS",
        referee::bot::workers::Workers::default_count() as u64,
    )
    .max(1) as usize;

    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bench.sqlite3");
    populate_in_child(&path, guilds);

    let store = Arc::new(Store::open(&path).expect("open"));
    // Production dice: a seeded generator is one lock shared by every command.
    let app = Arc::new(App::new(
        Arc::clone(&store),
        Dice::Thread,
        Limits::default(),
    ));
    let rss_setup = status_kib("VmRSS");
    println!(
        "{cores} cores; {workers} worker threads for the in-flight cases; {ops} commands per case"
    );

    println!(
        "{:<17} {:>9} {:>9} {:>9} {:>10} {:>10} {:>9} {:>7}",
        "workload", "load", "p50 µs", "p99 µs", "max µs", "cmds/s", "CPU µs", "group"
    );
    let mut seq = 0_u64;
    // `REFEREE_BENCH_ONLY=show` (any part of a workload's label) runs that workload alone.
    let only = std::env::var("REFEREE_BENCH_ONLY").unwrap_or_default();
    for (label, work) in workloads() {
        if !label.contains(only.as_str()) {
            continue;
        }
        for load in [
            Load::Sequential,
            Load::InFlight(IN_FLIGHT),
            Load::Rate(RATE),
        ] {
            let cpu_before = cpu_time();
            let (writes_before, groups_before) = store.commit_counts();
            let wall = Instant::now();
            let case = Case {
                app: &app,
                guilds,
                ops,
                first: seq,
                work,
            };
            let (mut lat, note) = latencies(&case, workers, load);
            let wall = wall.elapsed();
            let cpu = cpu_time().saturating_sub(cpu_before);
            let group = mean_group(&store, writes_before, groups_before);
            seq += ops as u64;
            lat.sort_unstable();
            println!(
                "{label:<17} {load:>9} {:>9.1} {:>9.1} {:>10.1} {:>10.0} {:>9.1} {group:>7}",
                micros(pct(&lat, 50.0)),
                micros(pct(&lat, 99.0)),
                micros(*lat.last().unwrap_or(&Duration::ZERO)),
                ops as f64 / wall.as_secs_f64(),
                micros(cpu) / ops as f64,
            );
            if let Some(note) = note {
                println!("{note}");
            }
        }
    }
    println!(
        "resident memory: {} KiB after opening the store, {} KiB after the run, peak {} KiB (VmHWM)",
        rss_setup,
        status_kib("VmRSS"),
        status_kib("VmHWM")
    );
}

/// The workloads, by label: the two floors, the three commands of issue 4, and `/roll`.
fn workloads() -> [(&'static str, Work); 6] {
    [
        // The read floor: `/help` reads only the guild's settings (one indexed SELECT) and
        // answers with fixed text, so it measures what serving costs before a command does any
        // work.
        ("/help", Work::Command(|_| Invocation::new(&["help"], &[]))),
        ("write floor", Work::Touch),
        (
            "/check",
            Work::Command(|i| {
                Invocation::new(
                    &["check"],
                    &[("skill", "Swimming"), ("character", &name(i))],
                )
            }),
        ),
        // The bot's commonest command: a dice roll, logged.
        (
            "/roll",
            Work::Command(|_| Invocation::new(&["roll"], &[("expression", "3d6+2")])),
        ),
        (
            "/character show",
            Work::Command(|i| Invocation::new(&["character", "show"], &[("name", &name(i))])),
        ),
        (
            "/luck spend",
            Work::Command(|i| {
                Invocation::new(
                    &["luck", "spend"],
                    &[("kind", "stunt"), ("character", &name(i)), ("points", "1")],
                )
            }),
        ),
    ]
}

/// One case's commands: `ops` of `work`, numbered from `first`, on a database of `guilds`.
struct Case<'a> {
    app: &'a Arc<App>,
    guilds: u64,
    ops: usize,
    first: u64,
    work: Work,
}

/// The latencies of one case, and a line on what they hold: for a sequential case the slowest
/// 1%'s wait for a CPU, for an open loop the driver's own lateness.
fn latencies(case: &Case<'_>, workers: usize, load: Load) -> (Vec<Duration>, Option<String>) {
    if let Load::Sequential = load {
        let mut timed = sequential(case);
        let lat = timed.iter().map(|t| t.wall).collect();
        return (lat, Some(slowest_split(&mut timed)));
    }
    let (lat, mut late) = pooled(case, workers, load);
    if late.is_empty() {
        return (lat, None);
    }
    late.sort_unstable();
    let note = format!(
        "  of which the driver's own lateness (woken after the scheduled arrival): p50 {:.0} µs, p99 {:.0} µs",
        micros(pct(&late, 50.0)),
        micros(pct(&late, 99.0))
    );
    (lat, Some(note))
}

/// Fills the database at `path` from a child process (see "Method").
fn populate_in_child(path: &Path, guilds: u64) {
    let start = Instant::now();
    let status = std::process::Command::new(std::env::current_exe().expect("own path"))
        .env(POPULATE_ENV, path)
        .status()
        .expect("run the populating child");
    assert!(status.success(), "populating child failed: {status}");
    let size = std::fs::metadata(path).map_or(0, |m| m.len());
    println!(
        "populated {guilds} guilds x {PER_GUILD} characters in {:.1} s (child process), file {} MB",
        start.elapsed().as_secs_f64(),
        size / (1024 * 1024)
    );
}

/// The mean number of writes per group commit since the counts given (see the store's "Group
/// commit"), or "-" when nothing was written.
fn mean_group(store: &Store, writes_before: u64, groups_before: u64) -> String {
    let (writes, groups) = store.commit_counts();
    match groups - groups_before {
        0 => "-".to_owned(),
        n => format!("{:.1}", (writes - writes_before) as f64 / n as f64),
    }
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
fn serve(app: &App, guilds: u64, i: u64, work: Work) {
    let caller = caller(guild_of(i, guilds));
    let make = match work {
        Work::Command(make) => make,
        Work::Touch => {
            let name = name(i);
            let touched = app.store().write(|conn| {
                let found = characters::by_name(conn, caller.guild, &name)?;
                found
                    .map(|c| characters::touch(conn, caller.guild, c.id))
                    .transpose()
            });
            assert!(matches!(touched, Ok(Some(()))), "{touched:?}");
            return;
        }
    };
    let inv = make(i);
    let id = format!("bench-{i}-{}", inv.display_path());
    let cmd = Command::parse(&inv).expect("a valid command");
    let reply = app.handle(&caller, &id, cmd);
    assert!(
        !reply.all_text().contains("Something went wrong"),
        "{reply:?}"
    );
}

/// One sequential command's wall time, split by the scheduler's account of the thread.
#[derive(Clone, Copy)]
struct Timed {
    wall: Duration,
    /// Runnable but waiting for a CPU (other processes, other threads).
    waiting: Duration,
}

fn sequential(case: &Case<'_>) -> Vec<Timed> {
    (0..case.ops as u64)
        .map(|k| {
            let before = schedstat();
            let start = Instant::now();
            serve(case.app, case.guilds, case.first + k, case.work);
            let wall = start.elapsed();
            let after = schedstat();
            Timed {
                wall,
                waiting: after.saturating_sub(before),
            }
        })
        .collect()
}

/// How long this thread has been runnable but waiting for a CPU, from
/// `/proc/thread-self/schedstat` (its second field, in nanoseconds).
fn schedstat() -> Duration {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    text.split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

/// For the slowest 1% of sequential commands: mean wall time, and how much of it the thread was
/// runnable but waiting for a CPU. (Only the wait is shown: the kernel accounts it when the
/// thread is switched in, while the running thread's CPU time lags by up to a scheduler tick.)
fn slowest_split(timed: &mut [Timed]) -> String {
    timed.sort_unstable_by_key(|t| std::cmp::Reverse(t.wall));
    let n = (timed.len() / 100).max(1).min(timed.len());
    let slow = &timed[..n];
    let mean = |f: fn(&Timed) -> Duration| {
        micros(slow.iter().map(f).sum::<Duration>()) / slow.len().max(1) as f64
    };
    format!(
        "  slowest 1% ({n}): mean {:.0} µs, of which {:.0} µs waiting for a CPU",
        mean(|t| t.wall),
        mean(|t| t.waiting)
    )
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

/// `ops` commands through `workers` threads, arriving as `load` says; each latency runs from
/// submission (for an open loop: the scheduled arrival) to completion. For an open loop, also
/// how late the driver submitted each command: a sleeping thread wakes tens of microseconds
/// after its deadline (timer slack, the hypervisor), and that counts in the latency.
fn pooled(case: &Case<'_>, workers: usize, load: Load) -> (Vec<Duration>, Vec<Duration>) {
    let &Case {
        app,
        guilds,
        ops,
        first,
        work,
    } = case;
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
                    serve(&app, guilds, i, work);
                    if done.send(submitted.elapsed()).is_err() {
                        break;
                    }
                }
            })
        })
        .collect();
    drop(done_tx);
    let submit = |k: usize, at: Instant| queue.push(Some((first + k as u64, at)));
    let next = |lat: &mut Vec<Duration>| {
        let d = done_rx
            .recv_timeout(Duration::from_mins(1))
            .expect("a worker finished a command within a minute");
        lat.push(d);
    };
    let mut lat = Vec::with_capacity(ops);
    let mut late = Vec::new();
    match load {
        Load::InFlight(_) | Load::Sequential => {
            let n = match load {
                Load::InFlight(n) => n,
                _ => 1,
            };
            let mut submitted = n.min(ops);
            (0..submitted).for_each(|k| submit(k, Instant::now()));
            while lat.len() < ops {
                next(&mut lat);
                if submitted < ops {
                    submit(submitted, Instant::now());
                    submitted += 1;
                }
            }
        }
        Load::Rate(per_second) => {
            // Latency counts from the scheduled arrival, not from when the driver got round to
            // it, so a stall delays every command behind it (no coordinated omission).
            let gap = Duration::from_secs(1) / per_second.max(1) as u32;
            let start = Instant::now();
            for k in 0..ops {
                let at = start + gap * k as u32;
                if let Some(wait) = at.checked_duration_since(Instant::now()) {
                    std::thread::sleep(wait);
                }
                late.push(Instant::now().saturating_duration_since(at));
                submit(k, at);
            }
            while lat.len() < ops {
                next(&mut lat);
            }
        }
    }
    for _ in 0..workers {
        queue.push(None);
    }
    for t in threads {
        t.join().expect("bench worker");
    }
    (lat, late)
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
