//! Storage: SQLite through rusqlite — the only place in the crate with SQL.
//!
//! Owns the schema (`migrations/`, applied at start-up and by `referee migrate`), connections,
//! transactions, and the per-guild partitioning: every per-guild table leads its key with
//! `guild_id` and every query here filters on it. Hidden values (luck, the ledger, GM notes, hidden
//! keys, secret roll results) are read only through [`secrets`], whose functions the `app` layer
//! calls for a verified GM. Never decides permissions and never formats replies.
//!
//! ## Locking
//! WAL mode with `synchronous=NORMAL` and a busy timeout, so a running bot and a GM's console can
//! share the file. Every read-then-write runs in a `BEGIN IMMEDIATE` transaction
//! ([`Store::write`]), which takes the write lock up front: two spends of one luck point cannot
//! both read "1". No connection is held across an `.await` (the store is synchronous; the bot
//! reaches it through `app` on its own threads, `bot::workers`).
//!
//! ## Deadlines and faults
//! - A write waits for the write lock only until its deadline ([`with_job`]; by default
//!   [`WRITE_WAIT`] from the call): past it, [`StoreError::Busy`] and nothing was written. The
//!   bot gives each interaction a deadline under Discord's 3 seconds.
//! - A job marked read-only ([`Job::read_only`]) may not write: [`Store::write`] refuses at once
//!   with [`StoreError::NeedsWriter`], so the bot can run it again on its writing threads.
//! - A read-only file, a full disk and a removed (or replaced) file are [`Fault`]s. The writer
//!   reconnects by itself before the next write once one was seen, so a fault that clears needs
//!   no restart; a removed file is never re-created behind the operator's back (only
//!   [`Store::open`] creates the file).
//!
//! ## Connections and speed
//! - One writer connection per process, behind a mutex: SQLite admits one writer at a time anyway,
//!   and a mutex hands over in microseconds where SQLite's busy handler sleeps and retries.
//!   Other processes on the file still meet the busy timeout.
//! - **Group commit.** When other threads are already queued for the writer, a write does not
//!   commit on its own: each write runs in a `SAVEPOINT` of one `BEGIN IMMEDIATE` transaction,
//!   the last write of the group (the one that finds nobody queued behind it, or the
//!   [`MAX_GROUP`]th) commits them all at once, and every write of the group returns only once
//!   that commit is done, with its outcome. A refused write rolls back to its savepoint and
//!   leaves the others' changes in place. A lone write commits at once, as before. Under load
//!   this turns many small commits (each writing the same table and index pages to the WAL again,
//!   and taking SQLite's file locks again) into one.
//! - A bounded pool of reader connections (about two per core); a reader waits for a free one
//!   rather than opening more, so memory stays bounded however many threads call in.
//! - Every statement goes through the connection's prepared-statement cache ([`exec`],
//!   [`query_row`], `prepare_cached`): a command re-parses no SQL.
//! - Each connection keeps a modest page cache ([`READER_CACHE_KIB`], [`WRITER_CACHE_KIB`]); the
//!   OS page cache serves the rest. No `mmap`: mapped pages count once per connection in RSS.
//! - Checkpoints run off the hot path: a background thread runs `wal_checkpoint(PASSIVE)` every
//!   [`CHECKPOINT_EVERY`] commits, so no command pays for copying the WAL back and its fsyncs.
//!   SQLite's own auto-checkpoint stays on as a backstop at a much larger WAL
//!   ([`AUTOCHECKPOINT_BACKSTOP`] pages), should the thread fall behind.
//!
//! ## Compatibility
//! Migrations are append-only: a shipped `migrations/NN-name/up.sql` is never edited, so every
//! database, however old, reaches the same schema. The interface is narrow (plain functions over
//! [`Conn`]) so a second backend can follow.

