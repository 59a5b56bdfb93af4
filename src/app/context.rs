//! What every use case needs: the application ([`App`]: the store, the dice and the limits,
//! shared by every front end) and one command's context ([`Ctx`]): the caller, the guild's
//! settings, dice, characters the caller may see or act with, the roll log, and the routing of
//! the four roll modes.
//!
//! A leaf of `app`: it imports no use case and not the door ([`super`]), which runs commands
//! with an [`App`] (`App::handle` and the rest are defined there).

use std::path::Path;
use std::sync::{Arc, Mutex};

use serde::Serialize;

use super::error::{AppResult, user};
use super::invocation::{Invocation, RollMode};
use super::perm::Caller;
use super::reply::Reply;
use super::text::escape;
use crate::rules::dice::expr::Limits;
use crate::rules::dice::{DieSource, SeededDice, ThreadDice};
use crate::store::characters::{self, Character};
use crate::store::guilds::{self, GuildSettings, System};
use crate::store::rolls::{self, Mode, NewRoll};
use crate::store::secrets::GmProof;
use crate::store::{CharacterId, Conn, GuildId, RollId, Store, StoreError};

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

/// Called when outbox rows become ready, so the delivery task wakes (set by the bot; see
/// [`super::outbox`]).
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// The application: the store, the dice and the limits, shared by every front end.
pub struct App {
    pub(crate) store: Arc<Store>,
    pub(crate) dice: Dice,
    pub(crate) limits: Limits,
    /// The outbox's waker when copies go through it (the bot; see [`super::outbox`]).
    pub(crate) outbox: Option<Waker>,
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

    /// Opens a batch of writes on this thread: see [`Store::begin_batch`]. For the bot's
    /// writing thread.
    pub fn begin_batch(&self) {
        self.store.begin_batch();
    }

    /// Opens a batch that never waits for a lock ([`Store::begin_quick_batch`]); `false` when
    /// the store has none (PostgreSQL).
    pub fn begin_quick_batch(&self) -> bool {
        self.store.begin_quick_batch()
    }

    /// Whether the command just run was turned away from the open batch and must run again
    /// after it ([`Store::batch_deferred`]).
    pub fn batch_deferred(&self) -> bool {
        self.store.batch_deferred()
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
}

/// One command's context.
pub struct Ctx<'a> {
    pub app: &'a App,
    pub caller: &'a Caller,
    pub settings: GuildSettings,
    /// This delivery's id (idempotency key for luck spends made without a button).
    pub interaction_id: &'a str,
    /// GM copies this command held in the outbox (see [`super::outbox`]).
    pub(crate) held: std::cell::Cell<usize>,
    /// The channel the command was run in, when the front end has one (an encounter lives
    /// there).
    pub channel: Option<u64>,
    /// What the GM's screen needs to know of the characters this command named
    /// (`app::screen`).
    pub(crate) seen: std::cell::RefCell<Seen>,
    /// The system of the command being run, when it has one (`/check` is THIZ's, `/tft …`
    /// TFT's): the caller's character of that system is the default one.
    pub(crate) system: std::cell::Cell<Option<System>>,
    /// The dispatcher running this command, lent by it ([`Ctx::run_command`]).
    pub(crate) dispatch: std::cell::Cell<Option<Dispatch>>,
}

/// The dispatcher (`super::command`): parses an invocation and runs it in a context.
pub(crate) type Dispatch = fn(&Ctx<'_>, &Invocation) -> AppResult<Reply>;

/// The characters a command named, for the GM's screen's safety net (`app::screen::mark_numbers`).
#[derive(Debug, Default)]
pub(crate) struct Seen {
    /// Some was an NPC.
    pub npc: bool,
    /// Their names (a number in a name is not a number to hide).
    pub names: Vec<String>,
    /// The command rolls for figures (a THIZ or TFT roll), so its unmarked numbers are screened
    /// when an NPC took part.
    pub rolls: bool,
}

/// The dice for one command: the thread generator, or the shared seeded one (locked for the
/// command's duration, so a seeded session is reproducible).
pub enum DiceGuard<'a> {
    Thread(ThreadDice),
    Seeded(std::sync::MutexGuard<'a, SeededDice>),
}

impl DieSource for DiceGuard<'_> {
    fn roll(&mut self, sides: u32) -> u32 {
        match self {
            DiceGuard::Thread(d) => d.roll(sides),
            DiceGuard::Seeded(d) => d.roll(sides),
        }
    }
}

