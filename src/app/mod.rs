//! Use cases: one function per command, taking the caller and returning a [`reply::Reply`].
//!
//! Owns permissions (checked here on every GM action, whatever Discord's command permissions say),
//! the four roll modes and where copies go, what a player may see, and the composition of
//! `rules` with `store`. Never touches Discord types and never formats for a particular front end
//! beyond the reply model. The store is synchronous: the bot calls [`App::run`] on its own
//! threads (`bot::workers`), never on the async runtime and never holding a lock across an
//! `.await`.

pub mod characters;
pub mod command;
pub mod context;
pub mod encounter;
pub mod gm;
pub mod help;
pub mod luck;
pub mod outbox;
pub mod perm;
pub mod reply;
pub mod rolls;
pub mod screen;
pub mod sheet;
pub mod suggest;
pub mod text;
pub mod tft;
pub mod thiz;
pub mod weapons;

#[cfg(test)]
mod trust_tests;

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::rules::dice::SeededDice;
use crate::rules::dice::expr::Limits;
use crate::store::{Fault, GuildId, Job, Store, StoreError};

pub use command::Command;
pub use context::Ctx;
pub use perm::Caller;
pub use reply::Reply;

/// A failed use case: either the user's doing (shown verbatim, ephemeral) or ours (logged,
/// answered "Something went wrong").
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// Something the user can fix: unknown character, bad number, not allowed…
    #[error("{0}")]
    User(String),
    /// A fault of the bot or its database.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
    /// The store failed. Kept as it is (not wrapped in `anyhow`, which would capture a
    /// backtrace): a busy or faulty database file gets its own answer ([`store_reply`]).
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<perm::NotGm> for AppError {
    fn from(e: perm::NotGm) -> Self {
        AppError::User(e.to_string())
    }
}

/// A user error from anything printable.
pub fn user(message: impl std::fmt::Display) -> AppError {
    AppError::User(message.to_string())
}

pub type AppResult<T> = Result<T, AppError>;

/// Where the dice come from: the thread generator, or one seeded generator shared by all calls
/// (`referee console --seed N`, tests) so a whole session repeats exactly.
pub enum Dice {
    Thread,
    Seeded(Box<Mutex<SeededDice>>),
}

impl Dice {
    /// One seeded generator for every call: a whole session repeats exactly.
    pub fn seeded(seed: u64) -> Self {
        Dice::Seeded(Box::new(Mutex::new(SeededDice::new(seed))))
    }
}

/// The application: the store, the dice and the limits, shared by every front end.
pub struct App {
    pub(crate) store: Arc<Store>,
    pub(crate) dice: Dice,
    pub(crate) limits: Limits,
    /// The outbox's waker when copies go through it (the bot; see [`outbox`]).
    pub(crate) outbox: Option<outbox::Waker>,
    /// The channels with an encounter row, once [`App::watch_encounter_channels`] has loaded
    /// them (see [`App::may_have_encounter`]); `None`: not watched, every channel may have one.
    pub(crate) encounter_channels: Mutex<Option<std::collections::HashSet<(GuildId, u64)>>>,
}

impl App {
    /// Waits for this process's turn to IDENTIFY its shards among the processes sharing the
    /// database (PostgreSQL); `None` on SQLite. The turn lasts until the guard is dropped.
    ///
    /// # Errors
    /// When the database cannot be reached.
    pub fn identify_turn(&self) -> Result<Option<crate::store::IdentifyTurn>, StoreError> {
        self.store.identify_turn()
    }

    pub fn new(store: Arc<Store>, dice: Dice, limits: Limits) -> Self {
        Self {
            store,
            dice,
            limits,
            outbox: None,
            encounter_channels: Mutex::new(None),
        }
    }

