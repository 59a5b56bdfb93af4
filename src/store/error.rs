//! What a store call returns when it fails ([`StoreError`]), and the faults of the database file
//! only the operator can fix ([`Fault`]).
//!
//! A leaf of the store: every backend and table module imports it; it imports none of them
//! (reading a fault out of a backend's error is the store's, [`StoreError::fault`]).

/// A store error: SQLite failed, or stored data did not parse. Never caused by a user's input;
/// the app answers these with "Something went wrong".
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("database error: {0}")]
    Postgres(#[from] postgres::Error),
    /// No PostgreSQL connection could be had from the pool in time.
    #[error("no database connection: {0}")]
    Pool(#[from] r2d2::Error),
    #[error("migration failed: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    /// A query that must return a row returned none.
    #[error("the query returned no row")]
    NoRow,
    /// The database's address or settings are wrong (an unparsable URL, say).
    #[error("{0}")]
    Config(String),
    /// What this backend cannot do (a SQLite-only operation on PostgreSQL, say).
    #[error("{0}")]
    Unsupported(String),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    /// The commit of a group this write belonged to failed, so its changes were rolled back.
    #[error("the group commit failed: {0}")]
    Commit(String),
    /// Another process held the write lock past this write's deadline; nothing was written.
    #[error("the database is locked by another process")]
    Busy,
    /// A write of a quick batch (`Store::begin_quick_batch`) was turned away: the writer was
    /// taken in this process, or a checkpoint is near. Nothing of the batch was written, and
    /// its commands run again on the writing lane: never an answer (nor a log line) of its own.
    #[error("turned away from a quick batch; it runs again on the writing lane")]
    TurnedAway,
    /// The database cannot be written until the operator fixes the file; nothing was written.
    #[error("the database cannot be written: {0}")]
    Unavailable(Fault),
    /// A write in a job marked read-only ([`super::Job::read_only`]); nothing was written.
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
    /// The database server (PostgreSQL) does not answer or refuses connections: stopped,
    /// restarting, or not accepting connections to the database.
    Unreachable,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Fault::ReadOnly => "the file is read-only",
            Fault::Full => "the disk is full",
            Fault::Missing => "the file was removed",
            Fault::Unreachable => "the database server cannot be reached",
        })
    }
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;
