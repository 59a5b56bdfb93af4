//! The store on real files: migrations, pragmas, online backup, and luck spends that cannot
//! overspend or repeat.

use std::sync::Arc;
use std::thread;

use referee::store::characters::{self, NewCharacter};
use referee::store::guilds::System;
use referee::store::secrets::{self, LedgerEntry, LuckKind, Spend};
use referee::store::{CharacterId, GuildId, Store, StoreError, UserId};

fn temp_store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("referee.sqlite3")).unwrap();
    (dir, store)
}

fn make_character(store: &Store, guild: GuildId, name: &str) -> CharacterId {
    store
        .write(|tx| {
            characters::create(
                tx,
                guild,
                &NewCharacter {
                    name,
                    system: System::Thiz,
                    owner_id: UserId(10),
                    npc: false,
                    sheet_json: "{}",
                },
            )
        })
        .unwrap()
        .expect("name is free")
}

fn entry(kind: LuckKind, key: Option<&str>) -> LedgerEntry<'_> {
    LedgerEntry {
        actor: UserId(10),
        kind,
        reason: "",
        roll: None,
        idem_key: key,
    }
}

fn schema(store: &Store) -> (i64, Vec<String>) {
    store
        .read(|c| {
            let version: i64 = c.query_row("PRAGMA user_version", [], |r| r.get(0))?;
            let mut stmt =
                c.prepare("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")?;
            let sql = stmt
                .query_map([], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            Ok((version, sql))
        })
        .unwrap()
}

#[test]
fn migrates_from_empty_and_again_without_change() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite3");
    let first = schema(&Store::open(&path).unwrap());
    assert_eq!(first.0, Store::latest_version() as i64);
    assert!(
        first
            .1
            .iter()
            .any(|s| s.contains("CREATE TABLE luck_ledger"))
    );
    let second = schema(&Store::open(&path).unwrap());
    assert_eq!(first, second, "a second migration run changed the schema");
}

#[test]
fn pragmas_are_wal_normal_with_foreign_keys() {
    let (_dir, store) = temp_store();
    let (mode, sync, fk, busy): (String, i64, i64, i64) = store
        .read(|c| {
            Ok((
                c.query_row("PRAGMA journal_mode", [], |r| r.get(0))?,
                c.query_row("PRAGMA synchronous", [], |r| r.get(0))?,
                c.query_row("PRAGMA foreign_keys", [], |r| r.get(0))?,
                c.query_row("PRAGMA busy_timeout", [], |r| r.get(0))?,
            ))
        })
        .unwrap();
    assert_eq!(mode, "wal");
    assert_eq!(sync, 1, "synchronous=NORMAL is 1");
    assert_eq!(fk, 1);
    assert!(busy >= 1000, "busy_timeout {busy} ms");
}

#[test]
fn backup_while_writing_passes_integrity_check() {
    let (dir, store) = temp_store();
    let store = Arc::new(store);
    let guild = GuildId(5);
    let writer = {
        let store = Arc::clone(&store);
        thread::spawn(move || {
            for i in 0..300 {
                make_character(&store, guild, &format!("Writer {i}"));
            }
        })
    };
    let dest = dir.path().join("backup.sqlite3");
    for _ in 0..5 {
        store.backup(&dest).unwrap();
    }
    writer.join().unwrap();
    let copy = rusqlite::Connection::open(&dest).unwrap();
    let check: String = copy
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let n: i64 = copy
        .query_row("SELECT COUNT(*) FROM characters", [], |r| r.get(0))
        .unwrap();
    assert!((0..=300).contains(&n));
}

#[test]
fn names_are_unique_per_guild_ignoring_case_and_guilds_are_isolated() {
    let (_dir, store) = temp_store();
    make_character(&store, GuildId(1), "Vexa");
    let again = store.write(|tx| {
        characters::create(
            tx,
            GuildId(1),
            &NewCharacter {
                name: " vEXA ",
                system: System::Tft,
                owner_id: UserId(11),
                npc: false,
                sheet_json: "{}",
            },
        )
    });
    assert_eq!(again.unwrap(), None, "same name, other case");
    // Another guild may use the name and never sees the first guild's character.
    make_character(&store, GuildId(2), "Vexa");
    store
        .read(|c| {
            assert_eq!(characters::all(c, GuildId(1))?.len(), 1);
            assert_eq!(characters::all(c, GuildId(2))?.len(), 1);
            assert!(characters::by_name(c, GuildId(3), "vexa")?.is_none());
            Ok(())
        })
        .unwrap();
}

