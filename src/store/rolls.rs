//! The roll log: every roll, enough to reroll, reveal and audit it.
//!
//! A roll's player-visible result is `public_json`. Blind rolls and GM secret rolls keep their
//! result in `secret_rolls` (a hidden table) until revealed; reading it takes a [`GmProof`].

use super::journal;
use super::secrets::GmProof;
use super::{
    CharacterId, Conn, GuildId, Result, RollId, Row, StoreError, UserId, exec, insert_returning,
    now, params, query_map, query_opt,
};

/// Who may see a roll (SPEC §2, roll modes), plus `Secret` for a GM's committed roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Public,
    Private,
    Blind,
    #[serde(rename = "self")]
    SelfOnly,
    Secret,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Public => "public",
            Mode::Private => "private",
            Mode::Blind => "blind",
            Mode::SelfOnly => "self",
            Mode::Secret => "secret",
        }
    }

    fn parse(s: &str) -> Option<Mode> {
        Some(match s {
            "public" => Mode::Public,
            "private" => Mode::Private,
            "blind" => Mode::Blind,
            "self" => Mode::SelfOnly,
            "secret" => Mode::Secret,
            _ => return None,
        })
    }

    /// Whether the roller's reply hides the result (it lives in `secret_rolls` until revealed).
    pub fn hides_result(self) -> bool {
        matches!(self, Mode::Blind | Mode::Secret)
    }
}

/// A roll to log.
#[derive(Debug, Clone)]
pub struct NewRoll<'a> {
    pub user: UserId,
    pub character: Option<CharacterId>,
    pub command: &'a str,
    pub mode: Mode,
    pub label: &'a str,
    /// The full result as JSON (the app's shape). Stored publicly, or hidden for blind/secret modes.
    pub result_json: &'a str,
    /// For secret rolls: the published SHA-256 commitment and the nonce kept hidden.
    pub commitment: Option<&'a str>,
    pub nonce: Option<&'a str>,
    /// The roll this one rerolls, if any.
    pub parent: Option<RollId>,
}

/// A logged roll as a player may see it: the result is `None` while hidden.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollRow {
    pub id: RollId,
    pub user: UserId,
    pub character: Option<CharacterId>,
    pub command: String,
    pub mode: Mode,
    pub label: String,
    pub public_json: Option<String>,
    pub commitment: Option<String>,
    pub luck_used: Option<String>,
    pub parent: Option<RollId>,
    pub created_at: i64,
}

const COLUMNS: &str = "id, user_id, character_id, command, mode, label, public_json, commitment, luck_used, parent_id, created_at";

fn from_row(r: &Row<'_>) -> Result<RollRow> {
    let mode: String = r.get(4)?;
    Ok(RollRow {
        id: r.get(0)?,
        user: r.get(1)?,
        character: r.get(2)?,
        command: r.get(3)?,
        mode: Mode::parse(&mode)
            .ok_or_else(|| StoreError::Corrupt(format!("roll mode {mode:?}")))?,
        label: r.get(5)?,
        public_json: r.get(6)?,
        commitment: r.get(7)?,
        luck_used: r.get(8)?,
        parent: r.get(9)?,
        created_at: r.get(10)?,
    })
}

/// Logs a roll and returns its id. Run inside a write transaction.
pub fn insert(conn: &Conn, guild: GuildId, roll: &NewRoll<'_>) -> Result<RollId> {
    let public = (!roll.mode.hides_result()).then_some(roll.result_json);
    // The id: the next of this process's roll journal's lease for the guild while it has one
    // with room (so that one process's numbers rise with time; see `journal::issue`), else the
    // guild's next above both its largest roll and every journal's lease (`roll_id_leases`),
    // taken in the same statement, inside the caller's write transaction.
    let leased = journal::issue(guild);
    macro_rules! insert_roll {
        () => {
            "INSERT INTO rolls (guild_id, id, user_id, character_id, command, mode, label, public_json, commitment, parent_id, created_at)
             VALUES (?1, COALESCE(CAST(?11 AS BIGINT), (SELECT COALESCE(MAX(m), 0) + 1 FROM (
                         SELECT MAX(id) AS m FROM rolls WHERE guild_id = ?1
                         UNION ALL SELECT MAX(last_id) FROM roll_id_leases WHERE guild_id = ?1) AS t)),
                     ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
        };
    }
    let values = params![
        guild,
        roll.user,
        roll.character,
        roll.command,
        roll.mode.as_str(),
        roll.label,
        public,
        roll.commitment,
        roll.parent,
        now(),
        leased
    ];
    let id = insert_returning(
        conn,
        insert_roll!(),
        concat!(insert_roll!(), " RETURNING id"),
        "SELECT id FROM rolls WHERE rowid = last_insert_rowid()",
        values,
    )?;
    if roll.mode.hides_result() {
        exec(
            conn,
            "INSERT INTO secret_rolls (guild_id, roll_id, result_json, nonce) VALUES (?1, ?2, ?3, ?4)",
            params![guild, id, roll.result_json, roll.nonce],
        )?;
    }
    Ok(RollId(id))
}

/// A roll by id (result hidden for blind/secret rolls not yet revealed).
pub fn get(conn: &Conn, guild: GuildId, id: RollId) -> Result<Option<RollRow>> {
    let sql = format!("SELECT {COLUMNS} FROM rolls WHERE guild_id = ?1 AND id = ?2");
    query_opt(conn, &sql, params![guild, id], from_row)
}

/// The latest roll of a character for a command family (`/check`, `/attack`…), if any.
pub fn latest_for_character(
    conn: &Conn,
    guild: GuildId,
    character: CharacterId,
    commands: &[&str],
) -> Result<Option<RollRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM rolls WHERE guild_id = ?1 AND character_id = ?2 ORDER BY id DESC LIMIT 50"
    );
    let rows = query_map(conn, &sql, params![guild, character], from_row)?;
    for row in rows {
        if commands.contains(&row.command.as_str()) {
            return Ok(Some(row));
        }
    }
    Ok(None)
}

