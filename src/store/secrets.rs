//! Hidden values: luck points and the luck ledger, GM notes, hidden keys.
//!
//! Every function that READS a hidden value takes a [`GmProof`], which only the `app` layer's
//! permission check creates after verifying the caller is a GM of the guild. A luck spend by a
//! player changes the hidden total without showing it: its result says whether the spend happened
//! and whether luck is now exhausted, and the total it carries is for the GM's copy only.

use super::{
    CharacterId, Conn, GuildId, Result, RollId, UserId, exec, now, params, query_map, query_opt,
    query_row,
};

/// Proof that the caller was verified as a GM of the guild. Created only by the app layer's
/// permission check (`app::perm`), right after it checked the caller's roles.
#[derive(Debug, Clone, Copy)]
pub struct GmProof {
    guild: GuildId,
}

impl GmProof {
    /// Only `app`'s permission check calls this, after it verified `guild`'s GM role or Manage Server.
    pub(crate) fn verified(guild: GuildId) -> Self {
        Self { guild }
    }

    pub fn guild(self) -> GuildId {
        self.guild
    }
}

/// Sets a hidden key on a character.
pub fn set_hidden(conn: &Conn, gm: GmProof, id: CharacterId, key: &str, value: &str) -> Result<()> {
    exec(conn,
        "INSERT INTO hidden_values (guild_id, character_id, key, value, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (guild_id, character_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        params![gm.guild, id, key.trim(), value, now()],
    )?;
    Ok(())
}

/// Reads one hidden key.
pub fn hidden(conn: &Conn, gm: GmProof, id: CharacterId, key: &str) -> Result<Option<String>> {
    query_opt(
        conn,
        "SELECT value FROM hidden_values WHERE guild_id = ?1 AND character_id = ?2 AND key = ?3",
        params![gm.guild, id, key.trim()],
        |r| r.get(0),
    )
}

/// Every hidden key of a character, by key.
pub fn all_hidden(conn: &Conn, gm: GmProof, id: CharacterId) -> Result<Vec<(String, String)>> {
    let rows = query_map(
        conn,
        "SELECT key, value FROM hidden_values WHERE guild_id = ?1 AND character_id = ?2 ORDER BY key",
        params![gm.guild, id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok(rows)
}

/// Adds a GM note.
pub fn add_note(
    conn: &Conn,
    gm: GmProof,
    id: CharacterId,
    author: UserId,
    text: &str,
) -> Result<()> {
    let note: i64 = query_row(
        conn,
        "SELECT COALESCE(MAX(id), 0) + 1 FROM gm_notes WHERE guild_id = ?1 AND character_id = ?2",
        params![gm.guild, id],
        |r| r.get(0),
    )?;
    exec(
        conn,
        "INSERT INTO gm_notes (guild_id, character_id, id, author_id, text, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![gm.guild, id, note, author, text, now()],
    )?;
    Ok(())
}

/// The GM notes on a character, oldest first.
pub fn notes(conn: &Conn, gm: GmProof, id: CharacterId) -> Result<Vec<String>> {
    let rows = query_map(
        conn,
        "SELECT text FROM gm_notes WHERE guild_id = ?1 AND character_id = ?2 ORDER BY id",
        params![gm.guild, id],
        |r| r.get(0),
    )?;
    Ok(rows)
}

/// The luck total, if it was ever rolled or set.
pub fn luck(conn: &Conn, gm: GmProof, id: CharacterId) -> Result<Option<i64>> {
    luck_inner(conn, gm.guild, id)
}

fn luck_inner(conn: &Conn, guild: GuildId, id: CharacterId) -> Result<Option<i64>> {
    query_opt(
        conn,
        "SELECT points FROM luck WHERE guild_id = ?1 AND character_id = ?2",
        params![guild, id],
        |r| r.get(0),
    )
}

/// Why luck changed, for the ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LuckKind {
    /// The secret 1d10 at creation, or a GM's `/luck roll`.
    Rolled,
    Set,
    Awarded,
    SpentReroll,
    SpentWound,
    SpentStunt,
    /// Berserk: fighting on past a fatal blow.
    SpentBerserk,
    /// Sleepless: roused from the long sleep.
    SpentRouse,
    /// Luck Everlasting's secret roll.
    Everlasting,
    /// A character that came in from a file: with no luck, until a GM gives it some.
    Imported,
    /// The character was deleted (kept for a GM to restore); luck unchanged.
    Deleted,
    /// A GM brought a deleted character back; luck unchanged.
    Restored,
}

impl LuckKind {
    pub fn as_str(self) -> &'static str {
        match self {
            LuckKind::Rolled => "rolled",
            LuckKind::Set => "set",
            LuckKind::Awarded => "awarded",
            LuckKind::SpentReroll => "spent: reroll",
            LuckKind::SpentWound => "spent: wound",
            LuckKind::SpentStunt => "spent: stunt",
            LuckKind::SpentBerserk => "spent: berserk",
            LuckKind::SpentRouse => "spent: rouse",
            LuckKind::Everlasting => "luck everlasting",
            LuckKind::Imported => "imported",
            LuckKind::Deleted => "deleted",
            LuckKind::Restored => "restored",
        }
    }
}

/// A ledger entry to write beside a luck change.
#[derive(Debug, Clone)]
pub struct LedgerEntry<'a> {
    pub actor: UserId,
    pub kind: LuckKind,
    pub reason: &'a str,
    pub roll: Option<RollId>,
    /// Makes a repeated delivery of the same interaction (or a second button press) a no-op.
    pub idem_key: Option<&'a str>,
}

