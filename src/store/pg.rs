//! The PostgreSQL backend: a pool of connections (r2d2) to one database that several processes
//! share.
//!
//! - **Reads** take a pooled connection and run in autocommit.
//! - **Writes** run one transaction each, which first takes its guild's write lock, a
//!   transaction-scoped advisory lock keyed on the guild (the job's guild, [`super::in_guild`];
//!   the `app` declares it for every command). Everything a guild owns is keyed by its id and
//!   every store function filters on it, so writes of one guild are serialised across every
//!   process on the database, as SQLite's `BEGIN IMMEDIATE` serialises them on a file, and every
//!   read-then-write of the store functions (the next id of a guild's table, a luck spend's read
//!   and conditional decrement, an encounter's version check, a request's claim) stays as safe as
//!   on SQLite — across processes too — while writes of other guilds go on beside it (issue 33).
//!   Each guild's write also holds the database-wide lock ([`WRITE_LOCK`]) shared; a write
//!   declared for no guild (the outbox's recovery at start-up, which spans guilds) takes it
//!   exclusively, so it runs alone. (`docs/scale-out.md` says what these locks become on a
//!   cluster sharded by guild.) The outbox's ids are the database's own (an identity column), not `MAX + 1`. The wait for the lock honours the job's deadline (`lock_timeout`), past which
//!   the write is [`StoreError::Busy`] and nothing was written. Readers never wait for it.
//! - A failed statement ends the write on PostgreSQL (the transaction is aborted): a store
//!   function that fails fails its whole write, which is rolled back.
//! - **Batches** ([`Postgres::begin_batch`]), as on SQLite: the bot's writing thread runs the
//!   commands queued for it in one transaction and answers them once it is committed (one
//!   commit, one WAL flush, for the lot). Each write runs in a savepoint of the batch's
//!   transaction, so a write that fails is undone alone; reads of a guild the batch holds go
//!   through the batch's connection, so they see its writes.
//!
//!   A batch spans guilds, so it holds several guilds' locks at once, and two processes taking
//!   them in different orders would deadlock. So a batch only ever *waits* for a lock while it
//!   holds none: its first write waits for its guild's lock (until the deadline); a later write
//!   of a new guild only tries it (`pg_try_advisory_xact_lock`), and when another transaction
//!   holds it the write is turned away: its command keeps nothing, and runs again on its own
//!   once the batch is committed ([`Postgres::batch_deferred`]), then waiting while holding
//!   nothing. No waiter holds a lock, so no cycle of waits can form. A write of no one guild
//!   (it would need the database-wide lock exclusively) is turned away the same way.
//! - **Migrations**: each `migrations/NN-name/` has `postgres.sql` beside SQLite's `up.sql`;
//!   [`migrate`] applies the ones not yet in `referee_migrations` in order, each in its own
//!   transaction, under an advisory lock of its own so processes started together migrate once.

use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::sql::{Conn, PgManager, PgPool};
use super::{GuildId, Job, Result, StoreError, WRITE_WAIT, current_job, params, query_row, sqlite};

/// The database-wide write lock ("referee" + 'w'): held shared by every guild's write, and
/// exclusively by a write of no one guild.
pub const WRITE_LOCK: i64 = 0x7265_6665_7265_6577;
/// The first key of a guild's write lock, a two-key advisory lock (`pg_advisory_xact_lock(int,
/// int)`, a space of its own beside the one-key locks): "refg".
pub const GUILD_LOCK_CLASS: i32 = 0x7265_6667;

/// The second key of `guild`'s write lock: its id folded to 32 bits. Two guilds that fold alike
/// share a lock, which only makes them wait for each other.
pub fn guild_lock_key(guild: GuildId) -> i32 {
    let g = guild.0;
    ((g ^ (g >> 32)) & 0xffff_ffff) as u32 as i32
}

