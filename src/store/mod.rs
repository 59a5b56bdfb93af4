//! Storage: SQLite through rusqlite (the default), or PostgreSQL shared by several processes
//! ([`pg`]) — the only place in the crate with SQL.
//!
//! Store functions are written once over [`Conn`] ([`sql`]: `exec`, `query_row`, `query_opt`,
//! `query_map` with `params!`), in SQL both databases accept; [`Store::open`] picks the backend
//! by its argument (a file, or a `postgres://` URL). The sections below describe SQLite; the
//! PostgreSQL backend's locking is in [`pg`].
//!
//! Owns the schema (`migrations/`, applied at start-up and by `referee migrate`), connections,
//! transactions, and the per-guild partitioning: every per-guild table leads its key with
//! `guild_id` and every query here filters on it, but for a few named cross-guild ones
//! (`distribution_tests` checks both; `docs/scale-out.md` says what a sharded cluster makes of
//! them). Hidden values (luck, the ledger, GM notes, hidden
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
//!   leaves the others' changes in place. A lone write commits at once when the writer is idle;
//!   when it is busy (a commit within the last [`BUSY_GAP`]) and writes come fast (at least
//!   [`LINGER_RATE`] a second over the last [`RATE_WINDOW`]), a small group waits up to
//!   [`LINGER`] (without the writer, which others then take to join it) for more writes,
//!   and commits once it holds [`LINGER_GROUP`] or the wait is over. Under load this
//!   turns many small commits (each writing the same table and index pages to the WAL again,
//!   and taking SQLite's file locks again) into one: fewer bytes written per roll and less CPU.
//! - **Batches.** The bot's one writing thread runs its queued commands as a batch (on
//!   PostgreSQL too, with the deadlock rule its module describes)
//!   ([`Store::begin_batch`]): each write joins the batch's one transaction and returns at
//!   once, and the thread commits once the queue is empty (or after the same linger), then
//!   answers every command of the batch. No thread waits for another's commit, which is what
//!   group commit across threads cost (a wake-up and a sleep per write). If the commit fails
//!   nothing of the batch is kept and each command runs again on its own, so its answer is
//!   the error's. Writes outside a batch never join a batch's transaction.
//! - A bounded pool of reader connections (about two per core); a reader waits for a free one
//!   rather than opening more, so memory stays bounded however many threads call in.
//! - Every statement goes through the connection's prepared-statement cache ([`exec`],
//!   [`query_row`], `prepare_cached`): a command re-parses no SQL.
//! - Each connection keeps a modest page cache ([`READER_CACHE_KIB`], [`WRITER_CACHE_KIB`]); the
//!   OS page cache serves the rest. No `mmap`: mapped pages count once per connection in RSS.
//! - Checkpoints run off the hot path: a background thread, at the lowest priority, runs
//!   `wal_checkpoint(PASSIVE)` every [`CHECKPOINT_EVERY`] commits, so no command pays for
//!   copying the WAL back and its fsyncs. While writes come at a moderate rate, once the WAL is
//!   [`WAL_RESTART_PAGES`] long the checkpointer syncs the database file and the writer copies
//!   what came during the last background checkpoint, so the WAL starts over. SQLite's own
//!   auto-checkpoint stays on as a backstop at a much larger WAL ([`AUTOCHECKPOINT_BACKSTOP`]
//!   pages): under faster writes it is what starts the WAL over.
//!
//! ## Compatibility
//! Migrations are append-only: a shipped `migrations/NN-name/up.sql` (and its PostgreSQL twin
//! `postgres.sql`) is never edited, so every database, however old, reaches the same schema. A
//! new migration adds both files; a test checks the two dialects reach the same tables and
//! columns.

pub mod advancement;
pub mod aliases;
pub mod bestiary;
pub mod characters;
pub mod conditions;
pub mod copy;
#[cfg(test)]
mod distribution_tests;
pub mod encounters;
mod error;
pub mod guilds;
pub mod ids;
mod job;
pub mod journal;
pub mod outbox;
mod pg;
#[cfg(test)]
mod pg_batch_tests;
pub mod requests;
pub mod rolls;
pub mod secrets;
pub mod sql;
mod sqlite;
pub mod testdb;
mod watch;

use std::path::Path;

