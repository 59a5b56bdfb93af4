//! Writes per second as writers are added (issue 33): 1, 4 and 16 threads each logging rolls,
//! every write its own committed transaction, on PostgreSQL and on SQLite, in one run.
//!
//! Run with `cargo bench --bench store_scale` (PostgreSQL from `REFEREE_TEST_DATABASE_URL`,
//! default `postgres://postgres@127.0.0.1:5432/postgres`; without a server only SQLite runs).
//! `REFEREE_BENCH_SECS` sets each case's length (default 3).
//!
//! ## Cases
//! - **distinct guilds**: writer `i` writes guild `i` and declares it (`store::in_guild`), as
//!   the app does for every command: on PostgreSQL each takes its guild's lock.
//! - **one guild**: every writer writes guild 1, so they take turns on its lock.
//! - **database-wide lock**: distinct guilds, but no guild declared, so each write takes the
//!   whole database's lock, as every write did before issue 33: the baseline beside the first.
//!
//! Each case reports writes per second (commits over wall time) and the ratio to one writer of
//! the same case. The goal on 2 cores: 4 writers on distinct guilds ≥ 1.7× one writer.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use referee::store::rolls::{self, Mode, NewRoll};
use referee::store::{GuildId, Store, StoreError, UserId, in_guild};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Case {
    DistinctGuilds,
    OneGuild,
    DatabaseLock,
}

impl Case {
    fn label(self) -> &'static str {
        match self {
            Case::DistinctGuilds => "distinct guilds",
            Case::OneGuild => "one guild",
            Case::DatabaseLock => "database-wide lock",
        }
    }
}

/// Commits per second with `writers` threads for `secs`.
fn run(store: &Arc<Store>, case: Case, writers: u64, secs: f64, round: u64) -> f64 {
    let stop = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicU64::new(0));
    let threads: Vec<_> = (0..writers)
        .map(|i| {
            let (store, stop, done) = (Arc::clone(store), Arc::clone(&stop), Arc::clone(&done));
            std::thread::spawn(move || {
                // Fresh guilds each round, so every case starts from empty tables of its own.
                let guild = match case {
                    Case::OneGuild => GuildId(round * 1000 + 1),
                    Case::DistinctGuilds | Case::DatabaseLock => GuildId(round * 1000 + i + 1),
                };
                let write = || {
                    store.write(|c| {
                        rolls::insert(
                            c,
                            guild,
                            &NewRoll {
                                user: UserId(i + 1),
                                character: None,
                                command: "roll",
                                mode: Mode::Public,
                                label: "",
                                result_json: r#"{"total":7}"#,
                                commitment: None,
                                nonce: None,
                                parent: None,
                            },
                        )
                    })
                };
                while !stop.load(Ordering::Relaxed) {
                    let outcome: Result<_, StoreError> = match case {
                        Case::DatabaseLock => write(),
                        Case::DistinctGuilds | Case::OneGuild => in_guild(guild, write),
                    };
                    if outcome.is_ok() {
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                }
            })
        })
        .collect();
    let start = Instant::now();
    std::thread::sleep(Duration::from_secs_f64(secs));
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        t.join().expect("a writer");
    }
    done.load(Ordering::Relaxed) as f64 / start.elapsed().as_secs_f64()
}

fn table(name: &str, store: &Arc<Store>, secs: f64) {
    println!("\n{name}: writes per second (each a committed transaction logging one roll)");
    println!(
        "{:<20} {:>10} {:>10} {:>10} {:>9} {:>9}",
        "case", "1", "4", "16", "4 / 1", "16 / 1"
    );
    let mut round = 1;
    for case in [Case::DistinctGuilds, Case::OneGuild, Case::DatabaseLock] {
        let rates: Vec<f64> = [1, 4, 16]
            .iter()
            .map(|&w| {
                round += 1;
                run(store, case, w, secs, round)
            })
            .collect();
        println!(
            "{:<20} {:>10.0} {:>10.0} {:>10.0} {:>8.2}× {:>8.2}×",
            case.label(),
            rates[0],
            rates[1],
            rates[2],
            rates[1] / rates[0],
            rates[2] / rates[0]
        );
    }
}

fn main() {
    let secs: f64 = std::env::var("REFEREE_BENCH_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    println!(
        "store_scale: {secs} s a case, on {} cores",
        std::thread::available_parallelism().map_or(1, usize::from)
    );
    match referee::store::testdb::PgTestDb::create() {
        Some(db) => table("PostgreSQL", &Arc::new(db.open()), secs),
        None => println!("\nPostgreSQL: no server answered; its cases did not run"),
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let sqlite = Store::open(&dir.path().join("scale.sqlite3")).expect("a SQLite store");
    table("SQLite", &Arc::new(sqlite), secs);
}
