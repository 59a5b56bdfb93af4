//! Roll requests (`migrations/05-roll-request`): a GM's request for a check or a save from named
//! characters, and which of them have rolled.
//!
//! Owns the two tables and the claim that makes a press idempotent: [`claim`] marks a character
//! as rolled only if it had not rolled and the request is open, in the caller's `BEGIN IMMEDIATE`
//! write, so two presses (or two deliveries of one press) roll once. Keeps no result: results
//! live in the roll log. Never decides who may press; `app` does.

use super::{
    CharacterId, Conn, GuildId, Result, UserId, exec, next_id, now, params, query_map, query_opt,
};

/// A request, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestRow {
    pub id: i64,
    pub gm: UserId,
    /// `check` or `tft save`.
    pub command: String,
    /// The roll's options as a JSON array of `[name, value]` pairs (the shape is `app`'s).
    pub options_json: String,
    /// What is asked for, as shown.
    pub what: String,
    pub mode: String,
    pub closed: bool,
}

/// One named character of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryRow {
    pub character: CharacterId,
    pub name: String,
    /// Who pressed for it, once it has rolled.
    pub rolled_by: Option<UserId>,
}

/// A new request.
#[derive(Debug, Clone)]
pub struct NewRequest<'a> {
    pub gm: UserId,
    pub command: &'a str,
    pub options_json: &'a str,
    pub what: &'a str,
    pub mode: &'a str,
    /// The characters asked, in order (no repeats).
    pub characters: &'a [CharacterId],
}

/// Stores a request and its characters; returns its id (per guild).
pub fn create(conn: &Conn, guild: GuildId, new: &NewRequest<'_>) -> Result<i64> {
    let id = next_id(conn, "roll_requests", guild)?;
    exec(
        conn,
        "INSERT INTO roll_requests (guild_id, id, gm_user_id, command, options_json, what, mode,
                                    created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            guild,
            id,
            new.gm,
            new.command,
            new.options_json,
            new.what,
            new.mode,
            now()
        ],
    )?;
    for (position, character) in new.characters.iter().enumerate() {
        exec(
            conn,
            "INSERT INTO roll_request_characters (guild_id, request_id, character_id, position)
             VALUES (?1, ?2, ?3, ?4)",
            params![guild, id, character, position as i64],
        )?;
    }
    Ok(id)
}

/// The request `id` of the guild.
pub fn get(conn: &Conn, guild: GuildId, id: i64) -> Result<Option<RequestRow>> {
    query_opt(
        conn,
        "SELECT id, gm_user_id, command, options_json, what, mode, closed_at IS NOT NULL
         FROM roll_requests WHERE guild_id = ?1 AND id = ?2",
        params![guild, id],
        |r| {
            Ok(RequestRow {
                id: r.get(0)?,
                gm: r.get(1)?,
                command: r.get(2)?,
                options_json: r.get(3)?,
                what: r.get(4)?,
                mode: r.get(5)?,
                closed: r.get(6)?,
            })
        },
    )
}

/// The request's characters, in the order named, with their names as they are now.
pub fn entries(conn: &Conn, guild: GuildId, id: i64) -> Result<Vec<EntryRow>> {
    let rows = query_map(
        conn,
        "SELECT e.character_id, c.name, e.rolled_by
         FROM roll_request_characters e
         JOIN characters c ON c.guild_id = e.guild_id AND c.id = e.character_id
         WHERE e.guild_id = ?1 AND e.request_id = ?2 AND c.deleted_at IS NULL
         ORDER BY e.position",
        params![guild, id],
        |r| {
            Ok(EntryRow {
                character: r.get(0)?,
                name: r.get(1)?,
                rolled_by: r.get(2)?,
            })
        },
    )?;
    Ok(rows)
}

/// Marks `character` as rolled by `user`, if it is named in the open request `id` and has not
/// rolled yet. `false` when it had already rolled, the request is closed, or it is not named.
/// Run it in the write that decides the press: only one press can ever see `true`.
pub fn claim(
    conn: &Conn,
    guild: GuildId,
    id: i64,
    character: CharacterId,
    user: UserId,
) -> Result<bool> {
    let changed = exec(
        conn,
        "UPDATE roll_request_characters SET rolled_by = ?4, rolled_at = ?5
         WHERE guild_id = ?1 AND request_id = ?2 AND character_id = ?3 AND rolled_by IS NULL
           AND EXISTS (SELECT 1 FROM roll_requests q
                       WHERE q.guild_id = ?1 AND q.id = ?2 AND q.closed_at IS NULL)",
        params![guild, id, character, user, now()],
    )?;
    Ok(changed == 1)
}

/// Undoes a [`claim`] by `user` whose roll was refused, so the character can press again.
pub fn release(
    conn: &Conn,
    guild: GuildId,
    id: i64,
    character: CharacterId,
    user: UserId,
) -> Result<()> {
    exec(
        conn,
        "UPDATE roll_request_characters SET rolled_by = NULL, rolled_at = NULL
         WHERE guild_id = ?1 AND request_id = ?2 AND character_id = ?3 AND rolled_by = ?4",
        params![guild, id, character, user],
    )?;
    Ok(())
}

/// Closes the request; `false` when it was already closed (or does not exist).
pub fn close(conn: &Conn, guild: GuildId, id: i64) -> Result<bool> {
    let changed = exec(
        conn,
        "UPDATE roll_requests SET closed_at = ?3
         WHERE guild_id = ?1 AND id = ?2 AND closed_at IS NULL",
        params![guild, id, now()],
    )?;
    Ok(changed == 1)
}
