//! The roll journal against a real SQLite file: ids, folds, reads, other processes (a second
//! store on the same file stands for one), a process that died, and a fold that fails.

use std::path::Path;

use super::*;
use crate::store::rolls::{self, Mode, NewRoll};
use crate::store::{Job, RollId, Store, with_job};

const GUILD: GuildId = GuildId(7);
const USER: UserId = UserId(70);

fn roll(mode: Mode) -> NewRoll<'static> {
    NewRoll {
        user: USER,
        character: None,
        command: "roll",
        mode,
        label: "",
        result_json: "{\"total\":4}",
        commitment: None,
        nonce: None,
        parent: None,
    }
}

/// A row as a journal of another process (made in the test) appends it.
fn entry(label: &'static str) -> NewEntry<'static> {
    NewEntry {
        guild: GUILD,
        user: USER,
        command: "roll",
        mode: "public",
        label,
        public_json: "{}",
        created_at: 1,
    }
}

fn journal_job() -> Job {
    Job {
        read_only: true,
        journal: true,
        ..Job::default()
    }
}

/// A roll as a journal job logs it: its id, or `None` when it must be written instead. Where
/// the journal holds no id of the guild (its first roll; past its lease), the folding thread's
/// step leases the next block, as the bot's thread would, and the roll is tried again.
fn journaled(store: &Store, mode: Mode) -> Option<RollId> {
    let once =
        || with_job(journal_job(), || store.journal_roll(GUILD, &roll(mode))).expect("journal");
    once().or_else(|| {
        store.fold_journal(Duration::ZERO);
        once()
    })
}

/// A roll written the usual way, in a write of its own.
fn written(store: &Store, mode: Mode) -> RollId {
    store
        .write(|c| rolls::insert(c, GUILD, &roll(mode)))
        .expect("write")
}

/// The guild's roll ids in the file, read by a connection of no store (another process's view).
fn ids_in_file(path: &Path) -> Vec<i64> {
    let c = rusqlite::Connection::open(path).expect("open");
    let mut s = c
        .prepare("SELECT id FROM rolls WHERE guild_id = ?1 ORDER BY id")
        .expect("prepare");
    s.query_map([7_i64], |r| r.get(0))
        .expect("query")
        .map(|r| r.expect("row"))
        .collect()
}

fn leases_in_file(path: &Path) -> i64 {
    let c = rusqlite::Connection::open(path).expect("open");
    c.query_row("SELECT COUNT(*) FROM roll_id_leases", [], |r| r.get(0))
        .expect("count")
}

fn journal_files(path: &Path) -> usize {
    std::fs::read_dir(dir_of(path)).map_or(0, |d| {
        d.filter_map(std::result::Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "log"))
            .count()
    })
}

fn journaling_store(path: &Path) -> Store {
    let store = Store::open(path).expect("open");
    assert!(
        store.start_journal(None).expect("start"),
        "the journal runs by default"
    );
    store
}

#[test]
fn the_setting_turns_the_journal_off_only_when_it_says_so() {
    for (setting, on) in [
        (None, true),
        (Some("on"), true),
        (Some("1"), true),
        (Some("off"), false),
        (Some(" OFF "), false),
        (Some("0"), false),
        (Some("false"), false),
        (Some("no"), false),
    ] {
        assert_eq!(enabled(setting), on, "{setting:?}");
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::open(&dir.path().join("t.sqlite3")).expect("open");
    assert!(!store.start_journal(Some("off")).expect("start"));
    assert!(!store.journaling());
    assert_eq!(
        journaled(&store, Mode::Public),
        None,
        "no journal: written instead"
    );
}

#[test]
fn a_journaled_roll_has_its_id_at_once_and_a_read_sees_it_folded() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.sqlite3");
    let store = journaling_store(&path);
    assert_eq!(journaled(&store, Mode::Public), Some(RollId(1)));
    assert_eq!(journaled(&store, Mode::SelfOnly), Some(RollId(2)));
    // Nothing has written the rows yet: another process sees none.
    assert_eq!(ids_in_file(&path), Vec::<i64>::new());
    // A read of the roll log in this process folds them first.
    store.settle_journal();
    let seen = store
        .read(|c| rolls::recent(c, GUILD, None, None, 10))
        .expect("read");
    let ids: Vec<i64> = seen.iter().map(|r| r.id.0).collect();
    assert_eq!(ids, vec![2, 1]);
    assert_eq!(seen[0].mode, Mode::SelfOnly);
    assert_eq!(seen[1].public_json.as_deref(), Some("{\"total\":4}"));
    assert_eq!(ids_in_file(&path), vec![1, 2]);
}

#[test]
fn only_log_only_rolls_in_a_journal_job_go_to_the_journal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = journaling_store(&dir.path().join("t.sqlite3"));
    // Hidden results and copies need their tables: written.
    assert_eq!(journaled(&store, Mode::Private), None);
    assert_eq!(journaled(&store, Mode::Blind), None);
    // A job that is not a journal job writes.
    let plain = store
        .journal_roll(GUILD, &roll(Mode::Public))
        .expect("journal");
    assert_eq!(plain, None);
    let with_character = NewRoll {
        character: Some(crate::store::CharacterId(1)),
        ..roll(Mode::Public)
    };
    let got = with_job(journal_job(), || store.journal_roll(GUILD, &with_character));
    assert_eq!(got.expect("journal"), None);
}