pub use error::{Fault, Result, StoreError};
pub use ids::{CharacterId, GuildId, RollId, UserId};
pub(crate) use job::current_job;
pub use job::{Job, in_guild, with_job};
pub use pg::{IdentifyTurn, redact};
pub(crate) use sql::now;
pub use sql::{
    CommitObserver, Conn, Dialect, Row, exec, insert_returning, params, query_map, query_opt,
    query_row,
};
pub use sqlite::{
    AUTOCHECKPOINT_BACKSTOP, BUSY_GAP, CHECKPOINT_ENV, CHECKPOINT_EVERY, LINGER, LINGER_ENV,
    LINGER_GROUP, LINGER_RATE, LINGER_RATE_ENV, MAX_GROUP, PAGE_SIZE, RATE_WINDOW,
    READER_CACHE_KIB, WAL_RESTART_ENV, WAL_RESTART_PAGES, WRITE_WAIT, WRITER_CACHE_KIB,
};

impl StoreError {
    /// The fault of the file behind this error, if it is one.
    pub fn fault(&self) -> Option<Fault> {
        match self {
            StoreError::Unavailable(f) => Some(*f),
            StoreError::Sqlite(e) => sqlite::sqlite_fault(e),
            StoreError::Postgres(e) => pg::pg_fault(e),
            StoreError::Pool(e) => pg::pool_fault(e),
            StoreError::Migration(rusqlite_migration::Error::RusqliteError { err, .. }) => {
                sqlite::sqlite_fault(err)
            }
            _ => None,
        }
    }

    /// Whether the write lock was not had in time (nothing was written).
    pub fn is_busy(&self) -> bool {
        match self {
            StoreError::Busy | StoreError::TurnedAway => true,
            // Every connection in use past the deadline; one that could not be made is a fault.
            StoreError::Pool(e) => pg::pool_fault(e).is_none(),
            StoreError::Sqlite(e) => sqlite::is_busy(e),
            StoreError::Postgres(e) => pg::is_busy(e),
            StoreError::Migration(rusqlite_migration::Error::RusqliteError { err, .. }) => {
                sqlite::is_busy(err)
            }
            _ => false,
        }
    }
}

/// Whether `location` names a PostgreSQL database (`postgres://…` or `postgresql://…`) rather
/// than a SQLite file.
pub fn is_postgres_url(location: &str) -> bool {
    location.starts_with("postgres://") || location.starts_with("postgresql://")
}

/// The database: a SQLite file (the default) or a PostgreSQL server shared by several processes.
pub struct Store(Backend);

/// How long a read of the roll log waits for the write lock to fold the roll journal first
/// ([`Store::settle_journal`]).
pub const JOURNAL_SETTLE_WAIT: std::time::Duration = std::time::Duration::from_millis(200);

// One per process, never moved: the size difference costs nothing.
#[allow(clippy::large_enum_variant)]
enum Backend {
    Sqlite(sqlite::Sqlite),
    Postgres(pg::Postgres),
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Backend::Sqlite(s) => s.fmt(f),
            Backend::Postgres(p) => p.fmt(f),
        }
    }
}

impl Store {
    /// Opens the database at `location` and applies pending migrations: a `postgres://` URL is
    /// a PostgreSQL database (which must exist), anything else a SQLite file (created if
    /// needed).
    pub fn open(location: &Path) -> Result<Self> {
        match location.to_str() {
            Some(url) if is_postgres_url(url) => Self::open_url(url),
            _ => Ok(Self(Backend::Sqlite(sqlite::Sqlite::open(location)?))),
        }
    }

    /// Opens the PostgreSQL database at `url` and applies pending migrations.
    pub fn open_url(url: &str) -> Result<Self> {
        let config: postgres::Config = url
            .parse()
            .map_err(|e| StoreError::Config(format!("{}: {e}", pg::redact(url))))?;
        Self::open_postgres(config, &pg::redact(url))
    }

    /// Opens a PostgreSQL database with `config`; `shown` is how it is named in messages (no
    /// password).
    pub fn open_postgres(config: postgres::Config, shown: &str) -> Result<Self> {
        Ok(Self(Backend::Postgres(pg::Postgres::open(config, shown)?)))
    }

    /// Waits for this process's turn to IDENTIFY its shards with Discord, among the processes
    /// sharing this PostgreSQL database; the turn lasts until the guard is dropped. `None` on
    /// SQLite: one file serves one machine, where one process runs every shard.
    pub fn identify_turn(&self) -> Result<Option<IdentifyTurn>> {
        match &self.0 {
            Backend::Sqlite(_) => Ok(None),
            Backend::Postgres(p) => p.identify_turn().map(Some),
        }
    }

