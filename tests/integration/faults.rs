//! The database under faults (issue 18): another process holding the write lock, a read-only
//! file, a full disk, a removed file. Each write gets a clear answer and changes nothing; reads
//! go on; the store recovers by itself once the fault clears, with no restart.
//!
//! Through `app` (as the bot's threads call it, [`App::run_job`]) on a real file; the bot's side
//! (its read and write lanes under a held lock) is `lock_held_through_the_bot` below. No test
//! depends on timing: a write's deadline only bounds how long it waits, and every "while the
//! lock is held" is ordered by the holder thread, which lets go only when told.
//!
//! The full disk is simulated with SQLite's `PRAGMA max_page_count` ([`Store::limit_pages`]):
//! portable and needs no root. A read-only file is `chmod 444`, or for root (whom permissions do
//! not stop) `chattr +i`; where neither takes, that test says so and returns.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use referee::app::invocation::Invocation;
use referee::app::reply::Visibility;
use referee::app::{App, Caller, Dice, Ran, Reply};
use referee::rules::dice::expr::Limits;
use referee::store::{GuildId, Store, UserId};

use crate::e2e::Session;

fn caller() -> Caller {
    Caller {
        guild: GuildId(7),
        user: UserId(10),
        name: "Alys".to_owned(),
        roles: Vec::new(),
        manage_server: true,
    }
}

fn app_on(path: &Path) -> App {
    App::new(
        Arc::new(Store::open(path).expect("open the database")),
        Dice::seeded(5),
        Limits::default(),
    )
}

/// Runs `line` (path words, then `name:value` options) as a job of the bot would, with a deadline
/// `wait` from now.
// As `App::run`: the refusal is a reply too.
#[allow(clippy::result_large_err)]
fn run(app: &App, line: &str, wait: Duration) -> Result<Reply, Reply> {
    let mut path = Vec::new();
    let mut options = Vec::new();
    for word in line.split_whitespace() {
        match word.split_once(':') {
            Some((k, v)) => options.push((k, v)),
            None => path.push(word),
        }
    }
    let inv = Invocation::new(&path, &options);
    let read_only = referee::app::reads_only(&inv);
    match app.run_job(Instant::now() + wait, read_only, None, &caller(), "1", &inv) {
        Ran::Done(result) => result,
        Ran::NeedsWriter => {
            match app.run_job(Instant::now() + wait, false, None, &caller(), "1", &inv) {
                Ran::Done(result) => result,
                Ran::NeedsWriter => panic!("a writing job was stopped as read-only"),
            }
        }
    }
}

pub(crate) fn rolls(path: &Path) -> i64 {
    let c = rusqlite::Connection::open(path).expect("open");
    c.query_row("SELECT COUNT(*) FROM rolls", [], |r| r.get(0))
        .expect("count rolls")
}

/// A refusal, ephemeral, whose text contains `needle`.
fn refused_with(result: Result<Reply, Reply>, needle: &str) {
    let reply = match result {
        Err(r) => r,
        Ok(r) => panic!("expected a refusal with {needle:?}, got {:?}", r.content),
    };
    assert_eq!(reply.visibility, Visibility::Ephemeral, "{}", reply.content);
    assert!(
        reply.content.contains(needle),
        "{needle:?} not in {:?}",
        reply.content
    );
    assert!(
        !reply.content.contains("Something went wrong"),
        "{}",
        reply.content
    );
}

/// A thread holding the write lock on `path` through its own connection until released.
pub(crate) struct Holder {
    release: mpsc::Sender<()>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Holder {
    pub(crate) fn take(path: &Path) -> Self {
        let path = path.to_owned();
        let (held_tx, held_rx) = mpsc::channel();
        let (release, release_rx) = mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            let c = rusqlite::Connection::open(path).expect("open");
            c.execute_batch("BEGIN IMMEDIATE")
                .expect("take the write lock");
            held_tx.send(()).expect("test alive");
            let _ = release_rx.recv();
            c.execute_batch("ROLLBACK").expect("let go");
        });
        held_rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the lock was taken");
        Self {
            release,
            thread: Some(thread),
        }
    }

    pub(crate) fn release(mut self) {
        let _ = self.release.send(());
        if let Some(t) = self.thread.take() {
            t.join().expect("the holder");
        }
    }
}

impl Drop for Holder {
    fn drop(&mut self) {
        let _ = self.release.send(());
    }
}