#[test]
fn this_process_numbers_rise_with_time_across_journaled_and_written_rolls() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.sqlite3");
    let store = journaling_store(&path);
    assert_eq!(journaled(&store, Mode::Public), Some(RollId(1)));
    assert_eq!(written(&store, Mode::Private), RollId(2));
    assert_eq!(journaled(&store, Mode::Public), Some(RollId(3)));
    // Past a lease: the next block follows on.
    let mut last = 3;
    for _ in 0..LEASE {
        last += 1;
        assert_eq!(journaled(&store, Mode::Public), Some(RollId(last)));
    }
    assert_eq!(written(&store, Mode::Blind), RollId(last + 1));
    store.close_journal();
    let ids = ids_in_file(&path);
    assert_eq!(ids, (1..=last + 1).collect::<Vec<_>>());
}

#[test]
fn another_process_never_takes_an_id_this_one_leased() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.sqlite3");
    let bot = journaling_store(&path);
    let console = Store::open(&path).expect("open a second store");
    assert_eq!(journaled(&bot, Mode::Public), Some(RollId(1)));
    // Above the bot's lease (ids 1 to LEASE), not 2.
    assert_eq!(written(&console, Mode::Public), RollId(LEASE + 1));
    assert_eq!(journaled(&bot, Mode::Public), Some(RollId(2)));
    bot.close_journal();
    assert_eq!(ids_in_file(&path), vec![1, 2, LEASE + 1]);
    assert_eq!(
        leases_in_file(&path),
        0,
        "the bot's lease goes with its journal"
    );
    // Past every lease and roll.
    assert_eq!(written(&console, Mode::Public), RollId(LEASE + 2));
}

#[test]
fn a_second_store_on_the_file_leaves_a_live_journal_alone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.sqlite3");
    let bot = journaling_store(&path);
    assert_eq!(journaled(&bot, Mode::Public), Some(RollId(1)));
    // Opening the file again replays only journals no process holds.
    let other = Store::open(&path).expect("open");
    assert_eq!(ids_in_file(&path), Vec::<i64>::new());
    assert_eq!(leases_in_file(&path), 1);
    drop(other);
    assert_eq!(journaled(&bot, Mode::Public), Some(RollId(2)));
    bot.close_journal();
    assert_eq!(ids_in_file(&path), vec![1, 2]);
}

#[test]
fn closing_folds_every_row_drops_the_leases_and_removes_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.sqlite3");
    let store = journaling_store(&path);
    for id in 1..=3 {
        assert_eq!(journaled(&store, Mode::Public), Some(RollId(id)));
    }
    assert_eq!(journal_files(&path), 1);
    store.close_journal();
    assert_eq!(ids_in_file(&path), vec![1, 2, 3]);
    assert_eq!(leases_in_file(&path), 0);
    assert_eq!(journal_files(&path), 0);
    assert!(!store.journaling());
    assert_eq!(
        journaled(&store, Mode::Public),
        None,
        "closed: written instead"
    );
    assert_eq!(
        written(&store, Mode::Public),
        RollId(4),
        "no gap after a clean close"
    );
}

#[test]
fn a_store_dropped_without_closing_folds_its_journal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.sqlite3");
    let store = journaling_store(&path);
    assert_eq!(journaled(&store, Mode::Public), Some(RollId(1)));
    drop(store);
    assert_eq!(ids_in_file(&path), vec![1]);
    assert_eq!(journal_files(&path), 0);
}

#[test]
fn the_journal_of_a_process_that_died_is_replayed_at_the_next_open() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.sqlite3");
    let store = Store::open(&path).expect("open");
    // A process that journaled three rolls and died before any fold: its journal, its lease.
    let dead = Journal::create(&path).expect("journal");
    let holder = dead.holder().to_owned();
    let (first, last) = store
        .write(|c| take_lease(c, GUILD, &holder))
        .expect("lease");
    dead.add_lease(GUILD, first, last);
    let entry = entry("dead");
    for id in 1..=3 {
        assert_eq!(dead.append(&entry).expect("append"), Some(id));
    }
    // It died while writing a fourth line: never answered, left out.
    {
        let file = dir_of(&path).join(format!("{holder}.0.log"));
        let mut f = OpenOptions::new().append(true).open(file).expect("open");
        f.write_all(b"{\"guild\":7,\"id\":4,\"us")
            .expect("torn line");
    }
    assert_eq!(leases_in_file(&path), 1);
    drop(dead); // its flock goes with the process
    drop(store);
    let next = Store::open(&path).expect("reopen");
    assert_eq!(ids_in_file(&path), vec![1, 2, 3]);
    assert_eq!(
        leases_in_file(&path),
        0,
        "the dead holder's lease is dropped"
    );
    assert_eq!(journal_files(&path), 0, "its file is removed");
    let labels = next
        .read(|c| rolls::recent(c, GUILD, None, None, 10))
        .expect("read");
    assert!(labels.iter().all(|r| r.label == "dead"));
    // The numbers go on from the last stored one.
    assert_eq!(written(&next, Mode::Public), RollId(4));
}