/// The locks a write takes first: the guild's own (and the database-wide one shared), or the
/// database-wide one alone.
fn write_locks(guild: Option<GuildId>) -> String {
    match guild {
        Some(g) => format!(
            "SELECT pg_advisory_xact_lock_shared({WRITE_LOCK}); \
             SELECT pg_advisory_xact_lock({GUILD_LOCK_CLASS}, {});",
            guild_lock_key(g)
        ),
        None => format!("SELECT pg_advisory_xact_lock({WRITE_LOCK});"),
    }
}
/// The advisory lock held while migrating ("referee" + 'm').
pub const MIGRATE_LOCK: i64 = 0x7265_6665_7265_656d;
/// Connections in the pool at most.
const POOL_SIZE: u32 = 16;
/// The advisory lock processes sharing the database take turns with while their shards
/// IDENTIFY (Discord allows so many IDENTIFYs per 5 seconds across all of a bot's processes).
pub const IDENTIFY_LOCK: i64 = 0x7265_6665_7265_6569;

/// How long opening the store waits for the server.
const CONNECT_WAIT: Duration = Duration::from_secs(5);

/// Whether a PostgreSQL error means a lock or a connection was not had in time (nothing was
/// written): a lock timeout, a serialisation failure or a deadlock.
pub(super) fn is_busy(e: &postgres::Error) -> bool {
    use postgres::error::SqlState;
    e.code().is_some_and(|c| {
        *c == SqlState::LOCK_NOT_AVAILABLE
            || *c == SqlState::T_R_SERIALIZATION_FAILURE
            || *c == SqlState::T_R_DEADLOCK_DETECTED
    })
}

/// The fault a PostgreSQL error shows: [`Fault::Unreachable`] when the connection is gone (the
/// server stopped, restarted or ended the session) or the server will not take one (starting
/// up or shutting down, too many connections, the database closed to connections).
pub(super) fn pg_fault(e: &postgres::Error) -> Option<super::Fault> {
    use postgres::error::SqlState;
    let refused = e.code().is_some_and(|c| {
        *c == SqlState::ADMIN_SHUTDOWN
            || *c == SqlState::CRASH_SHUTDOWN
            || *c == SqlState::CANNOT_CONNECT_NOW
            || *c == SqlState::TOO_MANY_CONNECTIONS
            || *c == SqlState::CONNECTION_EXCEPTION
            || *c == SqlState::CONNECTION_FAILURE
            || *c == SqlState::SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION
            // "database … is not currently accepting connections"
            || *c == SqlState::OBJECT_NOT_IN_PREREQUISITE_STATE && e.to_string().contains("accepting connections")
    });
    // A connection that broke (the socket's own error), not a value that failed to convert.
    let io =
        std::error::Error::source(e).is_some_and(<dyn std::error::Error>::is::<std::io::Error>);
    (refused || e.is_closed() || io).then_some(super::Fault::Unreachable)
}

/// The fault a pool's timeout shows: r2d2 names the last error of a connection it tried to make
/// ("timed out waiting for connection: connection refused"), which is [`Fault::Unreachable`];
/// without one, every connection was merely in use (busy).
pub(super) fn pool_fault(e: &r2d2::Error) -> Option<super::Fault> {
    let text = e.to_string();
    text.split_once(": ")
        .is_some_and(|(_, cause)| !cause.is_empty())
        .then_some(super::Fault::Unreachable)
}

/// `url` without its password, for messages and logs.
pub fn redact(url: &str) -> String {
    let Some(scheme_end) = url.find("://").map(|i| i + 3) else {
        return url.to_owned();
    };
    let rest = &url[scheme_end..];
    let Some(at) = rest.find('@') else {
        return url.to_owned();
    };
    match rest[..at].find(':') {
        Some(colon) => format!(
            "{}{}:***{}",
            &url[..scheme_end],
            &rest[..colon],
            &rest[at..]
        ),
        None => url.to_owned(),
    }
}

/// A process's turn to IDENTIFY: [`IDENTIFY_LOCK`], held on one connection until dropped.
pub struct IdentifyTurn(Option<r2d2::PooledConnection<PgManager>>);

impl Drop for IdentifyTurn {
    fn drop(&mut self) {
        if let Some(mut conn) = self.0.take()
            && let Err(e) = conn
                .client()
                .execute("SELECT pg_advisory_unlock($1)", &[&IDENTIFY_LOCK])
        {
            tracing::warn!(error = %e, "cannot release the IDENTIFY turn; it ends with the connection");
            drop(conn);
        }
    }
}

