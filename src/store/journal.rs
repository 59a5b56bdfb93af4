//! The roll journal (SQLite): a plain roll answered once it is in a file of the process's own,
//! folded into `rolls` a moment later, many rows to one transaction (issue 33, the tail).
//!
//! A roll's write to SQLite (a write transaction of its own: its locks, the WAL's frames, the
//! insert) was the largest part of referee's work per `/roll` beyond a bare bot's, and every
//! answer waited for it through the one writer (`docs/performance.md`, thirteenth and fourteenth
//! days). A log-only roll (`/roll` shown in public or to the roller alone: nothing hidden, no
//! copy to deliver, no character) is instead appended to this process's journal with one
//! `write(2)` and answered; whatever write transaction opens next takes the journal's pending
//! rows into `rolls` (at its start, and again just before its `COMMIT`), and a thread of the bot
//! opens an empty one every [`FOLD_EVERY`] while rows are pending ([`super::Store::fold_journal`]).
//!
//! What it keeps:
//! - **Durability.** The journal's `write(2)` is what a commit at `synchronous=NORMAL` also
//!   promises: a crash of the process loses nothing written (the kernel has it), a power cut may
//!   lose the last moments. At open every process replays the journals of processes that are
//!   gone (each journal is held with an exclusive `flock` while its process lives): `INSERT OR
//!   IGNORE` by guild and id, so a row already folded is not written twice, and a torn last line
//!   is left out (it was never answered: the answer waits for the whole line).
//! - **Ids.** A roll is answered with its id ("Roll #n") before its row exists, so the journal
//!   holds each guild's ids a block at a time ([`LEASE`]), a lease recorded in `roll_id_leases`
//!   (migration 10). Every other insert into `rolls`, in any process, takes an id above the
//!   guild's largest roll and above every lease of the guild (`rolls::insert`), so no id is
//!   taken twice. In this process every roll insert takes its id from the lease while it has
//!   room ([`issue`]), so one process's numbers rise with time. Only the folding thread leases,
//!   in a write of its own: a guild's first roll, or one that finds no id left, is written the
//!   usual way and asks for a block ([`Journal::wanted`]); the next block is asked for once
//!   fewer than [`LOW_WATER`] are left. So an answer never waits for the database's lock here.
//!   A block is published by the commit of the transaction that leased it, while the writer is
//!   still held ([`Journal::stage_lease`]): no other write of this process comes between.
//!   Decision: numbers may rise out of order across processes (another process's roll taken
//!   above this one's open lease), and a lease that ends unused leaves a gap; each number is still
//!   shown once and stored once.
//! - **Reads.** A write transaction folds what is pending when it begins, so a command sees every
//!   roll answered before its group opened; a read of the roll log outside one (`/history`)
//!   asks for an empty write first ([`super::Store::settle_journal`]). Another process's read,
//!   `referee backup` among them, may be up to [`FOLD_EVERY`] behind this process's answers.
//! - **Faults.** A fold whose transaction fails leaves its rows pending, in memory and in their
//!   files, for the next; a journal whose rows could not be folded takes no more rolls until a
//!   fold succeeds, and one whose file could not be written (its partial line cut off) none
//!   until the folding thread finds nothing pending ([`Journal::retry`]): meanwhile rolls go the
//!   way of every other write, whose answer then says what is wrong. So the bot never answers a
//!   roll it cannot later store. Past [`MAX_UNFOLDED`] rows waiting, rolls are written too.
//!
//! A leaf of the store: it imports the ids and SQL helpers, never a backend (`sqlite` uses it).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::ids::{GuildId, UserId};
use super::sql::{Conn, exec, params, query_map, query_row};
use super::{Result, StoreError};

/// Ids a lease takes at a time: a renewal (a write transaction) every this many rolls of a guild.
pub const LEASE: i64 = 64;
/// A guild's next block of ids is taken once fewer than this many are left, so that a steady
/// stream of rolls never finds none.
pub const LOW_WATER: i64 = 16;
/// A fold starts a new file once the current one is this long (its rows folded, the old file
/// goes): a replay reads at most about this much of rows already folded, which it skips.
pub const ROTATE_BYTES: u64 = 1 << 20;
/// The most rows the journal holds unfolded (about 3 MB in memory): past it, while another
/// program holds the write lock for long, say, rolls are written the usual way (and answered
/// "busy" as every other write) rather than pile up without bound.
pub const MAX_UNFOLDED: u64 = 10_000;
/// How long rows wait in the journal, at most, while nothing else writes.
pub const FOLD_EVERY: Duration = Duration::from_millis(2);
/// The environment variable that sets [`FOLD_EVERY`], in microseconds.
pub const FOLD_ENV: &str = "REFEREE_JOURNAL_FOLD_MICROS";