#[test]
fn a_write_under_another_process_lock_is_busy_and_changes_nothing_while_reads_answer() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("db.sqlite3");
    let app = app_on(&path);
    run(&app, "roll expression:1d6", Duration::from_secs(5)).expect("a roll before");
    let before = rolls(&path);

    let holder = Holder::take(&path);
    // Reads answer while the lock is held (the holder lets go only below).
    let odds = run(&app, "odds thiz rating:4", Duration::from_millis(100)).expect("odds");
    assert!(!odds.embeds.is_empty() || !odds.content.is_empty());
    run(&app, "help", Duration::from_millis(100)).expect("help");
    // A write waits until its deadline at most, then is told to try again.
    refused_with(
        run(&app, "roll expression:1d6", Duration::from_millis(200)),
        "busy",
    );
    refused_with(
        run(
            &app,
            "character create name:Bryn system:thiz",
            Duration::ZERO,
        ),
        "busy",
    );
    holder.release();

    assert_eq!(rolls(&path), before, "a busy write changed nothing");
    run(&app, "roll expression:1d6", Duration::from_secs(5)).expect("a roll after");
    assert_eq!(rolls(&path), before + 1);
}

/// Makes `path` read-only in a way that holds for this user; `None` when nothing does here.
fn make_read_only(path: &Path) -> Option<ReadOnly> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    if std::fs::OpenOptions::new().write(true).open(path).is_err() {
        return Some(ReadOnly::Mode(path.to_owned()));
    }
    // Root writes whatever the mode says: try the immutable attribute.
    let immutable = std::process::Command::new("chattr")
        .arg("+i")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success());
    if immutable && std::fs::OpenOptions::new().write(true).open(path).is_err() {
        return Some(ReadOnly::Immutable(path.to_owned()));
    }
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    None
}

enum ReadOnly {
    Mode(PathBuf),
    Immutable(PathBuf),
}

impl ReadOnly {
    fn undo(&self) {
        use std::os::unix::fs::PermissionsExt;
        let path = match self {
            ReadOnly::Mode(p) => p,
            ReadOnly::Immutable(p) => {
                let _ = std::process::Command::new("chattr")
                    .arg("-i")
                    .arg(p)
                    .status();
                p
            }
        };
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        self.undo();
    }
}

#[test]
fn started_on_a_read_only_file_writes_say_what_to_do_and_work_once_it_is_writable() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("db.sqlite3");
    drop(app_on(&path));
    let Some(read_only) = make_read_only(&path) else {
        eprintln!("skipped: neither chmod nor chattr makes a file read-only for this user");
        return;
    };
    let app = app_on(&path);
    let shown = path.display().to_string();
    for line in [
        "roll expression:1d6",
        "character create name:Bryn system:thiz",
    ] {
        refused_with(run(&app, line, Duration::from_secs(2)), "read-only");
        refused_with(run(&app, line, Duration::from_secs(2)), &shown);
    }
    // Reads still answer.
    run(&app, "odds thiz rating:4", Duration::from_secs(2)).expect("odds");
    read_only.undo();
    drop(read_only);
    run(&app, "roll expression:1d6", Duration::from_secs(5)).expect("a roll once writable");
    assert_eq!(rolls(&path), 1, "the refused rolls were not logged");
    run(
        &app,
        "character create name:Bryn system:thiz",
        Duration::from_secs(5),
    )
    .expect("a character once writable");
}

#[test]
fn a_full_disk_says_what_to_do_changes_nothing_and_recovers() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("db.sqlite3");
    let app = app_on(&path);
    run(&app, "roll expression:1d6", Duration::from_secs(5)).expect("a roll before");
    // Cap the file at its current size: the next pages a write needs are not there.
    app.store().limit_pages(Some(1)).expect("cap");
    let mut refused = None;
    for n in 0..500 {
        // Enough rolls to need a new page, whatever room the last one had.
        let line = format!("roll expression:1d6 label:{n}{}", "x".repeat(90));
        if let Err(reply) = run(&app, &line, Duration::from_secs(2)) {
            refused_with(Err(reply), "disk holding the bot's database is full");
            refused = Some(line);
            break;
        }
    }
    let line = refused.expect("a write met the full disk");
    let before = rolls(&path);
    // Still full: the same write is refused again, the same way.
    refused_with(run(&app, &line, Duration::from_secs(2)), "full");
    assert_eq!(rolls(&path), before, "the refused writes changed nothing");
    app.store().limit_pages(None).expect("lift the cap");
    run(&app, &line, Duration::from_secs(5)).expect("the same roll, once there is room");
    assert_eq!(rolls(&path), before + 1);
    run(
        &app,
        "character create name:Bryn system:thiz",
        Duration::from_secs(5),
    )
    .expect("a character after");
}

