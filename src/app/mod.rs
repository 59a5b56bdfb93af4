//! Use cases: one function per command, taking the caller and returning a [`reply::Reply`].
//!
//! Owns permissions (checked here on every GM action, whatever Discord's command permissions say),
//! the four roll modes and where copies go, what a player may see, and the composition of
//! `rules` with `store`. Never touches Discord types and never formats for a particular front end
//! beyond the reply model. The store is synchronous: the bot calls [`App::run`] on its own
//! threads (`bot::workers`), never on the async runtime and never holding a lock across an
//! `.await`.
//!
//! ## Layout: one door per room
//! Every room imports only rooms below it; none imports one that imports it back
//! (`tests/integration/modules.rs` checks the whole crate for cycles, and the seams below).
//!
//! ```text
//! app/
//!   mod.rs         the door: App::handle, run, run_job; a command in, a reply out (errors become
//!                  replies; the GM's screen and where copies go are settled here)
//!   command.rs     the dispatcher: an Invocation parsed into its family's command, and run;
//!                  it imports every family, and no family imports it
//!   invocation.rs  what every family parses: Invocation, Opts (checked options), RollMode
//!   error.rs       AppError (the user's, shown verbatim, or ours, logged), AppResult, user()
//!   context.rs     App (store, dice, limits) and Ctx, one command's context and roll modes
//!   reply.rs       the reply model       screen.rs   the GM's screen over NPC numbers
//!   perm.rs        who is a GM           house.rs    the house-rule switches
//!   text.rs        escaping, limits      sheet.rs    the public sheet, per system
//!   weapons.rs     the default weapon    suggest.rs  autocomplete
//!   outbox.rs      the GM channel copies help.rs     /help
//!   chart.rs       odds as PNG charts (plotters, its own pixel font; no system fonts)
//!   layout.rs      Discord's limits: a list over fields, an embed over pages
//!   the families: each a dispatcher over its use cases, and a leaf they all share
//!   thiz/          /check /attack /wound /maneuver /hazard /magic /move /advance; shared.rs
//!   tft/           /tft /tftkit /tftref /odds tft; shared.rs (a TFT sheet's numbers, switches)
//!   encounter/     /encounter and its status message; loaded.rs (load, save), state.rs,
//!                  hooks.rs (what the rolls in a fight take and give back)
//!   characters/    /character, /npc; fields.rs (typed values), gear.rs (a gear change),
//!                  bestiary.rs (quick NPCs, /npc)
//!   luck/          /luck and its buttons; button.rs (spend kinds, button ids)
//!   gm/            /gm; request.rs (/gm request, /gm check)
//!   rolls/         /roll /gm roll /reveal /history
//!   aliases/       /alias (saved rolls); tail.rs (a saved roll's text and what is typed after it)
//! ```
//!
//! A family imports the rooms above its line, the store, the rules and its own modules; another
//! family only through a seam, a module whose `//!` says "Seam:" and who uses it:
//! - `encounter::hooks` (thiz, tft): the rolls in a fight call in; the encounter never calls them.
//! - `encounter::loaded` (characters, gm), `encounter::state` and `encounter::status` (tft).
//! - `thiz::record` (characters, encounter, luck), `thiz::stats` and `thiz::care` (encounter,
//!   luck), `thiz::attack` and `thiz::special` (luck), `thiz::shared` (gm).
//! - `tft::shared` (characters, encounter); `luck::button` (thiz); `characters::fields` (thiz,
//!   aliases); `characters::bestiary` (encounter: quick NPCs and the bestiary's copies);
//!   `aliases` (rolls: `/roll attack+2` rolls a saved roll; gm: a roll request's dice may be
//!   each presser's saved roll).
//! - A family that runs another family's command (the encounter's buttons, a roll request) goes
//!   through the dispatcher, which lends itself: [`Ctx::run_command`], `gm::request::Accepts`.

pub mod aliases;
pub mod characters;
pub mod chart;
pub mod command;
pub mod context;
pub mod encounter;
pub mod error;
pub mod gm;
pub mod help;
pub mod house;
pub mod invocation;
pub mod layout;
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
pub(crate) mod testkit;
#[cfg(test)]
mod trust_tests;

