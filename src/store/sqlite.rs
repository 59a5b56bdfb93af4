//! The SQLite backend: one writer connection with group commit, a bounded pool of readers,
//! a background checkpointer, and reconnection after file faults (see the module docs of
//! [`super`]).

use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicI64;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, SyncSender};
use std::sync::{Arc, Condvar, LazyLock, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use include_dir::{Dir, include_dir};
use rusqlite::{Connection, ErrorCode, MAIN_DB, OpenFlags};

use super::journal::{self, Journal, Taken};
use super::sql::Conn;
use super::watch::DirWatch;
use super::{Fault, Job, Result, StoreError, current_job, with_job};
use rusqlite_migration::Migrations;

static MIGRATIONS_DIR: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/migrations");
static MIGRATIONS: LazyLock<Migrations<'static>> = LazyLock::new(|| {
    Migrations::from_directory(&MIGRATIONS_DIR).expect("migrations/ is embedded at build time")
});

/// How long a connection waits for another process's writer before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a write waits for the write lock when its job set no deadline ([`with_job`]).
pub const WRITE_WAIT: Duration = BUSY_TIMEOUT;
/// SQLite's extended code for a write to a database file that was unlinked or renamed.
const SQLITE_READONLY_DBMOVED: std::ffi::c_int = 1032;
/// The most writes one group commit holds (see the module's "Group commit").
pub const MAX_GROUP: usize = 64;
/// How long, at most, a busy writer's group waits for more writes before it commits (see the
/// module's "Group commit"): a small delay to each write under load, for far fewer commits.
/// Measured with `cargo bench --bench bot_load` (20 s phases, one run after another on the same
/// build): `/roll` at 6,000/s took 166–167 µs of CPU per interaction at 400 µs and 154–161 µs
/// at 1 ms, p50 0.73 ms and 0.82 ms; the mixed load at 5,000/s the same CPU, 3.55 and 3.21 KB
/// to disk per logged roll, p99 3.2 and 3.8 ms. Without any wait, `/roll` at 5,000/s had p50
/// 0.3 ms instead of 0.9 ms, for 45% more CPU per roll (a wake-up of the writing thread and of
/// the runtime per commit). So groups wait only while writes come at [`LINGER_RATE`] or faster.
/// Tried and reverted (commit b5165b2): waiting only while the cores had less than a quarter
/// of their time idle; at 5,000/s their idle share sat between the thresholds, so it cost 20%
/// more CPU per roll for a p99 no better on the day it was measured.
pub const LINGER: Duration = Duration::from_millis(1);
/// The environment variable that sets [`LINGER`] in microseconds (0: a group never waits).
pub const LINGER_ENV: &str = "REFEREE_LINGER_MICROS";
/// A lingering group commits as soon as it holds this many writes.
pub const LINGER_GROUP: usize = 6;
/// Groups wait ([`LINGER`]) only while this many writes a second or more were committed over
/// the last [`RATE_WINDOW`]; below it each write commits as soon as nothing is queued behind
/// it. So at a moderate rate a write is answered without the wait (the tail at 5,000 `/roll` a
/// second is issue 33's goal: p99 at most twice the bare Discord bot's), and the wait saves
/// CPU and bytes only where writes come fast. Measured with `cargo bench --bench bot_load`,
/// one build, `REFEREE_LINGER_RATE=0` (wait whatever the rate, as before) and the default in
/// turn, one sitting: the tail at 5,000/s (6 rounds of 5 s, pooled) p50 0.16–0.17 against
/// 0.78–0.79 ms, p99 0.88 and 1.29 ms against 1.44 and 1.45 ms (the bare bot's 0.34–0.55 ms),
/// for 143–158 against 84–93 µs of CPU per roll; `/roll` at 10,000/s (where groups wait
/// either way) 74 against 76 µs, 1.6 against 1.5 KB per roll to the block layer; the mixed
/// load at 5,000/s (under the rate too) p99 1.6 against 2.1 ms, 160 against 136 µs, 5.5
/// against 3.1 KB per logged roll. Decision: the wait is for CPU that is short; below this
/// rate the cores have room (at 5,000/s the bot took 0.75 of one of two cores), and the rate
/// of the bot's own writes, unlike the machine's idle share (tried in commit b5165b2), does
/// not move with what the wait itself costs.
pub const LINGER_RATE: u64 = 6_000;
/// The environment variable that sets [`LINGER_RATE`] (writes a second; 0: whatever the rate).
pub const LINGER_RATE_ENV: &str = "REFEREE_LINGER_RATE";
/// The span over which the write rate that [`LINGER_RATE`] is compared with is measured: long
/// enough that a burst after a stall of the process (the writes of 100 ms arriving at once)
/// does not count as a faster rate.
pub const RATE_WINDOW: Duration = Duration::from_secs(1);
/// The writer is busy, and a group lingers, while the last commit was less than this ago: at
/// a few writes a second nothing waits.
pub const BUSY_GAP: Duration = Duration::from_millis(2);
/// The page size of a new database file, in bytes (SQLite's default is 4,096). Every commit
/// writes each page it changed to the WAL whole, and a roll changes a few pages that no other
/// roll of its group shares (its character's place in an index, its luck ledger's): smaller
/// pages write less. Measured with `cargo bench --bench bot_load`, the mixed load at 5,000/s
/// (bytes that reached the block layer per logged roll): 9.0 KB at 4,096, 5.9 KB at 2,048,
/// 4.5–5.1 KB at 1,024, at the same CPU per interaction and p99. A roll's row (about 300 bytes) still fits
/// a page; a longer row (a big sheet) spills into overflow pages, read only with it.
///
/// Decision: existing databases keep the page size they were made with; changing it needs a
/// `VACUUM` with no other connection open, which an upgrade should not do behind the operator's
/// back.
pub const PAGE_SIZE: i64 = 1024;
/// Page cache of each reader connection, in KiB (SQLite's default is 2 MiB per connection).
pub const READER_CACHE_KIB: i64 = 1024;
/// Page cache of the writer connection, in KiB: it touches the indexes of every table it writes.
pub const WRITER_CACHE_KIB: i64 = 2048;
/// How long a reopen after a read-only file waits for the checkpointer to close its connection
/// of the read-only days (see `Sqlite::reopen`).
const CHECKPOINTER_RETIRE_WAIT: Duration = Duration::from_millis(500);
/// How long a reader waits for a pooled connection before opening an extra one.
const READER_WAIT: Duration = Duration::from_secs(2);
/// Prepared statements each connection keeps (rusqlite's default, 16, is fewer than one
/// luck spend uses on the writer).
const STATEMENT_CACHE: usize = 96;
/// Committed writes between two background checkpoints. A write adds a few 1 KiB pages to the
/// WAL (about 3 for a `/roll`, 12 for a luck spend). A checkpoint writes each page it copies to
/// the database file once, however often the WAL holds it, and the hot pages (the ends of the
/// roll log and its indexes) are in every checkpoint; the database file is synced once per WAL
/// (`start_checkpointer`), so the kernel writes those pages once for all the checkpoints of a
/// WAL. Measured with `cargo bench --bench bot_load`, the mixed load at 5,000/s, bytes that
/// reached the block layer per logged roll: 5.91 KB every 128 writes, 5.89 KB every 1,024 (the
/// build before these syncs and this default: 5.86 KB).
///
/// Why 128 and not 1,024: each pass's work comes at once, its WAL sync mostly in the kernel,
/// where (on a kernel built without preemption, as the benchmark's VM was) no other thread
/// takes the core back however low the checkpointer's priority; smaller passes are shorter
/// bursts. A 10 s timeline (`REFEREE_LOAD_TIMELINE`, `/roll` at 5,000/s) showed a cluster of
/// slow answers (4–13 over 0.3 ms) every 205 ms, each pass, every 1,024 writes; every 128,
/// single ones every 25 ms. The tail in slices (`REFEREE_LOAD_TAIL_SLICES=16
/// REFEREE_LOAD_SECS=1`, `REFEREE_CHECKPOINT_EVERY` set in turn, one build, one sitting):
/// referee's p99 427, 513 and 473 µs every 128 writes against 527, 586 and 880 µs every 1,024
/// (its ratio to the bare bot's 2.72×, 3.07×, 2.03× against 2.75×, 3.28×, 3.46×). Every 32
/// writes was no better than 128.
pub const CHECKPOINT_EVERY: u64 = 128;
/// The environment variable that sets [`CHECKPOINT_EVERY`] (a number of writes, at least 1).
pub const CHECKPOINT_ENV: &str = "REFEREE_CHECKPOINT_EVERY";
/// SQLite's auto-checkpoint threshold on this process's connections, in WAL pages (40 MiB of
/// WAL at 1 KiB pages, 160 MiB in an older file with 4 KiB pages). Under a steady stream of
/// writes faster than [`LINGER_RATE`] it is what starts the WAL over (slower, the writer's
/// catch-up does: [`WAL_RESTART_PAGES`]). SQLite starts the WAL again from its beginning
/// only when a write begins while every page in it has been copied; a background `PASSIVE`
/// checkpoint copies what was committed when it began, and more always comes meanwhile, so
/// the WAL grows by every commit until it reaches this many pages and SQLite's own checkpoint
/// runs in a commit on the writing thread (seen with `cargo bench --bench bot_load`, `/roll`
/// at 5,000/s: the WAL file 10, 23, 36 and 41.9 MB after 1 to 4 s, then written over, not
/// grown). Tried and not kept: a `RESTART` checkpoint by the checkpointer once the WAL was
/// 4,096 or 16,384 pages long (holding the write lock for what came during its `PASSIVE` pass
/// and two syncs). It kept the WAL at 5–6 MB, but the tail at 5,000/s was worse in each of
/// four same-sitting pairs: referee's p99 3.53× and 3.20× the bare bot's at 4,096, 5.77× and
/// 2.32× at 16,384, against 1.80×–2.60× without. It is as far above [`WAL_RESTART_PAGES`] as
/// [`CHECKPOINT_EVERY`] writes of [`MOST_PAGES_PER_WRITE`] pages each reach: the catch-up is
/// decided at each background checkpoint, so a burst of the largest writes between two of them
/// still finds it due before SQLite's own checkpoint runs in a commit (it was 40,000).
pub const AUTOCHECKPOINT_BACKSTOP: i64 = 40_960;
/// The most WAL pages one write is taken to add, for [`AUTOCHECKPOINT_BACKSTOP`]: a `/roll`
/// adds about 3 and a luck spend about 12 (1 KiB pages); this leaves room for larger ones.
pub const MOST_PAGES_PER_WRITE: i64 = 32;
// The room `AUTOCHECKPOINT_BACKSTOP` leaves above the catch-up, checked when the crate builds.
const _: () = assert!(
    WAL_RESTART_PAGES + CHECKPOINT_EVERY as i64 * MOST_PAGES_PER_WRITE <= AUTOCHECKPOINT_BACKSTOP
        && QUICK_BACKSTOP_MARGIN < AUTOCHECKPOINT_BACKSTOP - WAL_RESTART_PAGES
);
/// How close to [`AUTOCHECKPOINT_BACKSTOP`], in WAL pages, the WAL may have been at the last
/// background checkpoint for a quick batch still to write (see `Sqlite::checkpoint_near`): the
/// background checkpointer measures it every [`CHECKPOINT_EVERY`] writes, each a few pages.
pub const QUICK_BACKSTOP_MARGIN: i64 = 8_192;
/// WAL length, in pages, from which the writer catches up with the background checkpointer so
/// that the WAL starts over (0: never; SQLite's own checkpoint at [`AUTOCHECKPOINT_BACKSTOP`]
/// then does it). Once a background checkpoint has ended with the WAL this long, the writer,
/// before its next group, runs a `PASSIVE` checkpoint of its own: it copies only what was
/// committed during the background one (and syncs), so the WAL is all copied and that group's
/// write starts it over. The backstop copied up to [`CHECKPOINT_EVERY`] writes' worth at a
/// moment of no one's choosing, on the same thread: at `/roll` 5,000 a second it came about
/// every 3.2 s, a cluster of slow answers each time (`REFEREE_LOAD_TIMELINE`). It runs only
/// while writes come slower than [`LINGER_RATE`] (`Linger::fast`): faster, the writer has no
/// time to spare. Measured with `cargo bench --bench bot_load`, the tail phase at 5,000/s (8
/// rounds of 4 s, one build, 8,192 pages and `REFEREE_WAL_RESTART_PAGES=0` in turn, six pairs
/// over one sitting): referee's pooled p99 4.9, 4.6, 3.8, 2.2, 3.8, 4.8 ms against 7.2, 10.1, 2.4,
/// 19.9, 5.0, 7.8 ms, lower in 5 of 6 pairs (its ratio to the bare bot's 1.20, 1.23, 2.70,
/// 1.51, 2.19, 3.34 against 3.29, 2.57, 1.10, 4.56, 2.77, 3.78); the WAL file stayed at 10.6
/// MB instead of 41.9. Without the rate gate, `/roll` at 10,000/s had p99 10.4 and 162 ms
/// (856 unanswered) against 6.7 and 11.8 ms.
///
/// Each catch-up waits for two syncs, and what the second one (the database file's) writes
/// grows with the WAL: a background pass never syncs the database file (SQLite syncs it only
/// when a checkpoint has copied the whole WAL, which writes arriving meanwhile prevent), so the
/// catch-up syncs every page the background passes copied since the WAL last started over.
/// Timed around its `wal_checkpoint` (copying the few dozen pages committed during the last
/// background pass) on a virtual disk, 5,000 `/roll` a second: 1.3–2.3 ms at 8,192 pages,
/// 3.2–6.2 ms at 32,768; with the checkpointer syncing the database file after each pass,
/// 0.7–1.1 ms at 32,768, but those syncs slowed other answers as much (an 8 s
/// `REFEREE_LOAD_TIMELINE` beside the checkpoints' own times: of the 399 answers over
/// referee's p99, 6 in catch-ups and 72 in the checkpointer's syncs, against 80–84 in
/// catch-ups without them); `fdatasync` instead of `fsync` (SQLite built with
/// `HAVE_FDATASYNC`) left the catch-ups as long (3.4–6.2 ms). At 8,192 pages the catch-ups
/// covered 0.3% of the time and 67–163 of the 399; at 32,768, 80–90. In slices
/// (`REFEREE_LOAD_TAIL_SLICES`, one build, in turn), 32,768 against 8,192: referee's own p99
/// lower in 6 of 6 pairs one day (0.67–0.77 against 0.75–1.10 ms), its ratio to the bare
/// bot's lower in 3 of 3 the next (2.25×, 3.26×, 2.42× against 3.09×, 3.76×, 3.14×) and higher
/// in 3 of 3 the same day (5.74×, 2.67×, 4.53× against 3.07×, 2.22× and, the bare bot
/// stalling, 0.09×): no reliable gain, so the shorter WAL stays.
///
/// Since then the checkpointer syncs the database file itself before the catch-up is due
/// (`start_checkpointer`), so the catch-up's second sync writes only its own few pages:
/// 0.26–0.30 ms against 1.0–1.2 ms before (`perf trace -e fsync`, `/roll` at 5,000/s), however
/// long the WAL. Even so, 32,768 pages was no better in slices, three pairs in turn: referee's
/// p99 450, 586 and 521 µs against 372, 573 and 483 µs at 8,192.
pub const WAL_RESTART_PAGES: i64 = 8_192;
/// The environment variable that sets [`WAL_RESTART_PAGES`].
pub const WAL_RESTART_ENV: &str = "REFEREE_WAL_RESTART_PAGES";

/// The WAL length from which the writer catches up that `setting` (`REFEREE_WAL_RESTART_PAGES`)
/// gives: a number of pages (0: never), else [`WAL_RESTART_PAGES`].
pub fn wal_restart_pages(setting: Option<&str>) -> i64 {
    number(setting)
        .and_then(|n| i64::try_from(n).ok())
        .unwrap_or(WAL_RESTART_PAGES)
}

/// The writes between two checkpoints that `setting` (`REFEREE_CHECKPOINT_EVERY`) gives: a
/// positive number, else [`CHECKPOINT_EVERY`].
pub fn checkpoint_every(setting: Option<&str>) -> u64 {
    number(setting)
        .filter(|&n| n > 0)
        .unwrap_or(CHECKPOINT_EVERY)
}