#[test]
fn a_replay_of_rows_already_folded_writes_none_twice() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.sqlite3");
    let store = Store::open(&path).expect("open");
    let dead = Journal::create(&path).expect("journal");
    let holder = dead.holder().to_owned();
    let entry = entry("");
    let (first, last) = store
        .write(|c| take_lease(c, GUILD, &holder))
        .expect("lease");
    dead.add_lease(GUILD, first, last);
    assert_eq!(dead.append(&entry).expect("append"), Some(1));
    // Folded, then the process died before its file was removed.
    let taken = dead.take().expect("a row is pending");
    store.write(|c| insert(c, &taken)).expect("fold");
    drop(taken);
    drop(dead);
    drop(store);
    let _next = Store::open(&path).expect("reopen");
    assert_eq!(ids_in_file(&path), vec![1]);
}

#[test]
fn a_fold_that_fails_keeps_its_rows_and_no_roll_is_journaled_until_one_succeeds() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.sqlite3");
    let store = journaling_store(&path);
    assert_eq!(journaled(&store, Mode::Public), Some(RollId(1)));
    // Something else takes row 1 (no referee code would): the fold cannot insert it.
    let other = rusqlite::Connection::open(&path).expect("open");
    other
        .execute(
            "INSERT INTO rolls (guild_id, id, user_id, command, mode, label, created_at)
             VALUES (7, 1, 1, 'x', 'public', 'squatter', 0)",
            [],
        )
        .expect("squat");
    store.settle_journal();
    assert!(!store.journaling(), "a failed fold stops the journal");
    assert_eq!(journaled(&store, Mode::Public), None, "written instead");
    // The way clears: the kept row is folded by the next write, and the journal takes rolls.
    other
        .execute("DELETE FROM rolls WHERE label = 'squatter'", [])
        .expect("clear");
    assert_eq!(written(&store, Mode::Private), RollId(2));
    assert!(store.journaling());
    assert_eq!(ids_in_file(&path), vec![1, 2]);
    let first = store
        .read(|c| rolls::get(c, GUILD, RollId(1)))
        .expect("read")
        .expect("row 1");
    assert_eq!(first.label, "", "the journaled roll, not the squatter");
}

#[test]
fn past_the_most_unfolded_rows_rolls_are_written_instead() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.sqlite3");
    let store = Store::open(&path).expect("open");
    let journal = Journal::create(&path).expect("journal");
    let holder = journal.holder().to_owned();
    let entry = entry("");
    // A lease as large as need be, so that only the bound stops it.
    let (first, _) = store
        .write(|c| take_lease(c, GUILD, &holder))
        .expect("lease");
    let last = first + 2 * i64::try_from(MAX_UNFOLDED).expect("small");
    journal.add_lease(GUILD, first, last);
    for _ in 0..MAX_UNFOLDED {
        assert!(journal.append(&entry).expect("append").is_some());
    }
    assert!(!journal.takes_rolls());
    assert_eq!(journal.append(&entry).expect("append"), None);
    // Folded: it takes rolls again.
    let taken = journal.take().expect("rows");
    store.write(|c| insert(c, &taken)).expect("fold");
    journal.committed(taken);
    assert!(journal.takes_rolls());
}

#[test]
fn the_fold_interval_setting_is_microseconds_up_to_a_second() {
    for (setting, every) in [
        (None, FOLD_EVERY),
        (Some("5000"), Duration::from_millis(5)),
        (Some(" 0 "), Duration::ZERO),
        (Some("1000000"), Duration::from_secs(1)),
        (Some("1000001"), FOLD_EVERY),
        (Some("-1"), FOLD_EVERY),
        (Some("soon"), FOLD_EVERY),
    ] {
        assert_eq!(fold_every(setting), every, "{setting:?}");
    }
}

#[test]
fn a_line_that_is_not_a_roll_is_skipped_and_the_rows_after_it_are_replayed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.sqlite3");
    drop(Store::open(&path).expect("create"));
    let row = |id| Entry {
        guild: GUILD,
        id,
        user: USER,
        command: "roll".to_owned(),
        mode: "public".to_owned(),
        label: String::new(),
        public_json: "{}".to_owned(),
        created_at: 1,
    };
    let mut text = serde_json::to_string(&row(1)).expect("json");
    text.push_str("\nnot a roll\n");
    text.push_str(&serde_json::to_string(&row(2)).expect("json"));
    text.push('\n');
    std::fs::create_dir_all(dir_of(&path)).expect("folder");
    std::fs::write(dir_of(&path).join("gone-1.0.log"), text).expect("a dead journal");
    let _next = Store::open(&path).expect("reopen");
    assert_eq!(ids_in_file(&path), vec![1, 2]);
    assert_eq!(journal_files(&path), 0);
}