    /// Has `observer` told the time of every successful commit from now on (SQLite: each group
    /// commit; PostgreSQL: each write's transaction). Once per store; a second is ignored.
    pub fn observe_commits(&self, observer: CommitObserver) {
        match &self.0 {
            Backend::Sqlite(s) => s.observe_commits(observer),
            Backend::Postgres(p) => p.observe_commits(observer),
        }
    }

    /// The schema version the code expects (the number of migrations).
    pub fn latest_version() -> usize {
        sqlite::latest_version()
    }

    /// Which database this is.
    pub fn dialect(&self) -> Dialect {
        match &self.0 {
            Backend::Sqlite(_) => Dialect::Sqlite,
            Backend::Postgres(_) => Dialect::Postgres,
        }
    }

    /// The SQLite file, or the PostgreSQL URL without its password.
    pub fn path(&self) -> &Path {
        match &self.0 {
            Backend::Sqlite(s) => s.path(),
            Backend::Postgres(p) => p.shown(),
        }
    }

    /// The most reader connections this store opens (on PostgreSQL, the pool's size).
    pub fn max_readers(&self) -> usize {
        match &self.0 {
            Backend::Sqlite(s) => s.max_readers(),
            Backend::Postgres(p) => p.max_connections(),
        }
    }

    /// Writes committed, and the commits they were committed in (for diagnostics: the ratio is
    /// the mean group's or batch's size).
    pub fn commit_counts(&self) -> (u64, u64) {
        match &self.0 {
            Backend::Sqlite(s) => s.commit_counts(),
            Backend::Postgres(p) => p.commit_counts(),
        }
    }

    /// How many background checkpoints have completed (SQLite; always 0 on PostgreSQL).
    pub fn checkpoints(&self) -> u64 {
        match &self.0 {
            Backend::Sqlite(s) => s.checkpoints(),
            Backend::Postgres(_) => 0,
        }
    }

    /// Runs `f` with a reader connection (reads, and single-statement writes).
    pub fn read<T>(&self, f: impl FnOnce(&Conn) -> Result<T>) -> Result<T> {
        match &self.0 {
            Backend::Sqlite(s) => s.read(f),
            Backend::Postgres(p) => p.read(f),
        }
    }

    /// Runs `f` in one write transaction, committed if `f` returns `Ok`; this returns only after
    /// the commit, with its outcome (in a batch, [`Store::begin_batch`], as soon as `f` has run:
    /// the batch commits). Use it for every read-then-write. `f` may return an error
    /// of its own type (a refusal, say), which rolls back what `f` did. `f` must not call
    /// [`Store::write`] itself and has no need to call [`Store::read`]: `conn` reads, and sees
    /// the writes before it.
    ///
    /// On SQLite this is a savepoint of a `BEGIN IMMEDIATE` group commit (see the module docs);
    /// on PostgreSQL a transaction that first takes the job's guild's write lock (an advisory
    /// lock, see [`pg`]), so a guild's writes are serialised across every process sharing the
    /// database as SQLite's write lock serialises them, and each read-then-write stays safe.
    pub fn write<T, E: From<StoreError>>(
        &self,
        f: impl FnOnce(&Conn) -> Result<T, E>,
    ) -> Result<T, E> {
        match &self.0 {
            Backend::Sqlite(s) => s.write(f),
            Backend::Postgres(p) => p.write(f),
        }
    }

    /// Starts this process's roll journal on SQLite (see [`journal`]) unless `setting`
    /// (`REFEREE_ROLL_JOURNAL`) turns it off; whether it runs. On PostgreSQL none runs: a roll is
    /// a write of its own there. Call it once, before the store is shared, and run
    /// [`Store::fold_journal`] on a thread of its own while it runs.
    ///
    /// # Errors
    /// The journal's folder or file cannot be made.
    pub fn start_journal(&self, setting: Option<&str>) -> Result<bool> {
        match &self.0 {
            Backend::Sqlite(s) => s.start_journal(setting),
            Backend::Postgres(_) => Ok(false),
        }
    }

    /// Whether log-only rolls go to the roll journal now.
    pub fn journaling(&self) -> bool {
        match &self.0 {
            Backend::Sqlite(s) => s.journaling(),
            Backend::Postgres(_) => false,
        }
    }

