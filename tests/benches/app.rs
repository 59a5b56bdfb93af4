//! The `app` layer on a file database: p50/p99 of `/check`, `/character show` and a luck spend,
//! sequential and with 64 in flight, on a database of many guilds (default 10,000 × 10
//! characters; `REFEREE_BENCH_GUILDS` changes it), and the process's resident memory.
//!
//! Targets (issue): p99 ≤ 200 µs for a read, ≤ 1 ms for a luck spend with 64 in flight, under
//! 40 MB resident. Run with `cargo bench --bench app`.

use std::sync::Arc;
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
const OPS: usize = 2_000;
const IN_FLIGHT: usize = 64;

fn main() {
    // Errors behind "Something went wrong" are logged: show them.
    let _ = tracing_subscriber::fmt()
        .with_env_filter("error")
        .with_writer(std::io::stderr)
        .try_init();
    let guilds: u64 = std::env::var("REFEREE_BENCH_GUILDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bench.sqlite3");
    let store = Arc::new(Store::open(&path).expect("open"));
    let start = Instant::now();
    populate(&store, guilds);
    println!(
        "populated {guilds} guilds x {PER_GUILD} characters in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    // Production dice: a seeded generator is one lock shared by every command.
    let app = Arc::new(App::new(store, Dice::Thread, Limits::default()));

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
        "{:<18} {:>10} {:>10} {:>10} {:>10}",
        "workload", "in flight", "p50 µs", "p99 µs", "max µs"
    );
    for (label, make) in workloads {
        for in_flight in [1, IN_FLIGHT] {
            let mut lat = run(&app, guilds, in_flight, make);
            lat.sort_unstable();
            println!(
                "{label:<18} {in_flight:>10} {:>10.1} {:>10.1} {:>10.1}",
                micros(pct(&lat, 50.0)),
                micros(pct(&lat, 99.0)),
                micros(*lat.last().unwrap_or(&Duration::ZERO))
            );
        }
    }
    println!(
        "resident memory: {} MB (VmRSS), peak {} MB (VmHWM)",
        status_mb("VmRSS"),
        status_mb("VmHWM")
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
                            900,
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

fn run(
    app: &Arc<App>,
    guilds: u64,
    in_flight: usize,
    make: fn(u64) -> Invocation,
) -> Vec<Duration> {
    let per_thread = OPS / in_flight.max(1);
    let threads: Vec<_> = (0..in_flight)
        .map(|t| {
            let app = Arc::clone(app);
            std::thread::spawn(move || {
                let mut lat = Vec::with_capacity(per_thread);
                for k in 0..per_thread {
                    let i = (t * per_thread + k) as u64;
                    let caller = caller(guild_of(i, guilds));
                    let inv = make(i);
                    let id = format!("bench-{t}-{k}-{}", inv.display_path());
                    let start = Instant::now();
                    let cmd = Command::parse(&inv).expect("a valid command");
                    let reply = app.handle(&caller, &id, cmd);
                    lat.push(start.elapsed());
                    assert!(
                        !reply.all_text().contains("Something went wrong"),
                        "{reply:?}"
                    );
                }
                lat
            })
        })
        .collect();
    threads
        .into_iter()
        .flat_map(|t| t.join().expect("bench thread"))
        .collect()
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

fn status_mb(key: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with(key)).and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|kb| kb.parse::<u64>().ok())
            })
        })
        .map_or(0, |kb| kb / 1024)
}