/// The whole number an environment setting holds, if it holds one.
fn number(setting: Option<&str>) -> Option<u64> {
    setting.and_then(|v| v.trim().parse().ok())
}

/// The fault a SQLite error means, if any.
pub(super) fn sqlite_fault(e: &rusqlite::Error) -> Option<Fault> {
    let rusqlite::Error::SqliteFailure(f, _) = e else {
        return None;
    };
    match f.code {
        ErrorCode::ReadOnly if f.extended_code == SQLITE_READONLY_DBMOVED => Some(Fault::Missing),
        ErrorCode::ReadOnly => Some(Fault::ReadOnly),
        ErrorCode::DiskFull => Some(Fault::Full),
        ErrorCode::CannotOpen | ErrorCode::NotFound => Some(Fault::Missing),
        _ => None,
    }
}

pub(super) fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
    )
}

/// Which job a connection does; it decides the page cache and the statement cache it gets.
#[derive(Clone, Copy)]
enum Role {
    Reader,
    Writer,
    Checkpointer,
}

/// The reader pool: idle connections and how many exist (idle or lent out).
struct Pool {
    idle: Vec<Conn>,
    open: usize,
    /// Bumped when the file is reopened: readers of an older generation are closed.
    generation: u64,
}

/// This process's writer connection and the group transaction open on it, if any.
struct Writer {
    conn: Conn,
    open: Option<OpenGroup>,
    /// A write failed in a way that may need a new connection (a fault): reconnect before the
    /// next group.
    stale: bool,
    /// A watch on the file's directory: while it saw no change of names, a group skips the
    /// check of the path (`super::watch`). `None` where there is none: every group checks.
    watch: Option<DirWatch>,
    /// The file the connection has open (device and inode), to notice a removed or replaced file.
    file: Option<(u64, u64)>,
    /// The process's roll journal, once started ([`Sqlite::start_journal`]): its rows are folded
    /// into each group, and rolls written here take their ids from its leases.
    journal: Option<Arc<Journal>>,
    /// What the open group took from the journal: settled by the group's commit or rollback.
    folding: Vec<Taken>,
}

/// A group's failure: why, and the file's fault if that was the cause.
type Failure = (String, Option<Fault>);

/// A group whose `BEGIN IMMEDIATE` was run and whose writes are not yet committed.
struct OpenGroup {
    group: Arc<Group>,
    /// Writes run in it so far.
    jobs: usize,
    /// A savepoint statement failed or SQLite ended the transaction itself: it can only be
    /// rolled back.
    broken: bool,
    /// A batch's group ([`Sqlite::begin_batch`]): only its batch writes in it and closes it.
    batch: bool,
}

impl OpenGroup {
    fn new(batch: bool) -> Self {
        Self {
            group: Arc::default(),
            jobs: 0,
            broken: false,
            batch,
        }
    }
}

/// The batch open on this thread, if any (see [`Sqlite::begin_batch`]).
struct Batch {
    /// Which store it writes to (its address).
    store: usize,
    /// The group its writes are in, once one has written.
    group: Option<Arc<Group>>,
    /// Run once the batch's commit succeeded ([`super::after_commit`]).
    after: Vec<Box<dyn FnOnce() + Send>>,
    /// A write of the batch is running: its reads go through the readers.
    writing: bool,
    /// Opened by [`Sqlite::begin_quick_batch`]: it never waits for the write lock.
    quick: bool,
    /// A write of this quick batch found the lock taken and wrote nothing (see
    /// [`Sqlite::batch_deferred`]).
    deferred: bool,
}

thread_local! {
    static BATCH: RefCell<Option<Batch>> = const { RefCell::new(None) };
    /// This thread batches: it is the process's only writing thread, and a write of its own
    /// outside a batch has nobody to wait for, so it never lingers.
    static SOLE_WRITER: Cell<bool> = const { Cell::new(false) };
}

/// Marks the open batch's write as running (its reads then go through the readers: the writer
/// is held).
fn set_writing(writing: bool) {
    BATCH.with(|b| {
        if let Some(b) = b.borrow_mut().as_mut() {
            b.writing = writing;
        }
    });
}

/// Runs `f` once the batch open on this thread commits, or now if none is open (a write outside
/// a batch has committed when it returns). Dropped if the batch fails: its jobs run again.
pub(super) fn after_commit(f: Box<dyn FnOnce() + Send>) {
    let f = BATCH.with(|b| match b.borrow_mut().as_mut() {
        Some(batch) => {
            batch.after.push(f);
            None
        }
        None => Some(f),
    });
    if let Some(f) = f {
        f();
    }
}

impl Writer {
    /// Runs one write in its own savepoint of the open group `open`: kept if `f` returns `Ok`,
    /// rolled back if it returns an error or panics (the panic is handed back, to resume once
    /// the group is settled). If the savepoint cannot be ended cleanly the group is marked
    /// broken, and its close reports the failure to every write in it.
    fn run<T, E: From<StoreError>>(
        conn: &Conn,
        journal: Option<&Arc<Journal>>,
        open: &mut OpenGroup,
        f: impl FnOnce(&Conn) -> Result<T, E>,
    ) -> std::thread::Result<Result<T, E>> {
        open.jobs += 1;
        if let Err(e) = sx(conn, "SAVEPOINT write") {
            open.broken = true;
            return Ok(Err(E::from(e)));
        }
        let out = catch_unwind(AssertUnwindSafe(|| {
            journal::with_issuer(journal, || f(conn))
        }));
        let ended = if raw(conn).is_autocommit() {
            // SQLite rolled the whole transaction back itself (an I/O error, say).
            false
        } else if matches!(out, Ok(Ok(_))) {
            sx(conn, "RELEASE write").is_ok()
        } else {
            sx(conn, "ROLLBACK TO write")
                .and_then(|()| sx(conn, "RELEASE write"))
                .is_ok()
        };
        open.broken |= !ended;
        out
    }

    /// Ends the open group: `COMMIT`, or `ROLLBACK` if it is broken or the commit failed.
    /// Returns how many writes it held and the outcome to settle it with.
    fn close(&mut self) -> Option<(usize, Result<(), Failure>)> {
        let open = self.open.take()?;
        if !open.broken && !raw(&self.conn).is_autocommit() {
            // What the journal took since the group began goes with its commit.
            self.fold();
        }
        let outcome = if raw(&self.conn).is_autocommit() {
            Err(("SQLite ended the transaction".to_owned(), None))
        } else if open.broken {
            Err(("a savepoint could not be kept".to_owned(), None))
        } else {
            sx(&self.conn, "COMMIT").map_err(|e| (e.to_string(), e.fault()))
        };
        if outcome.is_err() && !raw(&self.conn).is_autocommit() {
            let _ = sx(&self.conn, "ROLLBACK");
        }
        self.settle_folds(outcome.is_ok());
        Some((open.jobs, outcome))
    }

    /// Takes the journal's pending rows into the open transaction, under a savepoint of their
    /// own: rows that cannot be inserted stay pending (the journal then takes no new rolls until
    /// a fold succeeds), and the group goes on without them.
    fn fold(&mut self) {
        let Some(journal) = self.journal.clone() else {
            return;
        };
        let Some(taken) = journal.take() else {
            return;
        };
        let folded = sx(&self.conn, "SAVEPOINT fold")
            .and_then(|()| journal::insert(&self.conn, &taken))
            .and_then(|()| sx(&self.conn, "RELEASE fold"));
        match folded {
            Ok(()) => self.folding.push(taken),
            Err(e) => {
                tracing::error!(error = %e, rows = taken.len(), "cannot fold the roll journal into the database; it is kept and tried again");
                if !raw(&self.conn).is_autocommit() {
                    let _ = sx(&self.conn, "ROLLBACK TO fold")
                        .and_then(|()| sx(&self.conn, "RELEASE fold"));
                }
                journal.failed(taken);
            }
        }
    }

    /// Tells the journal what became of the rows the group took (committed, or pending again)
    /// and of the blocks of ids it leased (published, or asked for again).
    fn settle_folds(&mut self, committed: bool) {
        let Some(journal) = self.journal.clone() else {
            return;
        };
        journal.settle_staged(committed);
        for taken in std::mem::take(&mut self.folding) {
            if committed {
                journal.committed(taken);
            } else {
                journal.failed(taken);
            }
        }
    }
}

/// One group commit: its writes wait here for the outcome of its `COMMIT`.
#[derive(Default)]
struct Group {
    slot: Mutex<Slot>,
    settled: Condvar,
}

/// A group's outcome once settled, and how many threads wait for it.
#[derive(Default)]
struct Slot {
    outcome: Option<Result<(), Failure>>,
    waiting: usize,
}

impl Group {
    /// Settles the group, waking its waiters if it has any: a write committed by its own
    /// thread (most of them, inline) has none, and a wake-up for nobody is still a system call.
    fn settle(&self, outcome: Result<(), Failure>) {
        let mut slot = self.slot.lock().unwrap_or_else(PoisonError::into_inner);
        slot.outcome = Some(outcome);
        let waiting = slot.waiting > 0;
        drop(slot);
        if waiting {
            self.settled.notify_all();
        }
    }

    fn wait(&self) -> Result<(), Failure> {
        let mut slot = self.slot.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(outcome) = slot.outcome.as_ref() {
                return outcome.clone();
            }
            slot.waiting += 1;
            slot = self
                .settled
                .wait(slot)
                .unwrap_or_else(PoisonError::into_inner);
            slot.waiting -= 1;
        }
    }

    /// The outcome, if the group is settled within `limit`.
    fn wait_for(&self, limit: Duration) -> Option<Result<(), Failure>> {
        let mut slot = self.slot.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.outcome.is_none() {
            slot.waiting += 1;
            slot = self
                .settled
                .wait_timeout_while(slot, limit, |slot| slot.outcome.is_none())
                .unwrap_or_else(PoisonError::into_inner)
                .0;
            slot.waiting -= 1;
        }
        slot.outcome.clone()
    }
}

/// When and how a busy writer's group waits for more writes (see [`LINGER`]).
struct Linger {
    /// The longest wait, in microseconds (0: never linger).
    micros: AtomicU64,
    /// The group size that ends the wait.
    group: AtomicUsize,
    /// How recent the last commit must be for the writer to count as busy, in microseconds.
    busy_gap: AtomicU64,
    /// The write rate from which groups wait, in writes a second ([`LINGER_RATE`]).
    from_rate: AtomicU64,
    /// When the last group committed, in microseconds since `epoch`.
    last_commit: AtomicU64,
    /// The writes committed a second over the last [`RATE_WINDOW`] measured.
    rate: AtomicU64,
    /// When the window now being measured began (microseconds since `epoch`), and the writes
    /// committed until then.
    window: (AtomicU64, AtomicU64),
    epoch: Instant,
}

impl Linger {
    fn new() -> Self {
        let micros =
            number(std::env::var(LINGER_ENV).ok().as_deref()).unwrap_or(LINGER.as_micros() as u64);
        let from_rate =
            number(std::env::var(LINGER_RATE_ENV).ok().as_deref()).unwrap_or(LINGER_RATE);
        Self {
            micros: AtomicU64::new(micros),
            group: AtomicUsize::new(LINGER_GROUP),
            busy_gap: AtomicU64::new(BUSY_GAP.as_micros() as u64),
            from_rate: AtomicU64::new(from_rate),
            last_commit: AtomicU64::new(0),
            rate: AtomicU64::new(0),
            window: (AtomicU64::new(0), AtomicU64::new(0)),
            epoch: Instant::now(),
        }
    }

    fn now(&self) -> u64 {
        self.epoch.elapsed().as_micros() as u64
    }

    /// A group committed at `now` (microseconds since `epoch`), `total` writes committed so far:
    /// the writer is busy, and once a [`RATE_WINDOW`] has passed since the window began, the
    /// window's rate is the one groups go by until the next.
    fn committed(&self, now: u64, total: u64) {
        let now = now.max(1);
        self.last_commit.store(now, Ordering::Relaxed);
        let began = self.window.0.load(Ordering::Relaxed);
        let span = now.saturating_sub(began);
        if span >= RATE_WINDOW.as_micros() as u64 {
            let writes = total.saturating_sub(self.window.1.load(Ordering::Relaxed));
            self.rate
                .store(writes_per_second(writes, span), Ordering::Relaxed);
            self.window.0.store(now, Ordering::Relaxed);
            self.window.1.store(total, Ordering::Relaxed);
        }
    }

    /// Whether writes come at [`LINGER_RATE`] or faster.
    fn fast(&self) -> bool {
        self.rate.load(Ordering::Relaxed) >= self.from_rate.load(Ordering::Relaxed)
    }

    /// How long a group of `jobs` writes, with nobody queued behind it, waits for more: `None`
    /// unless the writer is busy (it committed within [`BUSY_GAP`]), writes come at
    /// [`LINGER_RATE`] or faster, and the group is small.
    fn wait(&self, jobs: usize) -> Option<Duration> {
        let micros = self.micros.load(Ordering::Relaxed);
        let last = self.last_commit.load(Ordering::Relaxed);
        let busy =
            last > 0 && self.now().saturating_sub(last) < self.busy_gap.load(Ordering::Relaxed);
        (micros > 0 && busy && self.fast() && jobs < self.group.load(Ordering::Relaxed))
            .then(|| Duration::from_micros(micros))
    }
}

/// `writes` over `span` microseconds, a second (rounded down; 0 over no time).
fn writes_per_second(writes: u64, span: u64) -> u64 {
    if span == 0 {
        return 0;
    }
    u64::try_from(u128::from(writes) * 1_000_000 / u128::from(span)).unwrap_or(u64::MAX)
}

/// The database: a path, one writer connection, a bounded pool of readers, and the background
/// checkpointer.
pub struct Sqlite {
    path: PathBuf,
    /// This process's writer. Holding the lock is this process's turn to write; the group's
    /// `BEGIN IMMEDIATE` takes SQLite's write lock against other processes until it commits.
    writer: Mutex<Writer>,
    /// Threads that are about to take, or waiting for, the writer lock: while there are any, a
    /// write leaves its group open for them.
    queued: AtomicUsize,
    /// Group commits made (each of one or more writes); `commits` counts the writes.
    groups: AtomicU64,
    readers: Mutex<Pool>,
    /// Signalled when a reader comes back to the pool.
    reader_free: Condvar,
    max_readers: usize,
    commits: AtomicU64,
    /// Background checkpoints completed (shared with the checkpointer thread).
    checkpoints: Arc<AtomicU64>,
    /// The WAL's length in pages when the last background checkpoint ended.
    wal_pages: Arc<AtomicI64>,
    /// The background checkpoints the writer had seen when it last caught up with one.
    caught_up: AtomicU64,
    /// [`WAL_RESTART_PAGES`].
    restart_pages: Arc<AtomicI64>,
    /// Wakes the checkpointer; dropping it stops the thread.
    checkpoint: Mutex<Option<SyncSender<()>>>,
    checkpointer: Mutex<Option<JoinHandle<()>>>,
    /// Bumped when the file is reopened; the checkpointer reconnects when it changes.
    generation: Arc<AtomicU64>,
    /// The last generation whose connection the checkpointer has closed (see `reopen`).
    retired: Arc<AtomicU64>,
    /// `PRAGMA max_page_count` of the writer, 0 for none (see [`Sqlite::limit_pages`]).
    page_limit: AtomicI64,
    /// Told how long each successful group `COMMIT` took (see [`Sqlite::observe_commits`]).
    on_commit: std::sync::OnceLock<super::CommitObserver>,
    /// A busy writer's groups wait a moment for more writes (see [`LINGER`]).
    linger: Linger,
    /// Writes waiting, their group open, for more to join it (for tests).
    lingering: AtomicUsize,
    /// Committed writes between two background checkpoints ([`CHECKPOINT_EVERY`]).
    checkpoint_every: u64,
    /// A connection has found the file read-only since the last commit. SQLite shares one
    /// mapping of the WAL index (`-shm`) among a process's connections to a file, and keeps it
    /// read-only while any connection opened in that state is open: a writer reopened alone
    /// would still meet "attempt to write a readonly database" after the file is fixed. So
    /// while this is set, every group reopens, closing every connection first ([`Sqlite::reopen`]).
    read_only_seen: AtomicBool,
    /// The process's roll journal, once started ([`Sqlite::start_journal`]).
    journal: std::sync::OnceLock<Arc<Journal>>,
    /// Syncs of the database file by the checkpointer (see [`start_checkpointer`]).
    #[cfg(test)]
    synced: Arc<AtomicU64>,
    /// The database files the checkpointer syncs (see [`start_checkpointer`]), one per file the
    /// store's path has named. Last, so dropped last: after every connection has closed, since
    /// closing a descriptor of a file drops every POSIX lock the process holds on that file.
    _files: Arc<Mutex<Vec<std::fs::File>>>,
}