pub mod advancement;
pub mod characters;
pub mod conditions;
pub mod encounters;
pub mod guilds;
pub mod ids;
pub mod outbox;
pub mod requests;
pub mod rolls;
pub mod secrets;

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicI64;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, SyncSender};
use std::sync::{Arc, Condvar, LazyLock, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use include_dir::{Dir, include_dir};
use rusqlite::{Connection, ErrorCode, MAIN_DB, OpenFlags, Params, Row};
use rusqlite_migration::Migrations;

pub use ids::{CharacterId, GuildId, RollId, UserId};

static MIGRATIONS_DIR: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/migrations");
static MIGRATIONS: LazyLock<Migrations<'static>> = LazyLock::new(|| {
    Migrations::from_directory(&MIGRATIONS_DIR).expect("migrations/ is embedded at build time")
});

/// Applies the pending migrations. Two processes started together on a new file both find it
/// at version 0, and the second to write fails ("table already exists") while the first is
/// migrating: so a failure is retried, a little later, until the file is at the latest version
/// (the other process did it) or the retries run out (a real failure, reported).
fn migrate(conn: &mut Connection) -> Result<()> {
    const ATTEMPTS: u32 = 100;
    let mut attempt = 0;
    loop {
        match MIGRATIONS.to_latest(conn) {
            Ok(()) => return Ok(()),
            Err(e) => {
                attempt += 1;
                let at = MIGRATIONS.current_version(conn).ok();
                if at
                    == Some(rusqlite_migration::SchemaVersion::Inside(
                        std::num::NonZeroUsize::new(Store::latest_version())
                            .unwrap_or(std::num::NonZeroUsize::MIN),
                    ))
                {
                    return Ok(());
                }
                if attempt >= ATTEMPTS {
                    return Err(e.into());
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

/// How long a connection waits for another process's writer before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a write waits for the write lock when its job set no deadline ([`with_job`]).
pub const WRITE_WAIT: Duration = BUSY_TIMEOUT;
/// SQLite's extended code for a write to a database file that was unlinked or renamed.
const SQLITE_READONLY_DBMOVED: std::ffi::c_int = 1032;
/// The most writes one group commit holds (see the module's "Group commit").
pub const MAX_GROUP: usize = 64;
/// Page cache of each reader connection, in KiB (SQLite's default is 2 MiB per connection).
pub const READER_CACHE_KIB: i64 = 1024;
/// Page cache of the writer connection, in KiB: it touches the indexes of every table it writes.
pub const WRITER_CACHE_KIB: i64 = 2048;
/// How long a reader waits for a pooled connection before opening an extra one.
const READER_WAIT: Duration = Duration::from_secs(2);
/// Prepared statements each connection keeps (rusqlite's default, 16, is fewer than one
/// luck spend uses on the writer).
const STATEMENT_CACHE: usize = 96;
/// Commits between two background checkpoints. A command writes a handful of pages, so this
/// keeps the WAL around SQLite's usual 1,000 pages (4 MiB).
pub const CHECKPOINT_EVERY: u64 = 128;
/// SQLite's auto-checkpoint threshold on this process's connections, in WAL pages: far above
/// what [`CHECKPOINT_EVERY`] lets the WAL reach, so it only fires if the thread falls behind.
pub const AUTOCHECKPOINT_BACKSTOP: i64 = 10_000;

/// A store error: SQLite failed, or stored data did not parse. Never caused by a user's input;
/// the app answers these with "Something went wrong".
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("migration failed: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    /// The commit of a group this write belonged to failed, so its changes were rolled back.
    #[error("the group commit failed: {0}")]
    Commit(String),
    /// Another process held the write lock past this write's deadline; nothing was written.
    #[error("the database is locked by another process")]
    Busy,
    /// The database cannot be written until the operator fixes the file; nothing was written.
    #[error("the database cannot be written: {0}")]
    Unavailable(Fault),
    /// A write in a job marked read-only ([`Job::read_only`]); nothing was written.
    #[error("a read-only job tried to write")]
    NeedsWriter,
}

/// Something wrong with the database file that only the server's operator can fix. The store
/// reconnects by itself once it is fixed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// The file (or its folder) is not writable.
    ReadOnly,
    /// The disk (or the database's size limit) is full.
    Full,
    /// The file was removed or replaced while the bot had it open, or is not there.
    Missing,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Fault::ReadOnly => "the file is read-only",
            Fault::Full => "the disk is full",
            Fault::Missing => "the file was removed",
        })
    }
}

impl StoreError {
    /// The fault of the file behind this error, if it is one.
    pub fn fault(&self) -> Option<Fault> {
        match self {
            StoreError::Unavailable(f) => Some(*f),
            StoreError::Sqlite(e) => sqlite_fault(e),
            StoreError::Migration(rusqlite_migration::Error::RusqliteError { err, .. }) => {
                sqlite_fault(err)
            }
            _ => None,
        }
    }

    /// Whether the write lock was not had in time (nothing was written).
    pub fn is_busy(&self) -> bool {
        match self {
            StoreError::Busy => true,
            StoreError::Sqlite(e) => is_busy(e),
            _ => false,
        }
    }
}

/// The fault a SQLite error means, if any.
fn sqlite_fault(e: &rusqlite::Error) -> Option<Fault> {
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

fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
    )
}