impl<'a> Ctx<'a> {
    pub fn new(app: &'a App, caller: &'a Caller, interaction_id: &'a str) -> AppResult<Self> {
        // Decision: a journal job is a `/roll` shown in public or to the roller alone, and
        // nothing else ([`super::App::run_journal_job`] turns every other command away before
        // this): whom such a roll goes to, and what its reply holds, depend on none of the
        // guild's settings (GM channel, GM role, house rules; `rolls::tests` checks it), so it
        // does not read them (about 6 µs of a reader's transaction per roll, `perf record`).
        let settings = if crate::store::current_job().journal {
            GuildSettings::default()
        } else {
            app.store.read(|c| guilds::get(c, caller.guild))?
        };
        Ok(Self {
            app,
            caller,
            settings,
            interaction_id,
            held: std::cell::Cell::new(0),
            channel: None,
            seen: std::cell::RefCell::default(),
            system: std::cell::Cell::new(None),
            dispatch: std::cell::Cell::new(None),
        })
    }

    /// Runs another command, parsed and run as the dispatcher runs any, in this context.
    ///
    /// Seam: the encounter's Attack and dying buttons, a roll request's press and `/gm check`
    /// run `/attack`, `/tft dying`, `/check` or `/tft save` through it. The dispatcher imports
    /// every family, so no family imports it: it lends itself to each command it runs instead.
    pub fn run_command(&self, inv: &Invocation) -> AppResult<Reply> {
        let dispatch = self
            .dispatch
            .get()
            .ok_or_else(|| anyhow::anyhow!("{} run outside the dispatcher", inv.display_path()))?;
        dispatch(self, inv)
    }

    pub fn is_gm(&self) -> bool {
        self.caller.is_gm(&self.settings)
    }

    /// The proof hidden-value reads need; a player gets a clear refusal.
    pub fn gm(&self) -> AppResult<GmProof> {
        Ok(self.caller.gm(&self.settings)?)
    }

    pub fn dice(&self) -> DiceGuard<'a> {
        match &self.app.dice {
            Dice::Thread => DiceGuard::Thread(ThreadDice),
            // A poisoned lock only means another command panicked mid-roll; the generator is
            // still a valid generator, so keep rolling with it.
            Dice::Seeded(m) => {
                DiceGuard::Seeded(m.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
            }
        }
    }

    /// Whether the caller may see `c` at all: every player character, and NPCs for GMs only.
    pub fn can_see(&self, c: &Character) -> bool {
        !c.npc || self.is_gm()
    }

    /// Whether the caller may act for `c` (roll with it, spend its luck, edit it): its owner, or a GM.
    pub fn can_act(&self, c: &Character) -> bool {
        self.is_gm() || (!c.npc && c.owner_id == self.caller.user)
    }

    /// A character the caller may see, by name. NPCs are invisible to players: the answer is
    /// the same as for a name that does not exist, so nothing leaks.
    pub fn find_character(&self, conn: &Conn, name: &str) -> AppResult<Character> {
        match characters::by_name(conn, self.caller.guild, name)? {
            Some(c) if self.can_see(&c) => {
                self.saw(&c);
                Ok(c)
            }
            _ => {
                // The names near it that the caller may see: an NPC's only for a GM.
                let all = characters::all(conn, self.caller.guild)?;
                let near = super::text::did_you_mean(
                    name,
                    all.iter()
                        .filter(|c| self.can_see(c))
                        .map(|c| c.name.as_str()),
                );
                Err(user(format!(
                    "There is no character named {} here.{near} /character list shows the ones you can use.",
                    escape(name.trim())
                )))
            }
        }
    }

    /// Notes a character this command named, for the GM's screen.
    pub(crate) fn saw(&self, c: &Character) {
        let mut seen = self.seen.borrow_mut();
        seen.npc |= c.npc;
        if !seen.names.contains(&c.name) {
            seen.names.push(c.name.clone());
        }
    }

