//! What the bot must post after answering, and what it tells the GM when that fails.
//!
//! Decides which copies go through the outbox (`store::outbox`): a private, blind or secret roll
//! holds a provisional copy in the roll's own transaction ([`Ctx::hold_copy`]); the command's end
//! settles it with the full copy ([`App::settle_copies`]). The bot's delivery task reads due
//! rows, posts them and reports back ([`App::outbox_due`] and the calls after it); a copy Discord
//! refused for good is told to a GM of the guild once ([`App::outbox_notice`]). Only a front end
//! that delivers (the bot) turns the outbox on ([`App::with_outbox`]); the console prints copies.

use super::reply::Reply;
use super::text::escape;
use super::{App, AppResult, Caller, Ctx};
use crate::store::outbox::{self, Depth, NewItem};
use crate::store::{Conn, GuildId, RollId, guilds};

/// A held row whose command never settled it (the process died, or the settling write failed)
/// is delivered with its provisional body once it is this old, in seconds.
pub const ORPHAN_AFTER_SECS: i64 = 60;

/// One copy to post now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    pub id: i64,
    pub guild: GuildId,
    pub channel: u64,
    pub copy: Reply,
    /// Failed attempts so far.
    pub attempts: u32,
}

impl App {
    /// Turns the outbox on: copies for the GM channel are kept in the database until delivered,
    /// and `wake` is called whenever some become ready.
    #[must_use]
    pub fn with_outbox(mut self, wake: impl Fn() + Send + Sync + 'static) -> Self {
        self.outbox = Some(std::sync::Arc::new(wake));
        self
    }

    /// Whether copies go through the outbox.
    pub fn outbox_on(&self) -> bool {
        self.outbox.is_some()
    }

    /// Settles the copies a command held, with the reply it ended with: its GM copy (if it has
    /// one and the guild has a GM channel) replaces the provisional body. A failure here is
    /// logged, not shown: the held rows are delivered as they are after [`ORPHAN_AFTER_SECS`].
    pub(crate) fn settle_copies(&self, ctx: &Ctx<'_>, reply: Option<&Reply>) {
        let Some(wake) = &self.outbox else {
            return;
        };
        let copy = reply.and_then(|r| {
            let channel = r.gm_channel.filter(|c| *c != 0)?;
            Some((channel, r.gm_copy.as_deref()?))
        });
        if copy.is_none() && ctx.held.get() == 0 {
            return;
        }
        let body = match copy.map(|(_, c)| serde_json::to_string(c)).transpose() {
            Ok(body) => body,
            Err(e) => {
                tracing::error!(error = %e, "cannot serialize a GM copy");
                None
            }
        };
        let settled = self.store.write(|c| {
            outbox::settle(
                c,
                ctx.caller.guild,
                ctx.interaction_id,
                copy.zip(body.as_deref()).map(|((ch, _), b)| (ch, b)),
            )
        });
        match settled {
            // Once committed: in a batch (`store::Store::begin_batch`) that is later, and the
            // task must not look for the rows before they are there.
            Ok(n) if n > 0 => {
                let wake = std::sync::Arc::clone(wake);
                crate::store::after_commit(move || wake());
            }
            Ok(_) => {}
            Err(e) => {
                tracing::error!(error = %e, guild = %ctx.caller.guild, "cannot settle a GM copy");
            }
        }
    }

    /// Makes ready every row a previous process held (run once at start, before delivering).
    pub fn outbox_recover(&self) -> AppResult<usize> {
        Ok(self.store.write(outbox::recover)?)
    }