use std::time::Instant;

use crate::store::{Fault, Job, StoreError};

pub use command::Command;
pub use context::{App, Ctx, Dice};
#[cfg(test)]
pub(crate) use context::{TEST_GM_CHANNEL, temp_app, temp_app_without_gm_channel};
pub use error::{AppError, AppResult, user};
pub use perm::Caller;
pub use reply::Reply;

impl App {
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
        invocation: &invocation::Invocation,
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
        invocation: &invocation::Invocation,
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
        invocation: &invocation::Invocation,
    ) -> Ran {
        let job = Job {
            deadline: Some(deadline),
            read_only,
            ..Job::default()
        };
        self.run_as(job, channel, caller, interaction_id, invocation)
    }

    /// Runs an invocation as [`App::run_job`] does, read-only, but a log-only roll may go to the
    /// store's roll journal ([`crate::store::Store::journal_roll`]): a plain `/roll` is then
    /// answered without a write of its own. Anything that must write comes back as
    /// [`Ran::NeedsWriter`], nothing written, to run again as a writing job.
    pub fn run_journal_job(
        &self,
        deadline: Instant,
        channel: Option<u64>,
        caller: &Caller,
        interaction_id: &str,
        invocation: &invocation::Invocation,
    ) -> Ran {
        // Only a public or self `/roll` runs as a journal job (see `Ctx::new`); anything else,
        // bad input included, runs as a writing job, which answers it.
        let journalable = Command::parse(invocation).is_ok_and(|command| {
            // A mode given is also checked as `Moded` (`Ctx::check_mode`: nothing to refuse for
            // these two).
            let command = match command {
                Command::Moded(_, inner) => *inner,
                command => command,
            };
            matches!(
                command,
                Command::Rolls(rolls::RollsCommand::Roll {
                    mode: invocation::RollMode::Public | invocation::RollMode::SelfOnly,
                    ..
                })
            )
        });
        if !journalable {
            return Ran::NeedsWriter;
        }
        let job = Job {
            deadline: Some(deadline),
            read_only: true,
            journal: true,
            ..Job::default()
        };
        self.run_as(job, channel, caller, interaction_id, invocation)
    }

    fn run_as(
        &self,
        job: Job,
        channel: Option<u64>,
        caller: &Caller,
        interaction_id: &str,
        invocation: &invocation::Invocation,
    ) -> Ran {
        // The guild is declared by `try_handle`, for every way in.
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
        if let Some(e) = store_error(&error)
            && let Some(reply) = self.store_reply(e)
        {
            // A quick batch's write turned away runs again on the writing lane: nothing is
            // wrong with the database, and this reply is never sent.
            if !matches!(e, StoreError::TurnedAway) {
                tracing::warn!(error = %error, guild = %caller.guild, "database unavailable");
            }
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
pub fn reads_only(invocation: &invocation::Invocation) -> bool {
    let path: Vec<&str> = invocation.path.iter().map(String::as_str).collect();
    matches!(
        path.as_slice(),
        ["help"]
            | ["history"]
            | ["odds", ..]
            | ["tftref", ..]
            | ["character", "show" | "list" | "export" | "validate"]
            | ["luck", "show" | "log"]
            | ["alias", "list" | "show"]
            | ["npc", "list" | "show"]
    )
}

/// Whether an invocation may be answered through the roll journal ([`App::run_journal_job`]):
/// `/roll`, which logs its roll and nothing else when shown in public or to the roller alone.
pub fn journals(invocation: &invocation::Invocation) -> bool {
    invocation.path.len() == 1 && invocation.path[0] == "roll"
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
        Fault::Unreachable => format!(
            "The bot cannot reach its database server, so nothing was saved: the server operator must start `{path}` again or let it take connections. The bot reconnects by itself once it answers."
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
                open: house::house_rule(&ctx.settings, house::NPC_NUMBERS_OPEN),
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