    /// The character the caller acts with: the one named (which they must own, unless GM), or
    /// else the one they chose with `/character use` for the command's system, or else their
    /// most recently used one.
    pub fn acting_character(&self, conn: &Conn, name: Option<&str>) -> AppResult<Character> {
        if let Some(name) = name.filter(|n| !n.trim().is_empty()) {
            let c = self.find_character(conn, name)?;
            if !self.can_act(&c) {
                return Err(user(format!(
                    "{} belongs to another player; only they or a GM can do that.",
                    escape(&c.name)
                )));
            }
            return Ok(c);
        }
        let guild = self.caller.guild;
        // The character chosen with /character use for the command's system (or, for a
        // command of no system, the one chosen last).
        let chosen = match self.system.get() {
            Some(system) => characters::active(conn, guild, self.caller.user, system)?,
            None => characters::latest_active(conn, guild, self.caller.user)?,
        };
        if let Some(c) = chosen.filter(|c| self.can_act(c)) {
            self.saw(&c);
            return Ok(c);
        }
        let none = || {
            user(
                "You have no character yet: make one with /character create name:… system:thiz (or tft), or name one with character:…",
            )
        };
        let last = characters::last_used(conn, guild, self.caller.user)?.ok_or_else(none)?;
        let Some(system) = self.system.get() else {
            self.saw(&last);
            return Ok(last);
        };
        // The most recently used character of the command's system: a player with one THIZ and
        // one TFT character need not name either (issue 32).
        let mine = if last.system == system {
            Some(last)
        } else {
            characters::owned_by(conn, guild, self.caller.user)?
                .into_iter()
                .find(|c| c.system == system)
        };
        mine.inspect(|c| self.saw(c)).ok_or_else(|| {
            user(format!(
                "You have no {} character to use here: make one with /character create name:… system:{}, or name one with character:…",
                system_name(system),
                system.as_str()
            ))
        })
    }

    /// The guild's GM channel, if one is set.
    pub fn gm_channel(&self) -> Option<u64> {
        self.settings.gm_channel_id.filter(|c| *c != 0)
    }

    /// Refuses a roll mode that would reach nobody: a player's private or blind roll where no
    /// GM channel is set (its GM copy would go nowhere).
    // Decision (issue 32): a player's private and blind rolls are refused without a GM channel,
    // with the fix, before anything is rolled or written, rather than sent somewhere else: the
    // only other place a GM could read them is /history, which nobody is told to look at. A
    // GM's own private or blind roll goes ahead: the GM is the one who sees it, and [`route`]
    // says it went to them alone. `/gm request` with a private or blind mode is refused for the
    // same reason when the GM asks (app::gm::request).
    pub fn check_mode(&self, mode: RollMode) -> AppResult<()> {
        if self.gm_channel().is_some() || self.is_gm() {
            return Ok(());
        }
        let what = match mode {
            RollMode::Private => "a private roll's copy for the GM would go nowhere",
            RollMode::Blind => "a blind roll's result would reach no GM",
            RollMode::Public | RollMode::SelfOnly => return Ok(()),
        };
        Err(user(no_gm_channel(what)))
    }

    /// Writes a roll to the log. `result` is stored whole (enough to reroll, reveal and audit);
    /// for a blind roll it goes to the hidden table.
    pub fn log_roll(
        &self,
        conn: &Conn,
        character: Option<CharacterId>,
        command: &str,
        mode: RollMode,
        label: &str,
        result: &impl Serialize,
    ) -> AppResult<RollId> {
        self.log_reroll(conn, character, command, mode, label, result, None)
    }

    /// Writes a roll to the log as [`Ctx::log_roll`] does, with the roll it rerolled (`parent`).
    #[allow(clippy::too_many_arguments)] // The log row's columns, named at the call site.
    pub fn log_reroll(
        &self,
        conn: &Conn,
        character: Option<CharacterId>,
        command: &str,
        mode: RollMode,
        label: &str,
        result: &impl Serialize,
        parent: Option<RollId>,
    ) -> AppResult<RollId> {
        let json = serde_json::to_string(result).map_err(anyhow::Error::from)?;
        if let Some(c) = character {
            characters::touch(conn, self.caller.guild, c)?;
        }
        let id = rolls::insert(
            conn,
            self.caller.guild,
            &NewRoll {
                user: self.caller.user,
                character,
                command,
                mode: mode.store_mode(),
                label,
                result_json: &json,
                commitment: None,
                nonce: None,
                parent,
            },
        )?;
        // A private or blind roll's GM copy is held in the same transaction (issue 18).
        let kind = match mode {
            RollMode::Private => Some("Private"),
            RollMode::Blind => Some("Blind"),
            RollMode::Public | RollMode::SelfOnly => None,
        };
        if let Some(kind) = kind {
            let what = if label.is_empty() {
                format!("/{command}")
            } else {
                format!("/{command}: {label}")
            };
            self.hold_copy(conn, id, kind, &what)?;
        }
        Ok(id)
    }

