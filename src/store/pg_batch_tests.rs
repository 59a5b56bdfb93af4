//! PostgreSQL batches (`pg`'s "Batches"): one transaction for many guilds' writes, a failed
//! write undone alone, and a held guild turned away rather than waited for.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::characters::{self, NewCharacter};
use super::guilds::System;
use super::secrets::{self, GmProof, LedgerEntry, LuckKind, Spend};
use super::{
    CharacterId, Conn, GuildId, Job, Result, Store, StoreError, UserId, in_guild, params,
    query_row, with_job,
};

/// Adds guild `g`'s row (a plain INSERT: a second one fails on its key).
fn add_guild(c: &Conn, g: u64) -> Result<usize> {
    crate::store::exec(
        c,
        "INSERT INTO guilds (guild_id, created_at) VALUES (?1, 0)",
        params![GuildId(g)],
    )
}

/// Whether guild `g`'s row is there, as another connection sees it.
fn has_guild(store: &Store, g: u64) -> bool {
    // A job of no one guild: the read goes to a pooled connection, outside any batch.
    store
        .read(|c| {
            query_row(
                c,
                "SELECT COUNT(*) FROM guilds WHERE guild_id = ?1",
                params![GuildId(g)],
                |r| r.get::<i64>(0),
            )
        })
        .unwrap()
        == 1
}

/// Runs `f` as a job of guild `g` with a short deadline.
fn as_guild<T>(g: Option<u64>, f: impl FnOnce() -> T) -> T {
    let job = Job {
        deadline: Some(Instant::now() + Duration::from_millis(300)),
        ..Job::default()
    };
    with_job(job, || match g {
        Some(g) => in_guild(GuildId(g), f),
        None => f(),
    })
}

/// A batch writes several guilds in one transaction: nobody else sees its writes until the
/// commit, its own reads of a guild it holds do, and what was deferred to the commit runs
/// once, after it. A write that fails (an error of its own, or a failed statement) is undone
/// alone and the batch goes on.
#[test]
fn a_batch_commits_its_guilds_writes_at_once_and_undoes_a_failed_one_alone() {
    let Some(db) = crate::store::testdb::PgTestDb::create() else {
        return;
    };
    let pg = db.open();
    let ran = Arc::new(AtomicU64::new(0));
    pg.begin_batch();
    for g in [1, 2, 3] {
        as_guild(Some(g), || pg.write(|c| add_guild(c, g))).unwrap();
        let seen = as_guild(Some(g), || {
            pg.read(|c| {
                query_row(
                    c,
                    "SELECT COUNT(*) FROM guilds WHERE guild_id = ?1",
                    params![GuildId(g)],
                    |r| r.get::<i64>(0),
                )
            })
        });
        assert_eq!(
            seen.unwrap(),
            1,
            "the batch reads its own write of guild {g}"
        );
        assert!(
            !has_guild(&pg, g),
            "nobody else sees guild {g} before the commit"
        );
        assert!(!pg.batch_deferred());
    }
    // Refused by the command itself after writing: undone.
    let refused: Result<(), StoreError> = as_guild(Some(4), || {
        pg.write(|c| {
            add_guild(c, 4)?;
            Err(StoreError::NoRow)
        })
    });
    assert!(matches!(refused, Err(StoreError::NoRow)));
    // A failed statement (guild 1 again): undone, and the transaction lives on.
    assert!(as_guild(Some(1), || pg.write(|c| add_guild(c, 1))).is_err());
    as_guild(Some(5), || pg.write(|c| add_guild(c, 5))).unwrap();
    let counter = Arc::clone(&ran);
    as_guild(Some(5), || {
        crate::store::after_commit(move || {
            counter.fetch_add(1, Ordering::SeqCst);
        });
    });
    assert_eq!(ran.load(Ordering::SeqCst), 0, "not before the commit");
    let (writes, commits) = pg.commit_counts();
    pg.finish_batch().unwrap();
    assert_eq!(ran.load(Ordering::SeqCst), 1, "once, after the commit");
    for (g, kept) in [(1, true), (2, true), (3, true), (4, false), (5, true)] {
        assert_eq!(has_guild(&pg, g), kept, "guild {g}");
    }
    assert_eq!(
        pg.commit_counts(),
        (writes + 4, commits + 1),
        "four writes kept, one commit"
    );
}

/// An abandoned batch keeps nothing, and what waited for its commit never runs.
#[test]
fn an_abandoned_batch_keeps_nothing() {
    let Some(db) = crate::store::testdb::PgTestDb::create() else {
        return;
    };
    let pg = db.open();
    let ran = Arc::new(AtomicU64::new(0));
    pg.begin_batch();
    as_guild(Some(7), || pg.write(|c| add_guild(c, 7))).unwrap();
    let counter = Arc::clone(&ran);
    crate::store::after_commit(move || {
        counter.fetch_add(1, Ordering::SeqCst);
    });
    pg.abandon_batch();
    assert!(!has_guild(&pg, 7));
    assert_eq!(ran.load(Ordering::SeqCst), 0);
    assert!(pg.finish_batch().is_ok(), "nothing left to commit");
    // Outside a batch a write commits at once again.
    as_guild(Some(7), || pg.write(|c| add_guild(c, 7))).unwrap();
    assert!(has_guild(&pg, 7));
}

