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
//! ## Connections and speed
//! - One writer connection per process, behind a mutex: SQLite admits one writer at a time anyway,
//!   and a mutex hands over in microseconds where SQLite's busy handler sleeps and retries.
//!   Other processes on the file still meet the busy timeout.
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

pub mod characters;
pub mod guilds;
pub mod ids;
pub mod rolls;
pub mod secrets;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, SyncSender};
use std::sync::{Arc, Condvar, LazyLock, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use include_dir::{Dir, include_dir};
use rusqlite::{Connection, OpenFlags, Params, Row, Transaction, TransactionBehavior};
use rusqlite_migration::Migrations;

pub use ids::{CharacterId, GuildId, RollId, UserId};

static MIGRATIONS_DIR: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/migrations");
static MIGRATIONS: LazyLock<Migrations<'static>> = LazyLock::new(|| {
    Migrations::from_directory(&MIGRATIONS_DIR).expect("migrations/ is embedded at build time")
});

/// How long a connection waits for another process's writer before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
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
}

/// The database: a path, one writer connection, a bounded pool of readers, and the background
/// checkpointer.
pub struct Store {
    path: PathBuf,
    /// This process's writer. Holding the lock is this process's turn to write; `BEGIN
    /// IMMEDIATE` then takes SQLite's write lock against other processes.
    writer: Mutex<Connection>,
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
}

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
}

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            let mut pool = self
                .store
                .readers
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if pool.open > self.store.max_readers {
                // An overflow reader (see `take`): close it rather than keep it.
                pool.open -= 1;
                drop(pool);
                drop(conn);
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
        let mut writer = connect(path, Role::Writer)?;
        MIGRATIONS.to_latest(&mut writer)?;
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        let checkpoints = Arc::new(AtomicU64::new(0));
        let (checkpoint, checkpointer) = start_checkpointer(path, Arc::clone(&checkpoints))?;
        Ok(Self {
            path: path.to_owned(),
            writer: Mutex::new(writer),
            readers: Mutex::new(Pool {
                idle: Vec::new(),
                open: 0,
            }),
            reader_free: Condvar::new(),
            // Readers never block one another in WAL mode; more of them than threads that can
            // run at once only costs memory.
            max_readers: (2 * cores + 2).min(16),
            commits: AtomicU64::new(0),
            checkpoints,
            checkpoint: Mutex::new(Some(checkpoint)),
            checkpointer: Mutex::new(Some(checkpointer)),
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
            if let Some(conn) = pool.idle.pop() {
                return Ok(Lent {
                    store: self,
                    conn: Some(conn),
                });
            }
            if pool.open < self.max_readers || waited {
                pool.open += 1;
                drop(pool);
                return match connect(&self.path, Role::Reader) {
                    Ok(conn) => Ok(Lent {
                        store: self,
                        conn: Some(conn),
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

    /// Runs `f` in one `BEGIN IMMEDIATE` transaction on this process's writer, committed if `f`
    /// returns `Ok`. Use it for every read-then-write. `f` may return an error of its own type
    /// (a refusal, say), which rolls the transaction back. `f` must not call [`Store::write`]
    /// itself (the writer is not re-entrant) and has no need to call [`Store::read`]: `tx` reads.
    pub fn write<T, E: From<StoreError>>(
        &self,
        f: impl FnOnce(&Transaction<'_>) -> Result<T, E>,
    ) -> Result<T, E> {
        // A poisoned lock only means another writer panicked; its transaction was rolled back
        // when it unwound, so the connection is clean.
        let mut conn = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        let out = (|| {
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(|e| E::from(e.into()))?;
            let value = f(&tx)?;
            tx.commit().map_err(|e| E::from(e.into()))?;
            Ok(value)
        })();
        drop(conn);
        if out.is_ok() {
            self.committed();
        }
        out
    }

    /// Counts a commit and, every [`CHECKPOINT_EVERY`], wakes the checkpointer (outside the
    /// writer lock; if it is still busy with the last one, the wake-up is dropped).
    fn committed(&self) {
        let n = self.commits.fetch_add(1, Ordering::Relaxed) + 1;
        if n.is_multiple_of(CHECKPOINT_EVERY)
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
fn connect(path: &Path, role: Role) -> Result<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
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

/// Starts the thread that checkpoints the WAL whenever it is woken.
fn start_checkpointer(
    path: &Path,
    done: Arc<AtomicU64>,
) -> Result<(SyncSender<()>, JoinHandle<()>)> {
    let conn = connect(path, Role::Checkpointer)?;
    // One pending wake-up is enough: a checkpoint copies everything committed before it starts.
    let (tx, rx) = mpsc::sync_channel::<()>(1);
    let handle = std::thread::Builder::new()
        .name("referee-checkpoint".into())
        .spawn(move || {
            while rx.recv().is_ok() {
                // PASSIVE never waits for readers or the writer: it copies what it can now and
                // leaves the rest for the next round.
                let result = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
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
                    Err(e) => tracing::warn!("background checkpoint failed: {e}"),
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