/// A PostgreSQL database shared by one or more processes.
pub struct Postgres {
    pool: PgPool,
    shown: PathBuf,
    /// Writes committed.
    commits: AtomicU64,
    /// Transactions committed (a batch's writes are one).
    groups: AtomicU64,
    /// Told how long each successful commit took (see [`Postgres::observe_commits`]).
    on_commit: std::sync::OnceLock<super::CommitObserver>,
}

impl std::fmt::Debug for Postgres {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("postgres", &self.shown)
            .finish_non_exhaustive()
    }
}

impl Postgres {
    /// Connects (the database must exist) and applies pending migrations.
    pub fn open(config: postgres::Config, shown: &str) -> Result<Self> {
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .min_idle(Some(2))
            .connection_timeout(CONNECT_WAIT)
            .build(PgManager { config })
            .map_err(|e| StoreError::Config(format!("cannot reach {shown}: {e}")))?;
        {
            let mut c = pool.get()?;
            migrate(c.client())?;
        }
        Ok(Self {
            pool,
            shown: PathBuf::from(shown),
            commits: AtomicU64::new(0),
            groups: AtomicU64::new(0),
            on_commit: std::sync::OnceLock::new(),
        })
    }

    pub fn shown(&self) -> &Path {
        &self.shown
    }

    /// Waits for this process's turn to IDENTIFY (see [`IDENTIFY_LOCK`]); the turn lasts until
    /// the returned guard is dropped, or the process dies (the server then ends its session and
    /// the lock with it).
    pub fn identify_turn(&self) -> Result<IdentifyTurn> {
        let mut conn = self.pool.get()?;
        conn.client()
            .execute("SELECT pg_advisory_lock($1)", &[&IDENTIFY_LOCK])?;
        Ok(IdentifyTurn(Some(conn)))
    }

    /// Has `observer` told the time of every successful commit from now on (once per store).
    pub fn observe_commits(&self, observer: super::CommitObserver) {
        let _ = self.on_commit.set(observer);
    }

    /// Runs `commit`, telling the observer how long it took when it succeeded.
    fn timed(&self, commit: impl FnOnce() -> Result<()>) -> Result<()> {
        let Some(observe) = self.on_commit.get() else {
            return commit();
        };
        let started = Instant::now();
        let out = commit();
        if out.is_ok() {
            observe(started.elapsed());
        }
        out
    }

    pub fn max_connections(&self) -> usize {
        self.pool.max_size() as usize
    }

    /// Writes committed, and the transactions they were committed in.
    pub fn commit_counts(&self) -> (u64, u64) {
        (
            self.commits.load(Ordering::Relaxed),
            self.groups.load(Ordering::Relaxed),
        )
    }

    /// Runs `f` on a pooled connection in autocommit; in a batch that holds the job's guild,
    /// on the batch's transaction instead, so it sees the batch's writes.
    pub fn read<T>(&self, f: impl FnOnce(&Conn) -> Result<T>) -> Result<T> {
        if let Some(open) = self.batch_holding(current_job()) {
            return self.read_in_batch(open, f);
        }
        let conn = Conn::postgres(self.pool.get()?);
        f(&conn)
    }

    /// A connection in a transaction that holds `job`'s write locks ([`write_locks`]), waiting
    /// for them until the job's deadline: [`StoreError::Busy`] past it (nothing was written).
    fn begin(&self, job: Job) -> Result<Conn> {
        let deadline = job.deadline_or(WRITE_WAIT);
        let wait = deadline.saturating_duration_since(Instant::now());
        let pooled = self
            .pool
            .get_timeout(wait.max(Duration::from_millis(1)))
            .map_err(|e| match pool_fault(&e) {
                Some(_) => StoreError::Pool(e),
                None => StoreError::Busy,
            })?;
        let conn = Conn::postgres(pooled);
        let ms = deadline
            .saturating_duration_since(Instant::now())
            .as_millis()
            .max(1);
        // `lock_timeout` bounds the wait for the write lock only; it is lifted once it is had.
        let begun = conn.batch(&format!(
            "BEGIN; SET LOCAL lock_timeout = '{ms}ms'; {} SET LOCAL lock_timeout = DEFAULT",
            write_locks(job.guild)
        ));
        match begun {
            Ok(()) => Ok(conn),
            Err(e) => {
                let _ = conn.batch("ROLLBACK");
                Err(if e.is_busy() { StoreError::Busy } else { e })
            }
        }
    }