#[test]
fn a_removed_file_says_what_to_do_and_is_reopened_once_put_back() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("db.sqlite3");
    let backup = dir.path().join("backup.sqlite3");
    let app = app_on(&path);
    run(&app, "roll expression:1d6", Duration::from_secs(5)).expect("a roll before");
    app.store().backup(&backup).expect("backup");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    for line in [
        "roll expression:1d6",
        "character create name:Bryn system:thiz",
    ] {
        refused_with(run(&app, line, Duration::from_secs(2)), "removed");
    }
    assert!(
        !path.exists(),
        "the bot did not re-create the file by itself"
    );
    std::fs::copy(&backup, &path).expect("put the file back");
    run(&app, "roll expression:1d6", Duration::from_secs(5)).expect("a roll once back");
    assert_eq!(rolls(&path), 2, "the restored file got the new roll");
    // Reads see the restored file too.
    run(&app, "character show name:Nobody", Duration::from_secs(5))
        .expect_err("no such character, read from the restored file");
}

/// The bot, with every writing thread taken, while another process holds the write lock: a read
/// sent after as many writes as there are writing threads is answered before any of them (they
/// wait for the lock), every write is answered "busy", and none was logged. (As many writes as
/// threads: a write queued behind them would start after `bot::workers::START_BY` and be turned
/// away by admission control instead, which `e2e::overload` tests.)
#[test]
fn lock_held_through_the_bot() {
    // `/roll` is the write here: not through the roll journal (see the next test).
    let s = Session::start_with(|o| {
        o.env.push(("REFEREE_APP_THREADS".into(), "6".into()));
        o.env.push(("REFEREE_ROLL_JOURNAL".into(), "off".into()));
    });
    let alice = s.player(10);
    s.run(&alice, "/roll expression:1d6");
    let db = s.options().db();
    let before = rolls(&db);
    let holder = Holder::take(&db);
    let writes: Vec<_> = (0..6)
        .map(|_| {
            let built = s.build(&alice, "/roll expression:1d6");
            let id = built.id;
            s.fake.dispatch(&built);
            id
        })
        .collect();
    let odds = s.run(&alice, "/odds thiz rating:4");
    assert!(!odds.ephemeral(), "odds answered: {}", odds.text());
    let odds_at = odds.callback.index;
    for id in writes {
        let cb = s.fake.callback_for(id);
        assert!(
            cb.index > odds_at,
            "a write was answered before the read sent after it"
        );
        let content = cb.body()["data"]["content"].as_str().unwrap_or_default();
        assert!(content.contains("busy"), "{content}");
        assert_eq!(
            cb.body()["data"]["flags"].as_u64().unwrap_or(0) & 64,
            64,
            "ephemeral"
        );
    }
    holder.release();
    assert_eq!(rolls(&db), before, "no busy write was logged");
    let after = s.run(&alice, "/roll expression:1d6");
    assert!(!after.text().contains("busy"), "{}", after.text());
    assert_eq!(rolls(&db), before + 1);
}