fn write_ledger(
    conn: &Conn,
    guild: GuildId,
    id: CharacterId,
    delta: i64,
    after: i64,
    entry: &LedgerEntry<'_>,
) -> Result<()> {
    // The row id is the guild's next, taken in the insert itself (see `rolls::insert`).
    exec(
        conn,
        "INSERT INTO luck_ledger (guild_id, id, character_id, actor_id, delta, points_after, kind, reason, roll_id, idem_key, at)
         VALUES (?1, (SELECT COALESCE(MAX(id), 0) + 1 FROM luck_ledger WHERE guild_id = ?1),
                 ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            guild,
            id,
            entry.actor,
            delta,
            after,
            entry.kind.as_str(),
            entry.reason,
            entry.roll,
            entry.idem_key,
            now()
        ],
    )?;
    Ok(())
}

/// Sets the luck total (a GM's set, the creation roll) and records it. Run inside a write transaction.
pub fn set_luck(
    conn: &Conn,
    guild: GuildId,
    id: CharacterId,
    points: i64,
    entry: &LedgerEntry<'_>,
) -> Result<()> {
    let before = luck_inner(conn, guild, id)?.unwrap_or(0);
    let points = points.max(0);
    exec(
        conn,
        "INSERT INTO luck (guild_id, character_id, points) VALUES (?1, ?2, ?3)
         ON CONFLICT (guild_id, character_id) DO UPDATE SET points = excluded.points",
        params![guild, id, points],
    )?;
    write_ledger(conn, guild, id, points - before, points, entry)
}

/// Writes a ledger line that changes nothing (a delete, a restore), so that the GM's log tells
/// the character's whole story. Nothing when the character has no luck row. Run inside a write
/// transaction.
pub fn mark_ledger(
    conn: &Conn,
    guild: GuildId,
    id: CharacterId,
    entry: &LedgerEntry<'_>,
) -> Result<()> {
    match luck_inner(conn, guild, id)? {
        Some(points) => write_ledger(conn, guild, id, 0, points, entry),
        None => Ok(()),
    }
}

/// The result of a spend attempt. The totals are hidden values: `app` shows them to GMs only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spend {
    /// `points` were spent; `left` remain.
    Spent { points: i64, left: i64 },
    /// There was no luck to spend (zero, or never rolled).
    Exhausted,
    /// This idempotency key was already used: nothing was spent this time.
    Duplicate,
}

/// Spends `points` of luck (at least 1), or what is left when the total is smaller (the luck
/// stunt rule; a reroll or a wound costs 1, so for them "smaller" is zero): never more than the
/// total, never twice for one idempotency key. Run inside a write transaction (`Store::write`,
/// `BEGIN IMMEDIATE`), so the read, the conditional decrement and the ledger row are one unit.
pub fn spend_luck(
    conn: &Conn,
    guild: GuildId,
    id: CharacterId,
    points: i64,
    entry: &LedgerEntry<'_>,
) -> Result<Spend> {
    if let Some(key) = entry.idem_key {
        let seen: Option<i64> = query_opt(
            conn,
            "SELECT 1 FROM luck_ledger WHERE guild_id = ?1 AND idem_key = ?2",
            params![guild, key],
            |r| r.get(0),
        )?;
        if seen.is_some() {
            return Ok(Spend::Duplicate);
        }
    }
    let before = luck_inner(conn, guild, id)?.unwrap_or(0);
    let spend = points.max(1).min(before);
    if spend <= 0 {
        return Ok(Spend::Exhausted);
    }
    // Conditional on the total we read, so even outside a transaction no spend can go below zero.
    let changed = exec(
        conn,
        "UPDATE luck SET points = points - ?3 WHERE guild_id = ?1 AND character_id = ?2 AND points >= ?3",
        params![guild, id, spend],
    )?;
    if changed == 0 {
        return Ok(Spend::Exhausted);
    }
    let left = before - spend;
    write_ledger(conn, guild, id, -spend, left, entry)?;
    Ok(Spend::Spent {
        points: spend,
        left,
    })
}

/// Adds awarded luck and records it.
pub fn award_luck(
    conn: &Conn,
    guild: GuildId,
    id: CharacterId,
    points: i64,
    entry: &LedgerEntry<'_>,
) -> Result<i64> {
    let after = luck_inner(conn, guild, id)?
        .unwrap_or(0)
        .saturating_add(points)
        .max(0);
    set_luck(conn, guild, id, after, entry)?;
    Ok(after)
}

/// One row of the luck ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerRow {
    pub actor: UserId,
    pub delta: i64,
    pub points_after: i64,
    pub kind: String,
    pub reason: String,
    pub roll: Option<RollId>,
    pub at: i64,
}

/// The luck ledger of a character, oldest first.
pub fn ledger(conn: &Conn, gm: GmProof, id: CharacterId) -> Result<Vec<LedgerRow>> {
    let rows = query_map(
        conn,
        "SELECT actor_id, delta, points_after, kind, reason, roll_id, at FROM luck_ledger
         WHERE guild_id = ?1 AND character_id = ?2 ORDER BY id",
        params![gm.guild, id],
        |r| {
            Ok(LedgerRow {
                actor: r.get(0)?,
                delta: r.get(1)?,
                points_after: r.get(2)?,
                kind: r.get(3)?,
                reason: r.get(4)?,
                roll: r.get(5)?,
                at: r.get(6)?,
            })
        },
    )?;
    Ok(rows)
}