impl std::fmt::Debug for Sqlite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sqlite")
            .field("path", &self.path)
            .field("max_readers", &self.max_readers)
            .finish_non_exhaustive()
    }
}

/// A reader lent out of the pool; it goes back when dropped, even if the caller panicked.
struct Lent<'a> {
    store: &'a Sqlite,
    conn: Option<Conn>,
    generation: u64,
}

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            let mut pool = self
                .store
                .readers
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if pool.open > self.store.max_readers || self.generation != pool.generation {
                // An overflow reader (see `take`), or one of a file since reopened: close it
                // rather than keep it.
                pool.open -= 1;
                drop(pool);
                drop(conn);
                self.store.reader_free.notify_one();
                return;
            }
            pool.idle.push(conn);
            drop(pool);
            self.store.reader_free.notify_one();
        }
    }
}

impl Sqlite {
    /// Opens (creating if needed) the database at `path` and applies pending migrations.
    pub fn open(path: &Path) -> Result<Self> {
        let writer = open_writer(path)?;
        replay_journals(&writer, path);
        let read_only = raw(&writer).is_readonly(MAIN_DB).unwrap_or(true);
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        let checkpoints = Arc::new(AtomicU64::new(0));
        let wal_pages = Arc::new(AtomicI64::new(0));
        let generation = Arc::new(AtomicU64::new(0));
        let retired = Arc::new(AtomicU64::new(0));
        let files = Arc::new(Mutex::new(Vec::new()));
        let synced = Arc::new(AtomicU64::new(0));
        let restart_pages = Arc::new(AtomicI64::new(wal_restart_pages(
            std::env::var(WAL_RESTART_ENV).ok().as_deref(),
        )));
        let (checkpoint, checkpointer) = start_checkpointer(
            path,
            Checkpointing {
                done: Arc::clone(&checkpoints),
                wal_pages: Arc::clone(&wal_pages),
                generation: Arc::clone(&generation),
                retired: Arc::clone(&retired),
                files: Arc::clone(&files),
                synced: Arc::clone(&synced),
                restart_pages: Arc::clone(&restart_pages),
            },
        )?;
        Ok(Self {
            path: path.to_owned(),
            writer: Mutex::new(Writer {
                conn: writer,
                open: None,
                stale: false,
                // The watch first: a change between the two is then one it notes.
                watch: DirWatch::new(path),
                file: file_id(path),
                journal: None,
                folding: Vec::new(),
            }),
            queued: AtomicUsize::new(0),
            groups: AtomicU64::new(0),
            readers: Mutex::new(Pool {
                idle: Vec::new(),
                open: 0,
                generation: 0,
            }),
            reader_free: Condvar::new(),
            // Readers never block one another in WAL mode; more of them than threads that can
            // run at once only costs memory.
            max_readers: (2 * cores + 2).min(16),
            commits: AtomicU64::new(0),
            checkpoints,
            wal_pages,
            caught_up: AtomicU64::new(0),
            restart_pages,
            checkpoint: Mutex::new(Some(checkpoint)),
            checkpointer: Mutex::new(Some(checkpointer)),
            generation,
            retired,
            page_limit: AtomicI64::new(0),
            on_commit: std::sync::OnceLock::new(),
            linger: Linger::new(),
            lingering: AtomicUsize::new(0),
            checkpoint_every: checkpoint_every(std::env::var(CHECKPOINT_ENV).ok().as_deref()),
            read_only_seen: AtomicBool::new(read_only),
            journal: std::sync::OnceLock::new(),
            #[cfg(test)]
            synced,
            _files: files,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The most reader connections this store opens.
    pub fn max_readers(&self) -> usize {
        self.max_readers
    }

    /// Writes committed, and the group commits they were committed in (for diagnostics: the
    /// ratio is the mean group's size).
    pub fn commit_counts(&self) -> (u64, u64) {
        (
            self.commits.load(Ordering::Relaxed),
            self.groups.load(Ordering::Relaxed),
        )
    }

    /// How many times the checkpointer has synced the database file before a catch-up (see
    /// `start_checkpointer`).
    #[cfg(test)]
    pub fn database_syncs(&self) -> u64 {
        self.synced.load(Ordering::Relaxed)
    }

    /// How many background checkpoints have completed (for tests and diagnostics).
    pub fn checkpoints(&self) -> u64 {
        self.checkpoints.load(Ordering::Relaxed)
    }

    /// A reader: an idle one, a new one while under the limit, or else the next one given back.
    /// If none comes back within [`READER_WAIT`], an extra one is opened (and closed when given
    /// back): a caller that reads while holding the writer, with every reader lent to threads
    /// waiting for that writer, gets a slow answer instead of a deadlock.
    fn take(&self) -> Result<Lent<'_>> {
        let mut pool = self.readers.lock().unwrap_or_else(PoisonError::into_inner);
        let mut waited = false;
        loop {
            let generation = pool.generation;
            if let Some(conn) = pool.idle.pop() {
                return Ok(Lent {
                    store: self,
                    conn: Some(conn),
                    generation,
                });
            }
            if pool.open < self.max_readers || waited {
                pool.open += 1;
                drop(pool);
                return match connect(&self.path, Role::Reader, false) {
                    Ok(conn) => Ok(Lent {
                        store: self,
                        conn: Some(conn),
                        generation,
                    }),
                    Err(e) => {
                        let mut pool = self.readers.lock().unwrap_or_else(PoisonError::into_inner);
                        pool.open -= 1;
                        drop(pool);
                        self.reader_free.notify_one();
                        Err(e)
                    }
                };
            }
            let (guard, timeout) = self
                .reader_free
                .wait_timeout(pool, READER_WAIT)
                .unwrap_or_else(PoisonError::into_inner);
            pool = guard;
            waited = timeout.timed_out();
        }
    }

    /// Runs `f` with a reader connection (reads, and single-statement writes).
    /// In a batch ([`Sqlite::begin_batch`]) the read goes through the writer, which sees the
    /// batch's writes before they are committed; a writing job's read opens the batch's group
    /// if none is open yet (and a quick batch may turn it away, as it would the write). Measured
    /// with `perf stat` at 5,000 `/roll` a second: 6.0 `fcntl` calls per roll against 8.0 when
    /// the guild's settings, read first, had a read transaction of their own; referee's CPU per
    /// roll 108, 106 and 104 µs against 113, 108 and 111 µs (10 s runs in turn).
    pub fn read<T>(&self, f: impl FnOnce(&Conn) -> Result<T>) -> Result<T> {
        if self.reads_on_writer() {
            let job = current_job();
            if !job.read_only {
                // A writing job's first read opens the batch's group, as its first write would:
                // the read is then part of the write transaction, not a read transaction of its
                // own before it (whose locks cost a job two to four `fcntl` calls more).
                let deadline = job.deadline_or(WRITE_WAIT);
                let writer = self.batch_group(deadline)?;
                return f(&writer.conn);
            }
            let writer = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
            return f(&writer.conn);
        }
        let lent = self.take()?;
        let conn = lent
            .conn
            .as_ref()
            .ok_or_else(|| StoreError::Corrupt("a lent reader lost its connection".to_owned()))?;
        f(conn)
    }

    /// Runs `f` in a `BEGIN IMMEDIATE` transaction on this process's writer, committed if `f`
    /// returns `Ok` — possibly together with other threads' writes (group commit, see the
    /// module's docs); either way this returns only after the commit, with its outcome. Use it
    /// for every read-then-write. `f` may return an error of its own type (a refusal, say), which
    /// rolls back what `f` did. `f` must not call [`Sqlite::write`] itself (the writer is not
    /// re-entrant) and has no need to call [`Sqlite::read`]: `conn` reads, and sees the writes
    /// before it in its group.
    pub fn write<T, E: From<StoreError>>(
        &self,
        f: impl FnOnce(&Conn) -> Result<T, E>,
    ) -> Result<T, E> {
        let job = current_job();
        if job.read_only {
            return Err(E::from(StoreError::NeedsWriter));
        }
        let deadline = job.deadline_or(WRITE_WAIT);
        if self.batching() {
            return self.write_in_batch(deadline, f);
        }
        self.queued.fetch_add(1, Ordering::SeqCst);
        let mut guard = self.writer_outside_batches();
        self.queued.fetch_sub(1, Ordering::SeqCst);
        let writer = &mut *guard;
        if writer.open.is_none()
            && let Err(e) = self.begin(writer, deadline)
        {
            return Err(E::from(e));
        }
        let open = writer.open.get_or_insert_with(|| OpenGroup::new(false));
        let group = Arc::clone(&open.group);
        let out = Writer::run(&writer.conn, writer.journal.as_ref(), open, f);
        let full = open.broken || open.jobs >= MAX_GROUP;
        // Nobody queued behind: this write ends the group now, or — the writer being busy —
        // lets it wait a moment for more (unless no other thread writes: see `SOLE_WRITER`).
        let alone = self.queued.load(Ordering::SeqCst) == 0;
        let linger = (!full && alone && !SOLE_WRITER.get())
            .then(|| self.linger.wait(open.jobs))
            .flatten();
        if !matches!(out, Ok(Ok(_))) {
            // Cheap, and only on a failure: was it the file?
            writer.stale |= self.unhealthy(writer);
        }
        let outcome = if full || (alone && linger.is_none()) {
            self.close_group(guard);
            group.wait()
        } else if let Some(wait) = linger {
            // Others may join while this waits without the writer; if none has closed the
            // group by then, this closes it (whoever closes it settles every write in it).
            drop(guard);
            self.lingering.fetch_add(1, Ordering::SeqCst);
            let settled = group.wait_for(wait);
            self.lingering.fetch_sub(1, Ordering::SeqCst);
            if let Some(outcome) = settled {
                outcome
            } else {
                self.queued.fetch_add(1, Ordering::SeqCst);
                let guard = self.writer_outside_batches();
                self.queued.fetch_sub(1, Ordering::SeqCst);
                // Having been queued, this thread may be the one an open group was left to (its
                // last write saw it queued): it closes its own group, and also a newer one
                // unless another thread is queued to decide for it. Leaving a newer group open
                // with nobody queued left its writes waiting for ever (seen in
                // `e2e::delivery`: the group its own closer opened while this one re-queued).
                let mine = guard
                    .open
                    .as_ref()
                    .is_some_and(|open| Arc::ptr_eq(&open.group, &group));
                let unclaimed = guard.open.as_ref().is_some_and(|open| !open.batch)
                    && self.queued.load(Ordering::SeqCst) == 0;
                if mine || unclaimed {
                    self.close_group(guard);
                } else {
                    drop(guard);
                }
                group.wait()
            }
        } else {
            // Whoever is queued takes the writer next and so settles the group, or passes it on.
            drop(guard);
            group.wait()
        };
        match out {
            Err(panic) => resume_unwind(panic),
            Ok(Ok(value)) => match outcome {
                Ok(()) => Ok(value),
                Err((_, Some(fault))) => Err(E::from(StoreError::Unavailable(fault))),
                Err((why, None)) => Err(E::from(StoreError::Commit(why))),
            },
            // A refusal stands whatever became of the group: it wrote nothing.
            Ok(Err(e)) => Err(e),
        }
    }

    /// The writer, once no batch's group is open on it: a write outside a batch never joins a
    /// batch's group (the batch alone decides when it commits), it waits for it to end.
    fn writer_outside_batches(&self) -> MutexGuard<'_, Writer> {
        loop {
            // A poisoned lock only means another writer panicked; its savepoint was rolled back
            // before the panic went on, so the connection is clean.
            let guard = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
            match guard.open.as_ref() {
                Some(open) if open.batch => {
                    let batch = Arc::clone(&open.group);
                    drop(guard);
                    let _ = batch.wait();
                }
                _ => return guard,
            }
        }
    }

    /// This store's identity, for the batch open on a thread.
    fn id(&self) -> usize {
        std::ptr::from_ref(self) as usize
    }

    /// The batch open on this thread, if it is this store's (it is then no longer open).
    fn take_batch(&self) -> Option<Batch> {
        BATCH.with(|b| {
            let mut b = b.borrow_mut();
            if b.as_ref().is_some_and(|b| b.store == self.id()) {
                b.take()
            } else {
                None
            }
        })
    }

    /// Whether this thread has a batch open on this store.
    fn batching(&self) -> bool {
        BATCH.with(|b| b.borrow().as_ref().is_some_and(|b| b.store == self.id()))
    }

    /// Whether a read on this thread goes through the writer: in a batch, outside its writes.
    fn reads_on_writer(&self) -> bool {
        BATCH.with(|b| {
            b.borrow()
                .as_ref()
                .is_some_and(|b| b.store == self.id() && !b.writing)
        })
    }

    /// Opens a batch on this thread: until [`Sqlite::finish_batch`], every write the thread
    /// makes runs in one group of the batch's own and returns as soon as it has run, before any
    /// commit; reads go through the writer, so they see those writes (a writing job's first
    /// read opens the batch's group, as its first write would: see [`Sqlite::read`]). The
    /// caller holds back whatever it learnt from them until the batch's commit succeeded, and
    /// runs its work again if it failed (nothing of the batch was kept then). The thread is
    /// marked as the process's only writing thread from now on (see `SOLE_WRITER`).
    ///
    /// A thread holds one batch at a time: finish (or abandon) a batch before opening one on
    /// another store, or the first stays open and that store's writers wait for it for ever.
    pub fn begin_batch(&self) {
        SOLE_WRITER.set(true);
        self.open_batch(false);
    }

    /// Opens a batch on this thread, as [`Sqlite::begin_batch`] does, that never waits for the
    /// write lock, nor for the disk: should this process's writer be in another thread's
    /// batch, another process hold SQLite's lock, or a checkpoint be near (the writer's
    /// catch-up, or SQLite's own: `Sqlite::checkpoint_near`), its first write returns
    /// [`StoreError::TurnedAway`] at once and writes nothing, nor does any later write of the batch,
    /// and [`Sqlite::batch_deferred`] says so. For a command run on a thread that must not
    /// block (the async runtime's: see `bot::workers`'s "Inline"), which then runs it again on
    /// the writing thread. The thread is not marked as the only writing one.
    pub fn begin_quick_batch(&self) {
        self.open_batch(true);
    }

    fn open_batch(&self, quick: bool) {
        let open = Batch {
            store: self.id(),
            group: None,
            after: Vec::new(),
            writing: false,
            quick,
            deferred: false,
        };
        // A batch left open (its caller panicked before finishing it) is undone first.
        self.abandon_batch();
        BATCH.set(Some(open));
    }

    /// Whether a write of the quick batch open on this thread found the lock taken (then nothing
    /// of the batch was written). Clears the mark.
    pub fn batch_deferred(&self) -> bool {
        BATCH.with(|b| {
            b.borrow_mut()
                .as_mut()
                .is_some_and(|b| b.store == self.id() && std::mem::take(&mut b.deferred))
        })
    }

    /// Undoes the batch open on this thread, if any: its group is rolled back and nothing
    /// deferred to its commit runs. For a caller that cannot finish it (it panicked).
    pub fn abandon_batch(&self) {
        let Some(batch) = self.take_batch() else {
            return;
        };
        let Some(group) = batch.group else {
            return;
        };
        let mut guard = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        match guard.open.as_mut() {
            Some(open) if Arc::ptr_eq(&open.group, &group) => {
                // A broken group is rolled back by its close.
                open.broken = true;
                self.close_group(guard);
            }
            _ => drop(guard),
        }
    }

    /// How long the open batch, with `jobs` jobs run, waits for more before it commits, and how
    /// many more end the wait: as a lingering group does ([`LINGER`], [`LINGER_GROUP`]); `None`
    /// when it has written nothing or need not wait.
    pub fn batch_linger(&self, jobs: usize) -> Option<(Duration, usize)> {
        let written = BATCH.with(|b| b.borrow().as_ref().is_some_and(|b| b.group.is_some()));
        if !written {
            return None;
        }
        let wait = self.linger.wait(jobs)?;
        let group = self.linger.group.load(Ordering::Relaxed);
        Some((wait, group.saturating_sub(jobs).max(1)))
    }

    /// Commits the batch open on this thread (see [`Sqlite::begin_batch`]), then runs what was
    /// to run after its commit. On an error none of the batch's writes were kept.
    pub fn finish_batch(&self) -> Result<()> {
        let Some(batch) = self.take_batch() else {
            return Ok(());
        };
        let outcome = match &batch.group {
            None => Ok(()),
            Some(group) => {
                let guard = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
                // Only the batch closes its group; an `OpenGroup` leaves the writer only
                // through `close_group`, which settles it, so the wait below always ends.
                if guard
                    .open
                    .as_ref()
                    .is_some_and(|open| Arc::ptr_eq(&open.group, group))
                {
                    self.close_group(guard);
                } else {
                    drop(guard);
                }
                group.wait()
            }
        };
        match outcome {
            Ok(()) => {
                // The batch is kept whatever these do: a panic here must not look like a
                // failed commit, whose jobs would run again.
                for f in batch.after {
                    if catch_unwind(AssertUnwindSafe(f)).is_err() {
                        tracing::error!("a task after a batch's commit panicked");
                    }
                }
                Ok(())
            }
            Err((_, Some(fault))) => Err(StoreError::Unavailable(fault)),
            Err((why, None)) => Err(StoreError::Commit(why)),
        }
    }

    /// One write of the batch open on this thread: in the batch's group (opened by its first
    /// write or read, waiting for the write lock until `deadline`), returning once `f` has run.
    fn write_in_batch<T, E: From<StoreError>>(
        &self,
        deadline: Instant,
        f: impl FnOnce(&Conn) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut guard = self.batch_group(deadline).map_err(E::from)?;
        let writer = &mut *guard;
        let Some(open) = writer.open.as_mut() else {
            return Err(E::from(batch_ended()));
        };
        set_writing(true);
        let out = Writer::run(&writer.conn, writer.journal.as_ref(), open, f);
        set_writing(false);
        if !matches!(out, Ok(Ok(_))) {
            writer.stale |= self.unhealthy(writer);
        }
        drop(guard);
        match out {
            Err(panic) => resume_unwind(panic),
            Ok(result) => result,
        }
    }

    /// The writer, with the group of the batch open on this thread open on it: opened now if
    /// the batch has none yet (waiting for the write lock until `deadline`, or not at all in a
    /// quick batch, which is turned away instead), else the one its earlier writes or reads
    /// opened. An error if that group can no longer be written to.
    fn batch_group(&self, deadline: Instant) -> Result<MutexGuard<'_, Writer>> {
        let (mine, quick) = BATCH.with(|b| {
            b.borrow()
                .as_ref()
                .map_or((None, false), |b| (b.group.clone(), b.quick))
        });
        // A quick batch turned away writes nothing more (see `begin_quick_batch`).
        let turned_away = || {
            BATCH.with(|b| {
                if let Some(b) = b.borrow_mut().as_mut() {
                    b.deferred = true;
                }
            });
            StoreError::TurnedAway
        };
        if quick
            && mine.is_none()
            && (self.checkpoint_near()
                || BATCH.with(|b| b.borrow().as_ref().is_some_and(|b| b.deferred)))
        {
            return Err(turned_away());
        }
        let mut guard = if quick && mine.is_none() {
            match self.writer.try_lock() {
                Ok(guard) => guard,
                Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner(),
                Err(std::sync::TryLockError::WouldBlock) => return Err(turned_away()),
            }
        } else {
            self.writer.lock().unwrap_or_else(PoisonError::into_inner)
        };
        loop {
            match guard.open.as_ref() {
                Some(open) if mine.as_ref().is_some_and(|g| Arc::ptr_eq(g, &open.group)) => break,
                None => break,
                Some(open) if open.batch && quick => return Err(turned_away()),
                // Another batch's group is left to it; any other group is committed now, so
                // the batch's writes are alone in their group and all kept or none.
                Some(open) if open.batch => {
                    let other = Arc::clone(&open.group);
                    drop(guard);
                    let _ = other.wait();
                }
                Some(_) => self.close_group(guard),
            }
            guard = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        }
        let writer = &mut *guard;
        if writer.open.is_none() {
            if mine.is_some() {
                return Err(batch_ended());
            }
            // A quick batch does not wait for another process's lock.
            let deadline = if quick { Instant::now() } else { deadline };
            match self.begin(writer, deadline) {
                Ok(()) => {}
                Err(StoreError::Busy) if quick => return Err(turned_away()),
                Err(e) => return Err(e),
            }
            let open = OpenGroup::new(true);
            let group = Arc::clone(&open.group);
            BATCH.with(|b| {
                if let Some(b) = b.borrow_mut().as_mut() {
                    b.group = Some(group);
                }
            });
            writer.open = Some(open);
        }
        let Some(open) = writer.open.as_mut() else {
            return Err(batch_ended());
        };
        // The group can only be rolled back now: nothing more is written in it.
        if open.broken || raw(&writer.conn).is_autocommit() {
            open.broken = true;
            return Err(batch_ended());
        }
        Ok(guard)
    }