    /// Turns a roll's full reply into what each audience gets, by mode (SPEC §2):
    /// public → the channel; private → the roller (ephemeral) and a GM copy; blind → the roller is
    /// told it was rolled, the GM copy has the result; self → the roller alone.
    ///
    /// Where no GM channel is set no copy is made, and the reply says where the roll went: a
    /// GM's private or blind roll to the GM alone; a player's (only a luck reroll of a roll made
    /// while a channel was set gets here, [`Ctx::check_mode`] refuses the rest) to the log, for
    /// GMs to read with /history.
    pub fn route(&self, mode: RollMode, what: &str, full: Reply) -> Reply {
        let who = escape(&self.caller.name);
        let ephemeral = super::reply::Visibility::Ephemeral;
        let channel = self.gm_channel().is_some();
        match mode {
            RollMode::Public => full,
            RollMode::SelfOnly => Reply {
                visibility: ephemeral,
                ..full
            },
            RollMode::Private if channel => {
                let copy = gm_copy(&full, &format!("Private roll by {who}"));
                Reply {
                    visibility: ephemeral,
                    ..full
                }
                .with_gm_copy(copy)
            }
            RollMode::Private => {
                let note = if self.is_gm() {
                    "No GM channel is set, so this private roll went to you alone (/history keeps it)."
                } else {
                    "No GM channel is set, so no copy of this private roll went to a GM; GMs find it with /history."
                };
                Reply {
                    visibility: ephemeral,
                    ..full
                }
                .with_note(note)
            }
            RollMode::Blind if channel => {
                let copy = gm_copy(&full, &format!("Blind roll by {who}"));
                Reply::ephemeral(format!(
                    "You rolled {what} blind: only the GM sees the result."
                ))
                .with_gm_copy(copy)
            }
            RollMode::Blind if self.is_gm() => {
                // The heading line is the GM copy's, so `/gm check` reads both alike.
                let shown = gm_copy(
                    &full,
                    &format!(
                        "Blind roll by {who}: no GM channel is set, so the result is shown to you alone."
                    ),
                );
                Reply {
                    visibility: ephemeral,
                    ..shown
                }
            }
            RollMode::Blind => Reply::ephemeral(format!(
                "You rolled {what} blind. No GM channel is set, so the result went to no channel: GMs find it with /history."
            )),
        }
    }

    /// The store's name for a mode, for filters.
    pub fn mode_of(mode: RollMode) -> Mode {
        mode.store_mode()
    }
}

/// A refusal for want of a GM channel: why (`what`), and the fix.
pub fn no_gm_channel(what: &str) -> String {
    format!(
        "No GM channel is set here, so {what}. Roll with mode:public or mode:self (only you; still logged), or ask a GM to set one with /gm setup gm_channel:#channel."
    )
}

/// "THIZ" or "TFT", as players read it.
pub fn system_name(system: System) -> &'static str {
    match system {
        System::Thiz => "THIZ",
        System::Tft => "TFT",
    }
}

/// The GM channel's copy of a reply: the same content under a heading, without buttons (they
/// belong to the roller).
fn gm_copy(full: &Reply, heading: &str) -> Reply {
    let content = if full.content.is_empty() {
        heading.to_owned()
    } else {
        format!("{heading}\n{}", full.content)
    };
    Reply {
        content,
        embeds: full.embeds.clone(),
        buttons: Vec::new(),
        visibility: super::reply::Visibility::Public,
        gm_copy: None,
        gm_channel: None,
        file: None,
        update: None,
        caller_copy: None,
        notice: None,
        mention: None,
    }
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
            // The rules' tests have one player's character strike another's outside a fight;
            // the guard against it (off by default) has its own tests on tables without this
            // switch (`encounter::tests::integrity`).
            s.rules
                .insert(crate::app::house::PLAYERS_STRIKE_ANYWHERE.to_owned(), true);
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