    /// Up to `limit` copies due at `now_ms` (ms since the epoch), oldest first. A row whose body
    /// no longer parses is marked failed here, never retried.
    pub fn outbox_due(&self, now_ms: i64, limit: u32) -> AppResult<Vec<Delivery>> {
        let orphaned = now_ms / 1000 - ORPHAN_AFTER_SECS;
        let items = self
            .store
            .read(|c| outbox::due(c, now_ms, orphaned, limit))?;
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            match serde_json::from_str::<Reply>(&item.body) {
                Ok(copy) => out.push(Delivery {
                    id: item.id,
                    guild: item.guild,
                    channel: item.channel,
                    copy,
                    attempts: item.attempts,
                }),
                Err(e) => {
                    self.outbox_failed(
                        item.guild,
                        item.id,
                        &format!("the stored copy is corrupt: {e}"),
                        false,
                    )?;
                }
            }
        }
        Ok(out)
    }

    /// When the next copy waiting for a retry is due (ms since the epoch).
    pub fn outbox_next_due(&self) -> AppResult<Option<i64>> {
        Ok(self.store.read(outbox::next_due)?)
    }

    // The three below write one guild's rows (a delivery's own), declared so
    // (`store::in_guild`): on PostgreSQL they take that guild's write lock, not the whole
    // database's.

    /// Discord has the copy (row `id` of `guild`): forget it.
    pub fn outbox_delivered(&self, guild: GuildId, id: i64) -> AppResult<()> {
        crate::store::in_guild(guild, || {
            Ok(self.store.write(|c| outbox::delivered(c, guild, id))?)
        })
    }

    /// Discord failed for now: try again at `next_at_ms`.
    pub fn outbox_retry(
        &self,
        guild: GuildId,
        id: i64,
        next_at_ms: i64,
        error: &str,
    ) -> AppResult<()> {
        crate::store::in_guild(guild, || {
            Ok(self
                .store
                .write(|c| outbox::retry_later(c, guild, id, next_at_ms, error))?)
        })
    }

    /// Discord refused for good: never try again; the guild's GM will be told. With
    /// `whole_channel`, every copy waiting for that channel fails too. Returns how many failed.
    pub fn outbox_failed(
        &self,
        guild: GuildId,
        id: i64,
        error: &str,
        whole_channel: bool,
    ) -> AppResult<usize> {
        crate::store::in_guild(guild, || {
            Ok(self
                .store
                .write(|c| outbox::failed(c, guild, id, error, whole_channel))?)
        })
    }

    /// Guilds whose GM has not yet been told of a failed copy.
    pub fn outbox_unreported(&self) -> AppResult<Vec<GuildId>> {
        Ok(self.store.read(outbox::unreported_guilds)?)
    }

    /// How many copies wait and how many failed.
    pub fn outbox_depth(&self) -> AppResult<Depth> {
        Ok(self.store.read(outbox::depth)?)
    }

    /// How long the oldest copy still to deliver has waited, in whole seconds; `None` when
    /// none waits.
    pub fn outbox_oldest_age(&self) -> AppResult<Option<u64>> {
        let oldest = self.store.read(outbox::oldest_waiting)?;
        Ok(oldest.map(|at| crate::store::now().saturating_sub(at).max(0) as u64))
    }

    /// For a GM of the guild: the copies Discord refused since they were last told, as one
    /// ephemeral message, marked told (so each failure is told once). `None` for a player (the
    /// failures wait for a GM) or when there is nothing to tell.
    pub fn outbox_notice(&self, caller: &Caller) -> AppResult<Option<Reply>> {
        let settings = self.store.read(|c| guilds::get(c, caller.guild))?;
        if !caller.is_gm(&settings) {
            return Ok(None);
        }
        let failures = self
            .store
            .write(|c| outbox::take_failures(c, caller.guild))?;
        if failures.is_empty() {
            return Ok(None);
        }
        let lines: Vec<String> = failures
            .iter()
            .map(|f| {
                let copies = if f.count == 1 { "copy" } else { "copies" };
                format!(
                    "{} {copies} of private or blind rolls could not be posted in <#{}>: {}",
                    f.count,
                    f.channel,
                    escape(&f.error)
                )
            })
            .collect();
        Ok(Some(Reply::ephemeral(format!(
            "**GM channel problem.** {}\nGive referee the View Channel, Send Messages and Embed \
             Links permissions there, or choose another channel with /gm setup gm_channel:…. \
             The rolls themselves are in the log: /history shows them.",
            lines.join("\n")
        ))))
    }
}

impl Ctx<'_> {
    /// Holds a provisional GM copy of roll `roll` in the outbox, inside the roll's write
    /// transaction, when the outbox is on and the guild has a GM channel. The command's end
    /// replaces it with the full copy; if the process dies first, the GM gets this one, which
    /// says where to find the roll.
    pub fn hold_copy(
        &self,
        conn: &Conn,
        roll: RollId,
        kind: &str,
        what: &str,
    ) -> crate::store::Result<()> {
        if !self.app.outbox_on() {
            return Ok(());
        }
        let Some(channel) = self.settings.gm_channel_id.filter(|c| *c != 0) else {
            return Ok(());
        };
        let body = Reply::public(format!(
            "{kind} roll #{roll} by {} ({}): referee restarted before this copy was complete; \
             /history shows the roll in full.",
            escape(&self.caller.name),
            escape(what)
        ));
        let body = serde_json::to_string(&body)
            .map_err(|e| crate::store::StoreError::Corrupt(e.to_string()))?;
        outbox::hold(
            conn,
            &NewItem {
                guild: self.caller.guild,
                channel,
                interaction: self.interaction_id,
                roll: Some(roll),
                body: &body,
            },
        )?;
        self.held.set(self.held.get() + 1);
        Ok(())
    }
}