    pub fn write<T, E: From<StoreError>>(
        &self,
        f: impl FnOnce(&Conn) -> Result<T, E>,
    ) -> Result<T, E> {
        let job = current_job();
        if job.read_only {
            return Err(E::from(StoreError::NeedsWriter));
        }
        if self.with_batch(|_| ()).is_some() {
            return self.write_in_batch(job, f);
        }
        let conn = self.begin(job).map_err(E::from)?;
        let out = catch_unwind(AssertUnwindSafe(|| f(&conn)));
        match out {
            Err(panic) => {
                let _ = conn.batch("ROLLBACK");
                resume_unwind(panic)
            }
            Ok(Err(e)) => {
                let _ = conn.batch("ROLLBACK");
                Err(e)
            }
            Ok(Ok(value)) => match self.timed(|| conn.batch("COMMIT")) {
                Ok(()) => {
                    self.commits.fetch_add(1, Ordering::Relaxed);
                    self.groups.fetch_add(1, Ordering::Relaxed);
                    Ok(value)
                }
                Err(e) => {
                    let _ = conn.batch("ROLLBACK");
                    Err(E::from(StoreError::Commit(e.to_string())))
                }
            },
        }
    }
}

/// The batch open on this thread (see [`Postgres::begin_batch`]).
struct Batch {
    /// Which store it writes to (its address).
    store: usize,
    /// The batch's transaction, once a write has begun it (taken out while a write runs in it).
    open: Option<Open>,
    /// Run once the batch's commit succeeded ([`super::after_commit`]).
    after: Vec<Box<dyn FnOnce() + Send>>,
    /// The running job had a write turned away (see [`Postgres::batch_deferred`]).
    deferred: bool,
}

/// A batch's transaction: its connection and the guilds whose write locks it holds.
struct Open {
    conn: Conn,
    /// The lock keys ([`guild_lock_key`]) of the guilds it holds.
    guilds: Vec<i32>,
    /// Writes run in it so far.
    writes: u64,
    /// A statement of the batch's own (a savepoint's, a lock's) failed: the transaction can
    /// only be rolled back.
    broken: bool,
}

thread_local! {
    static BATCH: RefCell<Option<Batch>> = const { RefCell::new(None) };
}

/// Runs `f` once the batch open on this thread commits; gives `f` back if none is open.
pub(super) fn after_commit(f: Box<dyn FnOnce() + Send>) -> Option<Box<dyn FnOnce() + Send>> {
    BATCH.with(|b| match b.borrow_mut().as_mut() {
        Some(batch) => {
            batch.after.push(f);
            None
        }
        None => Some(f),
    })
}

/// How a write of a batch joins its transaction.
enum Join {
    /// The transaction holds the guild's lock.
    Joined(Open),
    /// Another transaction holds it (or the write is of no one guild): the command runs again
    /// after the commit.
    Deferred(Option<Open>),
    /// The lock was not had in time, or the connection failed (nothing was written).
    Failed(Option<Open>, StoreError),
}

impl Postgres {
    /// This store's identity, for the batch open on a thread.
    fn id(&self) -> usize {
        std::ptr::from_ref(self) as usize
    }

