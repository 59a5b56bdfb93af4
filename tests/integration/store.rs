//! The store on real files and on a real PostgreSQL server: migrations, pragmas, online
//! backup, and luck spends that cannot overspend or repeat.
//!
//! Tests that are not about SQLite's file run on every backend there is
//! ([`referee::store::testdb::backends`]): SQLite always, PostgreSQL on a fresh database of the
//! server named by `REFEREE_TEST_DATABASE_URL` when one answers (a loud skip otherwise, a
//! failure under `CI=true`).

use std::sync::Arc;
use std::thread;

use referee::store::characters::{self, NewCharacter};
use referee::store::guilds::System;
use referee::store::secrets::{self, LedgerEntry, LuckKind, Spend};
use referee::store::testdb::{self, TestStore};
use referee::store::{CharacterId, Dialect, GuildId, Store, StoreError, UserId, params, query_map};

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
            let c = c.as_sqlite().expect("SQLite");
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
            let c = c.as_sqlite().expect("SQLite");
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
    for TestStore { store, .. } in testdb::backends() {
        names_are_unique(&store);
    }
}

fn names_are_unique(store: &Store) {
    make_character(store, GuildId(1), "Vexa");
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
    make_character(store, GuildId(2), "Vexa");
    store
        .read(|c| {
            assert_eq!(characters::all(c, GuildId(1))?.len(), 1);
            assert_eq!(characters::all(c, GuildId(2))?.len(), 1);
            assert!(characters::by_name(c, GuildId(3), "vexa")?.is_none());
            Ok(())
        })
        .unwrap();
}

/// 200 concurrent spends of one point against a total of 5: exactly 5 succeed (SPEC §4), on
/// each backend (on PostgreSQL, 200 threads over a pool of connections).
#[test]
fn concurrent_spends_never_overspend() {
    for TestStore { store, name, .. } in testdb::backends() {
        concurrent_spends(&Arc::new(store), name);
    }
}