/// How long rows gather before the folding thread folds them: `setting`
/// (`REFEREE_JOURNAL_FOLD_MICROS`, in microseconds, at most one second), else [`FOLD_EVERY`].
pub fn fold_every(setting: Option<&str>) -> Duration {
    setting
        .and_then(|s| s.trim().parse::<u64>().ok())
        .filter(|&micros| micros <= 1_000_000)
        .map_or(FOLD_EVERY, Duration::from_micros)
}
/// The environment variable that turns the journal off (`off`): every roll is then written to
/// SQLite before it is answered, as before it.
pub const JOURNAL_ENV: &str = "REFEREE_ROLL_JOURNAL";

/// Whether `setting` (`REFEREE_ROLL_JOURNAL`) leaves the journal on: anything but `off`, `0`,
/// `false` or `no`.
pub fn enabled(setting: Option<&str>) -> bool {
    !matches!(
        setting.map(|s| s.trim().to_ascii_lowercase()).as_deref(),
        Some("off" | "0" | "false" | "no")
    )
}

/// One journaled roll: its row of `rolls`, whole.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub guild: GuildId,
    pub id: i64,
    pub user: UserId,
    pub command: String,
    pub mode: String,
    pub label: String,
    pub public_json: String,
    pub created_at: i64,
}

/// A roll to journal: its row without the id, which [`Journal::append`] gives.
#[derive(Debug, Clone, Copy)]
pub struct NewEntry<'a> {
    pub guild: GuildId,
    pub user: UserId,
    pub command: &'a str,
    pub mode: &'static str,
    pub label: &'a str,
    pub public_json: &'a str,
    pub created_at: i64,
}

/// A guild's lease: the next id to give and the last one leased, and the block taken to follow
/// it, if any.
#[derive(Debug, Clone, Copy)]
struct Lease {
    next: i64,
    last: i64,
    then: Option<(i64, i64)>,
}

impl Lease {
    /// The next id, moving on to the following block when this one is used up.
    fn give(&mut self) -> Option<i64> {
        if self.next > self.last
            && let Some((first, last)) = self.then.take()
        {
            self.next = first;
            self.last = last;
        }
        (self.next <= self.last).then(|| {
            self.next += 1;
            self.next - 1
        })
    }

    /// Whether a new block should be taken now: fewer than [`LOW_WATER`] ids left and none
    /// taken to follow.
    fn low(&self) -> bool {
        self.then.is_none() && self.last - self.next < LOW_WATER
    }
}

/// One file of the journal, held (`flock`) while its rows may be unfolded.
#[derive(Debug)]
struct Segment {
    file: File,
    path: PathBuf,
}

#[derive(Debug)]
struct State {
    /// The file rows are appended to.
    current: Segment,
    /// Its number: files are `<holder>.<n>.log`.
    number: u64,
    /// Bytes written to it.
    bytes: u64,
    /// Rows appended and not yet taken by a fold.
    pending: Vec<Entry>,
    /// Earlier files whose rows are not yet folded (a fold failed, or is under way).
    older: Vec<Segment>,
    leases: HashMap<GuildId, Lease>,
    /// Guilds whose next block of ids the folding thread is to take ([`Journal::wanted`]).
    wanted: HashSet<GuildId>,
    /// Blocks leased in the writer's open transaction, published when it commits
    /// ([`Journal::stage_lease`]).
    staged: Vec<(GuildId, i64, i64)>,
}

/// What a fold took: its rows, the files that hold them, and how many rows had been appended.
#[derive(Debug)]
pub struct Taken {
    rows: Vec<Entry>,
    files: Vec<Segment>,
    upto: u64,
}