    /// Runs `f` on the batch open on this thread, if it is this store's.
    fn with_batch<T>(&self, f: impl FnOnce(&mut Batch) -> T) -> Option<T> {
        BATCH.with(|b| {
            b.borrow_mut()
                .as_mut()
                .filter(|b| b.store == self.id())
                .map(f)
        })
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

    /// Opens a batch on this thread: until [`Postgres::finish_batch`] every write the thread
    /// makes joins one transaction and returns as soon as it has run (see the module's docs). A
    /// batch left open is rolled back first.
    pub fn begin_batch(&self) {
        self.abandon_batch();
        BATCH.set(Some(Batch {
            store: self.id(),
            open: None,
            after: Vec::new(),
            deferred: false,
        }));
    }

    /// Whether the command just run had a write turned away from the batch open on this thread
    /// (its guild's lock was held by another transaction, or it wrote no one guild): it was
    /// answered [`StoreError::Busy`], nothing it wrote is kept, and it is to run again once
    /// the batch is committed. Clears the mark.
    pub fn batch_deferred(&self) -> bool {
        self.with_batch(|b| std::mem::take(&mut b.deferred))
            .unwrap_or(false)
    }

    /// Rolls back the batch open on this thread, if any; nothing deferred to its commit runs.
    pub fn abandon_batch(&self) {
        if let Some(Open { conn, .. }) = self.take_batch().and_then(|b| b.open) {
            let _ = conn.batch("ROLLBACK");
        }
    }

    /// Commits the batch open on this thread, then runs what was deferred to its commit. On an
    /// error none of its writes were kept.
    pub fn finish_batch(&self) -> Result<()> {
        let Some(batch) = self.take_batch() else {
            return Ok(());
        };
        if let Some(open) = batch.open {
            if open.broken {
                let _ = open.conn.batch("ROLLBACK");
                return Err(StoreError::Commit(
                    "a statement of the batch failed".to_owned(),
                ));
            }
            if let Err(e) = self.timed(|| open.conn.batch("COMMIT")) {
                let _ = open.conn.batch("ROLLBACK");
                return Err(StoreError::Commit(e.to_string()));
            }
            self.commits.fetch_add(open.writes, Ordering::Relaxed);
            self.groups.fetch_add(1, Ordering::Relaxed);
        }
        // The batch is kept whatever these do: a panic here must not look like a failed
        // commit, whose commands would run again.
        for f in batch.after {
            if catch_unwind(AssertUnwindSafe(f)).is_err() {
                tracing::error!("a task after a batch's commit panicked");
            }
        }
        Ok(())
    }

    /// Puts the batch's transaction back on this thread, marking the command turned away.
    fn put_back(&self, open: Option<Open>, deferred: bool) {
        // Unwanted when the batch is no longer this thread's (it cannot be: only this thread
        // takes it); a transaction left over is rolled back as its connection drops.
        self.with_batch(|b| {
            b.open = open;
            b.deferred |= deferred;
        });
    }

    /// The batch's transaction, holding `job`'s guild lock: begun by the batch's first write
    /// (waiting for the lock until the job's deadline), then joined by each write.
    fn join(&self, job: Job, open: Option<Open>) -> Join {
        let Some(guild) = job.guild else {
            return Join::Deferred(open);
        };
        let key = guild_lock_key(guild);
        let Some(mut open) = open else {
            return match self.begin(job) {
                Ok(conn) => Join::Joined(Open {
                    conn,
                    guilds: vec![key],
                    writes: 0,
                    broken: false,
                }),
                Err(e) => Join::Failed(None, e),
            };
        };
        if open.guilds.contains(&key) {
            return Join::Joined(open);
        }
        // Only a try: see the module's docs on why a batch never waits while it holds a lock.
        let got = query_row(
            &open.conn,
            "SELECT pg_try_advisory_xact_lock(?1, ?2)",
            params![GUILD_LOCK_CLASS, key],
            |r| r.get::<bool>(0),
        );
        match got {
            Ok(true) => {
                open.guilds.push(key);
                Join::Joined(open)
            }
            Ok(false) => Join::Deferred(Some(open)),
            Err(e) => {
                open.broken = true;
                Join::Failed(Some(open), e)
            }
        }
    }

    /// One write of the batch open on this thread, in a savepoint of its transaction, so a write
    /// that fails is undone alone. Returns once it has run; the batch commits.
    fn write_in_batch<T, E: From<StoreError>>(
        &self,
        job: Job,
        f: impl FnOnce(&Conn) -> Result<T, E>,
    ) -> Result<T, E> {
        let Some((open, deferred)) = self.with_batch(|b| (b.open.take(), b.deferred)) else {
            return Err(E::from(StoreError::Busy));
        };
        // A command turned away writes nothing more until it runs again.
        if deferred {
            self.put_back(open, false);
            return Err(E::from(StoreError::Busy));
        }
        let mut open = match self.join(job, open) {
            Join::Joined(open) => open,
            Join::Deferred(open) => {
                self.put_back(open, true);
                return Err(E::from(StoreError::Busy));
            }
            Join::Failed(open, e) => {
                self.put_back(open, false);
                return Err(E::from(e));
            }
        };
        if open.broken {
            self.put_back(Some(open), false);
            return Err(E::from(StoreError::Commit(
                "an earlier statement of this batch failed".to_owned(),
            )));
        }
        let out = in_savepoint(&mut open, &WRITE_SAVEPOINT, f);
        if matches!(out, Ok(Ok(_))) {
            open.writes += 1;
        }
        self.put_back(Some(open), false);
        out.unwrap_or_else(|panic| resume_unwind(panic))
    }

    /// The batch's transaction, taken out, when a batch is open on this thread and holds `job`'s
    /// guild.
    fn batch_holding(&self, job: Job) -> Option<Open> {
        let key = guild_lock_key(job.guild?);
        self.with_batch(|b| {
            let holds = b
                .open
                .as_ref()
                .is_some_and(|o| !o.broken && o.guilds.contains(&key));
            if holds { b.open.take() } else { None }
        })
        .flatten()
    }

    /// A read on the batch's transaction (in a savepoint: a failed statement must not end it).
    fn read_in_batch<T>(&self, mut open: Open, f: impl FnOnce(&Conn) -> Result<T>) -> Result<T> {
        let out = in_savepoint(&mut open, &READ_SAVEPOINT, f);
        self.put_back(Some(open), false);
        out.unwrap_or_else(|panic| resume_unwind(panic))
    }
}

/// A savepoint's statements: begin, keep, undo (then end).
struct Savepoint {
    begin: &'static str,
    keep: &'static str,
    undo: &'static str,
}

const WRITE_SAVEPOINT: Savepoint = Savepoint {
    begin: "SAVEPOINT w",
    keep: "RELEASE SAVEPOINT w",
    undo: "ROLLBACK TO SAVEPOINT w; RELEASE SAVEPOINT w",
};

const READ_SAVEPOINT: Savepoint = Savepoint {
    begin: "SAVEPOINT r",
    keep: "RELEASE SAVEPOINT r",
    undo: "ROLLBACK TO SAVEPOINT r; RELEASE SAVEPOINT r",
};

/// Runs `f` in `savepoint` of the batch's transaction: kept if `f` succeeded, undone otherwise
/// (so a failed statement does not end the transaction). A statement of the savepoint's own
/// that fails marks the transaction broken and is `f`'s outcome; a panic of `f` comes back as
/// `Err`, for the caller to resume once the transaction is back on its thread.
fn in_savepoint<T, E: From<StoreError>>(
    open: &mut Open,
    savepoint: &Savepoint,
    f: impl FnOnce(&Conn) -> Result<T, E>,
) -> std::thread::Result<Result<T, E>> {
    if let Err(e) = open.conn.batch(savepoint.begin) {
        open.broken = true;
        return Ok(Err(E::from(e)));
    }
    let out = catch_unwind(AssertUnwindSafe(|| f(&open.conn)));
    let kept = matches!(out, Ok(Ok(_)));
    let ended = open
        .conn
        .batch(if kept { savepoint.keep } else { savepoint.undo });
    match ended {
        Ok(()) => out,
        Err(e) => {
            open.broken = true;
            if kept { Ok(Err(E::from(e))) } else { out }
        }
    }
}

/// The migrations in order: (version, folder name, PostgreSQL SQL).
fn pg_migrations() -> Result<Vec<(usize, String, &'static str)>> {
    let mut dirs: Vec<_> = sqlite::migrations_dir().dirs().collect();
    dirs.sort_by_key(|d| d.path().to_owned());
    dirs.iter()
        .enumerate()
        .map(|(i, d)| {
            let name = d.path().display().to_string();
            let sql = d
                .get_file(d.path().join("postgres.sql"))
                .and_then(include_dir::File::contents_utf8)
                .ok_or_else(|| {
                    StoreError::Corrupt(format!("migration {name} has no postgres.sql"))
                })?;
            Ok((i + 1, name, sql))
        })
        .collect()
}

/// Applies the migrations the database lacks, in order, each in its own transaction, under
/// [`MIGRATE_LOCK`]. Refuses a database newer than this code.
pub fn migrate(client: &mut postgres::Client) -> Result<()> {
    let migrations = pg_migrations()?;
    let mut tx = client.transaction()?;
    // The lock first: processes started together would otherwise race to create the version
    // table itself (PostgreSQL's catalog refuses the second CREATE even with IF NOT EXISTS).
    tx.execute(
        &format!("SELECT pg_advisory_xact_lock({MIGRATE_LOCK})"),
        &[],
    )?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS referee_migrations (
             version    BIGINT PRIMARY KEY,
             name       TEXT NOT NULL,
             applied_at BIGINT NOT NULL
         )",
    )?;
    let row = tx.query_one(
        "SELECT COALESCE(MAX(version), 0) FROM referee_migrations",
        &[],
    )?;
    let current = row.get::<_, i64>(0) as usize;
    if current > migrations.len() {
        return Err(StoreError::Corrupt(format!(
            "the database is at schema version {current}, newer than this program's {}",
            migrations.len()
        )));
    }
    for (version, name, sql) in migrations.into_iter().skip(current) {
        tx.batch_execute(sql)
            .map_err(|e| StoreError::Corrupt(format!("migration {name}: {e}")))?;
        tx.execute(
            "INSERT INTO referee_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
            &[&(version as i64), &name, &super::now()],
        )?;
        tracing::info!(version, name, "applied a PostgreSQL migration");
    }
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_redacted() {
        let cases = [
            (
                "postgres://u:secret@h:5432/db",
                "postgres://u:***@h:5432/db",
            ),
            ("postgres://u@h/db", "postgres://u@h/db"),
            ("postgres://h/db", "postgres://h/db"),
        ];
        for (url, want) in cases {
            assert_eq!(redact(url), want);
        }
    }