    /// Logs a roll through the roll journal, when the calling job allows it (a journal job, see
    /// [`Job::journal`]), the roll is log-only (shown in public or to the roller alone, with no
    /// character, parent or commitment) and the journal takes rolls now: its id, once it is
    /// in the journal's file. `None`: the roll must be written with [`rolls::insert`] in a write.
    pub fn journal_roll(
        &self,
        guild: GuildId,
        roll: &rolls::NewRoll<'_>,
    ) -> Result<Option<RollId>> {
        let Backend::Sqlite(s) = &self.0 else {
            return Ok(None);
        };
        let log_only = matches!(roll.mode, rolls::Mode::Public | rolls::Mode::SelfOnly)
            && roll.character.is_none()
            && roll.parent.is_none()
            && roll.commitment.is_none();
        if !log_only || !current_job().journal {
            return Ok(None);
        }
        let entry = journal::NewEntry {
            guild,
            user: roll.user,
            command: roll.command,
            mode: roll.mode.as_str(),
            label: roll.label,
            public_json: roll.result_json,
            created_at: sql::now(),
        };
        Ok(s.journal_roll(&entry)?.map(RollId))
    }

    /// The roll journal's folding thread's step (see [`Store::start_journal`]): waits up to
    /// `wait` for rows and folds them; `false` once the journal is closed, or none runs.
    pub fn fold_journal(&self, wait: std::time::Duration) -> bool {
        match &self.0 {
            Backend::Sqlite(s) => s.fold_journal(wait),
            Backend::Postgres(_) => false,
        }
    }

    /// Folds every roll the roll journal holds into the database, for a read of the roll log
    /// that must see every roll answered before it (`/history`), waiting for the write lock
    /// [`JOURNAL_SETTLE_WAIT`] at most: while another program holds it longer, the read goes on
    /// without the newest rolls (they are safe in the journal). A write needs none of this: its
    /// transaction folds what is pending when it begins.
    pub fn settle_journal(&self) {
        if let Backend::Sqlite(s) = &self.0 {
            s.settle_journal_by(Some(std::time::Instant::now() + JOURNAL_SETTLE_WAIT));
        }
    }

    /// Closes the roll journal, if one runs: every row folded, its leases dropped (also done when
    /// the store is dropped).
    pub fn close_journal(&self) {
        if let Backend::Sqlite(s) = &self.0 {
            s.close_journal();
        }
    }

    /// Opens a batch of writes on this thread. Until [`Store::finish_batch`], every
    /// [`Store::write`] of this thread joins one transaction and returns as soon as it has run,
    /// before the commit, and [`Store::read`]s see those writes: the caller must hold back what
    /// it learnt from them until the batch committed, and do its work again if the batch failed
    /// (then none of it was kept). On PostgreSQL a command may also be turned away from the
    /// batch ([`Store::batch_deferred`]). See the module's "Batches" and [`pg`]'s.
    pub fn begin_batch(&self) {
        match &self.0 {
            Backend::Sqlite(s) => s.begin_batch(),
            Backend::Postgres(p) => p.begin_batch(),
        }
    }

    /// Opens a batch that never waits for a lock, on SQLite ([`sqlite::Sqlite::begin_quick_batch`]);
    /// `false`, and no batch opened, on PostgreSQL, whose writes wait for the server.
    pub fn begin_quick_batch(&self) -> bool {
        match &self.0 {
            Backend::Sqlite(s) => {
                s.begin_quick_batch();
                true
            }
            Backend::Postgres(_) => false,
        }
    }

    /// Whether the command just run in the open batch had a write turned away (PostgreSQL: its
    /// guild's lock was held by another process's transaction; SQLite: a quick batch found the
    /// write lock taken): nothing it wrote is kept, and it must run again on its own once the
    /// batch is committed (or rolled back). Clears the mark. Always `false` in SQLite's other
    /// batches, which hold the one write lock.
    pub fn batch_deferred(&self) -> bool {
        match &self.0 {
            Backend::Sqlite(s) => s.batch_deferred(),
            Backend::Postgres(p) => p.batch_deferred(),
        }
    }

    /// How long the open batch, `jobs` jobs in, should wait for more before committing, and how
    /// many more end the wait (the group commit's linger); `None`: commit now.
    pub fn batch_linger(&self, jobs: usize) -> Option<(std::time::Duration, usize)> {
        match &self.0 {
            Backend::Sqlite(s) => s.batch_linger(jobs),
            Backend::Postgres(_) => None,
        }
    }