impl Taken {
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

/// A process's roll journal (see the module's docs).
#[derive(Debug)]
pub struct Journal {
    dir: PathBuf,
    holder: String,
    state: Mutex<State>,
    /// How long rows gather before the folding thread folds them ([`fold_every`]).
    pub fold_every: Duration,
    /// Woken when rows are appended to an empty journal, and when it closes.
    appended_signal: Condvar,
    appended: AtomicU64,
    folded: AtomicU64,
    /// A fold failed, or the file could not be written: no rows are taken until a fold succeeds.
    failing: AtomicBool,
    closed: AtomicBool,
}

/// The folder that holds the journals of the database at `db`: `<db>-rolls`.
pub fn dir_of(db: &Path) -> PathBuf {
    let mut name = db
        .file_name()
        .map(std::ffi::OsStr::to_os_string)
        .unwrap_or_default();
    name.push("-rolls");
    db.with_file_name(name)
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn io(what: &str, path: &Path, e: &std::io::Error) -> StoreError {
    StoreError::Corrupt(format!("roll journal: {what} {}: {e}", path.display()))
}

fn segment(dir: &Path, holder: &str, number: u64) -> Result<Segment> {
    let path = dir.join(format!("{holder}.{number}.log"));
    let file = OpenOptions::new()
        .create_new(true)
        .append(true)
        .open(&path)
        .map_err(|e| io("cannot create", &path, &e))?;
    file.try_lock()
        .map_err(|e| io("cannot lock", &path, &std::io::Error::other(e.to_string())))?;
    Ok(Segment { file, path })
}

impl Journal {
    /// Opens a new journal for the database at `db`, in [`dir_of`] it (created if need be).
    pub fn create(db: &Path) -> Result<Self> {
        let dir = dir_of(db);
        std::fs::create_dir_all(&dir).map_err(|e| io("cannot create", &dir, &e))?;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let holder = format!("{}-{nanos:x}", std::process::id());
        let current = segment(&dir, &holder, 0)?;
        Ok(Self {
            dir,
            holder,
            state: Mutex::new(State {
                current,
                number: 0,
                bytes: 0,
                pending: Vec::new(),
                older: Vec::new(),
                leases: HashMap::new(),
                wanted: HashSet::new(),
                staged: Vec::new(),
            }),
            fold_every: fold_every(std::env::var(FOLD_ENV).ok().as_deref()),
            appended_signal: Condvar::new(),
            appended: AtomicU64::new(0),
            folded: AtomicU64::new(0),
            failing: AtomicBool::new(false),
            closed: AtomicBool::new(false),
        })
    }

    /// The journal's name in `roll_id_leases`.
    pub fn holder(&self) -> &str {
        &self.holder
    }

    /// Whether it takes rolls now: open, not failing, and fewer than [`MAX_UNFOLDED`] rows
    /// waiting to be folded.
    pub fn takes_rolls(&self) -> bool {
        !self.closed.load(Ordering::SeqCst)
            && !self.failing.load(Ordering::SeqCst)
            && self.unfolded() < MAX_UNFOLDED
    }

    /// Rows appended and not yet folded.
    pub fn unfolded(&self) -> u64 {
        self.appended
            .load(Ordering::SeqCst)
            .saturating_sub(self.folded.load(Ordering::SeqCst))
    }

    /// How many rows have been appended so far (a mark to settle up to).
    pub fn appended(&self) -> u64 {
        self.appended.load(Ordering::SeqCst)
    }

    /// How many rows have been folded so far.
    pub fn folded(&self) -> u64 {
        self.folded.load(Ordering::SeqCst)
    }

    /// Appends a roll and returns its id, once the line is written; `Ok(None)` when the journal
    /// takes no rolls now (closed, failing), holds no id of the guild (its first roll, or a
    /// burst past its lease) or could not write it: the roll must then be written the usual way.
    /// Never waits for the database: a guild's ids are leased by the folding thread
    /// ([`Journal::wanted`]), asked for here when they run low.
    pub fn append(&self, roll: &NewEntry<'_>) -> Result<Option<i64>> {
        if !self.takes_rolls() {
            return Ok(None);
        }
        let guild = roll.guild;
        let mut state = lock(&self.state);
        let given = state.leases.get_mut(&guild).and_then(|lease| {
            let id = lease.give();
            id.map(|id| (id, lease.low()))
        });
        let Some((id, low)) = given else {
            self.want(&mut state, guild);
            return Ok(None);
        };
        if low {
            self.want(&mut state, guild);
        }
        let entry = Entry {
            guild,
            id,
            user: roll.user,
            command: roll.command.to_owned(),
            mode: roll.mode.to_owned(),
            label: roll.label.to_owned(),
            public_json: roll.public_json.to_owned(),
            created_at: roll.created_at,
        };
        let mut line = serde_json::to_vec(&entry)
            .map_err(|e| StoreError::Corrupt(format!("roll journal: {e}")))?;
        line.push(b'\n');
        if let Err(e) = state.current.file.write_all(&line) {
            tracing::error!(error = %e, file = %state.current.path.display(), "cannot write the roll journal; rolls are written to the database until a fold succeeds");
            // Whatever part of the line was written goes, so that the next line starts a line.
            let _ = state.current.file.set_len(state.bytes);
            self.failing.store(true, Ordering::SeqCst);
            return Ok(None);
        }
        state.bytes += line.len() as u64;
        let was_empty = state.pending.is_empty();
        state.pending.push(entry);
        self.appended.fetch_add(1, Ordering::SeqCst);
        drop(state);
        if was_empty {
            self.appended_signal.notify_all();
        }
        Ok(Some(id))
    }

    /// Asks the folding thread for `guild`'s next block of ids (waking it if this is news).
    fn want(&self, state: &mut State, guild: GuildId) {
        if !self.closed.load(Ordering::SeqCst) && state.wanted.insert(guild) {
            self.appended_signal.notify_all();
        }
    }

    /// Gives the next id of this journal's lease for `guild`, if it has one with room (for a
    /// roll written to SQLite by this process: see [`issue`]).
    fn next_id(&self, guild: GuildId) -> Option<i64> {
        let mut state = lock(&self.state);
        let lease = state.leases.get_mut(&guild)?;
        let id = lease.give()?;
        if lease.low() {
            self.want(&mut state, guild);
        }
        Some(id)
    }

    /// The guilds whose next block of ids is wanted, taken: the folding thread leases them
    /// ([`take_lease`]) and hands each to [`Journal::add_lease`].
    pub fn wanted(&self) -> Vec<GuildId> {
        lock(&self.state).wanted.drain().collect()
    }

    /// Holds a block of `guild`'s ids leased in the writer's open transaction until it ends
    /// ([`Journal::settle_staged`]): published by its commit while the writer is still held, so
    /// no other write of this process comes between the commit and the publication.
    pub fn stage_lease(&self, guild: GuildId, first: i64, last: i64) {
        lock(&self.state).staged.push((guild, first, last));
    }

    /// The writer's transaction ended: the blocks it leased are published if it committed, and
    /// asked for again if not.
    pub fn settle_staged(&self, committed: bool) {
        let staged = std::mem::take(&mut lock(&self.state).staged);
        for (guild, first, last) in staged {
            if committed {
                self.add_lease(guild, first, last);
            } else {
                self.want(&mut lock(&self.state), guild);
            }
        }
    }

    /// Publishes a block of `guild`'s ids, once the transaction that leased it is committed:
    /// next, or after the block in use.
    pub fn add_lease(&self, guild: GuildId, first: i64, last: i64) {
        if self.closed.load(Ordering::SeqCst) {
            return;
        }
        let mut state = lock(&self.state);
        match state.leases.get_mut(&guild) {
            Some(lease) if lease.next <= lease.last => lease.then = Some((first, last)),
            _ => {
                state.leases.insert(
                    guild,
                    Lease {
                        next: first,
                        last,
                        then: None,
                    },
                );
            }
        }
    }

    /// Waits up to `wait` for rows to be pending or ids to be wanted; whether rows are.
    pub fn wait_for_rows(&self, wait: Duration) -> bool {
        let state = lock(&self.state);
        if !state.pending.is_empty()
            || !state.wanted.is_empty()
            || self.closed.load(Ordering::SeqCst)
        {
            return !state.pending.is_empty();
        }
        let (state, _) = self
            .appended_signal
            .wait_timeout(state, wait)
            .unwrap_or_else(PoisonError::into_inner);
        !state.pending.is_empty()
    }

    /// Takes the pending rows for a fold, and starts a new file for those that follow once the
    /// current one is [`ROTATE_BYTES`] long (a file's rows already folded are skipped by a
    /// replay); `None` if nothing is pending.
    pub fn take(&self) -> Option<Taken> {
        let mut state = lock(&self.state);
        if state.pending.is_empty() {
            return None;
        }
        let upto = self.appended.load(Ordering::SeqCst);
        let rows = std::mem::take(&mut state.pending);
        let mut files = std::mem::take(&mut state.older);
        if !self.closed.load(Ordering::SeqCst) && state.bytes >= ROTATE_BYTES {
            match segment(&self.dir, &self.holder, state.number + 1) {
                Ok(next) => {
                    state.number += 1;
                    state.bytes = 0;
                    files.push(std::mem::replace(&mut state.current, next));
                }
                // Rows keep going to the same file, which stays until a later fold.
                Err(e) => tracing::warn!(error = %e, "cannot start a new roll journal file"),
            }
        }
        Some(Taken { rows, files, upto })
    }

    /// The fold that took `taken` was committed: its files go, and the journal takes rolls again.
    pub fn committed(&self, taken: Taken) {
        self.folded.fetch_max(taken.upto, Ordering::SeqCst);
        self.failing.store(false, Ordering::SeqCst);
        for segment in taken.files {
            if let Err(e) = std::fs::remove_file(&segment.path) {
                tracing::warn!(error = %e, file = %segment.path.display(), "cannot remove a folded roll journal file");
            }
        }
    }

    /// The fold that took `taken` failed: its rows are pending again, ahead of newer ones, and
    /// the journal takes no rolls until a fold succeeds.
    pub fn failed(&self, taken: Taken) {
        self.failing.store(true, Ordering::SeqCst);
        let mut state = lock(&self.state);
        let newer = std::mem::replace(&mut state.pending, taken.rows);
        state.pending.extend(newer);
        let newer_files = std::mem::replace(&mut state.older, taken.files);
        state.older.extend(newer_files);
    }

    /// Forgets every lease: no roll of this process takes an id from them any more (they are
    /// being dropped from the database).
    pub fn forget_leases(&self) {
        let mut state = lock(&self.state);
        state.leases.clear();
        state.wanted.clear();
    }

    /// With nothing pending, a journal whose file could not be written tries again (the next
    /// roll's line); one with rows pending waits for a fold to succeed.
    pub fn retry(&self) {
        let state = lock(&self.state);
        if state.pending.is_empty() && state.older.is_empty() {
            self.failing.store(false, Ordering::SeqCst);
        }
    }

    /// Marks the journal closed: it takes no more rolls, and a fold waiting for rows wakes.
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.appended_signal.notify_all();
    }

    /// Whether [`Journal::close`] was called.
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// After the last fold of a closed journal: removes its file, if every row is folded.
    pub fn remove_files(&self) {
        let state = lock(&self.state);
        if state.pending.is_empty() && state.older.is_empty() {
            let _ = std::fs::remove_file(&state.current.path);
        }
    }
}

/// Inserts `taken`'s rows into `rolls` (inside the caller's write transaction).
///
/// # Errors
/// The first insert that fails; the caller's transaction must then be rolled back (or the
/// savepoint it opened for the fold).
pub fn insert(conn: &Conn, taken: &Taken) -> Result<()> {
    for row in &taken.rows {
        insert_row(conn, row, false)?;
    }
    Ok(())
}

fn insert_row(conn: &Conn, row: &Entry, or_ignore: bool) -> Result<()> {
    let sql = if or_ignore {
        "INSERT OR IGNORE INTO rolls (guild_id, id, user_id, command, mode, label, public_json, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
    } else {
        "INSERT INTO rolls (guild_id, id, user_id, command, mode, label, public_json, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
    };
    exec(
        conn,
        sql,
        params![
            row.guild,
            row.id,
            row.user,
            row.command.as_str(),
            row.mode.as_str(),
            row.label.as_str(),
            row.public_json.as_str(),
            row.created_at
        ],
    )?;
    Ok(())
}

/// Takes a new lease of `guild`'s next [`LEASE`] ids for `holder` (inside the caller's write
/// transaction): from above both the guild's largest roll and every lease of the guild, this
/// holder's own included. Returns its first and last id.
pub fn take_lease(conn: &Conn, guild: GuildId, holder: &str) -> Result<(i64, i64)> {
    let first = query_row(
        conn,
        "SELECT COALESCE(MAX(m), 0) + 1 FROM (
             SELECT MAX(id) AS m FROM rolls WHERE guild_id = ?1
             UNION ALL SELECT MAX(last_id) FROM roll_id_leases WHERE guild_id = ?1) AS t",
        params![guild],
        |r| r.get::<i64>(0),
    )?;
    let last = first + LEASE - 1;
    exec(
        conn,
        "INSERT INTO roll_id_leases (guild_id, holder, last_id) VALUES (?1, ?2, ?3)
         ON CONFLICT (guild_id, holder) DO UPDATE SET last_id = excluded.last_id",
        params![guild, holder, last],
    )?;
    Ok((first, last))
}