    /// Commits (or rolls back) the group open on the writer, lets the writer go, and settles
    /// every write of the group with the outcome.
    fn close_group(&self, mut guard: MutexGuard<'_, Writer>) {
        let Some(group) = guard.open.as_ref().map(|open| Arc::clone(&open.group)) else {
            return;
        };
        // The metrics' commit time, only when asked for (`observe_commits`).
        let timer = self.on_commit.get().map(|o| (o, Instant::now()));
        let closed = guard.close();
        let took = timer.map(|(observe, started)| (observe, started.elapsed()));
        if matches!(closed, Some((_, Err(_)))) {
            let writer = &mut *guard;
            writer.stale |= self.unhealthy(writer);
        }
        drop(guard);
        if let Some((jobs, outcome)) = closed {
            if outcome.is_ok() {
                self.committed(jobs as u64);
                if let Some((observe, took)) = took {
                    observe(took);
                }
            }
            group.settle(outcome);
        }
    }

    /// Sets how long a busy writer's group waits for more writes, the size that ends the
    /// wait, and how recent a commit makes the writer busy ([`LINGER`], [`LINGER_GROUP`],
    /// [`BUSY_GAP`]), whatever the write rate ([`LINGER_RATE`]); a zero wait turns lingering
    /// off. For tests.
    #[cfg(test)]
    pub fn set_linger(&self, wait: Duration, group: usize, busy_gap: Duration) {
        self.linger
            .micros
            .store(wait.as_micros() as u64, Ordering::Relaxed);
        self.linger.group.store(group.max(1), Ordering::Relaxed);
        self.linger
            .busy_gap
            .store(busy_gap.as_micros() as u64, Ordering::Relaxed);
        self.linger.from_rate.store(0, Ordering::Relaxed);
    }

    /// Sets the write rate from which groups wait ([`LINGER_RATE`]) and the rate measured, in
    /// writes a second. For tests.
    #[cfg(test)]
    pub fn set_linger_rate(&self, from: u64, measured: u64) {
        self.linger.from_rate.store(from, Ordering::Relaxed);
        self.linger.rate.store(measured, Ordering::Relaxed);
    }

    /// Sets the WAL length from which the writer catches up ([`WAL_RESTART_PAGES`]). For tests.
    #[cfg(test)]
    pub fn set_wal_restart(&self, pages: i64) {
        self.restart_pages.store(pages, Ordering::Relaxed);
    }

    /// Writes now waiting, their group open, for more writes to join it. For tests.
    #[cfg(test)]
    pub fn lingering(&self) -> usize {
        self.lingering.load(Ordering::SeqCst)
    }

    /// Opens a group on `writer`: reconnects first if the last write found the file at fault,
    /// then `BEGIN IMMEDIATE`, waiting for another process's lock until `deadline` at most.
    fn begin(&self, writer: &mut Writer, deadline: Instant) -> Result<()> {
        // The file check of every group, to notice a removed or replaced file before writing
        // into it: the path's `stat` only when the directory's watch saw a change of names (or
        // a full check is due), the connection's read-only state always.
        let quiet = writer.watch.as_mut().is_some_and(DirWatch::quiet);
        let unhealthy = if quiet {
            self.read_only(writer)
        } else {
            self.unhealthy(writer)
        };
        if writer.stale || unhealthy {
            // Until a reopen succeeds: the watch has told what it saw once.
            writer.stale = true;
            self.reopen(writer)?;
        }
        self.catch_up(writer);
        let wait = deadline.saturating_duration_since(Instant::now());
        raw(&writer.conn).busy_timeout(wait)?;
        let begun = sx(&writer.conn, "BEGIN IMMEDIATE");
        raw(&writer.conn).busy_timeout(BUSY_TIMEOUT)?;
        match begun {
            Ok(()) => {
                // Rows a group left unsettled (it never closed) are pending again first.
                writer.settle_folds(false);
                writer.fold();
                Ok(())
            }
            Err(e) if e.is_busy() => Err(StoreError::Busy),
            Err(e) => {
                writer.stale |= self.unhealthy(writer);
                Err(e)
            }
        }
    }

    /// The background checkpoints so far, if the writer's catch-up is due before its next
    /// group (see [`Sqlite::catch_up`]).
    fn catch_up_due(&self) -> Option<u64> {
        let passes = self.checkpoints.load(Ordering::Relaxed);
        let from = self.restart_pages.load(Ordering::Relaxed);
        let due = long_enough_to_restart(self.wal_pages.load(Ordering::Relaxed), from)
            && !self.linger.fast()
            && passes != self.caught_up.load(Ordering::Relaxed);
        due.then_some(passes)
    }

    /// Whether the next group may copy the WAL into the database and sync both files before it
    /// begins (the catch-up) or in its commit (SQLite's own checkpoint: the WAL, when last
    /// measured, was within [`QUICK_BACKSTOP_MARGIN`] pages of [`AUTOCHECKPOINT_BACKSTOP`]).
    /// A quick batch is then turned away: it runs on the caller's thread, which must not wait
    /// for the disk (see `begin_quick_batch`).
    fn checkpoint_near(&self) -> bool {
        self.catch_up_due().is_some()
            || self.wal_pages.load(Ordering::Relaxed)
                >= AUTOCHECKPOINT_BACKSTOP - QUICK_BACKSTOP_MARGIN
    }

    /// Once a background checkpoint has ended with the WAL [`WAL_RESTART_PAGES`] long or more,
    /// copies what was committed during it, so that the next write starts the WAL over; only
    /// while writes come slower than [`LINGER_RATE`] (faster, the writer has no time to spare,
    /// and SQLite's own checkpoint at [`AUTOCHECKPOINT_BACKSTOP`] starts the WAL over).
    fn catch_up(&self, writer: &Writer) {
        let Some(passes) = self.catch_up_due() else {
            return;
        };
        self.caught_up.store(passes, Ordering::Relaxed);
        // PASSIVE: if the checkpointer is at work again, this does nothing and waits for nothing.
        if let Err(e) =
            raw(&writer.conn).query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
        {
            tracing::warn!("the writer's checkpoint failed: {e}");
        }
    }

    /// Whether the writer's connection can no longer write to the file at the store's path: it
    /// is read-only, or the path now names another file, or none.
    fn unhealthy(&self, writer: &Writer) -> bool {
        self.read_only(writer) || file_id(&self.path) != writer.file
    }

    /// Whether the writer's connection is read-only, or was since the store opened (see
    /// `read_only_seen`): no system call.
    fn read_only(&self, writer: &Writer) -> bool {
        if raw(&writer.conn).is_readonly(MAIN_DB).unwrap_or(true) {
            self.read_only_seen.store(true, Ordering::SeqCst);
            return true;
        }
        self.read_only_seen.load(Ordering::SeqCst)
    }

    /// Closes the idle readers and has the lent ones closed when they come back, and has the
    /// checkpointer close its connection (it opens a new one at its next round).
    fn retire_readers(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        let mut pool = self.readers.lock().unwrap_or_else(PoisonError::into_inner);
        pool.generation += 1;
        let idle = std::mem::take(&mut pool.idle);
        pool.open -= idle.len();
        drop(pool);
        drop(idle);
        self.reader_free.notify_all();
        if let Some(tx) = self.checkpoint_sender().as_ref() {
            let _ = tx.try_send(());
        }
    }