/// A batch never waits for a lock while it holds one: a write of a guild another
/// transaction holds (or of no one guild) is turned away at once, marked deferred, and the
/// rest of the batch commits; the command then runs on its own once the holder is done.
/// Two batches taking two guilds in opposite orders both turn their second write away
/// rather than deadlock (each would wait for the other for ever, or until the deadline).
#[test]
fn batches_turn_away_a_held_guild_instead_of_waiting_for_it() {
    let Some(db) = crate::store::testdb::PgTestDb::create() else {
        return;
    };
    let store = Arc::new(db.open());
    let run = |first: u64, second: u64, meet: Arc<std::sync::Barrier>| {
        let store = Arc::clone(&store);
        std::thread::spawn(move || {
            let pg = &store;
            pg.begin_batch();
            as_guild(Some(first), || pg.write(|c| add_guild(c, first))).unwrap();
            meet.wait();
            let turned = as_guild(Some(second), || pg.write(|c| add_guild(c, second + 100)));
            let deferred = pg.batch_deferred();
            // A command turned away writes nothing more until it runs again.
            let more = as_guild(Some(first), || pg.write(|c| add_guild(c, first + 200)));
            let still = pg.batch_deferred();
            meet.wait();
            pg.finish_batch().unwrap();
            (turned.is_err(), deferred, more.is_err(), still)
        })
    };
    let meet = Arc::new(std::sync::Barrier::new(2));
    let a = run(11, 12, Arc::clone(&meet));
    let b = run(12, 11, meet);
    for side in [a.join().unwrap(), b.join().unwrap()] {
        assert_eq!(side, (true, true, false, false), "(refused, deferred, …)");
    }
    let pg = &store;
    for (g, kept) in [
        (11, true),
        (12, true),
        (111, false),
        (112, false),
        (211, true),
        (212, true),
    ] {
        assert_eq!(has_guild(pg, g), kept, "guild {g}");
    }
    // A write of no one guild is turned away from a batch too.
    pg.begin_batch();
    assert!(as_guild(None, || pg.write(|c| add_guild(c, 300))).is_err());
    assert!(pg.batch_deferred());
    assert!(!pg.batch_deferred(), "the mark is cleared once read");
    pg.finish_batch().unwrap();
    // Run again outside the batch, it is written.
    as_guild(None, || pg.write(|c| add_guild(c, 300))).unwrap();
    assert!(has_guild(pg, 300));
}

/// A ledger entry of `kind`, for the race.
fn entry(kind: LuckKind) -> LedgerEntry<'static> {
    LedgerEntry {
        actor: UserId(1),
        kind,
        reason: "race",
        roll: None,
        idem_key: None,
    }
}

/// One spend of a point of luck, as guild `g`'s command.
fn spend(store: &Store, g: u64, id: CharacterId) -> Result<Spend> {
    as_guild(Some(g), || {
        store.write(|c| secrets::spend_luck(c, GuildId(g), id, 1, &entry(LuckKind::SpentStunt)))
    })
}

/// The luck race with batches: three threads, each a bot's writing thread running batches that
/// spend one point in each of three guilds, each in its own order, as processes serving the same
/// guilds would (HTTP workers). A spend turned away from a batch runs again on its own after the
/// commit, as the bot's writing lane does. Each guild's character holds 10 points and is asked
/// for 30 spends: exactly 10 are spent in each, none twice, none below zero, and no batch ever
/// waited for another into a deadlock (each would meet its deadline and answer "busy").
#[test]
fn luck_is_spent_exactly_once_by_batches_racing_over_the_same_guilds() {
    let Some(db) = crate::store::testdb::PgTestDb::create() else {
        return;
    };
    let store = Arc::new(db.open());
    let guilds = [21_u64, 22, 23];
    let mut chars = Vec::new();
    for g in guilds {
        let id = as_guild(Some(g), || {
            store.write(|c| {
                let id = characters::create(
                    c,
                    GuildId(g),
                    &NewCharacter {
                        name: "Lucky",
                        system: System::Thiz,
                        owner_id: UserId(1),
                        npc: false,
                        sheet_json: "{}",
                    },
                )?
                .ok_or(StoreError::NoRow)?;
                secrets::set_luck(c, GuildId(g), id, 10, &entry(LuckKind::Set))?;
                Ok::<_, StoreError>(id)
            })
        })
        .unwrap();
        chars.push((g, id));
    }
    let threads: Vec<_> = (0..3)
        .map(|t| {
            let (store, chars) = (Arc::clone(&store), chars.clone());
            std::thread::spawn(move || {
                let (mut spent, mut turned) = (0, 0);
                for round in 0..10 {
                    store.begin_batch();
                    let mut later = Vec::new();
                    for k in 0..3 {
                        let (g, id) = chars[(t + round + k) % 3];
                        let out = spend(&store, g, id);
                        if store.batch_deferred() {
                            turned += 1;
                            later.push((g, id));
                        } else if let Ok(Spend::Spent { .. }) = out {
                            spent += 1;
                        } else {
                            assert!(matches!(out, Ok(Spend::Exhausted)), "{out:?}");
                        }
                    }
                    store.finish_batch().expect("the batch commits");
                    for (g, id) in later {
                        match spend(&store, g, id) {
                            Ok(Spend::Spent { .. }) => spent += 1,
                            out => assert!(matches!(out, Ok(Spend::Exhausted)), "{out:?}"),
                        }
                    }
                }
                (spent, turned)
            })
        })
        .collect();
    let results: Vec<(u64, u64)> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let spent: u64 = results.iter().map(|r| r.0).sum();
    eprintln!("(spent, turned away) per thread: {results:?}");
    assert_eq!(spent, 30, "10 in each of 3 guilds: {results:?}");
    for (g, id) in chars {
        let left = store
            .read(|c| secrets::luck(c, GmProof::verified(GuildId(g)), id))
            .unwrap();
        assert_eq!(left, Some(0), "guild {g}");
        let spends = store
            .read(|c| secrets::ledger(c, GmProof::verified(GuildId(g)), id))
            .unwrap()
            .iter()
            .filter(|row| row.delta < 0)
            .count();
        assert_eq!(spends, 10, "guild {g}: one ledger line per point");
    }
}