    /// Rolls back the batch open on this thread, if any (its caller could not finish it).
    pub fn abandon_batch(&self) {
        match &self.0 {
            Backend::Sqlite(s) => s.abandon_batch(),
            Backend::Postgres(p) => p.abandon_batch(),
        }
    }

    /// Commits the batch open on this thread, then runs what [`after_commit`] deferred.
    ///
    /// # Errors
    /// The commit failed: none of the batch's writes were kept.
    pub fn finish_batch(&self) -> Result<()> {
        match &self.0 {
            Backend::Sqlite(s) => s.finish_batch(),
            Backend::Postgres(p) => p.finish_batch(),
        }
    }

    /// Caps the SQLite database at `pages` pages, or lifts the cap (fault tests; SQLite only).
    pub fn limit_pages(&self, pages: Option<u32>) -> Result<()> {
        match &self.0 {
            Backend::Sqlite(s) => s.limit_pages(pages),
            Backend::Postgres(_) => Err(StoreError::Unsupported(
                "a page limit is SQLite's; PostgreSQL has none".to_owned(),
            )),
        }
    }

    /// Copies a SQLite database to `dest` with SQLite's online backup API, while others keep
    /// writing. A PostgreSQL database is backed up with `pg_dump`, which this refuses to stand
    /// in for.
    pub fn backup(&self, dest: &Path) -> Result<()> {
        match &self.0 {
            Backend::Sqlite(s) => s.backup(dest),
            Backend::Postgres(p) => Err(StoreError::Unsupported(format!(
                "{} is a PostgreSQL database: back it up with pg_dump (for instance \
                 `pg_dump --format=custom --file=referee.dump '{}'`), restore with pg_restore",
                p.shown().display(),
                p.shown().display()
            ))),
        }
    }
}

/// Runs `f` once what this thread wrote is committed: now, unless a batch is open on the thread
/// ([`Store::begin_batch`]), then when it commits (and never if it fails: its work runs again).
/// For what must not be seen before the commit, such as waking the task that reads the outbox.
pub fn after_commit(f: impl FnOnce() + Send + 'static) {
    if let Some(f) = pg::after_commit(Box::new(f)) {
        sqlite::after_commit(f);
    }
}

/// The next id of a per-guild table, inside a write transaction: above the table's largest id
/// in the guild and above every id the guild was ever handed of that table (`id_counters`), so
/// an id of a deleted row is never handed out again (issue 57: a button naming a deleted NPC
/// copy must not act on the next one made).
pub(crate) fn next_id(conn: &Conn, table: &str, guild: GuildId) -> Result<i64> {
    // `table` is always a literal from this module, never user input.
    let sql = format!("SELECT COALESCE(MAX(id), 0) FROM {table} WHERE guild_id = ?1");
    let largest: i64 = query_row(conn, &sql, params![guild], |r| r.get(0))?;
    next_above(conn, guild, table, largest)
}

/// Raises the guild's counter `name` to `value` if it is below (a number handed out elsewhere
/// that the counter must stay above). Inside a write transaction.
pub(crate) fn raise_counter(conn: &Conn, guild: GuildId, name: &str, value: i64) -> Result<()> {
    exec(
        conn,
        "INSERT INTO id_counters (guild_id, name, last_id) VALUES (?1, ?2, ?3)
         ON CONFLICT (guild_id, name) DO UPDATE SET last_id = CASE
             WHEN id_counters.last_id > excluded.last_id THEN id_counters.last_id
             ELSE excluded.last_id END",
        params![guild, name, value],
    )?;
    Ok(())
}

/// The next number of the guild's counter `name`, above `floor` and above every number the
/// counter handed out before; the counter then holds it. Inside a write transaction.
pub(crate) fn next_above(conn: &Conn, guild: GuildId, name: &str, floor: i64) -> Result<i64> {
    let last: Option<i64> = query_opt(
        conn,
        "SELECT last_id FROM id_counters WHERE guild_id = ?1 AND name = ?2",
        params![guild, name],
        |r| r.get(0),
    )?;
    let next = last.unwrap_or(0).max(floor) + 1;
    exec(
        conn,
        "INSERT INTO id_counters (guild_id, name, last_id) VALUES (?1, ?2, ?3)
         ON CONFLICT (guild_id, name) DO UPDATE SET last_id = excluded.last_id",
        params![guild, name, next],
    )?;
    Ok(next)
}