    /// Opens the database at `path` with production dice and default limits.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        Ok(Self::new(
            Arc::new(Store::open(path)?),
            Dice::Thread,
            Limits::default(),
        ))
    }

    /// Opens a batch of writes on this thread (SQLite; `false` on PostgreSQL): see
    /// [`Store::begin_batch`]. For the bot's writing thread.
    pub fn begin_batch(&self) -> bool {
        self.store.begin_batch()
    }

    /// How long the open batch should wait for more jobs before committing, and how many more
    /// end the wait ([`Store::batch_linger`]).
    pub fn batch_linger(&self, jobs: usize) -> Option<(std::time::Duration, usize)> {
        self.store.batch_linger(jobs)
    }

    /// Rolls back the open batch, if any ([`Store::abandon_batch`]).
    pub fn abandon_batch(&self) {
        self.store.abandon_batch();
    }

    /// Commits the open batch ([`Store::finish_batch`]).
    ///
    /// # Errors
    /// The commit failed, and none of the batch was kept.
    pub fn finish_batch(&self) -> Result<(), StoreError> {
        self.store.finish_batch()
    }

    /// The `/roll` limits from the configuration.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    /// Runs one command for `caller`. `interaction_id` identifies this delivery (a Discord
    /// interaction id, or a console line number) so a repeated delivery spends luck only once.
    /// Never fails: errors become replies (user errors verbatim, internal ones logged).
    pub fn handle(&self, caller: &Caller, interaction_id: &str, command: Command) -> Reply {
        self.try_handle(None, caller, interaction_id, command)
            .unwrap_or_else(|e| self.error_reply(caller, e))
    }

    /// [`App::handle`] in a channel: commands that belong to one (an encounter, and the rolls
    /// that know it) see it.
    pub fn handle_in(
        &self,
        channel: u64,
        caller: &Caller,
        interaction_id: &str,
        command: Command,
    ) -> Reply {
        self.try_handle(Some(channel), caller, interaction_id, command)
            .unwrap_or_else(|e| self.error_reply(caller, e))
    }

    /// Parses and runs an invocation as typed or sent by Discord. `Ok` is the command's reply,
    /// `Err` the reply explaining why it was refused or failed (already rendered for the caller):
    /// front ends that act on success (the bot disables a used button) tell the two apart.
    // Both outcomes are replies of the same size; boxing one of them would only add an allocation.
    #[allow(clippy::result_large_err)]
    pub fn run(
        &self,
        caller: &Caller,
        interaction_id: &str,
        invocation: &command::Invocation,
    ) -> Result<Reply, Reply> {
        self.run_in(None, caller, interaction_id, invocation)
    }

    /// [`App::run`] in a channel (see [`App::handle_in`]).
    #[allow(clippy::result_large_err)]
    pub fn run_in(
        &self,
        channel: Option<u64>,
        caller: &Caller,
        interaction_id: &str,
        invocation: &command::Invocation,
    ) -> Result<Reply, Reply> {
        Command::parse(invocation)
            .and_then(|command| self.try_handle(channel, caller, interaction_id, command))
            .map_err(|e| self.error_reply(caller, e))
    }

    /// Runs an invocation as [`App::run`] does, as one job of the bot: its writes wait for
    /// another process's write lock until `deadline` at most (then the answer is "busy", and
    /// nothing changed). With `read_only`, a command that turns out to write is stopped before
    /// its first write and [`Ran::NeedsWriter`] comes back, to run it again where writes may wait.
    pub fn run_job(
        &self,
        deadline: Instant,
        read_only: bool,
        channel: Option<u64>,
        caller: &Caller,
        interaction_id: &str,
        invocation: &command::Invocation,
    ) -> Ran {
        // The guild is declared by `try_handle`, for every way in.
        let job = Job {
            deadline: Some(deadline),
            read_only,
            ..Job::default()
        };
        let result = crate::store::with_job(job, || {
            Command::parse(invocation)
                .and_then(|command| self.try_handle(channel, caller, interaction_id, command))
        });
        match result {
            Ok(reply) => Ran::Done(Ok(reply)),
            Err(e) if store_error(&e).is_some_and(|e| matches!(e, StoreError::NeedsWriter)) => {
                Ran::NeedsWriter
            }
            Err(e) => Ran::Done(Err(self.error_reply(caller, e))),
        }
    }

    fn error_reply(&self, caller: &Caller, error: AppError) -> Reply {
        if let Some(reply) = store_error(&error).and_then(|e| self.store_reply(e)) {
            tracing::warn!(error = %error, guild = %caller.guild, "database unavailable");
            return reply;
        }
        match error {
            AppError::User(message) => Reply::ephemeral(message),
            AppError::Internal(e) => {
                // `{:#}`: the chain of causes, never a backtrace (symbolizing one costs tens of
                // MB when RUST_BACKTRACE is set).
                tracing::error!(error = %format_args!("{e:#}"), guild = %caller.guild, "command failed");
                Reply::ephemeral(SOMETHING_WENT_WRONG)
            }
            AppError::Store(e) => {
                tracing::error!(error = %e, guild = %caller.guild, "command failed");
                Reply::ephemeral(SOMETHING_WENT_WRONG)
            }
        }
    }

    /// The answer to a busy or faulty database, saying what to do (and who must do it).
    pub fn store_reply(&self, error: &StoreError) -> Option<Reply> {
        if error.is_busy() {
            return Some(Reply::ephemeral(BUSY));
        }
        Some(Reply::ephemeral(fault_message(
            error.fault()?,
            &self.store.path().display().to_string(),
        )))
    }
}