/// What the calling thread's current job allows: set by [`with_job`] around one command.
#[derive(Debug, Clone, Copy, Default)]
pub struct Job {
    /// When a write stops waiting for the write lock (then [`StoreError::Busy`]).
    pub deadline: Option<Instant>,
    /// Writes are refused at once with [`StoreError::NeedsWriter`].
    pub read_only: bool,
}

thread_local! {
    static JOB: Cell<Job> = const { Cell::new(Job { deadline: None, read_only: false }) };
}

/// Runs `f` as `job` on this thread: every [`Store::write`] it makes honours the job's deadline
/// and read-only mark. The previous job is restored afterwards, even if `f` panics.
pub fn with_job<T>(job: Job, f: impl FnOnce() -> T) -> T {
    struct Restore(Job);
    impl Drop for Restore {
        fn drop(&mut self) {
            JOB.with(|j| j.set(self.0));
        }
    }
    let _restore = Restore(JOB.with(|j| j.replace(job)));
    f()
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// A connection handed to store functions.
pub type Conn = Connection;

/// Which job a connection does; it decides the page cache and the statement cache it gets.
#[derive(Clone, Copy)]
enum Role {
    Reader,
    Writer,
    Checkpointer,
}

/// The reader pool: idle connections and how many exist (idle or lent out).
struct Pool {
    idle: Vec<Connection>,
    open: usize,
    /// Bumped when the file is reopened: readers of an older generation are closed.
    generation: u64,
}

/// This process's writer connection and the group transaction open on it, if any.
struct Writer {
    conn: Connection,
    open: Option<OpenGroup>,
    /// A write failed in a way that may need a new connection (a fault): reconnect before the
    /// next group.
    stale: bool,
    /// The file the connection has open (device and inode), to notice a removed or replaced file.
    file: Option<(u64, u64)>,
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
}

impl OpenGroup {
    fn new() -> Self {
        Self {
            group: Arc::default(),
            jobs: 0,
            broken: false,
        }
    }
}

impl Writer {
    /// Runs one write in its own savepoint of the open group `open`: kept if `f` returns `Ok`,
    /// rolled back if it returns an error or panics (the panic is handed back, to resume once
    /// the group is settled). If the savepoint cannot be ended cleanly the group is marked
    /// broken, and its close reports the failure to every write in it.
    fn run<T, E: From<StoreError>>(
        conn: &Conn,
        open: &mut OpenGroup,
        f: impl FnOnce(&Conn) -> Result<T, E>,
    ) -> std::thread::Result<Result<T, E>> {
        open.jobs += 1;
        if let Err(e) = exec(conn, "SAVEPOINT write", []) {
            open.broken = true;
            return Ok(Err(E::from(e)));
        }
        let out = catch_unwind(AssertUnwindSafe(|| f(conn)));
        let ended = if conn.is_autocommit() {
            // SQLite rolled the whole transaction back itself (an I/O error, say).
            false
        } else if matches!(out, Ok(Ok(_))) {
            exec(conn, "RELEASE write", []).is_ok()
        } else {
            exec(conn, "ROLLBACK TO write", [])
                .and_then(|_| exec(conn, "RELEASE write", []))
                .is_ok()
        };
        open.broken |= !ended;
        out
    }

    /// Ends the open group: `COMMIT`, or `ROLLBACK` if it is broken or the commit failed.
    /// Returns how many writes it held and the outcome to settle it with.
    fn close(&mut self) -> Option<(usize, Result<(), Failure>)> {
        let open = self.open.take()?;
        let outcome = if self.conn.is_autocommit() {
            Err(("SQLite ended the transaction".to_owned(), None))
        } else if open.broken {
            Err(("a savepoint could not be kept".to_owned(), None))
        } else {
            exec(&self.conn, "COMMIT", [])
                .map(|_| ())
                .map_err(|e| (e.to_string(), e.fault()))
        };
        if outcome.is_err() && !self.conn.is_autocommit() {
            let _ = exec(&self.conn, "ROLLBACK", []);
        }
        Some((open.jobs, outcome))
    }
}

/// One group commit: its writes wait here for the outcome of its `COMMIT`.
#[derive(Default)]
struct Group {
    outcome: Mutex<Option<Result<(), Failure>>>,
    settled: Condvar,
}

impl Group {
    fn settle(&self, outcome: Result<(), Failure>) {
        *self.outcome.lock().unwrap_or_else(PoisonError::into_inner) = Some(outcome);
        self.settled.notify_all();
    }

    fn wait(&self) -> Result<(), Failure> {
        let mut slot = self.outcome.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(outcome) = slot.as_ref() {
                return outcome.clone();
            }
            slot = self
                .settled
                .wait(slot)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// The database: a path, one writer connection, a bounded pool of readers, and the background
/// checkpointer.
pub struct Store {
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
    /// Wakes the checkpointer; dropping it stops the thread.
    checkpoint: Mutex<Option<SyncSender<()>>>,
    checkpointer: Mutex<Option<JoinHandle<()>>>,
    /// Bumped when the file is reopened; the checkpointer reconnects when it changes.
    generation: Arc<AtomicU64>,
    /// `PRAGMA max_page_count` of the writer, 0 for none (see [`Store::limit_pages`]).
    page_limit: AtomicI64,
    /// Told how long each successful group `COMMIT` took (see [`Store::observe_commits`]).
    on_commit: std::sync::OnceLock<CommitObserver>,
}

/// Called with the time one group's `COMMIT` took (the bot's metrics); no SQL of its own.
pub type CommitObserver = Box<dyn Fn(Duration) + Send + Sync>;

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("path", &self.path)
            .field("max_readers", &self.max_readers)
            .finish_non_exhaustive()
    }
}

/// A reader lent out of the pool; it goes back when dropped, even if the caller panicked.
struct Lent<'a> {
    store: &'a Store,
    conn: Option<Connection>,
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

impl Store {
    /// Opens (creating if needed) the database at `path` and applies pending migrations.
    pub fn open(path: &Path) -> Result<Self> {
        let mut writer = connect(path, Role::Writer, true)?;
        migrate(&mut writer)?;
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        let checkpoints = Arc::new(AtomicU64::new(0));
        let generation = Arc::new(AtomicU64::new(0));
        let (checkpoint, checkpointer) =
            start_checkpointer(path, Arc::clone(&checkpoints), Arc::clone(&generation))?;
        Ok(Self {
            path: path.to_owned(),
            writer: Mutex::new(Writer {
                conn: writer,
                open: None,
                stale: false,
                file: file_id(path),
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
            checkpoint: Mutex::new(Some(checkpoint)),
            checkpointer: Mutex::new(Some(checkpointer)),
            generation,
            page_limit: AtomicI64::new(0),
            on_commit: std::sync::OnceLock::new(),
        })
    }

    /// The schema version the code expects (the number of migrations).
    pub fn latest_version() -> usize {
        MIGRATIONS_DIR.dirs().count()
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

    /// Has `observer` told the time of every successful group commit from now on (once per
    /// store; a second observer is ignored). Without one, a commit is not timed at all.
    pub fn observe_commits(&self, observer: CommitObserver) {
        let _ = self.on_commit.set(observer);
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
    pub fn read<T>(&self, f: impl FnOnce(&Conn) -> Result<T>) -> Result<T> {
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
    /// rolls back what `f` did. `f` must not call [`Store::write`] itself (the writer is not
    /// re-entrant) and has no need to call [`Store::read`]: `conn` reads, and sees the writes
    /// before it in its group.
    pub fn write<T, E: From<StoreError>>(
        &self,
        f: impl FnOnce(&Conn) -> Result<T, E>,
    ) -> Result<T, E> {
        let job = JOB.with(Cell::get);
        if job.read_only {
            return Err(E::from(StoreError::NeedsWriter));
        }
        let deadline = job.deadline.unwrap_or_else(|| Instant::now() + WRITE_WAIT);
        self.queued.fetch_add(1, Ordering::SeqCst);
        // A poisoned lock only means another writer panicked; its savepoint was rolled back
        // before the panic went on, so the connection is clean.
        let mut guard = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        self.queued.fetch_sub(1, Ordering::SeqCst);
        let writer = &mut *guard;
        if writer.open.is_none()
            && let Err(e) = self.begin(writer, deadline)
        {
            return Err(E::from(e));
        }
        let open = writer.open.get_or_insert_with(OpenGroup::new);
        let group = Arc::clone(&open.group);
        let out = Writer::run(&writer.conn, open, f);
        let last = open.broken || open.jobs >= MAX_GROUP || self.queued.load(Ordering::SeqCst) == 0;
        // The metrics' commit time, only when asked for (`observe_commits`).
        let timer = self
            .on_commit
            .get()
            .filter(|_| last)
            .map(|o| (o, Instant::now()));
        // Unless last, whoever is queued takes the writer next and so settles the group, or
        // passes it on.
        let closed = if last { writer.close() } else { None };
        let commit_took = timer.map(|(observe, started)| (observe, started.elapsed()));
        if !matches!(out, Ok(Ok(_))) || matches!(closed, Some((_, Err(_)))) {
            // Cheap, and only on a failure: was it the file?
            writer.stale |= self.unhealthy(writer);
        }
        drop(guard);
        if let Some((jobs, outcome)) = closed {
            if outcome.is_ok() {
                self.committed(jobs as u64);
                if let Some((observe, took)) = commit_took {
                    observe(took);
                }
            }
            group.settle(outcome);
        }
        let outcome = group.wait();
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

    /// Opens a group on `writer`: reconnects first if the last write found the file at fault,
    /// then `BEGIN IMMEDIATE`, waiting for another process's lock until `deadline` at most.
    fn begin(&self, writer: &mut Writer, deadline: Instant) -> Result<()> {
        // A stat per group, to notice a removed or replaced file before writing into it.
        if writer.stale || self.unhealthy(writer) {
            self.reopen(writer)?;
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        writer.conn.busy_timeout(wait)?;
        let begun = exec(&writer.conn, "BEGIN IMMEDIATE", []);
        writer.conn.busy_timeout(BUSY_TIMEOUT)?;
        match begun {
            Ok(_) => Ok(()),
            Err(e) if e.is_busy() => Err(StoreError::Busy),
            Err(e) => {
                writer.stale |= self.unhealthy(writer);
                Err(e)
            }
        }
    }

    /// Whether the writer's connection can no longer write to the file at the store's path: it
    /// is read-only, or the path now names another file, or none.
    fn unhealthy(&self, writer: &Writer) -> bool {
        writer.conn.is_readonly(MAIN_DB).unwrap_or(true) || file_id(&self.path) != writer.file
    }

    /// Replaces the writer's connection with a new one on the file at the store's path (never
    /// creating it), brings its schema up to date, and, if it is another file than before,
    /// retires the readers and the checkpointer's connection. The old connection stays if the
    /// new one cannot be had.
    fn reopen(&self, writer: &mut Writer) -> Result<()> {
        let file = file_id(&self.path);
        if file.is_none() {
            return Err(StoreError::Unavailable(Fault::Missing));
        }
        let mut conn = connect(&self.path, Role::Writer, false)?;
        self.apply_page_limit(&conn)?;
        if conn.is_readonly(MAIN_DB).unwrap_or(true) {
            return Err(StoreError::Unavailable(Fault::ReadOnly));
        }
        migrate(&mut conn)?;
        let moved = file != writer.file;
        writer.conn = conn;
        writer.file = file;
        writer.stale = false;
        if moved {
            self.generation.fetch_add(1, Ordering::SeqCst);
            let mut pool = self.readers.lock().unwrap_or_else(PoisonError::into_inner);
            pool.generation += 1;
            let idle = std::mem::take(&mut pool.idle);
            pool.open -= idle.len();
            drop(pool);
            drop(idle);
            self.reader_free.notify_all();
        }
        tracing::info!(path = %self.path.display(), moved, "reopened the database");
        Ok(())
    }

    /// Caps the database at `pages` pages (`PRAGMA max_page_count`), or lifts the cap: a write
    /// that would grow the file past it fails as on a full disk ([`Fault::Full`]). The fault
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
        conn.query_row(&format!("PRAGMA max_page_count = {pages}"), [], |_| Ok(()))?;
        Ok(())
    }

    /// Counts `jobs` committed writes and, every [`CHECKPOINT_EVERY`], wakes the checkpointer
    /// (outside the writer lock; if it is still busy with the last one, the wake-up is dropped).
    fn committed(&self, jobs: u64) {
        self.groups.fetch_add(1, Ordering::Relaxed);
        let before = self.commits.fetch_add(jobs, Ordering::Relaxed);
        if before / CHECKPOINT_EVERY != (before + jobs) / CHECKPOINT_EVERY
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
            let backup = rusqlite::backup::Backup::new(conn, &mut target)?;
            backup.run_to_completion(256, Duration::from_millis(5), None)?;
            Ok(())
        })
    }
}

impl Drop for Store {
    fn drop(&mut self) {
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

/// Opens a connection with the pragmas every connection of the store has, and the caches of its
/// role.
fn connect(path: &Path, role: Role, create: bool) -> Result<Connection> {
    // Two processes opening a new file together can meet in SQLite's deadlock check while one
    // switches the file to WAL, which answers "database is locked" at once, without waiting
    // for the busy timeout: a moment later the switch is done.
    let mut attempt = 0;
    loop {
        match connect_once(path, role, create) {
            Err(StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _)))
                if e.code == rusqlite::ErrorCode::DatabaseBusy && attempt < 100 =>
            {
                attempt += 1;
                std::thread::sleep(Duration::from_millis(20));
            }
            other => return other,
        }
    }
}

fn connect_once(path: &Path, role: Role, create: bool) -> Result<Connection> {
    let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    if create {
        flags |= OpenFlags::SQLITE_OPEN_CREATE;
    }
    let conn = Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
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
    Ok(conn)
}

/// The identity of the file at `path` (device and inode), or `None` when there is none.
fn file_id(path: &Path) -> Option<(u64, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        Some((0, u64::from(meta.is_file())))
    }
}

/// Starts the thread that checkpoints the WAL whenever it is woken. It reconnects after a
/// failed checkpoint and when the store reopens the file (`generation` changes).
fn start_checkpointer(
    path: &Path,
    done: Arc<AtomicU64>,
    generation: Arc<AtomicU64>,
) -> Result<(SyncSender<()>, JoinHandle<()>)> {
    let mut conn = Some(connect(path, Role::Checkpointer, false)?);
    let mut seen = generation.load(Ordering::SeqCst);
    let path = path.to_owned();
    // One pending wake-up is enough: a checkpoint copies everything committed before it starts.
    let (tx, rx) = mpsc::sync_channel::<()>(1);
    let handle = std::thread::Builder::new()
        .name("referee-checkpoint".into())
        .spawn(move || {
            while rx.recv().is_ok() {
                let now = generation.load(Ordering::SeqCst);
                if now != seen {
                    seen = now;
                    conn = None;
                }
                if conn.is_none() {
                    conn = connect(&path, Role::Checkpointer, false).ok();
                }
                let Some(c) = conn.as_ref() else {
                    tracing::warn!("background checkpoint skipped: cannot open the database");
                    continue;
                };
                // PASSIVE never waits for readers or the writer: it copies what it can now and
                // leaves the rest for the next round.
                let result = c.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, i64>(2)?,
                    ))
                });
                match result {
                    Ok(_) => {
                        done.fetch_add(1, Ordering::Relaxed);
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

/// Runs one statement through the connection's statement cache; returns the rows changed.
pub(crate) fn exec(conn: &Conn, sql: &str, params: impl Params) -> Result<usize> {
    Ok(conn.prepare_cached(sql)?.execute(params)?)
}

/// The one row a cached statement returns (`QueryReturnedNoRows` when there is none; use
/// `OptionalExtension::optional` for "maybe").
pub(crate) fn query_row<T>(
    conn: &Conn,
    sql: &str,
    params: impl Params,
    f: impl FnOnce(&Row<'_>) -> rusqlite::Result<T>,
) -> rusqlite::Result<T> {
    conn.prepare_cached(sql)?.query_row(params, f)
}

/// Seconds since the Unix epoch, for `created_at` columns.
pub(crate) fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The next id of a per-guild table (`MAX(id) + 1` within the guild), inside a write transaction.
pub(crate) fn next_id(conn: &Conn, table: &str, guild: GuildId) -> Result<i64> {
    // `table` is always a literal from this module, never user input.
    let sql = format!("SELECT COALESCE(MAX(id), 0) + 1 FROM {table} WHERE guild_id = ?1");
    Ok(query_row(conn, &sql, [guild], |r| r.get(0))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_valid() {
        MIGRATIONS.validate().unwrap();
        assert!(Store::latest_version() >= 1);
    }

    fn temp_store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(&dir.path().join("t.sqlite3")).expect("open");
        (dir, store)
    }

    #[test]
    fn the_writer_has_the_same_pragmas_as_readers() {
        let (_dir, store) = temp_store();
        let pragmas = |c: &Conn| -> Result<(String, i64, i64, i64)> {
            Ok((
                c.query_row("PRAGMA journal_mode", [], |r| r.get(0))?,
                c.query_row("PRAGMA synchronous", [], |r| r.get(0))?,
                c.query_row("PRAGMA foreign_keys", [], |r| r.get(0))?,
                c.query_row("PRAGMA busy_timeout", [], |r| r.get(0))?,
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
                                Ok(c.query_row("SELECT 1", [], |r| r.get(0))?)
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
            let _ = tx.send(s.read(|c| Ok(c.query_row("SELECT 3", [], |r| r.get::<_, i64>(0))?)));
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
            let _ = tx.send(s.read(|c| Ok(c.query_row("SELECT 2", [], |r| r.get::<_, i64>(0))?)));
        });
        let two = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("a reader was free within 10 s")
            .expect("read");
        assert_eq!(two, 2);
    }

    /// A table for the group-commit tests; `child.parent` is checked only at COMMIT.
    fn group_store() -> (tempfile::TempDir, Arc<Store>) {
        let (dir, store) = temp_store();
        store
            .write(|c| {
                Ok::<_, StoreError>(c.execute_batch(
                    "CREATE TABLE t (x INTEGER PRIMARY KEY);
                     CREATE TABLE child (x INTEGER REFERENCES t (x) DEFERRABLE INITIALLY DEFERRED);",
                )?)
            })
            .expect("create");
        (dir, Arc::new(store))
    }

    fn rows(store: &Store, table: &str) -> Vec<i64> {
        store
            .read(|c| {
                let mut st = c.prepare(&format!("SELECT x FROM {table} ORDER BY x"))?;
                let xs = st.query_map([], |r| r.get(0))?;
                Ok(xs.collect::<rusqlite::Result<Vec<i64>>>()?)
            })
            .expect("read rows")
    }

    /// Spins until `n` threads are queued for the writer (bounded: a test must not hang).
    fn until_queued(store: &Store, n: usize) {
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
        store: &Arc<Store>,
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
            |c| exec(c, "INSERT INTO t VALUES (1)", []),
            |c| exec(c, "INSERT INTO t VALUES (2)", []),
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
                exec(c, "INSERT INTO t VALUES (1)", [])?;
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
                exec(c, "INSERT INTO t VALUES (2)", [])
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
            exec(c, "INSERT INTO t VALUES (2)", [])?;
            Err(StoreError::Corrupt("refused".to_owned()))
        }
        fn panic(c: &Conn) -> Result<()> {
            exec(c, "INSERT INTO t VALUES (2)", [])?;
            panic!("a bug in a write")
        }
        type Write = fn(&Conn) -> Result<()>;
        let cases: [(&str, Write); 2] = [("refused", refuse), ("panics", panic)];
        for (what, second) in cases {
            let (_dir, store) = group_store();
            let (a, b) = in_one_group(&store, |c| exec(c, "INSERT INTO t VALUES (1)", []), second);
            assert_eq!(a.expect("no panic").expect("first write"), 1, "{what}");
            match (what, b) {
                ("refused", Ok(Err(e))) => assert!(e.to_string().contains("refused"), "{e}"),
                ("panics", Err(_)) => {}
                (_, other) => panic!("{what}: the second write came back as {other:?}"),
            }
            assert_eq!(rows(&store, "t"), vec![1], "{what}");
            // The writer is usable afterwards.
            store
                .write(|c| exec(c, "INSERT INTO t VALUES (3)", []))
                .expect("a write after it");
            assert_eq!(rows(&store, "t"), vec![1, 3], "{what}");
        }
    }

    #[test]
    fn a_failed_group_commit_fails_every_write_of_the_group_and_keeps_none() {
        let (_dir, store) = group_store();
        let (a, b) = in_one_group(
            &store,
            |c| exec(c, "INSERT INTO t VALUES (1)", []),
            // Fine until COMMIT checks the deferred key: there is no t row 99.
            |c| exec(c, "INSERT INTO child VALUES (99)", []),
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
            .write(|c| exec(c, "INSERT INTO t VALUES (5)", []))
            .expect("write after the failed group");
        assert_eq!(rows(&store, "t"), vec![5]);
    }

    #[test]
    fn a_lone_write_whose_commit_fails_gets_the_error() {
        let (_dir, store) = group_store();
        let err = store
            .write(|c| exec(c, "INSERT INTO child VALUES (7)", []))
            .expect_err("the deferred key fails at COMMIT");
        assert!(matches!(err, StoreError::Commit(_)), "{err:?}");
        assert_eq!(rows(&store, "child"), Vec::<i64>::new());
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
                            .write(|c| exec(c, "INSERT INTO t VALUES (?1)", [t * 1000 + i]))
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
    fn commits_wake_the_background_checkpointer() {
        let (_dir, store) = temp_store();
        store
            .write(|tx| Ok::<_, StoreError>(tx.execute_batch("CREATE TABLE t (x INTEGER)")?))
            .expect("create");
        for x in 0..CHECKPOINT_EVERY {
            store
                .write(|tx| {
                    Ok::<_, StoreError>(tx.execute("INSERT INTO t VALUES (?1)", [x as i64])?)
                })
                .expect("insert");
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while store.checkpoints() == 0 && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(store.checkpoints() >= 1, "no checkpoint within 10 s");
        let rows: i64 = store
            .read(|c| Ok(c.query_row("SELECT COUNT(*) FROM t", [], |r| r.get(0))?))
            .expect("count");
        assert_eq!(rows, CHECKPOINT_EVERY as i64);
    }
}