    /// Waits, [`CHECKPOINTER_RETIRE_WAIT`] at most, for the checkpointer to close the connection
    /// [`Sqlite::retire_readers`] retired. It runs at the lowest priority: with the cores busy it
    /// closed it only after the writer's new connection had opened, which then still met the
    /// read-only mapping of the WAL index (seen in `faults::a_store_started_on_a_read_only_volume_
    /// writes_once_it_is_writable_again`, beside three busy loops: 1 run in 6 answered
    /// "read-only" once the volume was writable again).
    fn wait_for_checkpointer_to_retire(&self) {
        let target = self.generation.load(Ordering::SeqCst);
        let until = Instant::now() + CHECKPOINTER_RETIRE_WAIT;
        while self.retired.load(Ordering::SeqCst) < target && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Replaces the writer's connection with a new one on the file at the store's path (never
    /// creating it), brings its schema up to date, and, if it is another file than before,
    /// retires the readers and the checkpointer's connection. The old connection stays if the
    /// new one cannot be had.
    fn reopen(&self, writer: &mut Writer) -> Result<()> {
        // The watch first, as at the start (a watch on a directory now gone notes nothing more).
        let watch = DirWatch::new(&self.path);
        let file = file_id(&self.path);
        if file.is_none() {
            return Err(StoreError::Unavailable(Fault::Missing));
        }
        let read_only_seen = self.read_only_seen.load(Ordering::SeqCst);
        if read_only_seen {
            // Every connection of the read-only days goes before the new one opens (see
            // `read_only_seen`); readers lent out now close when they come back.
            self.retire_readers();
            self.wait_for_checkpointer_to_retire();
            let placeholder = Conn::sqlite(rusqlite::Connection::open_in_memory()?);
            drop(std::mem::replace(&mut writer.conn, placeholder));
        }
        let mut conn = connect(&self.path, Role::Writer, false)?;
        self.apply_page_limit(&conn)?;
        if raw(&conn).is_readonly(MAIN_DB).unwrap_or(true) {
            if read_only_seen {
                // Still read-only: the new connection reads as well as the old one did.
                writer.conn = conn;
            }
            self.read_only_seen.store(true, Ordering::SeqCst);
            return Err(StoreError::Unavailable(Fault::ReadOnly));
        }
        migrate(&mut conn)?;
        let moved = file != writer.file;
        writer.conn = conn;
        writer.file = file;
        writer.watch = watch;
        writer.stale = false;
        if moved && !read_only_seen {
            self.retire_readers();
        }
        tracing::info!(path = %self.path.display(), moved, "reopened the database");
        Ok(())
    }

    /// Caps the database at `pages` pages (`PRAGMA max_page_count`), or lifts the cap: a write
    /// that would grow the file past it fails as on a full disk ([`Fault::Full`]). The fault
    /// Has `observer` told the time of every successful group commit from now on (once per
    /// store; a second observer is ignored). Without one, a commit is not timed at all.
    pub fn observe_commits(&self, observer: super::CommitObserver) {
        let _ = self.on_commit.set(observer);
    }

    /// tests simulate a full disk with it; the cap holds across reconnections.
    pub fn limit_pages(&self, pages: Option<u32>) -> Result<()> {
        self.page_limit
            .store(pages.map_or(0, i64::from), Ordering::SeqCst);
        let writer = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        self.apply_page_limit(&writer.conn)
    }

    fn apply_page_limit(&self, conn: &Conn) -> Result<()> {
        // SQLite's own ceiling when there is no cap.
        let pages = match self.page_limit.load(Ordering::SeqCst) {
            0 => 0xFFFF_FFFE,
            n => n,
        };
        raw(conn).query_row(&format!("PRAGMA max_page_count = {pages}"), [], |_| Ok(()))?;
        Ok(())
    }

    /// Counts `jobs` committed writes and, every [`CHECKPOINT_EVERY`], wakes the checkpointer
    /// (outside the writer lock; if it is still busy with the last one, the wake-up is dropped).
    fn committed(&self, jobs: u64) {
        self.read_only_seen.store(false, Ordering::SeqCst);
        self.groups.fetch_add(1, Ordering::Relaxed);
        let before = self.commits.fetch_add(jobs, Ordering::Relaxed);
        self.linger.committed(self.linger.now(), before + jobs);
        let every = self.checkpoint_every;
        if before / every != (before + jobs) / every
            && let Some(tx) = self.checkpoint_sender().as_ref()
        {
            let _ = tx.try_send(());
        }
    }

    fn checkpoint_sender(&self) -> MutexGuard<'_, Option<SyncSender<()>>> {
        self.checkpoint
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Copies the database to `dest` with SQLite's online backup API, while others keep writing.
    pub fn backup(&self, dest: &Path) -> Result<()> {
        self.read(|conn| {
            let mut target = Connection::open(dest)?;
            let backup = rusqlite::backup::Backup::new(raw(conn), &mut target)?;
            backup.run_to_completion(256, Duration::from_millis(5), None)?;
            Ok(())
        })
    }
}

/// The error of a write or read of a batch whose group can no longer be written to: an
/// earlier write of the batch failed (the batch runs again, each of its jobs alone).
fn batch_ended() -> StoreError {
    StoreError::Commit("an earlier write of this batch failed".to_owned())
}

impl Sqlite {
    /// Starts this process's roll journal (see `super::journal`), unless `setting`
    /// (`REFEREE_ROLL_JOURNAL`) turns it off; whether it runs. Once, before the store is shared.
    pub fn start_journal(&self, setting: Option<&str>) -> Result<bool> {
        if !journal::enabled(setting) {
            return Ok(false);
        }
        if self.journal.get().is_some() {
            return Ok(true);
        }
        let started = Arc::new(Journal::create(&self.path)?);
        self.writer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .journal = Some(Arc::clone(&started));
        let _ = self.journal.set(started);
        Ok(true)
    }

    /// A write of the journal's own (a fold, a lease), whatever job the calling thread runs: of
    /// no one guild, allowed to write, waiting for the lock until `deadline` (else the writes'
    /// own wait).
    fn journal_write<T>(
        &self,
        deadline: Option<Instant>,
        f: impl FnOnce(&Conn) -> Result<T>,
    ) -> Result<T> {
        let job = Job {
            deadline,
            ..Job::default()
        };
        with_job(job, || self.write(f))
    }

    /// The journal, while it takes rolls.
    fn live_journal(&self) -> Option<&Arc<Journal>> {
        self.journal.get().filter(|j| j.takes_rolls())
    }

    /// Whether log-only rolls go to the journal now.
    pub fn journaling(&self) -> bool {
        self.live_journal().is_some()
    }

    /// Appends a log-only roll to the journal and returns its id; `None` when the journal takes
    /// no rolls now, or holds none of the guild's ids yet (the roll is then written as any
    /// other, and the folding thread leases the guild's next ids). Never waits for the writer.
    pub fn journal_roll(&self, roll: &journal::NewEntry<'_>) -> Result<Option<i64>> {
        let Some(journal) = self.live_journal() else {
            return Ok(None);
        };
        journal.append(roll)
    }

    /// Leases the next block of ids of every guild the journal wants, in one write (whose group
    /// also folds what is pending), and publishes them once committed.
    fn lease_wanted(&self, journal: &Journal) {
        let wanted = journal.wanted();
        if wanted.is_empty() {
            return;
        }
        let holder = journal.holder();
        // Published by the group's commit (`Writer::settle_folds`), or asked for again.
        let leased = self.journal_write(None, |conn| {
            let leased = wanted
                .iter()
                .map(|&guild| journal::take_lease(conn, guild, holder).map(|(f, l)| (guild, f, l)))
                .collect::<Result<Vec<_>>>()?;
            // Staged last, once nothing of this write can fail (a failure rolls back its
            // savepoint, and the group it is in may still commit).
            for (guild, first, last) in leased {
                journal.stage_lease(guild, first, last);
            }
            Ok(())
        });
        if let Err(e) = leased {
            tracing::warn!(error = %e, "cannot lease roll ids for the journal");
        }
    }

    /// Folds every row appended so far into the database: an empty write, whose group folds
    /// what is pending when it begins and again before it commits, waiting for the write lock
    /// until `deadline` at most. A failure is logged, and the rows stay pending.
    pub fn settle_journal_by(&self, deadline: Option<Instant>) {
        let Some(journal) = self.journal.get() else {
            return;
        };
        if journal::in_write() {
            return;
        }
        let target = journal.appended();
        for _ in 0..3 {
            if journal.folded() >= target {
                return;
            }
            // With a deadline (a read's), not behind a group that holds the writer past it (one
            // waiting for another program's lock, say): the read goes on without the newest rolls.
            if let Some(deadline) = deadline {
                while matches!(
                    self.writer.try_lock(),
                    Err(std::sync::TryLockError::WouldBlock)
                ) {
                    if Instant::now() >= deadline {
                        return;
                    }
                    std::thread::sleep(Duration::from_micros(50));
                }
            }
            if let Err(e) = self.journal_write(deadline, |_| Ok(())) {
                tracing::warn!(error = %e, "cannot fold the roll journal");
                return;
            }
        }
    }

    /// [`Sqlite::settle_journal_by`] with the writes' own wait for the lock ([`WRITE_WAIT`]).
    pub fn settle_journal(&self) {
        self.settle_journal_by(None);
    }

    /// The journal's folding thread's step: waits up to `wait` for rows, lets more gather for
    /// [`journal::FOLD_EVERY`] (`REFEREE_JOURNAL_FOLD_MICROS`), and folds them. `false` once
    /// the journal is closed (or none runs).
    pub fn fold_journal(&self, wait: Duration) -> bool {
        let Some(journal) = self.journal.get() else {
            return false;
        };
        if journal.is_closed() {
            return false;
        }
        if journal.wait_for_rows(wait) {
            std::thread::sleep(journal.fold_every);
            self.lease_wanted(journal);
            self.settle_journal();
        } else {
            self.lease_wanted(journal);
            journal.retry();
        }
        !journal.is_closed()
    }

    /// Closes the journal: no more rolls, every row folded, the process's leases dropped and its
    /// file removed. Rows that cannot be folded now stay in the file, for the next process to
    /// open the database to replay.
    pub fn close_journal(&self) {
        let Some(journal) = self.journal.get() else {
            return;
        };
        if journal.is_closed() {
            return;
        }
        journal.close();
        // Bounded, so that a shutdown does not wait on another program's lock for long: rows
        // left unfolded stay in the file for the next start to replay.
        let deadline = Instant::now() + WRITE_WAIT;
        self.settle_journal_by(Some(deadline));
        if journal.unfolded() != 0 {
            tracing::error!(
                rows = journal.unfolded(),
                "rolls not folded into the database at shutdown; the next start replays them"
            );
            return;
        }
        let holder = journal.holder();
        let released = self.journal_write(Some(deadline), |conn| {
            journal::release(conn, holder)?;
            // Inside the transaction that drops them: no write of this process takes an id
            // from a lease that is gone.
            journal.forget_leases();
            Ok(())
        });
        match released {
            Ok(()) => journal.remove_files(),
            Err(e) => tracing::warn!(error = %e, "cannot drop the roll journal's id leases"),
        }
    }
}

impl Drop for Sqlite {
    fn drop(&mut self) {
        self.close_journal();
        // Closing the channel ends the checkpointer's loop; wait for it so its connection is
        // closed before the file may be removed.
        self.checkpoint_sender().take();
        let handle = self
            .checkpointer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(handle) = handle {
            let _ = handle.join();
        }
    }
}

/// Replays the roll journals of processes that are gone (see `super::journal`), in one
/// transaction on the writer before anything else writes. A failure is logged: the files stay
/// for the next open.
fn replay_journals(conn: &Conn, path: &Path) {
    let dir = journal::dir_of(path);
    if !dir.exists() {
        return;
    }
    let replay = || -> Result<journal::Replayed> {
        sx(conn, "BEGIN IMMEDIATE")?;
        let replayed = journal::replay(conn, &dir).and_then(|r| sx(conn, "COMMIT").map(|()| r));
        if replayed.is_err() && !raw(conn).is_autocommit() {
            let _ = sx(conn, "ROLLBACK");
        }
        replayed
    };
    match replay() {
        Ok(replayed) => {
            if replayed.rows > 0 {
                tracing::info!(
                    rows = replayed.rows,
                    "replayed the roll journal of a process that stopped without folding it"
                );
            }
            replayed.remove();
        }
        Err(e) => tracing::warn!(error = %e, dir = %dir.display(), "cannot replay roll journals"),
    }
}

/// Opens a connection with the pragmas every connection of the store has, and the caches of its
/// role.
fn connect(path: &Path, role: Role, create: bool) -> Result<Conn> {
    let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    if create {
        flags |= OpenFlags::SQLITE_OPEN_CREATE;
    }
    let conn = Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // Before WAL mode, which writes the header of a new file: a new database gets small pages
    // (an existing one keeps its own). Only a connection that may create the file can meet a
    // new one.
    if create {
        conn.pragma_update(None, "page_size", PAGE_SIZE)?;
    }
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", true)?;
    conn.pragma_update(None, "temp_store", "MEMORY")?;
    conn.pragma_update(None, "wal_autocheckpoint", AUTOCHECKPOINT_BACKSTOP)?;
    let (cache_kib, statements) = match role {
        Role::Reader => (READER_CACHE_KIB, STATEMENT_CACHE),
        Role::Writer => (WRITER_CACHE_KIB, STATEMENT_CACHE),
        // A checkpoint copies pages through its own buffer; it needs neither cache.
        Role::Checkpointer => (64, 2),
    };
    // A negative cache_size is in KiB.
    conn.pragma_update(None, "cache_size", -cache_kib)?;
    conn.set_prepared_statement_cache_capacity(statements);
    Ok(Conn::sqlite(conn))
}

/// The SQLite connection of one of this backend's connections (never a PostgreSQL one).
pub(super) fn raw(conn: &Conn) -> &Connection {
    conn.as_sqlite()
        .expect("the SQLite backend only holds SQLite connections")
}

/// Runs one statement without parameters through the statement cache (transaction control).
fn sx(conn: &Conn, sql: &str) -> Result<()> {
    raw(conn).prepare_cached(sql)?.execute([])?;
    Ok(())
}

/// The writer's first connection, the schema brought up to date. Two processes starting on one
/// file at once can meet SQLite's deadlock avoidance (a read lock that cannot become a write
/// lock fails at once, without the busy handler): a busy start is tried again, for up to
/// [`BUSY_TIMEOUT`].
fn open_writer(path: &Path) -> Result<Conn> {
    let deadline = Instant::now() + BUSY_TIMEOUT;
    loop {
        let attempt = connect(path, Role::Writer, true).and_then(|mut c| {
            migrate(&mut c)?;
            Ok(c)
        });
        match attempt {
            Err(e) if e.is_busy() && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20));
            }
            other => return other,
        }
    }
}

/// Brings the SQLite schema up to date.
fn migrate(conn: &mut Conn) -> Result<()> {
    let Some(c) = conn.as_sqlite_mut() else {
        return Err(StoreError::Unsupported(
            "not a SQLite connection".to_owned(),
        ));
    };
    // Two processes opening a new file together both find it at version 0; the second to write
    // fails ("table already exists") while the first migrates. A failure is tried again a
    // moment later, until the file is at the latest version (the other process did it) or the
    // tries run out (a real failure, reported).
    let latest = std::num::NonZeroUsize::new(latest_version());
    let mut attempt = 0;
    loop {
        match MIGRATIONS.to_latest(c) {
            Ok(()) => return Ok(()),
            Err(e) => {
                attempt += 1;
                let done = latest.is_some_and(|latest| {
                    MIGRATIONS.current_version(c).ok()
                        == Some(rusqlite_migration::SchemaVersion::Inside(latest))
                });
                if done {
                    return Ok(());
                }
                if attempt >= 100 {
                    return Err(e.into());
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

/// The schema version the code expects (the number of migrations).
pub(super) fn latest_version() -> usize {
    MIGRATIONS_DIR.dirs().count()
}

/// The embedded `migrations/` folder (each `NN-name/` has `up.sql` and `postgres.sql`).
pub(super) fn migrations_dir() -> &'static Dir<'static> {
    &MIGRATIONS_DIR
}

/// Whether a WAL `pages` long calls for the writer's catch-up, whose length is `restart` (0:
/// never; see [`WAL_RESTART_PAGES`]). The checkpointer syncs the database file by the same rule.
fn long_enough_to_restart(pages: i64, restart: i64) -> bool {
    restart != 0 && pages >= restart
}

/// The identity of the file at `path` (device and inode), or `None` when there is none.
fn file_id(path: &Path) -> Option<(u64, u64)> {
    Some(id_of(&std::fs::metadata(path).ok()?))
}

/// [`file_id`] of an open file.
fn open_file_id(file: &std::fs::File) -> Option<(u64, u64)> {
    Some(id_of(&file.metadata().ok()?))
}

/// A file's identity (device and inode) from its metadata.
fn id_of(meta: &std::fs::Metadata) -> (u64, u64) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        (meta.dev(), meta.ino())
    }
    #[cfg(not(unix))]
    {
        (0, u64::from(meta.is_file()))
    }
}

/// What the checkpointer thread shares with its store.
struct Checkpointing {
    /// Background checkpoints completed.
    done: Arc<AtomicU64>,
    /// The WAL's length in pages when the last one ended.
    wal_pages: Arc<AtomicI64>,
    /// Bumped when the store reopens the file: the checkpointer reconnects.
    generation: Arc<AtomicU64>,
    /// The last `generation` whose connection the checkpointer has closed.
    retired: Arc<AtomicU64>,
    /// The database files it syncs ([`Sqlite::_files`]).
    files: Arc<Mutex<Vec<std::fs::File>>>,
    /// Syncs of the database file it has made.
    synced: Arc<AtomicU64>,
    /// [`WAL_RESTART_PAGES`], as the store has it.
    restart_pages: Arc<AtomicI64>,
}

/// Starts the thread that checkpoints the WAL whenever it is woken. It reconnects after a
/// failed checkpoint and when the store reopens the file (`generation` changes).
///
/// The thread runs at the lowest priority (on Linux, where a thread has a nice value of its
/// own): a pass wakes after hundreds of milliseconds asleep and works for about a millisecond,
/// and at normal priority the scheduler let it run on while the threads answering commands
/// (and, in the benchmark, the fake Discord sending them) waited for its core — a cluster of
/// slow answers every pass (seen with `perf sched timehist`: the fake's thread runnable but
/// waiting 0.59 ms while the pass ran 0.58 ms).
///
/// After the pass that leaves the WAL long enough for the writer to catch up (see
/// [`WAL_RESTART_PAGES`]), and before it tells the writer so, it syncs the database file
/// (`fdatasync`, on a file of its own: [`Sqlite::_files`]): the catch-up, which waits for the
/// database file's sync while every write waits for it, then finds only its own few pages to
/// write rather than every page the passes copied since the WAL last started over. One sync
/// per WAL, as before, so the bytes written per roll stay as they were.
fn start_checkpointer(
    path: &Path,
    shared: Checkpointing,
) -> Result<(SyncSender<()>, JoinHandle<()>)> {
    let mut conn = Some(connect(path, Role::Checkpointer, false)?);
    let mut file = kept_file(path, &shared.files);
    let mut seen = shared.generation.load(Ordering::SeqCst);
    let path = path.to_owned();
    // One pending wake-up is enough: a checkpoint copies everything committed before it starts.
    let (tx, rx) = mpsc::sync_channel::<()>(1);
    let handle = std::thread::Builder::new()
        .name("referee-checkpoint".into())
        .spawn(move || {
            lowest_priority();
            // Whether the database file was synced since the WAL was last shorter than the
            // catch-up's length.
            let mut synced_this_wal = false;
            while rx.recv().is_ok() {
                let now = shared.generation.load(Ordering::SeqCst);
                if now != seen {
                    // The file was reopened: this connection closes now, and the next round
                    // opens one on the file as it is then (see `Sqlite::retire_readers`).
                    seen = now;
                    conn = None;
                    shared.retired.store(now, Ordering::SeqCst);
                    continue;
                }
                if conn.is_none() {
                    conn = connect(&path, Role::Checkpointer, false).ok();
                    file = kept_file(&path, &shared.files);
                }
                let Some(c) = conn.as_ref() else {
                    tracing::warn!("background checkpoint skipped: cannot open the database");
                    continue;
                };
                // PASSIVE never waits for readers or the writer: it copies what it can now and
                // leaves the rest for the next round.
                let result = raw(c).query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, i64>(2)?,
                    ))
                });
                match result {
                    Ok((_, log, _)) => {
                        // Before the pass is told: the writer's catch-up follows it at once.
                        let restart = shared.restart_pages.load(Ordering::Relaxed);
                        let due = long_enough_to_restart(log, restart);
                        if due && !synced_this_wal && sync_file(&shared.files, file) {
                            shared.synced.fetch_add(1, Ordering::Relaxed);
                        }
                        synced_this_wal = due;
                        shared.wal_pages.store(log, Ordering::Relaxed);
                        shared.done.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(e) => {
                        tracing::warn!("background checkpoint failed: {e}");
                        conn = None;
                    }
                }
            }
        })
        .map_err(|e| StoreError::Corrupt(format!("cannot start the checkpoint thread: {e}")))?;
    Ok((tx, handle))
}