/// Whether a command only reads, by its path: the bot runs these on threads of their own, so
/// they never wait behind writes that wait for the database (`bot::workers`). A command listed
/// here that does write is safe, only slower: run as a read-only job, it is stopped before its
/// first write ([`Ran::NeedsWriter`]) and run again as a writing one.
pub fn reads_only(invocation: &command::Invocation) -> bool {
    let path: Vec<&str> = invocation.path.iter().map(String::as_str).collect();
    matches!(
        path.as_slice(),
        ["help"]
            | ["history"]
            | ["odds", ..]
            | ["tftref", ..]
            | ["character", "show" | "list" | "export" | "validate"]
            | ["luck", "show" | "log"]
    )
}

/// What became of a job ([`App::run_job`]).
#[derive(Debug)]
pub enum Ran {
    /// As [`App::run`]: the reply, or the refusal.
    Done(Result<Reply, Reply>),
    /// A read-only job met a write; nothing was written or shown.
    NeedsWriter,
}

/// The answer to an internal failure.
pub const SOMETHING_WENT_WRONG: &str =
    "Something went wrong. The error was logged; please try again.";

/// The answer to a write that did not get the database in time.
pub const BUSY: &str = "The database is busy (another program is writing to it), so nothing was changed. Try again in a moment.";

/// The store error behind an app error, if it is one (wrapped in `anyhow` or not).
fn store_error(error: &AppError) -> Option<&StoreError> {
    match error {
        AppError::Store(e) => Some(e),
        AppError::Internal(e) => e.downcast_ref::<StoreError>(),
        AppError::User(_) => None,
    }
}

/// What the server operator must do about `fault` of the database at `path`.
pub fn fault_message(fault: Fault, path: &str) -> String {
    let path = path.replace('`', "'");
    match fault {
        Fault::ReadOnly => format!(
            "The bot's database is read-only, so nothing was saved: the server operator must make `{path}` (and its folder) writable. The bot picks it up again by itself."
        ),
        Fault::Full => format!(
            "The disk holding the bot's database is full, so nothing was saved: the server operator must free space for `{path}`. The bot carries on by itself once there is room."
        ),
        Fault::Missing => format!(
            "The bot's database file was removed, so nothing was saved: the server operator must put `{path}` back (from a backup), or restart the bot to begin an empty one."
        ),
    }
}

impl App {
    fn try_handle(
        &self,
        channel: Option<u64>,
        caller: &Caller,
        interaction_id: &str,
        command: Command,
    ) -> AppResult<Reply> {
        // A command writes its caller's guild alone: on PostgreSQL its writes lock that guild,
        // not the database (`store::in_guild`).
        crate::store::in_guild(caller.guild, || {
            self.handle_in_guild(channel, caller, interaction_id, command)
        })
    }