fn concurrent_spends(store: &Arc<Store>, backend: &str) {
    let guild = GuildId(9);
    let id = make_character(store, guild, "Lucky");
    store
        .write(|tx| secrets::set_luck(tx, guild, id, 5, &entry(LuckKind::Set, None)))
        .unwrap();
    let threads: Vec<_> = (0..200)
        .map(|i| {
            let store = Arc::clone(store);
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
    assert_eq!(spent, 5, "{backend}");
    assert_eq!(
        results.iter().filter(|r| **r == Spend::Exhausted).count(),
        195,
        "{backend}"
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
    assert_eq!(left, Some(0), "{backend}");
    assert_eq!(spends, 5, "{backend}");
}

#[test]
fn the_same_idempotency_key_spends_once() {
    for TestStore { store, .. } in testdb::backends() {
        same_key_spends_once(&store);
    }
}

fn same_key_spends_once(store: &Store) {
    let guild = GuildId(9);
    let id = make_character(store, guild, "Twice");
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
    for TestStore { store, .. } in testdb::backends() {
        stunt_spends_what_is_left(&store);
    }
}

fn stunt_spends_what_is_left(store: &Store) {
    // rules/README.md, "Luck stunt": the points named, at most the total, are spent.
    let guild = GuildId(4);
    let id = make_character(store, guild, "Stunt");
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
    for TestStore { store, .. } in testdb::backends() {
        failed_transaction(&store);
    }
}

fn failed_transaction(store: &Store) {
    let guild = GuildId(4);
    let id = make_character(store, guild, "Rollback");
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

/// Every table and column with whether it may be NULL, as the backend's catalogue has them.
fn columns(store: &Store) -> Vec<(String, String, bool)> {
    let sql = match store.dialect() {
        Dialect::Sqlite => {
            "SELECT m.name, p.name, p.\"notnull\" = 0 FROM sqlite_master m
             JOIN pragma_table_info(m.name) p
             WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
             ORDER BY 1, 2"
        }
        Dialect::Postgres => {
            "SELECT table_name::text, column_name::text, is_nullable = 'YES' FROM information_schema.columns
             WHERE table_schema = 'public' AND table_name <> 'referee_migrations'
             ORDER BY 1, 2"
        }
    };
    let mut all = store
        .read(|c| query_map(c, sql, params![], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))))
        .unwrap();
    all.sort();
    all
}

/// Both dialects of the migrations reach the same tables, columns and NULL-ability.
#[test]
fn both_backends_reach_the_same_schema() {
    let sqlite = columns(&testdb::sqlite().store);
    assert!(sqlite.iter().any(|(t, c, _)| t == "luck" && c == "points"));
    let Some(pg) = testdb::postgres() else {
        return;
    };
    let postgres = columns(&pg.store);
    let names = |all: &[(String, String, bool)]| {
        all.iter()
            .map(|(t, c, _)| format!("{t}.{c}"))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(&sqlite),
        names(&postgres),
        "SQLite's tables differ from PostgreSQL's"
    );
    // What SQLite refuses NULL in, PostgreSQL does too (PostgreSQL's primary keys are also NOT
    // NULL where SQLite's INTEGER PRIMARY KEY says nothing).
    for ((t, c, sqlite_null), (_, _, pg_null)) in sqlite.iter().zip(&postgres) {
        assert!(
            *sqlite_null || !pg_null,
            "{t}.{c} may be NULL on PostgreSQL only"
        );
    }
    // Opening again applies nothing and changes nothing.
    let again = columns(&pg.store);
    assert_eq!(postgres, again);
}

/// Every store function the unit tests do not reach, once on each backend: the same calls give
/// the same answers on SQLite and on PostgreSQL.
#[test]
fn every_store_function_answers_the_same_on_each_backend() {
    for TestStore { store, name, .. } in testdb::backends() {
        exercise(&store, name);
    }
}

#[allow(clippy::too_many_lines)] // One walk through the whole interface, in order.
fn exercise(store: &Store, backend: &str) {
    use referee::store::{advancement, guilds, requests, rolls};
    let guild = GuildId(77);
    let gm = test_gm(guild);
    let ada = make_character(store, guild, "Ada");
    let bo = make_character(store, guild, "Bo");
    store
        .write(|tx| {
            // Guild settings: defaults, then a round trip with big snowflakes.
            assert_eq!(guilds::get(tx, guild)?, guilds::GuildSettings::default());
            let mut settings = guilds::GuildSettings {
                gm_role_id: Some(1_234_567_890_123_456_789),
                gm_channel_id: Some(42),
                default_system: System::Tft,
                ..Default::default()
            };
            settings.rules.insert("reaction".into(), true);
            guilds::put(tx, guild, &settings)?;
            assert_eq!(guilds::get(tx, guild)?, settings, "{backend}");
            // Sheets, skills, gear, wounds, TFT damage.
            characters::set_sheet(tx, guild, ada, "{\"st\":12}")?;
            characters::touch(tx, guild, ada)?;
            characters::set_skill(tx, guild, ada, "Speed", 3)?;
            characters::set_skill(tx, guild, ada, "speed ", 4)?;
            characters::set_skill(tx, guild, ada, "Climb", 2)?;
            characters::set_skill(tx, guild, ada, "Climb", 0)?;
            let skills = characters::skills(tx, guild, ada)?;
            assert_eq!(skills.len(), 1, "{backend}");
            assert_eq!(skills[0].rating, 4, "{backend}");
            let sword = characters::add_item(tx, guild, ada, "weapon", "Sword", "{}")?;
            let shield = characters::add_item(tx, guild, ada, "shield", "Shield", "{}")?;
            assert_eq!((sword, shield), (1, 2), "{backend}");
            assert!(characters::set_item_stats(
                tx,
                guild,
                ada,
                shield,
                "{\"db\":1}"
            )?);
            assert!(characters::remove_item(tx, guild, ada, "SWORD")?);
            assert!(!characters::remove_item(tx, guild, ada, "sword")?);
            let items = characters::items(tx, guild, ada)?;
            assert_eq!(items.len(), 1, "{backend}");
            assert_eq!(items[0].stats_json, "{\"db\":1}", "{backend}");
            characters::set_tft_damage(tx, guild, ada, 3, 1)?;
            assert_eq!(characters::tft_damage(tx, guild, ada)?, (3, 1), "{backend}");
            assert_eq!(characters::tft_damage(tx, guild, bo)?, (0, 0), "{backend}");
            // Hidden values, notes, luck and its ledger.
            secrets::set_hidden(tx, gm, ada, "sleepless", "yes")?;
            secrets::set_hidden(tx, gm, ada, "sleepless", "no")?;
            assert_eq!(
                secrets::hidden(tx, gm, ada, "sleepless")?.as_deref(),
                Some("no")
            );
            assert_eq!(secrets::all_hidden(tx, gm, ada)?.len(), 1, "{backend}");
            secrets::add_note(tx, gm, ada, UserId(1), "first")?;
            secrets::add_note(tx, gm, ada, UserId(1), "second")?;
            assert_eq!(
                secrets::notes(tx, gm, ada)?,
                ["first", "second"],
                "{backend}"
            );
            secrets::set_luck(tx, guild, ada, 2, &entry(LuckKind::Rolled, None))?;
            assert_eq!(
                secrets::award_luck(tx, guild, ada, 3, &entry(LuckKind::Awarded, None))?,
                5
            );
            let ledger = secrets::ledger(tx, gm, ada)?;
            assert_eq!(
                ledger.iter().map(|r| r.delta).collect::<Vec<_>>(),
                [2, 3],
                "{backend}"
            );
            // Advancement.
            assert_eq!(
                advancement::get(tx, guild, ada)?,
                advancement::Advancement::default()
            );
            let a = advancement::Advancement {
                skill_points: 7,
                craft_json: Some("{}".into()),
            };
            advancement::put(tx, guild, ada, &a)?;
            assert_eq!(advancement::get(tx, guild, ada)?, a, "{backend}");
            Ok::<_, StoreError>(())
        })
        .unwrap();
    // The roll log: public and secret rolls, reveal, luck use, recent.
    store
        .write(|tx| {
            let roll = |mode, character, command| rolls::NewRoll {
                user: UserId(10),
                character,
                command,
                mode,
                label: "Speed",
                result_json: "{\"total\":55}",
                commitment: (mode == rolls::Mode::Secret).then_some("c0ffee"),
                nonce: (mode == rolls::Mode::Secret).then_some("n1"),
                parent: None,
            };
            let public = rolls::insert(tx, guild, &roll(rolls::Mode::Public, Some(ada), "check"))?;
            let secret = rolls::insert(tx, guild, &roll(rolls::Mode::Secret, None, "gm roll"))?;
            assert_eq!((public.0, secret.0), (1, 2), "{backend}");
            let row = rolls::get(tx, guild, public)?.expect("logged");
            assert_eq!(row.public_json.as_deref(), Some("{\"total\":55}"));
            assert_eq!(
                rolls::get(tx, guild, secret)?.expect("logged").public_json,
                None
            );
            let hidden = rolls::secret(tx, gm, secret)?.expect("hidden");
            assert_eq!(hidden.nonce.as_deref(), Some("n1"), "{backend}");
            assert!(rolls::reveal(tx, gm, secret)?);
            assert!(!rolls::reveal(tx, gm, secret)?);
            assert!(
                rolls::get(tx, guild, secret)?
                    .expect("logged")
                    .public_json
                    .is_some()
            );
            assert!(rolls::use_luck(tx, guild, public, "reroll")?);
            assert!(!rolls::use_luck(tx, guild, public, "reroll")?);
            let latest = rolls::latest_for_character(tx, guild, ada, &["check"])?;
            assert_eq!(latest.map(|r| r.id), Some(public), "{backend}");
            assert_eq!(
                rolls::recent(tx, guild, None, None, 10)?.len(),
                2,
                "{backend}"
            );
            assert_eq!(
                rolls::recent(tx, guild, Some(UserId(10)), Some(ada), 10)?.len(),
                1,
                "{backend}"
            );
            assert!(rolls::recent(tx, guild, Some(UserId(11)), None, 10)?.is_empty());
            Ok::<_, StoreError>(())
        })
        .unwrap();
    // Roll requests: a press claims once, a release lets it press again, a closed request none.
    store
        .write(|tx| {
            let id = requests::create(
                tx,
                guild,
                &requests::NewRequest {
                    gm: UserId(1),
                    command: "check",
                    options_json: "[]",
                    what: "Speed",
                    mode: "public",
                    characters: &[bo, ada],
                },
            )?;
            let row = requests::get(tx, guild, id)?.expect("stored");
            assert!(!row.closed, "{backend}");
            let names: Vec<String> = requests::entries(tx, guild, id)?
                .into_iter()
                .map(|e| e.name)
                .collect();
            assert_eq!(names, ["Bo", "Ada"], "{backend}");
            assert!(requests::claim(tx, guild, id, ada, UserId(10))?);
            assert!(!requests::claim(tx, guild, id, ada, UserId(10))?);
            requests::release(tx, guild, id, ada, UserId(10))?;
            assert!(requests::claim(tx, guild, id, ada, UserId(10))?);
            assert!(requests::close(tx, guild, id)?);
            assert!(!requests::close(tx, guild, id)?);
            assert!(
                requests::get(tx, guild, id)?.expect("stored").closed,
                "{backend}"
            );
            assert!(!requests::claim(tx, guild, id, bo, UserId(10))?);
            Ok::<_, StoreError>(())
        })
        .unwrap();
    // Deleting a character takes what hangs off it (foreign keys cascade on both).
    store
        .write(|tx| {
            assert!(characters::delete(tx, guild, ada)?);
            assert!(characters::skills(tx, guild, ada)?.is_empty(), "{backend}");
            assert_eq!(secrets::luck(tx, gm, ada)?, None, "{backend}");
            Ok::<_, StoreError>(())
        })
        .unwrap();
}

/// What a character is, as an export would show it: sheet, skills, gear, wounds, hidden values,
/// notes, luck and its ledger.
fn export(store: &Store, guild: GuildId) -> Vec<String> {
    let gm = test_gm(guild);
    store
        .read(|c| {
            let mut out = Vec::new();
            for ch in characters::all(c, guild)? {
                let id = ch.id;
                out.push(format!(
                    "{ch:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
                    characters::skills(c, guild, id)?,
                    characters::items(c, guild, id)?,
                    characters::wounds(c, guild, id)?,
                    characters::tft_damage(c, guild, id)?,
                    secrets::all_hidden(c, gm, id)?,
                    secrets::notes(c, gm, id)?,
                    secrets::luck(c, gm, id)?,
                    secrets::ledger(c, gm, id)?,
                ));
            }
            Ok(out)
        })
        .unwrap()
}

/// `referee migrate --to`: a populated SQLite database → PostgreSQL, every character's export
/// equal, every table's count equal; a second copy into the now non-empty target is refused.
#[test]
fn migration_to_postgres_round_trips_and_refuses_a_non_empty_target() {
    let Some(pg) = testdb::postgres() else {
        return;
    };
    let sqlite = testdb::sqlite();
    exercise(&sqlite.store, "sqlite");
    let guild = GuildId(77);
    sqlite
        .store
        .write(|tx| {
            let id = characters::by_name(tx, guild, "Bo")?.expect("Bo").id;
            secrets::set_luck(tx, guild, id, 4, &entry(LuckKind::Set, Some("k1")))?;
            characters::set_wounds(
                tx,
                guild,
                id,
                &[characters::WoundRow {
                    location: "chest".into(),
                    level: "red".into(),
                    count: 2,
                }],
            )?;
            referee::store::outbox::hold(
                tx,
                &referee::store::outbox::NewItem {
                    guild,
                    channel: 5,
                    interaction: "i1",
                    roll: None,
                    body: "copy",
                },
            )
        })
        .unwrap();
    let counts = referee::store::copy::sqlite_to_postgres(&sqlite.store, &pg.store).unwrap();
    assert!(counts.iter().any(|(t, n)| *t == "characters" && *n == 1));
    assert!(counts.iter().any(|(t, n)| *t == "rolls" && *n == 2));
    assert!(!export(&sqlite.store, guild).is_empty());
    assert_eq!(export(&sqlite.store, guild), export(&pg.store, guild));
    // The outbox's ids go on after the copied ones.
    let next = pg
        .store
        .write(|tx| {
            referee::store::outbox::hold(
                tx,
                &referee::store::outbox::NewItem {
                    guild,
                    channel: 5,
                    interaction: "i2",
                    roll: None,
                    body: "after",
                },
            )
        })
        .unwrap();
    assert_eq!(next, 2);
    let again = referee::store::copy::sqlite_to_postgres(&sqlite.store, &pg.store);
    let err = again.expect_err("the target is not empty");
    assert!(err.to_string().contains("not empty"), "{err}");
}

/// `referee backup` on PostgreSQL refuses, naming pg_dump; `referee migrate --db URL` migrates.
#[test]
fn the_cli_takes_a_postgres_url_wherever_it_takes_a_database() {
    let Some(pg) = testdb::PgTestDb::create() else {
        return;
    };
    let bin = env!("CARGO_BIN_EXE_referee");
    let dir = testdb::TempDir::new();
    let run = |args: &[&str]| {
        // In an empty folder: no config.toml is read.
        std::process::Command::new(bin)
            .args(args)
            .current_dir(dir.path())
            .env_remove("REFEREE_DATABASE_URL")
            .env_remove("REFEREE_DB")
            .output()
            .expect("run referee")
    };
    let migrated = run(&["migrate", "--db", pg.url()]);
    assert!(
        migrated.status.success(),
        "{}",
        String::from_utf8_lossy(&migrated.stderr)
    );
    let said = String::from_utf8_lossy(&migrated.stdout);
    assert!(said.contains("schema at version"), "{said}");
    let backup = run(&["backup", "--db", pg.url(), "x.dump"]);
    assert!(!backup.status.success());
    let said = String::from_utf8_lossy(&backup.stderr);
    assert!(said.contains("pg_dump"), "{said}");
    // The console reads commands on the PostgreSQL database too.
    let mut console = std::process::Command::new(bin)
        .args(["console", "--db", pg.url()])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start the console");
    {
        use std::io::Write as _;
        let mut stdin = console.stdin.take().expect("stdin");
        writeln!(stdin, "/roll dice:2d6").expect("type");
    }
    let out = console.wait_with_output().expect("console ends");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.stdout.is_empty());
}

/// Set in the children of [`luck_race_across_three_processes_on_postgres`]: the database URL,
/// the guild, the character and the child's number.
const RACE: &str = "REFEREE_LUCK_RACE";

/// One process of the cross-process race: 20 spends at once, each on its own thread with its
/// own idempotency key; prints how many were spent. Does nothing unless [`RACE`] is set.
#[test]
fn luck_race_child() {
    let Ok(spec) = std::env::var(RACE) else {
        return;
    };
    let parts: Vec<&str> = spec.split('|').collect();
    let [url, guild, id, child] = parts.as_slice() else {
        panic!("{RACE}={spec:?}");
    };
    let store = Arc::new(Store::open_url(url).expect("open the race's database"));
    let guild = GuildId(guild.parse().expect("guild"));
    let id = CharacterId(id.parse().expect("character"));
    let threads: Vec<_> = (0..20)
        .map(|i| {
            let store = Arc::clone(&store);
            let key = format!("race-{child}-{i}");
            thread::spawn(move || {
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
                    .expect("a spend")
            })
        })
        .collect();
    let spent = threads
        .into_iter()
        .map(|t| t.join().expect("spender"))
        .filter(|r| matches!(r, Spend::Spent { .. }))
        .count();
    println!("SPENT {spent}");
}

/// Three processes on one PostgreSQL database, 60 spends of one point against a total of 5:
/// exactly 5 succeed, the ledger shows 5 spends and the total ends at 0 (issue 19's race).
#[test]
fn luck_race_across_three_processes_on_postgres() {
    let Some(pg) = testdb::PgTestDb::create() else {
        return;
    };
    let store = pg.open();
    let guild = GuildId(19);
    let id = make_character(&store, guild, "Racer");
    store
        .write(|tx| secrets::set_luck(tx, guild, id, 5, &entry(LuckKind::Set, None)))
        .unwrap();
    let exe = std::env::current_exe().expect("the test binary");
    let children: Vec<_> = (0..3)
        .map(|child| {
            std::process::Command::new(&exe)
                .args(["store::luck_race_child", "--exact", "--nocapture"])
                .env(RACE, format!("{}|{}|{}|{child}", pg.url(), guild.0, id.0))
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("start a racer")
        })
        .collect();
    let mut spent = Vec::new();
    for child in children {
        let out = child.wait_with_output().expect("a racer ends");
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{said}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let n: usize = said
            .lines()
            .find_map(|l| l.trim().strip_prefix("SPENT "))
            .unwrap_or_else(|| panic!("a racer said no count: {said}"))
            .parse()
            .expect("a count");
        spent.push(n);
    }
    eprintln!("luck race across 3 processes: spends per process {spent:?}");
    assert_eq!(spent.iter().sum::<usize>(), 5, "per process: {spent:?}");
    let gm = test_gm(guild);
    let (left, spends) = store
        .read(|c| {
            let ledger = secrets::ledger(c, gm, id)?;
            Ok((
                secrets::luck(c, gm, id)?,
                ledger.iter().filter(|r| r.delta < 0).count(),
            ))
        })
        .unwrap();
    assert_eq!((left, spends), (Some(0), 5));
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

/// The roll log's indexes (`migrations/07-roll-indexes`): a character's recent rolls read the
/// partial index, the history reads the primary key, and a roll without a character writes no
/// index entry beyond the primary key's.
#[test]
fn the_roll_queries_use_the_indexes_that_rolls_pay_for() {
    let (_dir, store) = temp_store();
    let plans = store
        .read(|c| {
            let c = c.as_sqlite().expect("SQLite");
            let plan = |sql: &str| -> rusqlite::Result<String> {
                let mut stmt = c.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))?;
                let rows = stmt
                    .query_map([], |r| r.get::<_, String>(3))?
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(rows.join("; "))
            };
            let indexes: Vec<String> = c
                .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'rolls' ORDER BY name")?
                .query_map([], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            Ok((
                plan("SELECT id FROM rolls WHERE guild_id = 1 AND character_id = 2 ORDER BY id DESC LIMIT 50")?,
                plan("SELECT id FROM rolls WHERE guild_id = 1 AND (CAST(3 AS BIGINT) IS NULL OR user_id = 3) ORDER BY id DESC LIMIT 10")?,
                indexes,
            ))
        })
        .unwrap();
    assert!(plans.0.contains("rolls_by_character"), "{}", plans.0);
    assert!(plans.1.contains("sqlite_autoindex_rolls_1"), "{}", plans.1);
    assert_eq!(
        plans.2,
        vec![
            "rolls_by_character".to_owned(),
            "sqlite_autoindex_rolls_1".to_owned()
        ]
    );
}

/// A new database gets `store::PAGE_SIZE` pages (fewer bytes written per roll); a database
/// made with SQLite's default keeps its pages and is migrated as usual.
#[test]
fn new_databases_get_small_pages_and_old_ones_keep_theirs() {
    let page_size = |store: &Store| -> i64 {
        store
            .read(|c| {
                let c = c.as_sqlite().expect("SQLite");
                Ok(c.query_row("PRAGMA page_size", [], |r| r.get(0))?)
            })
            .unwrap()
    };
    let (_dir, new) = temp_store();
    assert_eq!(page_size(&new), referee::store::PAGE_SIZE);
    assert_ne!(referee::store::PAGE_SIZE, 4096);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite3");
    {
        let old = rusqlite::Connection::open(&path).unwrap();
        old.execute_batch("CREATE TABLE before_us (x INTEGER)")
            .unwrap();
        let size: i64 = old.query_row("PRAGMA page_size", [], |r| r.get(0)).unwrap();
        assert_eq!(size, 4096, "SQLite's default");
    }
    let old = Store::open(&path).unwrap();
    assert_eq!(page_size(&old), 4096);
    assert_eq!(schema(&old).0, Store::latest_version() as i64);
    make_character(&old, GuildId(1), "Kept");
}

/// The opcodes SQLite would run for a statement (`EXPLAIN`).
fn opcodes(c: &rusqlite::Connection, sql: &str) -> Vec<String> {
    let mut stmt = c.prepare(&format!("EXPLAIN {sql}")).unwrap();
    stmt.query_map([], |r| r.get::<_, String>(1))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

// Migration 08 (issue 18, item 6): a CHECK `x IN (a, b, c, …)` made SQLite build a temporary
// b-tree at every write that checked it; the same constraints as chains of `=` do not, and
// accept and refuse exactly what they did.
#[test]
fn checks_build_no_temporary_table_and_refuse_what_they_did() {
    let (_dir, store) = temp_store();
    let guild = GuildId(8);
    let character = make_character(&store, guild, "Vexa");
    store
        .write(|tx| {
            let c = tx.as_sqlite().expect("SQLite");
            // Logging a roll, writing a wound and a condition open no temporary table.
            for sql in [
                "INSERT INTO rolls (guild_id, id, user_id, command, mode, created_at) VALUES (8, 1, 10, 'roll', 'public', 0)",
                "INSERT INTO wounds (guild_id, character_id, location, level, count) VALUES (8, 1, 'arm', 'green', 1)",
                "INSERT INTO thiz_condition (guild_id, character_id, condition) VALUES (8, 1, 'dying')",
            ] {
                let ops = opcodes(c, sql);
                assert!(ops.iter().any(|op| op == "Insert"), "{sql}: {ops:?}");
                assert!(
                    !ops.iter().any(|op| op == "OpenEphemeral"),
                    "{sql} builds a temporary table: {ops:?}"
                );
            }
            // Every allowed value is taken; values beside them are refused. ?1 keeps the rows
            // apart, ?2 is the value checked.
            let cases: [(&str, &[&str], &[&str]); 3] = [
                (
                    "INSERT INTO rolls (guild_id, id, user_id, command, mode, created_at) VALUES (8, ?1, 10, 'roll', ?2, 0)",
                    &["public", "private", "blind", "self", "secret"],
                    &["", "Public", "secret ", "gm", "selfish"],
                ),
                (
                    "INSERT INTO wounds (guild_id, character_id, location, level, count) VALUES (8, 1, 'at' || ?1, ?2, 1)",
                    &["green", "yellow", "red", "black"],
                    &["", "Green", "white", "redd"],
                ),
                (
                    "INSERT OR REPLACE INTO thiz_condition (guild_id, character_id, day, condition) VALUES (8, 1, ?1, ?2)",
                    &["dying", "stable", "unconscious", "dead"],
                    &["", "Dead", "asleep", "dying!"],
                ),
            ];
            let mut n = 100_i64;
            for (sql, allowed, refused) in cases {
                for value in allowed {
                    n += 1;
                    let written = c.execute(sql, rusqlite::params![n, value]);
                    assert_eq!(written.ok(), Some(1), "{value} refused by: {sql}");
                }
                for value in refused {
                    n += 1;
                    let err = c
                        .execute(sql, rusqlite::params![n, value])
                        .expect_err(value)
                        .to_string();
                    assert!(err.contains("CHECK constraint failed"), "{value}: {err}");
                }
            }
            // NULL stays allowed where it was (no condition recorded).
            c.execute(
                "INSERT OR REPLACE INTO thiz_condition (guild_id, character_id, condition) VALUES (8, 1, NULL)",
                [],
            )?;
            Ok::<(), StoreError>(())
        })
        .unwrap();
    assert_eq!(character, CharacterId(1));
}

// Migration 08 on a database written before it: every row stays, the file is sound, and the
// rewritten constraints are in force at once on the connection that migrated.
#[test]
fn a_database_from_before_migration_8_keeps_its_rows() {
    static DIR: include_dir::Dir<'static> =
        include_dir::include_dir!("$CARGO_MANIFEST_DIR/migrations");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite3");
    {
        let mut c = rusqlite::Connection::open(&path).unwrap();
        let migrations = rusqlite_migration::Migrations::from_directory(&DIR).unwrap();
        migrations.to_version(&mut c, 7).unwrap();
        c.execute_batch(
            "INSERT INTO guilds (guild_id, created_at) VALUES (8, 0);
             INSERT INTO characters (guild_id, id, name, name_key, system, owner_id, created_at, updated_at, last_used_at)
                 VALUES (8, 1, 'Vexa', 'vexa', 'thiz', 10, 0, 0, 0);
             INSERT INTO wounds (guild_id, character_id, location, level, count) VALUES (8, 1, 'arm', 'red', 2);
             INSERT INTO thiz_condition (guild_id, character_id, condition) VALUES (8, 1, 'stable');
             INSERT INTO rolls (guild_id, id, user_id, command, mode, created_at) VALUES (8, 1, 10, 'roll', 'secret', 0);
             INSERT INTO rolls (guild_id, id, user_id, command, mode, created_at) VALUES (8, 2, 10, 'roll', 'public', 0);
             INSERT INTO secret_rolls (guild_id, roll_id, result_json) VALUES (8, 1, '{\"total\":77}');",
        )
        .unwrap();
    }
    let store = Store::open(&path).unwrap();
    let (version, counts, integrity, orphans, refused) = store
        .write(|tx| {
            let c = tx.as_sqlite().expect("SQLite");
            let version: i64 = c.query_row("PRAGMA user_version", [], |r| r.get(0))?;
            let counts: (i64, i64, i64, i64, String) = c.query_row(
                "SELECT (SELECT count(*) FROM rolls), (SELECT count(*) FROM secret_rolls),
                        (SELECT count(*) FROM wounds), (SELECT count(*) FROM thiz_condition),
                        (SELECT result_json FROM secret_rolls WHERE roll_id = 1)",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )?;
            let integrity: String = c.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
            let orphans: i64 =
                c.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
                    r.get(0)
                })?;
            let refused = c
                .execute(
                    "INSERT INTO rolls (guild_id, id, user_id, command, mode, created_at) VALUES (8, 3, 10, 'roll', 'loud', 0)",
                    [],
                )
                .is_err();
            let ops = opcodes(
                c,
                "INSERT INTO rolls (guild_id, id, user_id, command, mode, created_at) VALUES (8, 3, 10, 'roll', 'public', 0)",
            );
            assert!(!ops.iter().any(|op| op == "OpenEphemeral"), "{ops:?}");
            Ok::<_, StoreError>((version, counts, integrity, orphans, refused))
        })
        .unwrap();
    assert_eq!(version, Store::latest_version() as i64);
    assert_eq!(counts, (2, 1, 1, 1, "{\"total\":77}".to_owned()));
    assert_eq!(integrity, "ok");
    assert_eq!(orphans, 0);
    assert!(refused, "a bad mode was taken after the migration");
}

/// Issue 57, on both backends: a per-guild id is never handed out again once its row is gone
/// (a button naming a deleted NPC copy must not act on the next character made), each guild
/// counts its own, and a new encounter's versions start above every version an earlier one in
/// the guild reached, in any channel, deleted or not.
#[test]
fn ids_and_encounter_versions_only_rise() {
    for TestStore { store, name, .. } in testdb::backends() {
        let (g, other) = (GuildId(57), GuildId(58));
        let first = make_character(&store, g, "Orc 1");
        let second = make_character(&store, g, "Orc 2");
        store
            .write(|tx| {
                characters::delete(tx, g, second)?;
                characters::delete(tx, g, first)
            })
            .unwrap();
        let third = make_character(&store, g, "Orc 1");
        assert!(third > second, "{name}: {third:?} after {second:?}");
        assert_eq!(
            make_character(&store, other, "Orc 1"),
            CharacterId(1),
            "{name}: another guild counts its own"
        );
        let version = |ch: u64| {
            store
                .read(|c| referee::store::encounters::get(c, g, ch))
                .unwrap()
                .map(|r| r.version)
        };
        let create = |ch: u64| {
            store
                .write(|tx| {
                    referee::store::encounters::create(tx, g, ch, System::Thiz, "{}", UserId(1))
                })
                .unwrap()
        };
        assert!(create(1));
        let v1 = version(1).unwrap();
        let v2 = store
            .write(|tx| referee::store::encounters::save(tx, g, 1, v1, "{}"))
            .unwrap()
            .unwrap();
        assert!(
            store
                .write(|tx| referee::store::encounters::end(tx, g, 1, v2))
                .unwrap()
        );
        store
            .write(|tx| referee::store::encounters::forget_ended(tx, g, 1))
            .unwrap();
        assert!(create(1), "{name}");
        let again = version(1).unwrap();
        assert!(
            again > v2 + 1,
            "{name}: {again} after the ended one's {}",
            v2 + 1
        );
        assert!(create(2));
        assert!(version(2).unwrap() > again, "{name}: another channel's too");
    }
}

/// Issue 61: with no PostgreSQL server, a test that would have run on it says so on the
/// terminal, past the harness's capture (which shows `eprintln!` only for a failing test), with
/// how many were skipped. Runs this very binary again, for one test, against a closed port.
#[test]
fn a_postgresql_test_that_did_not_run_says_so_on_the_terminal() {
    let exe = std::env::current_exe().expect("this test binary");
    let out = std::process::Command::new(exe)
        .args([
            "store::names_are_unique_per_guild_ignoring_case_and_guilds_are_isolated",
            "--exact",
            "--test-threads=1",
        ])
        .env(
            "REFEREE_TEST_DATABASE_URL",
            "postgres://postgres@127.0.0.1:1/postgres",
        )
        .env_remove("CI")
        .output()
        .expect("run the test binary");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("1 passed"), "{stdout}");
    assert!(
        stderr.contains("POSTGRESQL TESTS DID NOT RUN: 1 so far in this test binary"),
        "the skip reaches the terminal: {stderr}"
    );
    // Under CI=true the same run fails instead.
    let exe = std::env::current_exe().expect("this test binary");
    let ci = std::process::Command::new(exe)
        .args([
            "store::names_are_unique_per_guild_ignoring_case_and_guilds_are_isolated",
            "--exact",
        ])
        .env(
            "REFEREE_TEST_DATABASE_URL",
            "postgres://postgres@127.0.0.1:1/postgres",
        )
        .env("CI", "true")
        .output()
        .expect("run the test binary");
    assert!(!ci.status.success(), "CI=true and no server must fail");
}