/// The same while another process holds the write lock, with the roll journal (the default):
/// a plain `/roll` needs no write of its own, so it is answered, numbered, at once; its row
/// reaches the database once the lock is free.
#[test]
fn a_held_lock_leaves_plain_rolls_answered() {
    let s = Session::start();
    let alice = s.player(10);
    // The guild's first roll is written, and the bot's folding thread leases a block of the
    // guild's numbers for the journal.
    s.run(&alice, "/roll expression:1d6");
    let db = s.options().db();
    let leased = || {
        rusqlite::Connection::open(&db)
            .expect("open")
            .query_row("SELECT COUNT(*) FROM roll_id_leases", [], |r| {
                r.get::<_, i64>(0)
            })
            .expect("count leases")
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while leased() == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "no block of numbers was leased"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let holder = Holder::take(&db);
    let before = rolls(&db);
    let during = s.run(&alice, "/roll expression:1d6");
    assert!(!during.ephemeral(), "{}", during.text());
    assert!(during.text().contains("Roll #2"), "{}", during.text());
    assert_eq!(
        rolls(&db),
        before,
        "nothing is written while the lock is held"
    );
    // A read of the roll log does not wait behind the lock for the journal to fold (the
    // journal's thread is waiting for it): answered inside Discord's 3 seconds, without the
    // newest roll, which is safe in the journal.
    let asked = std::time::Instant::now();
    let history = s.run(&alice, "/history");
    assert!(
        asked.elapsed() < Duration::from_secs(3),
        "answered after {:?}",
        asked.elapsed()
    );
    assert!(history.text().contains("#1"), "{}", history.text());
    holder.release();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while rolls(&db) < before + 1 {
        assert!(
            std::time::Instant::now() < deadline,
            "the journaled roll never reached the database"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(rolls(&db), 2);
}

/// Processes started together on a new database (two shard ranges, say) both migrate it: the
/// one that loses the race waits for the other's migrations instead of failing.
#[test]
fn stores_opened_together_on_a_new_file_all_open() {
    for round in 0..8 {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("db.sqlite3");
        let barrier = Arc::new(std::sync::Barrier::new(4));
        let opened: Vec<_> = (0..4)
            .map(|_| {
                let (path, barrier) = (path.clone(), Arc::clone(&barrier));
                std::thread::spawn(move || {
                    barrier.wait();
                    Store::open(&path).map(|_| ()).map_err(|e| e.to_string())
                })
            })
            .collect();
        for handle in opened {
            let result = handle.join().expect("the opening thread");
            assert!(result.is_ok(), "round {round}: {result:?}");
        }
    }
}

/// A tmpfs of its own at a fresh folder, remounted read-only or writable at will; unmounted when
/// dropped. Needs root (or CAP_SYS_ADMIN), as a read-only mount does.
pub(crate) struct Mount {
    dir: PathBuf,
}

impl Mount {
    /// Mounts a tmpfs on `dir`, an existing empty folder; `None` where that is not allowed.
    pub(crate) fn on(dir: &Path) -> Option<Self> {
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=16m", "tmpfs"])
            .arg(dir)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !mounted {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI runs as root, where a tmpfs can be mounted"
            );
            eprintln!("skipped: cannot mount a tmpfs here (needs root)");
        }
        mounted.then(|| Self {
            dir: dir.to_owned(),
        })
    }

    pub(crate) fn remount(&self, how: &str) {
        let status = std::process::Command::new("mount")
            .args(["-o", &format!("remount,{how}")])
            .arg(&self.dir)
            .status()
            .expect("mount runs");
        assert!(status.success(), "remount {how}");
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&self.dir)
            .status();
    }
}

/// A database at `path` with one roll logged, and its WAL and WAL index beside it, as a bot
/// killed mid-run leaves them: copied from a store that is still open.
pub(crate) fn left_by_a_killed_bot(path: &Path) {
    let dir = tempfile::tempdir().expect("dir");
    let live = dir.path().join("db.sqlite3");
    let app = app_on(&live);
    run(&app, "roll expression:1d6", Duration::from_secs(5)).expect("a roll");
    for suffix in ["", "-wal", "-shm"] {
        std::fs::copy(
            format!("{}{suffix}", live.display()),
            format!("{}{suffix}", path.display()),
        )
        .expect("copy the database's files");
    }
}

/// The database on a file system mounted read-only, as a bot restarted on a read-only volume
/// meets it: the WAL and its index left behind by the last run. Once the volume is writable
/// again the store writes with no restart, although SQLite shares the index's read-only mapping
/// among all the process's connections (issue 33: before, every write stayed "read-only").
#[test]
fn a_store_started_on_a_read_only_volume_writes_once_it_is_writable_again() {
    let dir = tempfile::tempdir().expect("dir");
    let Some(mount) = Mount::on(dir.path()) else {
        return;
    };
    let path = dir.path().join("db.sqlite3");
    left_by_a_killed_bot(&path);
    mount.remount("ro");
    let app = app_on(&path);
    refused_with(
        run(&app, "roll expression:1d6", Duration::from_secs(2)),
        "read-only",
    );
    // A read opens its own connection meanwhile, which must not keep the index read-only.
    let history = run(&app, "history", Duration::from_secs(2)).expect("reads answer");
    assert!(history.all_text().contains("1d6"), "{}", history.all_text());
    mount.remount("rw");
    run(&app, "roll expression:1d6", Duration::from_secs(5)).expect("a roll once writable");
    assert_eq!(rolls(&path), 2, "the refused roll was not logged");
    run(
        &app,
        "character create name:Bryn system:thiz",
        Duration::from_secs(5),
    )
    .expect("a character once writable");
}
