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
pub mod perm;
pub mod reply;
pub mod rolls;
pub mod sheet;
pub mod suggest;
pub mod text;
pub mod tft;
pub mod thiz;

use std::path::Path;
use std::sync::{Arc, Mutex};

use crate::rules::dice::SeededDice;
use crate::rules::dice::expr::Limits;
use crate::store::{Store, StoreError};

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
}

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> Self {
        AppError::Internal(e.into())
    }
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
}

impl App {
    pub fn new(store: Arc<Store>, dice: Dice, limits: Limits) -> Self {
        Self {
            store,
            dice,
            limits,
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
            .unwrap_or_else(|e| Self::error_reply(caller, e))
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
            .unwrap_or_else(|e| Self::error_reply(caller, e))
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
            .map_err(|e| Self::error_reply(caller, e))
    }

    fn error_reply(caller: &Caller, error: AppError) -> Reply {
        match error {
            AppError::User(message) => Reply::ephemeral(message),
            AppError::Internal(e) => {
                tracing::error!(error = ?e, guild = %caller.guild, "command failed");
                Reply::ephemeral("Something went wrong. The error was logged; please try again.")
            }
        }
    }

    fn try_handle(
        &self,
        channel: Option<u64>,
        caller: &Caller,
        interaction_id: &str,
        command: Command,
    ) -> AppResult<Reply> {
        let mut ctx = Ctx::new(self, caller, interaction_id)?;
        ctx.channel = channel;
        let mut reply = command.run(&ctx)?;
        // Where the copy goes is decided here, from the settings the command already read.
        if reply.gm_copy.is_some() {
            reply.gm_channel = ctx.settings.gm_channel_id;
        }
        Ok(reply)
    }
}

/// A fresh app on a temporary database with seeded dice, for the use-case tests. Keep the
/// directory alive as long as the app.
#[cfg(test)]
pub(crate) fn temp_app(seed: u64) -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Store::open(&dir.path().join("t.sqlite3")).expect("a fresh database");
    let app = App::new(Arc::new(store), Dice::seeded(seed), Limits::default());
    (dir, app)
}