/// Drops `holder`'s leases (inside the caller's write transaction): at its close, once every
/// row it journaled is folded.
pub fn release(conn: &Conn, holder: &str) -> Result<()> {
    exec(
        conn,
        "DELETE FROM roll_id_leases WHERE holder = ?1",
        params![holder],
    )?;
    Ok(())
}

/// The files of journals whose process is gone, replayed; removed by [`Replayed::remove`] once
/// the transaction that replayed them is committed.
#[derive(Debug, Default)]
pub struct Replayed {
    files: Vec<(File, PathBuf)>,
    pub rows: usize,
}

impl Replayed {
    pub fn remove(self) {
        for (file, path) in self.files {
            let _ = std::fs::remove_file(&path);
            drop(file);
        }
    }
}

/// Replays the journals in `dir` whose process is gone (inside the caller's write transaction):
/// every row of each, whole lines only, `INSERT OR IGNORE`; then drops the leases of every
/// holder with no live journal file. A journal is live while a process holds its `flock`.
///
/// # Errors
/// A row that cannot be inserted, or the folder that cannot be read.
pub fn replay(conn: &Conn, dir: &Path) -> Result<Replayed> {
    let mut replayed = Replayed::default();
    let mut alive: HashSet<String> = HashSet::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(replayed),
        Err(e) => return Err(io("cannot read", dir, &e)),
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(std::result::Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .collect();
    files.sort();
    for path in files {
        let holder = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.split('.').next())
            .unwrap_or_default()
            .to_owned();
        let Ok(file) = OpenOptions::new().read(true).write(true).open(&path) else {
            continue;
        };
        if file.try_lock().is_err() {
            alive.insert(holder);
            continue;
        }
        let mut reader = BufReader::new(&file);
        let mut line = Vec::new();
        loop {
            line.clear();
            let read = reader
                .read_until(b'\n', &mut line)
                .map_err(|e| io("cannot read", &path, &e))?;
            // A line without its end was being written when the process died: never answered.
            if read == 0 || line.last() != Some(&b'\n') {
                break;
            }
            match serde_json::from_slice::<Entry>(&line) {
                Ok(row) => {
                    insert_row(conn, &row, true)?;
                    replayed.rows += 1;
                }
                // Not one of ours (nothing writes a line it cannot read back): skipped, and the
                // lines after it still replayed.
                Err(e) => {
                    tracing::warn!(error = %e, file = %path.display(), "a roll journal line that is not a roll is skipped");
                }
            }
        }
        replayed.files.push((file, path));
    }
    let holders = query_map(
        conn,
        "SELECT DISTINCT holder FROM roll_id_leases",
        &[],
        |r| r.get::<String>(0),
    )?;
    for holder in holders {
        if !alive.contains(&holder) {
            release(conn, &holder)?;
        }
    }
    Ok(replayed)
}

thread_local! {
    /// The journal of the store whose writer runs on this thread now ([`with_issuer`]).
    static ISSUER: RefCell<Option<Arc<Journal>>> = const { RefCell::new(None) };
}

/// Runs `f` (a write on a store's writer) with `journal` as the source of roll ids ([`issue`]).
pub fn with_issuer<T>(journal: Option<&Arc<Journal>>, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Arc<Journal>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            ISSUER.with(|i| *i.borrow_mut() = previous);
        }
    }
    let previous = ISSUER.with(|i| std::mem::replace(&mut *i.borrow_mut(), journal.cloned()));
    let _restore = Restore(previous);
    f()
}

/// Whether this thread is running a write on a journaling store's writer now (a fold from
/// here would wait for the writer it holds).
pub fn in_write() -> bool {
    ISSUER.with(|i| i.borrow().is_some())
}

/// The id a roll written by this process's writer takes, if its journal holds a lease of the
/// guild with room; else `None` (the insert takes the guild's next above every lease).
pub fn issue(guild: GuildId) -> Option<i64> {
    ISSUER.with(|i| i.borrow().as_ref().and_then(|j| j.next_id(guild)))
}

#[cfg(test)]
mod tests;