/// 200 concurrent spends of one point against a total of 5: exactly 5 succeed (SPEC §4).
#[test]
fn concurrent_spends_never_overspend() {
    let (_dir, store) = temp_store();
    let store = Arc::new(store);
    let guild = GuildId(9);
    let id = make_character(&store, guild, "Lucky");
    store
        .write(|tx| secrets::set_luck(tx, guild, id, 5, &entry(LuckKind::Set, None)))
        .unwrap();
    let threads: Vec<_> = (0..200)
        .map(|i| {
            let store = Arc::clone(&store);
            thread::spawn(move || {
                let key = format!("interaction-{i}");
                store
                    .write(|tx| {
                        secrets::spend_luck(
                            tx,
                            guild,
                            id,
                            1,
                            &entry(LuckKind::SpentReroll, Some(&key)),
                        )
                    })
                    .unwrap()
            })
        })
        .collect();
    let results: Vec<Spend> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let spent = results
        .iter()
        .filter(|r| matches!(r, Spend::Spent { .. }))
        .count();
    assert_eq!(spent, 5);
    assert_eq!(
        results.iter().filter(|r| **r == Spend::Exhausted).count(),
        195
    );
    let (left, spends) = store
        .read(|c| {
            let gm = test_gm(guild);
            let ledger = secrets::ledger(c, gm, id)?;
            Ok((
                secrets::luck(c, gm, id)?,
                ledger.iter().filter(|r| r.delta < 0).count(),
            ))
        })
        .unwrap();
    assert_eq!(left, Some(0));
    assert_eq!(spends, 5);
}

#[test]
fn the_same_idempotency_key_spends_once() {
    let (_dir, store) = temp_store();
    let guild = GuildId(9);
    let id = make_character(&store, guild, "Twice");
    store
        .write(|tx| secrets::set_luck(tx, guild, id, 3, &entry(LuckKind::Set, None)))
        .unwrap();
    let spend = |key| {
        store
            .write(|tx| {
                secrets::spend_luck(tx, guild, id, 1, &entry(LuckKind::SpentWound, Some(key)))
            })
            .unwrap()
    };
    assert_eq!(spend("roll-17"), Spend::Spent { points: 1, left: 2 });
    assert_eq!(spend("roll-17"), Spend::Duplicate);
    assert_eq!(spend("roll-18"), Spend::Spent { points: 1, left: 1 });
}

#[test]
fn a_stunt_spends_what_is_left_when_short() {
    // rules/README.md, "Luck stunt": the points named, at most the total, are spent.
    let (_dir, store) = temp_store();
    let guild = GuildId(4);
    let id = make_character(&store, guild, "Stunt");
    store
        .write(|tx| secrets::set_luck(tx, guild, id, 2, &entry(LuckKind::Set, None)))
        .unwrap();
    let r = store
        .write(|tx| secrets::spend_luck(tx, guild, id, 5, &entry(LuckKind::SpentStunt, None)))
        .unwrap();
    assert_eq!(r, Spend::Spent { points: 2, left: 0 });
    let r = store
        .write(|tx| secrets::spend_luck(tx, guild, id, 1, &entry(LuckKind::SpentStunt, None)))
        .unwrap();
    assert_eq!(r, Spend::Exhausted);
}

#[test]
fn a_failed_transaction_changes_nothing() {
    let (_dir, store) = temp_store();
    let guild = GuildId(4);
    let id = make_character(&store, guild, "Rollback");
    store
        .write(|tx| secrets::set_luck(tx, guild, id, 2, &entry(LuckKind::Set, None)))
        .unwrap();
    let r: Result<(), StoreError> = store.write(|tx| {
        secrets::spend_luck(tx, guild, id, 1, &entry(LuckKind::SpentReroll, None))?;
        Err(StoreError::Corrupt("refused after the spend".into()))
    });
    assert!(r.is_err());
    let left = store
        .read(|c| secrets::luck(c, test_gm(guild), id))
        .unwrap();
    assert_eq!(left, Some(2));
}

/// A GM proof for store-level tests, made the way the app's permission check makes it: a caller
/// with Manage Server.
fn test_gm(guild: GuildId) -> referee::store::secrets::GmProof {
    referee::app::perm::Caller {
        guild,
        user: UserId(1),
        name: "GM".into(),
        roles: vec![],
        manage_server: true,
    }
    .gm(&referee::store::guilds::GuildSettings::default())
    .unwrap()
}

#[test]
fn the_commit_observer_is_told_once_per_group_commit() {
    use std::sync::atomic::{AtomicU64, Ordering};
    let (_dir, store) = temp_store();
    // Before an observer is set, commits are not timed (nothing to tell).
    make_character(&store, GuildId(1), "Before");
    let told = Arc::new(AtomicU64::new(0));
    let seen = Arc::clone(&told);
    store.observe_commits(Box::new(move |took| {
        assert!(took < std::time::Duration::from_mins(1), "{took:?}");
        seen.fetch_add(1, Ordering::SeqCst);
    }));
    let (_, groups_before) = store.commit_counts();
    for name in ["A", "B", "C"] {
        make_character(&store, GuildId(1), name);
    }
    // A refused write rolls back to its savepoint; its lone group still ends in a COMMIT,
    // which the store counts too.
    let refused: Result<(), StoreError> = store.write(|_| Err(StoreError::Busy));
    assert!(refused.is_err());
    let (_, groups_after) = store.commit_counts();
    assert_eq!(told.load(Ordering::SeqCst), groups_after - groups_before);
    assert_eq!(
        told.load(Ordering::SeqCst),
        4,
        "four lone writes, four commits"
    );
    // A second observer is ignored: the first one still counts.
    store.observe_commits(Box::new(|_| panic!("a second observer ran")));
    make_character(&store, GuildId(1), "D");
    assert_eq!(told.load(Ordering::SeqCst), 5);
}
