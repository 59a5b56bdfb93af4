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
//! both read "1". Connections are pooled; none is held across an `.await` (the store is
//! synchronous; `app` reaches it through `spawn_blocking`).
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
use std::sync::{LazyLock, Mutex};
use std::time::Duration;

use include_dir::{Dir, include_dir};
use rusqlite::{Connection, OpenFlags, Transaction, TransactionBehavior};
use rusqlite_migration::Migrations;

pub use ids::{CharacterId, GuildId, RollId, UserId};

static MIGRATIONS_DIR: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/migrations");
static MIGRATIONS: LazyLock<Migrations<'static>> = LazyLock::new(|| {
    Migrations::from_directory(&MIGRATIONS_DIR).expect("migrations/ is embedded at build time")
});

/// How long a connection waits for another writer before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// Connections kept open for reuse.
// Enough for every blocking thread tokio may run a command on, so a busy bot reuses connections.
const POOL_SIZE: usize = 64;

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

/// The database: a path and a pool of open connections.
pub struct Store {
    path: PathBuf,
    pool: Mutex<Vec<Connection>>,
    /// Writers of this process queue here before `BEGIN IMMEDIATE`: SQLite lets one writer in at a
    /// time anyway, and its busy handler makes waiters sleep and retry (milliseconds each), while
    /// a mutex hands over in microseconds. Other processes still meet the busy timeout.
    writer: Mutex<()>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl Store {
    /// Opens (creating if needed) the database at `path` and applies pending migrations.
    pub fn open(path: &Path) -> Result<Self> {
        let store = Self {
            path: path.to_owned(),
            pool: Mutex::new(Vec::new()),
            writer: Mutex::new(()),
        };
        let mut conn = store.connect()?;
        MIGRATIONS.to_latest(&mut conn)?;
        store.give_back(conn);
        Ok(store)
    }

    /// The schema version the code expects (the number of migrations).
    pub fn latest_version() -> usize {
        MIGRATIONS_DIR.dirs().count()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn connect(&self) -> Result<Connection> {
        let conn = Connection::open_with_flags(
            &self.path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", true)?;
        Ok(conn)
    }

    fn take(&self) -> Result<Connection> {
        let pooled = self.pool.lock().ok().and_then(|mut p| p.pop());
        match pooled {
            Some(conn) => Ok(conn),
            None => self.connect(),
        }
    }

    fn give_back(&self, conn: Connection) {
        if let Ok(mut pool) = self.pool.lock()
            && pool.len() < POOL_SIZE
        {
            pool.push(conn);
        }
    }

    /// Runs `f` with a connection (reads, and single-statement writes).
    pub fn read<T>(&self, f: impl FnOnce(&Conn) -> Result<T>) -> Result<T> {
        let conn = self.take()?;
        let out = f(&conn);
        self.give_back(conn);
        out
    }

    /// Runs `f` in one `BEGIN IMMEDIATE` transaction, committed if `f` returns `Ok`. Use it for
    /// every read-then-write. `f` may return an error of its own type (a refusal, say), which rolls
    /// the transaction back.
    pub fn write<T, E: From<StoreError>>(
        &self,
        f: impl FnOnce(&Transaction<'_>) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut conn = self.take().map_err(E::from)?;
        // A poisoned lock only means another writer panicked; its transaction was rolled back.
        let turn = self
            .writer
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let out = (|| {
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(|e| E::from(e.into()))?;
            let value = f(&tx)?;
            tx.commit().map_err(|e| E::from(e.into()))?;
            Ok(value)
        })();
        drop(turn);
        self.give_back(conn);
        out
    }

    /// Copies the database to `dest` with SQLite's online backup API, while others keep writing.
    pub fn backup(&self, dest: &Path) -> Result<()> {
        let conn = self.take()?;
        let result = (|| {
            let mut target = Connection::open(dest)?;
            let backup = rusqlite::backup::Backup::new(&conn, &mut target)?;
            backup.run_to_completion(256, Duration::from_millis(5), None)?;
            Ok(())
        })();
        self.give_back(conn);
        result
    }
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
    Ok(conn.query_row(&sql, [guild], |r| r.get(0))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_valid() {
        MIGRATIONS.validate().unwrap();
        assert!(Store::latest_version() >= 1);
    }
}