/// Gives the calling thread the lowest scheduling priority there is for it (nice 19), on
/// Linux; elsewhere a nice value belongs to the whole process, so nothing changes.
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    if let Err(e) = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 19) {
        tracing::debug!("the checkpointer keeps its priority: {e}");
    }
}

/// The index in `files` of an open file of the database at `path`, opening and keeping one if
/// none of them is that file; `None` if it cannot be opened. A kept file is never closed
/// before the store is dropped: closing any descriptor of a file drops every POSIX lock the
/// process holds on it, SQLite's among them.
fn kept_file(path: &Path, files: &Mutex<Vec<std::fs::File>>) -> Option<usize> {
    let id = file_id(path)?;
    let mut files = files.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(i) = files.iter().position(|f| open_file_id(f) == Some(id)) {
        return Some(i);
    }
    files.push(std::fs::File::open(path).ok()?);
    Some(files.len() - 1)
}

/// Syncs the kept file `index` of `files` (see [`start_checkpointer`]); whether it did.
fn sync_file(files: &Mutex<Vec<std::fs::File>>, index: Option<usize>) -> bool {
    let files = files.lock().unwrap_or_else(PoisonError::into_inner);
    let Some(file) = index.and_then(|i| files.get(i)) else {
        return false;
    };
    match file.sync_data() {
        Ok(()) => true,
        Err(e) => {
            tracing::debug!("syncing the database file after a checkpoint failed: {e}");
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{exec, params};

    #[test]
    fn migrations_are_valid() {
        MIGRATIONS.validate().unwrap();
        assert!(latest_version() >= 1);
    }

    fn temp_store() -> (tempfile::TempDir, Sqlite) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Sqlite::open(&dir.path().join("t.sqlite3")).expect("open");
        (dir, store)
    }

    #[test]
    fn the_writer_has_the_same_pragmas_as_readers() {
        let (_dir, store) = temp_store();
        let pragmas = |c: &Conn| -> Result<(String, i64, i64, i64)> {
            Ok((
                raw(c).query_row("PRAGMA journal_mode", [], |r| r.get(0))?,
                raw(c).query_row("PRAGMA synchronous", [], |r| r.get(0))?,
                raw(c).query_row("PRAGMA foreign_keys", [], |r| r.get(0))?,
                raw(c).query_row("PRAGMA busy_timeout", [], |r| r.get(0))?,
            ))
        };
        let read = store.read(pragmas).expect("read");
        let written = store.write(|tx| pragmas(tx)).expect("write");
        assert_eq!(read, ("wal".to_owned(), 1, 1, 5000));
        assert_eq!(written, read);
    }

    #[test]
    fn readers_stay_within_the_bound_under_many_threads() {
        let (_dir, store) = temp_store();
        let store = Arc::new(store);
        let most = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let threads: Vec<_> = (0..4 * store.max_readers())
            .map(|_| {
                let store = Arc::clone(&store);
                let most = Arc::clone(&most);
                std::thread::spawn(move || {
                    for _ in 0..20 {
                        let one: i64 = store
                            .read(|c| {
                                let open = store.readers.lock().expect("pool").open;
                                most.fetch_max(open, Ordering::Relaxed);
                                Ok(raw(c).query_row("SELECT 1", [], |r| r.get(0))?)
                            })
                            .expect("read");
                        assert_eq!(one, 1);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().expect("reader thread");
        }
        let most = most.load(Ordering::Relaxed);
        assert!(most >= 1, "no reader was opened");
        assert!(
            most <= store.max_readers(),
            "{most} readers open at once, bound {}",
            store.max_readers()
        );
        let pool = store.readers.lock().expect("pool");
        assert_eq!(pool.idle.len(), pool.open, "every reader came back");
    }

    #[test]
    fn a_read_with_every_reader_lent_gets_an_extra_one() {
        let (_dir, store) = temp_store();
        let store = Arc::new(store);
        let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
        let release_rx = Arc::new(Mutex::new(release_rx));
        let (held_tx, held_rx) = std::sync::mpsc::channel::<()>();
        let holders: Vec<_> = (0..store.max_readers())
            .map(|_| {
                let store = Arc::clone(&store);
                let release = Arc::clone(&release_rx);
                let held = held_tx.clone();
                std::thread::spawn(move || {
                    store
                        .read(|_| {
                            held.send(()).expect("test alive");
                            let rx = release.lock().expect("release lock");
                            let _ = rx.recv_timeout(Duration::from_secs(30));
                            Ok(())
                        })
                        .expect("held read");
                })
            })
            .collect();
        for _ in 0..store.max_readers() {
            held_rx
                .recv_timeout(Duration::from_secs(10))
                .expect("every reader lent within 10 s");
        }
        // Like a writer that reads while the readers' threads wait for it: it must not hang.
        let (tx, rx) = std::sync::mpsc::channel();
        let s = Arc::clone(&store);
        std::thread::spawn(move || {
            let _ =
                tx.send(s.read(|c| Ok(raw(c).query_row("SELECT 3", [], |r| r.get::<_, i64>(0))?)));
        });
        let three = rx
            .recv_timeout(READER_WAIT + Duration::from_secs(10))
            .expect("the extra reader answered")
            .expect("read");
        assert_eq!(three, 3);
        for _ in 0..store.max_readers() {
            let _ = release_tx.send(());
        }
        for h in holders {
            h.join().expect("holder");
        }
        let pool = store.readers.lock().expect("pool");
        assert_eq!(
            pool.open,
            store.max_readers(),
            "the extra reader was closed"
        );
    }

    #[test]
    fn a_panicking_reader_gives_its_connection_back() {
        let (_dir, store) = temp_store();
        let store = Arc::new(store);
        for _ in 0..=store.max_readers() {
            let s = Arc::clone(&store);
            let panicked =
                std::thread::spawn(move || s.read(|_| -> Result<()> { panic!("a bug in a read") }))
                    .join();
            assert!(panicked.is_err(), "the read should have panicked");
        }
        // Had each panic kept its connection, this read would wait forever: bound it.
        let (tx, rx) = std::sync::mpsc::channel();
        let s = Arc::clone(&store);
        std::thread::spawn(move || {
            let _ =
                tx.send(s.read(|c| Ok(raw(c).query_row("SELECT 2", [], |r| r.get::<_, i64>(0))?)));
        });
        let two = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("a reader was free within 10 s")
            .expect("read");
        assert_eq!(two, 2);
    }

    /// A table for the group-commit tests; `child.parent` is checked only at COMMIT.
    fn group_store() -> (tempfile::TempDir, Arc<Sqlite>) {
        let (dir, store) = temp_store();
        store
            .write(|c| {
                Ok::<_, StoreError>(raw(c).execute_batch(
                    "CREATE TABLE t (x INTEGER PRIMARY KEY);
                     CREATE TABLE child (x INTEGER REFERENCES t (x) DEFERRABLE INITIALLY DEFERRED);",
                )?)
            })
            .expect("create");
        (dir, Arc::new(store))
    }

    fn insert(store: &Sqlite, x: i64) -> Result<()> {
        store.write(|c| {
            raw(c).execute("INSERT INTO t (x) VALUES (?1)", [x])?;
            Ok(())
        })
    }

    // The write rate from which groups wait (`LINGER_RATE`, `RATE_WINDOW`): measured from the
    // commits themselves, over whole windows.

    #[test]
    fn writes_per_second_is_the_count_over_the_span() {
        for (writes, span, rate) in [
            (6_000, 1_000_000, 6_000),
            (5_999, 1_000_000, 5_999),
            (6_000, 1_000_001, 5_999),
            (12_000, 2_000_000, 6_000),
            (1, 1_000_000, 1),
            (0, 1_000_000, 0),
            (5, 0, 0),
            (u64::MAX, 1, u64::MAX),
        ] {
            assert_eq!(
                writes_per_second(writes, span),
                rate,
                "{writes} writes over {span} µs"
            );
        }
    }

    #[test]
    fn the_rate_groups_go_by_is_a_whole_windows() {
        let linger = Linger::new();
        let window = RATE_WINDOW.as_micros() as u64;
        // The first window began at the epoch: nothing measured before it ends.
        linger.committed(10, 1);
        assert_eq!(linger.rate.load(Ordering::Relaxed), 0);
        linger.committed(window - 1, 7_000);
        assert_eq!(
            linger.rate.load(Ordering::Relaxed),
            0,
            "a window not yet over"
        );
        // Just over: its writes over its span; the next window begins here.
        linger.committed(window, 7_001);
        assert_eq!(linger.rate.load(Ordering::Relaxed), 7_001);
        // A burst (a stall's writes at once) inside the next window changes nothing until it
        // ends, and then counts over the whole window.
        linger.committed(window + 1_000, 8_001);
        assert_eq!(linger.rate.load(Ordering::Relaxed), 7_001);
        linger.committed(2 * window, 12_001);
        assert_eq!(linger.rate.load(Ordering::Relaxed), 5_000);
        // After a quiet spell, the first commit ends a long window: a slow rate.
        linger.committed(12 * window, 12_011);
        assert_eq!(linger.rate.load(Ordering::Relaxed), 1);
        assert_eq!(linger.last_commit.load(Ordering::Relaxed), 12 * window);
    }

    #[test]
    fn a_busy_writers_group_waits_only_at_the_linger_rate_or_faster() {
        let linger = Linger::new();
        linger.micros.store(1_000, Ordering::Relaxed);
        linger.group.store(6, Ordering::Relaxed);
        linger.busy_gap.store(u64::MAX, Ordering::Relaxed);
        linger.from_rate.store(LINGER_RATE, Ordering::Relaxed);
        linger.last_commit.store(1, Ordering::Relaxed);
        let wait = Some(Duration::from_millis(1));
        for (rate, jobs, expected) in [
            (LINGER_RATE - 1, 1, None),
            (LINGER_RATE, 1, wait),
            (LINGER_RATE + 1, 5, wait),
            // A full group never waits.
            (LINGER_RATE, 6, None),
            (0, 1, None),
        ] {
            linger.rate.store(rate, Ordering::Relaxed);
            assert_eq!(
                linger.wait(jobs),
                expected,
                "{rate} writes/s, {jobs} in the group"
            );
        }
        // Not busy (no commit yet): no wait, whatever the rate.
        linger.last_commit.store(0, Ordering::Relaxed);
        linger.rate.store(LINGER_RATE * 2, Ordering::Relaxed);
        assert_eq!(linger.wait(1), None);
        // A zero rate setting: waits whatever the rate; a zero wait: never.
        linger.last_commit.store(1, Ordering::Relaxed);
        linger.from_rate.store(0, Ordering::Relaxed);
        linger.rate.store(0, Ordering::Relaxed);
        assert_eq!(linger.wait(1), wait);
        linger.micros.store(0, Ordering::Relaxed);
        assert_eq!(linger.wait(1), None);
    }

    #[test]
    fn a_batch_lingers_only_once_writes_come_at_the_linger_rate() {
        let (_dir, store) = group_store();
        store.set_linger(Duration::from_millis(1), 6, Duration::from_mins(10));
        // Measured below the rate: the busy batch commits at once.
        store.set_linger_rate(LINGER_RATE, LINGER_RATE - 1);
        store.begin_batch();
        insert(&store, 1).expect("a write");
        assert_eq!(store.batch_linger(1), None);
        store.finish_batch().expect("commit");
        // At the rate: it waits, until as many more have come as end the wait.
        store.set_linger_rate(LINGER_RATE, LINGER_RATE);
        store.begin_batch();
        insert(&store, 2).expect("a write");
        assert_eq!(store.batch_linger(1), Some((Duration::from_millis(1), 5)));
        store.finish_batch().expect("commit");
        assert_eq!(committed_rows(&store, "t"), vec![1, 2]);
    }

    #[test]
    fn a_busy_writers_lone_write_waits_for_another_and_they_commit_together() {
        let (_dir, store) = group_store();
        insert(&store, 1).expect("a first write");
        // From now on: a wait no test outlasts, a group of two ends it, and any commit makes
        // the writer busy.
        store.set_linger(Duration::from_mins(1), 2, Duration::from_mins(10));
        let (commits, groups) = store.commit_counts();
        let lingering = Arc::clone(&store);
        let first = std::thread::spawn(move || insert(&lingering, 2));
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while store.lingering() == 0 {
            assert!(
                std::time::Instant::now() < deadline,
                "no write lingered within 10 s"
            );
            std::thread::yield_now();
        }
        assert!(
            rows(&store, "t") == vec![1],
            "a lingering write is not committed yet"
        );
        insert(&store, 3).expect("the write that joins it");
        first
            .join()
            .expect("no panic")
            .expect("the lingering write");
        assert_eq!(rows(&store, "t"), vec![1, 2, 3]);
        assert_eq!(
            store.commit_counts(),
            (commits + 2, groups + 1),
            "one commit for both"
        );
        assert_eq!(store.lingering(), 0);
    }

    /// Bursts of writes from many threads, each burst waited for before the next (as the
    /// delivery tests dispatch windows of interactions): every group a write leaves open must
    /// be closed by someone, or the burst never ends. A lingering write that re-queued once left
    /// a newer group to nobody; this test then hung (it fails after 60 s instead).
    #[test]
    fn bursts_of_lingering_writes_always_finish() {
        const THREADS: usize = 8;
        const BURSTS: usize = 150;
        let (_dir, store) = group_store();
        // Short waits, so that waits run out while other writes come and go.
        store.set_linger(Duration::from_micros(50), 6, Duration::from_mins(10));
        let barrier = Arc::new(std::sync::Barrier::new(THREADS));
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        for t in 0..THREADS {
            let (store, barrier, done) =
                (Arc::clone(&store), Arc::clone(&barrier), done_tx.clone());
            std::thread::spawn(move || {
                for burst in 0..BURSTS {
                    let x = i64::try_from(burst * THREADS + t).expect("small");
                    insert(&store, x).expect("a write");
                    barrier.wait();
                }
                let _ = done.send(());
            });
        }
        for _ in 0..THREADS {
            done_rx
                .recv_timeout(Duration::from_mins(1))
                .expect("every burst of writes finished (a group was left open to nobody)");
        }
        assert_eq!(rows(&store, "t").len(), THREADS * BURSTS);
    }

    #[test]
    fn a_lingering_write_nobody_joins_commits_once_its_wait_is_over() {
        let (_dir, store) = group_store();
        store.set_linger(Duration::from_millis(1), 10, Duration::from_mins(10));
        for x in 1..=5 {
            insert(&store, x).expect("a write");
        }
        assert_eq!(rows(&store, "t"), vec![1, 2, 3, 4, 5]);
        assert_eq!(store.commit_counts().0, 6, "the table, then five rows");
        // Off: a write commits at once.
        store.set_linger(Duration::ZERO, 10, Duration::from_mins(10));
        insert(&store, 6).expect("a write");
        assert_eq!(rows(&store, "t").len(), 6);
    }

    /// A quick batch never waits for the write lock: while another connection holds it (as
    /// another process would), its write is turned away at once — `TurnedAway`, marked deferred,
    /// nothing written, and so is every later write until the mark is read — where a batch of the
    /// writing thread waits for the lock until its deadline. Once the lock is free it writes
    /// and commits like any batch.
    #[test]
    fn a_quick_batch_is_turned_away_from_a_taken_lock_and_writes_nothing() {
        let (_dir, store) = group_store();
        let other = Connection::open(store.path()).expect("another connection");
        other
            .execute_batch("BEGIN IMMEDIATE")
            .expect("the other connection takes the write lock");

        store.begin_quick_batch();
        assert!(matches!(insert(&store, 1), Err(StoreError::TurnedAway)));
        other.execute_batch("ROLLBACK").expect("the lock is free");
        assert!(
            matches!(insert(&store, 2), Err(StoreError::TurnedAway)),
            "a command turned away writes nothing more"
        );
        assert!(store.batch_deferred(), "the command was turned away");
        assert!(!store.batch_deferred(), "asking clears the mark");
        store.finish_batch().expect("nothing to commit");
        assert_eq!(rows(&store, "t"), Vec::<i64>::new());

        store.begin_quick_batch();
        insert(&store, 3).expect("the lock is free");
        assert!(!store.batch_deferred());
        store.finish_batch().expect("committed");
        assert_eq!(rows(&store, "t"), vec![3]);
    }

    /// Nor does a quick batch wait for the disk: while the writer's catch-up is due (a
    /// background checkpoint has ended with the WAL at least `WAL_RESTART_PAGES` long, writes
    /// come slower than `LINGER_RATE`, and the writer has not caught up with that checkpoint)
    /// or the WAL was last measured within `QUICK_BACKSTOP_MARGIN` pages of SQLite's own
    /// checkpoint (`AUTOCHECKPOINT_BACKSTOP`), its write is turned away and writes nothing; a
    /// batch of the writing thread writes, catching up first. Either side of each threshold.
    #[test]
    fn a_quick_batch_is_turned_away_while_a_checkpoint_is_near() {
        let near = AUTOCHECKPOINT_BACKSTOP - QUICK_BACKSTOP_MARGIN;
        // (restart length, WAL pages last measured, checkpoints the writer caught up with of
        // 1, the measured write rate; whether the quick batch is turned away)
        for (restart, wal, caught_up, rate, turned) in [
            (100, 100, 0, LINGER_RATE - 1, true),
            (100, 99, 0, LINGER_RATE - 1, false),
            (100, 100, 1, LINGER_RATE - 1, false),
            (100, 100, 0, LINGER_RATE, false),
            (0, 100, 0, LINGER_RATE - 1, false),
            (0, near - 1, 0, LINGER_RATE, false),
            (0, near, 0, LINGER_RATE, true),
        ] {
            let case = format!("restart {restart}, wal {wal}, caught up {caught_up}, {rate}/s");
            let (_dir, store) = group_store();
            store.set_wal_restart(restart);
            store.set_linger_rate(LINGER_RATE, rate);
            store.checkpoints.store(1, Ordering::Relaxed);
            store.caught_up.store(caught_up, Ordering::Relaxed);
            store.wal_pages.store(wal, Ordering::Relaxed);

            store.begin_quick_batch();
            let wrote = insert(&store, 1);
            assert_eq!(store.batch_deferred(), turned, "{case}");
            assert_eq!(
                matches!(wrote, Err(StoreError::TurnedAway)),
                turned,
                "{case}"
            );
            store
                .finish_batch()
                .expect("committed, or nothing to commit");
            assert_eq!(
                rows(&store, "t"),
                if turned { vec![] } else { vec![1] },
                "{case}"
            );
            if turned {
                // The writing thread's batch writes it, and catches up if that was due.
                store.begin_batch();
                insert(&store, 1).expect("the lane's batch writes");
                store.finish_batch().expect("committed");
                assert_eq!(rows(&store, "t"), vec![1], "{case}");
                if restart != 0 {
                    assert_eq!(store.caught_up.load(Ordering::Relaxed), 1, "{case}");
                }
            }
        }
    }

    /// Nor does a quick batch wait for another thread's batch: its write is turned away while
    /// that batch's group is open, and the other batch's writes are untouched.
    #[test]
    fn a_quick_batch_is_turned_away_from_another_threads_open_batch() {
        let (_dir, store) = group_store();
        let (opened_tx, opened_rx) = std::sync::mpsc::channel();
        let (finish_tx, finish_rx) = std::sync::mpsc::channel::<()>();
        let other = {
            let store = Arc::clone(&store);
            std::thread::spawn(move || {
                store.begin_batch();
                insert(&store, 1).expect("the batch's write");
                opened_tx.send(()).expect("opened");
                finish_rx.recv().expect("finish");
                store.finish_batch()
            })
        };
        opened_rx.recv().expect("the other batch is open");
        store.begin_quick_batch();
        assert!(matches!(insert(&store, 2), Err(StoreError::TurnedAway)));
        assert!(store.batch_deferred());
        store.finish_batch().expect("nothing to commit");
        finish_tx.send(()).expect("finish");
        other
            .join()
            .expect("thread")
            .expect("the other batch commits");
        assert_eq!(rows(&store, "t"), vec![1]);
    }

    fn rows(store: &Sqlite, table: &str) -> Vec<i64> {
        store
            .read(|c| {
                let mut st = raw(c).prepare(&format!("SELECT x FROM {table} ORDER BY x"))?;
                let xs = st.query_map([], |r| r.get(0))?;
                Ok(xs.collect::<rusqlite::Result<Vec<i64>>>()?)
            })
            .expect("read rows")
    }

    /// Spins until `n` threads are queued for the writer (bounded: a test must not hang).
    fn until_queued(store: &Sqlite, n: usize) {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while store.queued.load(Ordering::SeqCst) < n {
            assert!(
                std::time::Instant::now() < deadline,
                "no writer queued within 10 s"
            );
            std::thread::yield_now();
        }
    }

    /// Runs `first` on a thread that keeps its group open until a second write, `second`, is
    /// queued behind it, so the two share one group commit. Returns both results.
    fn in_one_group<A: Send + 'static, B: Send + 'static>(
        store: &Arc<Sqlite>,
        first: impl FnOnce(&Conn) -> Result<A> + Send + 'static,
        second: impl FnOnce(&Conn) -> Result<B> + Send + 'static,
    ) -> (
        std::thread::Result<Result<A>>,
        std::thread::Result<Result<B>>,
    ) {
        let (go_tx, go_rx) = mpsc::channel::<()>();
        let s = Arc::clone(store);
        let a = std::thread::spawn(move || {
            s.write(|c| {
                let out = first(c);
                go_tx.send(()).expect("test alive");
                until_queued(&s, 1);
                out
            })
        });
        go_rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the first write ran");
        let s = Arc::clone(store);
        let b = std::thread::spawn(move || s.write(second));
        (a.join(), b.join())
    }

    // The group-commit tests below use `child`'s deferred foreign key to make a COMMIT fail.

    #[test]
    fn writes_queued_behind_an_open_group_commit_together() {
        let (_dir, store) = group_store();
        let (_, groups_before) = store.commit_counts();
        let (a, b) = in_one_group(
            &store,
            |c| exec(c, "INSERT INTO t VALUES (1)", params![]),
            |c| exec(c, "INSERT INTO t VALUES (2)", params![]),
        );
        assert_eq!(a.expect("no panic").expect("first write"), 1);
        assert_eq!(b.expect("no panic").expect("second write"), 1);
        assert_eq!(rows(&store, "t"), vec![1, 2]);
        let (_, groups_after) = store.commit_counts();
        assert_eq!(groups_after - groups_before, 1, "two writes, one commit");
    }

    #[test]
    fn a_write_returns_only_once_its_group_is_committed() {
        let (_dir, store) = group_store();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (go_tx, go_rx) = mpsc::channel::<()>();
        let s = Arc::clone(&store);
        let first_seen = Arc::clone(&seen);
        let a = std::thread::spawn(move || {
            s.write(|c| {
                exec(c, "INSERT INTO t VALUES (1)", params![])?;
                go_tx.send(()).expect("test alive");
                until_queued(&s, 1);
                Ok::<_, StoreError>(())
            })
            .expect("first write");
            // Returned: what it wrote must be visible to anyone, through another connection.
            first_seen.lock().expect("seen").extend(rows(&s, "t"));
        });
        go_rx.recv_timeout(Duration::from_secs(10)).expect("ran");
        let s = Arc::clone(&store);
        let b = std::thread::spawn(move || {
            s.write(|c| {
                // Hold the group open a while: the first write must still be waiting.
                std::thread::sleep(Duration::from_millis(50));
                exec(c, "INSERT INTO t VALUES (2)", params![])
            })
        });
        a.join().expect("first thread");
        b.join().expect("second thread").expect("second write");
        let seen = seen.lock().expect("seen").clone();
        assert!(
            seen.contains(&1),
            "the first write returned before its commit: saw {seen:?}"
        );
    }

    #[test]
    fn a_refused_or_panicking_write_in_a_group_undoes_only_its_own_changes() {
        fn refuse(c: &Conn) -> Result<()> {
            exec(c, "INSERT INTO t VALUES (2)", params![])?;
            Err(StoreError::Corrupt("refused".to_owned()))
        }
        fn panic(c: &Conn) -> Result<()> {
            exec(c, "INSERT INTO t VALUES (2)", params![])?;
            panic!("a bug in a write")
        }
        type Write = fn(&Conn) -> Result<()>;
        let cases: [(&str, Write); 2] = [("refused", refuse), ("panics", panic)];
        for (what, second) in cases {
            let (_dir, store) = group_store();
            let (a, b) = in_one_group(
                &store,
                |c| exec(c, "INSERT INTO t VALUES (1)", params![]),
                second,
            );
            assert_eq!(a.expect("no panic").expect("first write"), 1, "{what}");
            match (what, b) {
                ("refused", Ok(Err(e))) => assert!(e.to_string().contains("refused"), "{e}"),
                ("panics", Err(_)) => {}
                (_, other) => panic!("{what}: the second write came back as {other:?}"),
            }
            assert_eq!(rows(&store, "t"), vec![1], "{what}");
            // The writer is usable afterwards.
            store
                .write(|c| exec(c, "INSERT INTO t VALUES (3)", params![]))
                .expect("a write after it");
            assert_eq!(rows(&store, "t"), vec![1, 3], "{what}");
        }
    }

    #[test]
    fn a_failed_group_commit_fails_every_write_of_the_group_and_keeps_none() {
        let (_dir, store) = group_store();
        let (a, b) = in_one_group(
            &store,
            |c| exec(c, "INSERT INTO t VALUES (1)", params![]),
            // Fine until COMMIT checks the deferred key: there is no t row 99.
            |c| exec(c, "INSERT INTO child VALUES (99)", params![]),
        );
        for (which, result) in [("first", a), ("second", b)] {
            let err = result.expect("no panic").expect_err(which);
            assert!(
                matches!(err, StoreError::Commit(_)),
                "{which}: {err:?} is not a failed commit"
            );
        }
        assert_eq!(rows(&store, "t"), Vec::<i64>::new());
        assert_eq!(rows(&store, "child"), Vec::<i64>::new());
        // A lone write after it commits as usual.
        store
            .write(|c| exec(c, "INSERT INTO t VALUES (5)", params![]))
            .expect("write after the failed group");
        assert_eq!(rows(&store, "t"), vec![5]);
    }

    #[test]
    fn a_lone_write_whose_commit_fails_gets_the_error() {
        let (_dir, store) = group_store();
        let err = store
            .write(|c| exec(c, "INSERT INTO child VALUES (7)", params![]))
            .expect_err("the deferred key fails at COMMIT");
        assert!(matches!(err, StoreError::Commit(_)), "{err:?}");
        assert_eq!(rows(&store, "child"), Vec::<i64>::new());
    }

    /// A file put in the store's place (a restored backup) takes the very next write, and a
    /// removed one refuses every write until it is back, though the directory's watch
    /// (`super::watch`) tells of each change only once.
    #[test]
    fn a_file_put_in_place_takes_the_next_write_and_a_removed_one_none() {
        let (dir, store) = group_store();
        let path = dir.path().join("t.sqlite3");
        let remove = || {
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
            }
        };
        insert(&store, 1).expect("before");
        let copy = dir.path().join("copy.sqlite3");
        store.backup(&copy).expect("backup");
        insert(&store, 2).expect("only in the first file");
        remove();
        std::fs::rename(&copy, &path).expect("the copy renamed into place");
        insert(&store, 3).expect("into the copy");
        assert_eq!(rows(&store, "t"), vec![1, 3], "the copy took the write");

        let kept = dir.path().join("kept.sqlite3");
        store.backup(&kept).expect("backup");
        remove();
        for x in [4, 5, 6] {
            let err = insert(&store, x).expect_err("no file");
            assert!(
                matches!(err, StoreError::Unavailable(Fault::Missing)),
                "write {x}: {err:?}"
            );
        }
        assert!(!path.exists(), "no write made a new file");
        std::fs::copy(&kept, &path).expect("put back");
        insert(&store, 7).expect("once back");
        assert_eq!(rows(&store, "t"), vec![1, 3, 7]);
    }

    #[test]
    fn many_threads_writing_at_once_lose_nothing_and_share_commits() {
        let (_dir, store) = group_store();
        let (jobs_before, groups_before) = store.commit_counts();
        let threads: Vec<_> = (0..16_i64)
            .map(|t| {
                let store = Arc::clone(&store);
                std::thread::spawn(move || {
                    for i in 0..50_i64 {
                        store
                            .write(|c| exec(c, "INSERT INTO t VALUES (?1)", params![t * 1000 + i]))
                            .expect("write");
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().expect("writer thread");
        }
        let got = rows(&store, "t");
        assert_eq!(got.len(), 16 * 50);
        let (jobs, groups) = store.commit_counts();
        assert_eq!(jobs - jobs_before, 16 * 50, "every write counted once");
        assert!(groups - groups_before <= jobs - jobs_before);
    }

    #[test]
    fn the_checkpoint_interval_is_the_default_unless_set_to_a_positive_number() {
        for (setting, want) in [
            (None, CHECKPOINT_EVERY),
            (Some("64"), 64),
            (Some(" 4096 "), 4096),
            (Some("1"), 1),
            (Some("0"), CHECKPOINT_EVERY),
            (Some("-5"), CHECKPOINT_EVERY),
            (Some("often"), CHECKPOINT_EVERY),
        ] {
            assert_eq!(checkpoint_every(setting), want, "{setting:?}");
        }
    }

    #[test]
    fn commits_wake_the_background_checkpointer() {
        let (_dir, store) = temp_store();
        store
            .write(|tx| Ok::<_, StoreError>(raw(tx).execute_batch("CREATE TABLE t (x INTEGER)")?))
            .expect("create");
        for x in 0..CHECKPOINT_EVERY {
            store
                .write(|tx| {
                    Ok::<_, StoreError>(raw(tx).execute("INSERT INTO t VALUES (?1)", [x as i64])?)
                })
                .expect("insert");
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while store.checkpoints() == 0 && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(store.checkpoints() >= 1, "no checkpoint within 10 s");
        let rows: i64 = store
            .read(|c| Ok(raw(c).query_row("SELECT COUNT(*) FROM t", [], |r| r.get(0))?))
            .expect("count");
        assert_eq!(rows, CHECKPOINT_EVERY as i64);
    }

    #[test]
    fn the_wal_restart_length_is_the_default_unless_set_to_a_number() {
        for (setting, want) in [
            (None, WAL_RESTART_PAGES),
            (Some("0"), 0),
            (Some(" 4096 "), 4096),
            (Some("-5"), WAL_RESTART_PAGES),
            (Some("often"), WAL_RESTART_PAGES),
        ] {
            assert_eq!(wal_restart_pages(setting), want, "{setting:?}");
        }
    }

    // SQLite's own checkpoint is set on every connection at `AUTOCHECKPOINT_BACKSTOP`, which
    // the build checks lies beyond the catch-up's reach (`MOST_PAGES_PER_WRITE`).
    #[test]
    fn sqlites_own_checkpoint_is_the_backstop() {
        let (_dir, store) = temp_store();
        let backstop: i64 = store
            .read(|c| Ok(raw(c).query_row("PRAGMA wal_autocheckpoint", [], |r| r.get(0))?))
            .expect("read");
        assert_eq!(backstop, AUTOCHECKPOINT_BACKSTOP);
    }

    /// Wakes the background checkpointer, waits until it has ended one more pass, and gives
    /// the WAL's length in pages when it ended.
    fn background_pass(store: &Sqlite) -> i64 {
        let before = store.checkpoints();
        if let Some(tx) = store.checkpoint_sender().as_ref() {
            tx.send(()).expect("the checkpointer runs");
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while store.checkpoints() == before {
            assert!(Instant::now() < deadline, "no checkpoint within 10 s");
            std::thread::sleep(Duration::from_millis(2));
        }
        store.wal_pages.load(Ordering::Relaxed)
    }

    // The writer's catch-up (`WAL_RESTART_PAGES`, `Sqlite::catch_up`): once a background
    // checkpoint has ended with the WAL at least that long, the writer copies what it left
    // before its next group, and that group starts the WAL over. Shorter, or with the
    // catch-up off, the WAL goes on growing. A reader holding an old snapshot makes the
    // background checkpoint leave pages behind, as new commits do under load.
    #[test]
    fn the_writer_catches_up_from_the_restart_length_and_the_wal_starts_over() {
        // (the restart length over the WAL's length, or off; the write rate; whether the WAL
        // starts over)
        for (over, rate, starts_over) in [
            (Some(0), LINGER_RATE - 1, true),
            (Some(1), LINGER_RATE - 1, false),
            (None, LINGER_RATE - 1, false),
            (Some(0), LINGER_RATE, false),
        ] {
            let (dir, store) = group_store();
            store.set_wal_restart(0);
            for x in 0..40 {
                insert(&store, x).expect("insert");
            }
            let reader = Connection::open(dir.path().join("t.sqlite3")).expect("reader");
            reader.execute_batch("BEGIN").expect("begin");
            let seen: i64 = reader
                .query_row("SELECT COUNT(*) FROM t", [], |r| r.get(0))
                .expect("read");
            assert_eq!(seen, 40);
            for x in 40..80 {
                insert(&store, x).expect("insert");
            }
            let long = background_pass(&store);
            reader.execute_batch("COMMIT").expect("end the read");
            assert!(long >= 80, "the WAL holds every commit: {long} pages");
            store.set_wal_restart(over.map_or(0, |over| long + over));
            // The catch-up comes before the write's group, so no commit measures a rate first.
            store.set_linger_rate(LINGER_RATE, rate);
            insert(&store, 80).expect("insert");
            let after = background_pass(&store);
            if starts_over {
                assert!(
                    after < 10,
                    "{over:?} at {rate}/s: the WAL started over: {after} pages after {long}"
                );
            } else {
                assert!(
                    after > long,
                    "{over:?} at {rate}/s: the WAL went on: {after} pages after {long}"
                );
            }
            assert_eq!(rows(&store, "t").len(), 81, "{over:?} at {rate}/s");
        }
    }

    // A writing job's reads in a batch come inside the batch's group: the first opens it, as
    // the first write would, so it is one transaction with the job's writes (not a read
    // transaction of its own before them), and a quick batch turns it away where it would
    // turn the write away. A read-only job's reads open nothing.
    #[test]
    fn a_writing_jobs_first_read_in_a_batch_opens_its_group() {
        // (a quick batch; a read-only job; another process holds the write lock; the read
        // finds itself in a transaction, or is turned away)
        for (quick, read_only, locked, want) in [
            (false, false, false, Some(true)),
            (true, false, false, Some(true)),
            (false, true, false, Some(false)),
            (true, true, false, Some(false)),
            (true, false, true, None),
            (true, true, true, Some(false)),
        ] {
            let case = format!("quick {quick}, read-only {read_only}, locked {locked}");
            let (dir, store) = group_store();
            let other = Connection::open(dir.path().join("t.sqlite3")).expect("other");
            if locked {
                other.execute_batch("BEGIN IMMEDIATE").expect("lock");
            }
            let (_, groups) = store.commit_counts();
            if quick {
                store.begin_quick_batch();
            } else {
                store.begin_batch();
            }
            let job = super::super::Job {
                read_only,
                deadline: Some(Instant::now() + Duration::from_secs(5)),
                ..super::super::Job::default()
            };
            let read = super::super::with_job(job, || store.read(|c| Ok(!raw(c).is_autocommit())));
            if let Some(in_transaction) = want {
                assert_eq!(read.ok(), Some(in_transaction), "{case}");
            } else {
                assert!(
                    matches!(read, Err(StoreError::TurnedAway)),
                    "{case}: {read:?}"
                );
                assert!(store.batch_deferred(), "{case}");
            }
            if want == Some(true) {
                // The job's write joins the group its read opened: one commit for both.
                insert(&store, 1).expect("insert");
            }
            store
                .finish_batch()
                .expect("committed, or nothing to commit");
            let wrote = want == Some(true);
            assert_eq!(
                rows(&store, "t"),
                if wrote { vec![1] } else { vec![] },
                "{case}"
            );
            assert_eq!(store.commit_counts().1 - groups, u64::from(wrote), "{case}");
        }
    }

    // The checkpointer syncs the database file after the pass that makes the writer's
    // catch-up due, before that pass is counted (the writer acts on the count), and once for
    // as long as the WAL stays that long; shorter, or with the catch-up off, it does not.
    #[test]
    fn the_database_file_is_synced_before_a_catch_up_once_per_long_wal() {
        let (_dir, store) = group_store();
        // (the catch-up's length, in pages; the syncs made once the pass is counted)
        for (x, (restart, syncs)) in [(1, 1), (1, 1), (0, 1), (1, 2), (1_000_000, 2), (1, 3)]
            .into_iter()
            .enumerate()
        {
            store.set_wal_restart(restart);
            insert(&store, x as i64).expect("insert");
            let pages = background_pass(&store);
            assert!(pages >= 1, "the WAL holds the write");
            assert_eq!(
                store.database_syncs(),
                syncs,
                "pass {x}, catch-up from {restart} pages, the WAL {pages} pages long"
            );
        }
    }

    // A kept file of the database is found again by the file it is, not by its path, and is
    // never closed while the store lives: another file at the path is kept beside it.
    #[test]
    fn the_checkpointer_keeps_one_open_file_per_database_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("db");
        std::fs::write(&path, b"first").expect("write");
        let files = Mutex::new(Vec::new());
        assert_eq!(kept_file(&path, &files), Some(0));
        assert_eq!(
            kept_file(&path, &files),
            Some(0),
            "the same file, kept once"
        );
        let other = dir.path().join("other");
        std::fs::write(&other, b"second").expect("write");
        std::fs::rename(&other, &path).expect("replace the file");
        assert_eq!(
            kept_file(&path, &files),
            Some(1),
            "another file at the path"
        );
        assert_eq!(kept_file(&path, &files), Some(1));
        let kept = files.lock().expect("files");
        assert_eq!(kept.len(), 2);
        assert!(
            kept[0].metadata().is_ok(),
            "the replaced file is still open"
        );
        drop(kept);
        std::fs::remove_file(&path).expect("remove");
        assert_eq!(kept_file(&path, &files), None, "no file at the path");
        assert!(
            sync_file(&files, Some(0)),
            "a kept file syncs, its path gone or not"
        );
        assert!(!sync_file(&files, Some(2)));
        assert!(!sync_file(&files, None));
    }

    // The checkpointer gives itself the lowest priority, so that a pass never keeps a core
    // from the threads answering commands (`start_checkpointer`).
    #[cfg(target_os = "linux")]
    #[test]
    fn the_checkpointer_runs_at_the_lowest_priority() {
        let (_dir, store) = temp_store();
        background_pass(&store);
        let mut seen = 0;
        for task in std::fs::read_dir("/proc/self/task")
            .expect("tasks")
            .flatten()
        {
            let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
            if comm.trim_end() != "referee-checkpo" {
                continue;
            }
            let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
            // Field 19 of `stat`, the 17th after the name's closing parenthesis.
            let nice = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(16))
                .and_then(|n| n.parse::<i32>().ok());
            assert_eq!(nice, Some(19), "{}", task.path().display());
            seen += 1;
        }
        assert!(seen >= 1, "no checkpoint thread found");
    }

    // A group's outcome reaches every write waiting for it, and one read after it settled;
    // a wait that times out leaves no waiter counted (`settle` wakes only when one waits).
    #[test]
    fn a_group_settles_for_its_waiters_and_later_readers() {
        let group = Arc::new(Group::default());
        assert!(group.wait_for(Duration::from_millis(5)).is_none());
        assert_eq!(group.slot.lock().expect("slot").waiting, 0);
        let waiters: Vec<_> = (0..2)
            .map(|_| {
                let group = Arc::clone(&group);
                std::thread::spawn(move || group.wait())
            })
            .collect();
        let deadline = Instant::now() + Duration::from_secs(10);
        while group.slot.lock().expect("slot").waiting < 2 {
            assert!(Instant::now() < deadline, "the waiters never waited");
            std::thread::sleep(Duration::from_millis(1));
        }
        group.settle(Err(("no".to_owned(), None)));
        for waiter in waiters {
            let outcome = waiter.join().expect("waiter");
            assert_eq!(outcome.map_err(|e| e.0), Err("no".to_owned()));
        }
        assert_eq!(group.slot.lock().expect("slot").waiting, 0);
        assert!(group.wait().is_err(), "read after it settled");
        assert!(group.wait_for(Duration::ZERO).is_some());
    }

    /// `rows` from another thread: what is committed, whatever this thread has open.
    fn committed_rows(store: &Arc<Sqlite>, table: &'static str) -> Vec<i64> {
        let store = Arc::clone(store);
        std::thread::spawn(move || rows(&store, table))
            .join()
            .expect("reader thread")
    }

    /// Counts in `ran` once what this thread wrote is committed ([`super::after_commit`]).
    fn count_after_commit(ran: &Arc<AtomicUsize>) {
        let after = Arc::clone(ran);
        super::after_commit(Box::new(move || {
            after.fetch_add(1, Ordering::SeqCst);
        }));
    }

    /// A write that runs, and fails only at the commit: it is fine until `COMMIT` checks the
    /// deferred key, and there is no `t` row 99.
    fn doomed_write(store: &Sqlite) {
        store
            .write(|c| exec(c, "INSERT INTO child VALUES (99)", params![]))
            .expect("runs; fails only at the commit");
    }

    #[test]
    fn a_batch_commits_its_writes_together_once_finished_and_reads_its_own_before() {
        let (_dir, store) = group_store();
        let (commits, groups) = store.commit_counts();
        let ran = Arc::new(AtomicUsize::new(0));
        store.begin_batch();
        for x in [1, 2, 3] {
            insert(&store, x).expect("a write returns once it ran");
        }
        count_after_commit(&ran);
        assert_eq!(
            rows(&store, "t"),
            vec![1, 2, 3],
            "the batch reads its own writes"
        );
        assert_eq!(
            committed_rows(&store, "t"),
            Vec::<i64>::new(),
            "nothing committed yet"
        );
        assert_eq!(store.commit_counts(), (commits, groups));
        assert_eq!(
            ran.load(Ordering::SeqCst),
            0,
            "after_commit waits for the commit"
        );
        store.finish_batch().expect("the commit");
        assert_eq!(committed_rows(&store, "t"), vec![1, 2, 3]);
        assert_eq!(
            store.commit_counts(),
            (commits + 3, groups + 1),
            "one commit"
        );
        assert_eq!(ran.load(Ordering::SeqCst), 1);
        // The batch is over: a write commits on its own again, and after_commit runs at once.
        insert(&store, 4).expect("a lone write");
        assert_eq!(committed_rows(&store, "t"), vec![1, 2, 3, 4]);
        count_after_commit(&ran);
        assert_eq!(ran.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn a_failed_batch_keeps_none_of_its_writes_and_runs_nothing_after() {
        let (_dir, store) = group_store();
        let ran = Arc::new(AtomicUsize::new(0));
        store.begin_batch();
        insert(&store, 1).expect("a write");
        doomed_write(&store);
        // A refused write in the batch undoes only itself.
        let refused: Result<()> = store.write(|c| {
            exec(c, "INSERT INTO t VALUES (7)", params![])?;
            Err(StoreError::NoRow)
        });
        assert!(matches!(refused, Err(StoreError::NoRow)));
        count_after_commit(&ran);
        let err = store
            .finish_batch()
            .expect_err("the deferred key fails the commit");
        assert!(matches!(err, StoreError::Commit(_)), "{err:?}");
        assert_eq!(rows(&store, "t"), Vec::<i64>::new());
        assert_eq!(rows(&store, "child"), Vec::<i64>::new());
        assert_eq!(
            ran.load(Ordering::SeqCst),
            0,
            "nothing runs after a failed commit"
        );
        // The next batch starts clean.
        store.begin_batch();
        insert(&store, 5).expect("a write");
        store.finish_batch().expect("the commit");
        assert_eq!(committed_rows(&store, "t"), vec![5]);
    }

    #[test]
    fn a_write_outside_a_batch_never_joins_its_group() {
        let (_dir, store) = group_store();
        store.begin_batch();
        insert(&store, 1).expect("the batch's write");
        let other = {
            let store = Arc::clone(&store);
            std::thread::spawn(move || insert(&store, 2))
        };
        // The other write waits for the batch (or has not started yet); either way it must not
        // share the batch's fate.
        until_queued(&store, 1);
        doomed_write(&store);
        assert!(store.finish_batch().is_err(), "the batch fails");
        other
            .join()
            .expect("the other thread")
            .expect("the write outside the batch is kept");
        assert_eq!(committed_rows(&store, "t"), vec![2]);
    }

    #[test]
    fn an_abandoned_or_stale_batch_is_rolled_back() {
        let (_dir, store) = group_store();
        let ran = Arc::new(AtomicUsize::new(0));
        store.begin_batch();
        insert(&store, 1).expect("a write");
        count_after_commit(&ran);
        store.abandon_batch();
        assert_eq!(rows(&store, "t"), Vec::<i64>::new());
        // A batch never finished is rolled back by the next one.
        store.begin_batch();
        insert(&store, 2).expect("a write");
        store.begin_batch();
        insert(&store, 3).expect("a write");
        store.finish_batch().expect("the commit");
        assert_eq!(committed_rows(&store, "t"), vec![3]);
        assert_eq!(
            ran.load(Ordering::SeqCst),
            0,
            "nothing of an undone batch runs"
        );
        // Outside a batch, abandoning does nothing.
        store.abandon_batch();
        insert(&store, 4).expect("a lone write");
        assert_eq!(committed_rows(&store, "t"), vec![3, 4]);
    }

    #[test]
    fn a_batch_commits_another_threads_lingering_group_before_writing() {
        let (_dir, store) = group_store();
        insert(&store, 1).expect("a first write");
        store.set_linger(Duration::from_mins(1), 2, Duration::from_mins(10));
        let lingering = {
            let store = Arc::clone(&store);
            std::thread::spawn(move || insert(&store, 2))
        };
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while store.lingering() == 0 {
            assert!(std::time::Instant::now() < deadline, "no write lingered");
            std::thread::yield_now();
        }
        store.begin_batch();
        insert(&store, 3).expect("the batch's write");
        // The lingering group was committed on its own, before the batch wrote.
        lingering
            .join()
            .expect("the lingering thread")
            .expect("its write is kept");
        assert_eq!(committed_rows(&store, "t"), vec![1, 2]);
        doomed_write(&store);
        assert!(store.finish_batch().is_err());
        assert_eq!(
            committed_rows(&store, "t"),
            vec![1, 2],
            "the batch kept nothing"
        );
    }
}