    fn handle_in_guild(
        &self,
        channel: Option<u64>,
        caller: &Caller,
        interaction_id: &str,
        command: Command,
    ) -> AppResult<Reply> {
        let mut ctx = Ctx::new(self, caller, interaction_id)?;
        ctx.channel = channel;
        let result = command.run(&ctx).map(|mut reply| {
            let seen = ctx.seen.take();
            if seen.rolls && seen.npc && !reply.has_npc_numbers() {
                reply = screen::mark_numbers(reply, &seen.names);
            }
            // The GM's screen: an NPC's marked numbers reach the GM alone (or everyone, where the
            // guild plays open), whatever command or button rendered them.
            let viewer = screen::Viewer {
                gm: ctx.is_gm(),
                open: gm::house_rule(&ctx.settings, gm::NPC_NUMBERS_OPEN),
            };
            let mut reply = screen::seal(reply, viewer, &text::escape(&caller.name));
            // Where the copy goes is decided here, from the settings the command already read.
            if reply.gm_copy.is_some() {
                reply.gm_channel = ctx.gm_channel();
                if reply.gm_channel.is_none() {
                    reply = without_gm_channel(reply, ctx.is_gm());
                }
            }
            reply
        });
        // The copies this command held in the outbox now get their full text (or, if it
        // failed after logging a roll, go as they are).
        self.settle_copies(&ctx, result.as_ref().ok());
        result
    }
}

/// A reply whose GM copy has no channel to go to (issue 32: a reply never claims a copy went
/// where none did).
// Decision: a GM's copy (the GM-only lines of a GM's own roll: an Unlucky mishap, a luck total)
// goes to that GM alone, as the ephemeral follow-up [`Reply::caller_copy`], beside whatever it
// already carries; a player's (the NPC numbers of their roll, a GM's note on it) is dropped and
// the roll stays in the log for a GM's /history. The roll modes themselves never get here with
// a copy: [`Ctx::route`] makes none without a channel.
fn without_gm_channel(mut reply: Reply, gm: bool) -> Reply {
    let Some(copy) = reply.gm_copy.take() else {
        return reply;
    };
    if !gm {
        return reply;
    }
    let copy = *copy;
    reply.caller_copy = Some(Box::new(match reply.caller_copy.take() {
        None => Reply {
            visibility: reply::Visibility::Ephemeral,
            ..copy
        },
        Some(mine) => {
            let mut mine = (*mine).with_note(&copy.content);
            mine.embeds.extend(copy.embeds);
            mine
        }
    }));
    reply
}

/// A fresh app on a temporary database with seeded dice, for the use-case tests, whose guild 1
/// has a GM channel ([`TEST_GM_CHANNEL`]), as a guild set up by the README's steps does: private
/// and blind rolls have somewhere to go. Keep the directory alive as long as the app.
#[cfg(test)]
pub(crate) fn temp_app(seed: u64) -> (tempfile::TempDir, App) {
    let (dir, app) = temp_app_without_gm_channel(seed);
    app.store
        .write(|tx| {
            let mut s = crate::store::guilds::get(tx, GuildId(1))?;
            s.gm_channel_id = Some(TEST_GM_CHANNEL);
            crate::store::guilds::put(tx, GuildId(1), &s)
        })
        .expect("the test guild's settings");
    (dir, app)
}

/// The GM channel of [`temp_app`]'s guild.
#[cfg(test)]
pub(crate) const TEST_GM_CHANNEL: u64 = 4242;

/// [`temp_app`] for a guild that never set a GM channel (issue 32's routing tests).
#[cfg(test)]
pub(crate) fn temp_app_without_gm_channel(seed: u64) -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Store::open(&dir.path().join("t.sqlite3")).expect("a fresh database");
    let app = App::new(Arc::new(store), Dice::seeded(seed), Limits::default());
    (dir, app)
}