/// Marks luck as used on a roll, once: false if it was already used (nothing changes then).
pub fn use_luck(conn: &Conn, guild: GuildId, id: RollId, how: &str) -> Result<bool> {
    Ok(exec(
        conn,
        "UPDATE rolls SET luck_used = ?3 WHERE guild_id = ?1 AND id = ?2 AND luck_used IS NULL",
        params![guild, id, how],
    )? == 1)
}

/// The most recent rolls, newest first, of one user (`Some`) or everyone (`None`), optionally of
/// one character. The `app` layer filters by mode for players.
pub fn recent(
    conn: &Conn,
    guild: GuildId,
    user: Option<UserId>,
    character: Option<CharacterId>,
    limit: u32,
) -> Result<Vec<RollRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM rolls WHERE guild_id = ?1
           AND (CAST(?2 AS BIGINT) IS NULL OR user_id = ?2)
           AND (CAST(?3 AS BIGINT) IS NULL OR character_id = ?3)
         ORDER BY id DESC LIMIT ?4"
    );
    let rows = query_map(conn, &sql, params![guild, user, character, limit], from_row)?;
    Ok(rows)
}

/// A hidden roll's stored result and nonce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecretRoll {
    pub result_json: String,
    pub nonce: Option<String>,
    pub revealed_at: Option<i64>,
}

/// Reads a hidden roll's result (GM only).
pub fn secret(conn: &Conn, gm: GmProof, id: RollId) -> Result<Option<SecretRoll>> {
    query_opt(
        conn,
        "SELECT result_json, nonce, revealed_at FROM secret_rolls WHERE guild_id = ?1 AND roll_id = ?2",
        params![gm.guild(), id],
        |r| {
            Ok(SecretRoll {
                result_json: r.get(0)?,
                nonce: r.get(1)?,
                revealed_at: r.get(2)?,
            })
        },
    )
}

/// Reveals a hidden roll: its result becomes public. Returns false if it was already revealed
/// (or is not a hidden roll). Run inside a write transaction.
pub fn reveal(conn: &Conn, gm: GmProof, id: RollId) -> Result<bool> {
    let changed = exec(
        conn,
        "UPDATE secret_rolls SET revealed_at = ?3 WHERE guild_id = ?1 AND roll_id = ?2 AND revealed_at IS NULL",
        params![gm.guild(), id, now()],
    )?;
    if changed == 1 {
        exec(conn,
            "UPDATE rolls SET public_json = (SELECT result_json FROM secret_rolls WHERE guild_id = ?1 AND roll_id = ?2)
             WHERE guild_id = ?1 AND id = ?2",
            params![gm.guild(), id],
        )?;
    }
    Ok(changed == 1)
}

/// The shown results (`public_json`) of `user`'s rolls of `commands`, newest first, at most
/// `limit`, looked for among the guild's latest `scan` rolls only: autocomplete reads this on
/// every keystroke, so the work is bounded however long the log and however seldom the user
/// rolls. Hidden results (blind, unrevealed secret) are not among them.
pub fn recent_shown(
    conn: &Conn,
    guild: GuildId,
    user: UserId,
    commands: [&str; 2],
    scan: u32,
    limit: u32,
) -> Result<Vec<String>> {
    let rows = query_map(
        conn,
        "SELECT public_json FROM (
             SELECT id, user_id, command, public_json FROM rolls
             WHERE guild_id = ?1 ORDER BY id DESC LIMIT ?2) AS latest
         WHERE user_id = ?3 AND command IN (?4, ?5) AND public_json IS NOT NULL
         ORDER BY id DESC LIMIT ?6",
        params![guild, scan, user, commands[0], commands[1], limit],
        |r| r.get(0),
    )?;
    Ok(rows)
}