    /// Writes of different guilds run side by side: one guild's write held open does not stop
    /// another guild's, but does stop a second write of its own guild (which gives up at its
    /// deadline, writing nothing), and a write of no guild (exclusive) waits for both.
    #[test]
    fn each_guild_writes_under_its_own_lock() {
        use super::super::{Job, in_guild, with_job};
        use crate::store::{exec, params};
        let Some(db) = crate::store::testdb::PgTestDb::create() else {
            return;
        };
        let store = std::sync::Arc::new(db.open());
        let soon = || Job {
            deadline: Some(Instant::now() + Duration::from_millis(300)),
            read_only: false,
            guild: None,
            journal: false,
        };
        let write = |guild: Option<u64>| {
            let store = std::sync::Arc::clone(&store);
            let run = move || {
                store.write(|c| {
                    exec(
                        c,
                        "INSERT INTO guilds (guild_id, created_at) VALUES (?1, 0) ON CONFLICT (guild_id) DO NOTHING",
                        params![GuildId(guild.unwrap_or(999))],
                    )
                })
            };
            with_job(soon(), move || match guild {
                Some(g) => in_guild(GuildId(g), run),
                None => run(),
            })
        };
        let (held_tx, held_rx) = std::sync::mpsc::channel();
        let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
        let holder = {
            let store = std::sync::Arc::clone(&store);
            std::thread::spawn(move || {
                in_guild(GuildId(1), || {
                    store.write(|_| {
                        held_tx.send(()).unwrap();
                        release_rx.recv().unwrap();
                        Ok::<_, StoreError>(())
                    })
                })
            })
        };
        held_rx.recv().unwrap();
        assert!(write(Some(2)).is_ok(), "another guild writes beside it");
        assert!(
            matches!(write(Some(1)), Err(StoreError::Busy)),
            "the same guild waits, then gives up"
        );
        assert!(
            matches!(write(None), Err(StoreError::Busy)),
            "a write of no guild waits for every guild"
        );
        release_tx.send(()).unwrap();
        holder.join().unwrap().unwrap();
        assert!(write(Some(1)).is_ok());
        assert!(write(None).is_ok());
    }

    #[test]
    fn guild_lock_keys_fold_the_whole_id() {
        assert_eq!(guild_lock_key(GuildId(1)), 1);
        assert_ne!(
            guild_lock_key(GuildId(1)),
            guild_lock_key(GuildId(1 << 32 | 2))
        );
        assert_eq!(
            guild_lock_key(GuildId(0x1234_5678_9abc_def0)),
            (0x1234_5678_u32 ^ 0x9abc_def0) as i32
        );
    }

    #[test]
    fn every_migration_has_a_postgres_version() {
        let all = pg_migrations().expect("every migration has postgres.sql");
        assert_eq!(all.len(), super::super::Store::latest_version());
    }
}
