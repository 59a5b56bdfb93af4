//! Encounters: one combat tracker per channel (`migrations/04-encounter`), the NPC copies an
//! encounter made, and the status message the bot keeps up to date.
//!
//! The tracker's state is a JSON document owned by `app::encounter`; this module stores it with
//! a version that every change moves on by one. [`save`] is conditional on the version the
//! caller read, so two presses of "next turn" on the same turn change the encounter once.
//! Call it inside [`super::Store::write`] (`BEGIN IMMEDIATE`). Nothing here is hidden: the app
//! decides what of the state a player sees.

use super::characters::name_key;
use super::guilds::System;
use super::{
    CharacterId, Conn, GuildId, Result, Row, StoreError, UserId, exec, next_above, next_id, now,
    params, query_map, query_opt, query_row, raise_counter,
};

/// The counter (`id_counters`) of the versions a guild's encounters have reached.
const VERSIONS: &str = "encounter_version";

/// Deletes the channel's ended encounter, if any, once the guild's counter has noted the version
/// it reached (so no later encounter starts at or below it).
fn delete_ended(conn: &Conn, guild: GuildId, channel: u64) -> Result<()> {
    let reached: Option<i64> = query_opt(
        conn,
        "SELECT version FROM encounters WHERE guild_id = ?1 AND channel_id = ?2 AND ended = 1",
        params![guild, channel as i64],
        |r| r.get(0),
    )?;
    if let Some(version) = reached {
        raise_counter(conn, guild, VERSIONS, version)?;
        exec(
            conn,
            "DELETE FROM encounters WHERE guild_id = ?1 AND channel_id = ?2 AND ended = 1",
            params![guild, channel as i64],
        )?;
    }
    Ok(())
}

/// One channel's encounter row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncounterRow {
    pub guild_id: GuildId,
    pub channel_id: u64,
    pub system: System,
    pub state_json: String,
    pub version: i64,
    pub ended: bool,
    pub status_message_id: Option<u64>,
    pub status_shown: Option<String>,
    pub created_by: UserId,
}

const COLUMNS: &str = "guild_id, channel_id, system, state_json, version, ended, \
                       status_message_id, status_shown, created_by";

fn from_row(r: &Row<'_>) -> Result<(EncounterRow, String)> {
    let system: String = r.get(2)?;
    Ok((
        EncounterRow {
            guild_id: r.get(0)?,
            channel_id: r.get::<i64>(1)? as u64,
            system: System::Thiz,
            state_json: r.get(3)?,
            version: r.get(4)?,
            ended: r.get(5)?,
            status_message_id: r.get::<Option<i64>>(6)?.map(|v| v as u64),
            status_shown: r.get(7)?,
            created_by: r.get(8)?,
        },
        system,
    ))
}

fn finish((mut row, system): (EncounterRow, String)) -> Result<EncounterRow> {
    row.system = System::parse(&system)
        .ok_or_else(|| StoreError::Corrupt(format!("encounter system {system:?}")))?;
    Ok(row)
}

/// The channel's encounter, ended or not.
pub fn get(conn: &Conn, guild: GuildId, channel: u64) -> Result<Option<EncounterRow>> {
    let sql = format!("SELECT {COLUMNS} FROM encounters WHERE guild_id = ?1 AND channel_id = ?2");
    query_opt(conn, &sql, params![guild, channel as i64], from_row)?
        .map(finish)
        .transpose()
}

/// The channel of every encounter row, ended or not, in every guild: the channels whose status
/// message may need bringing up to date.
pub fn channels(conn: &Conn) -> Result<Vec<(GuildId, u64)>> {
    query_map(
        conn,
        "SELECT guild_id, channel_id FROM encounters",
        params![],
        |r| Ok((r.get(0)?, r.get::<i64>(1)?.cast_unsigned())),
    )
}

/// Every encounter of the guild still under way (for "which encounter is this character in").
pub fn active(conn: &Conn, guild: GuildId) -> Result<Vec<EncounterRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM encounters WHERE guild_id = ?1 AND ended = 0 ORDER BY channel_id"
    );
    let rows = query_map(conn, &sql, params![guild], from_row)?;
    rows.into_iter().map(finish).collect()
}

/// Starts an encounter in the channel at version 1, replacing an ended one (whose NPC copies
/// the caller removed first). `false` when one is already under way there.
pub fn create(
    conn: &Conn,
    guild: GuildId,
    channel: u64,
    system: System,
    state_json: &str,
    by: UserId,
) -> Result<bool> {
    delete_ended(conn, guild, channel)?;
    if get(conn, guild, channel)?.is_some() {
        return Ok(false);
    }
    // The first version is above every version any encounter of the guild has reached (those
    // still here, and those deleted, which the counter remembers): a status button of an
    // earlier fight never names this one's.
    let reached: i64 = query_row(
        conn,
        "SELECT COALESCE(MAX(version), 0) FROM encounters WHERE guild_id = ?1",
        params![guild],
        |r| r.get(0),
    )?;
    let first = next_above(conn, guild, VERSIONS, reached)?;
    let t = now();
    let inserted = exec(
        conn,
        "INSERT INTO encounters (guild_id, channel_id, system, state_json, version, created_by,
                                 created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?7, ?5, ?6, ?6)
         ON CONFLICT (guild_id, channel_id) DO NOTHING",
        params![
            guild,
            channel as i64,
            system.as_str(),
            state_json,
            by,
            t,
            first
        ],
    )?;
    Ok(inserted == 1)
}

/// Writes the new state if the encounter is still at `version` (and under way), moving the
/// version on by one; returns the new version, or `None` when someone changed it first.
pub fn save(
    conn: &Conn,
    guild: GuildId,
    channel: u64,
    version: i64,
    state_json: &str,
) -> Result<Option<i64>> {
    query_opt(
        conn,
        "UPDATE encounters SET state_json = ?4, version = version + 1, updated_at = ?5
         WHERE guild_id = ?1 AND channel_id = ?2 AND version = ?3 AND ended = 0
         RETURNING version",
        params![guild, channel as i64, version, state_json, now()],
        |r| r.get(0),
    )
}

/// Ends the encounter at `version`: it stays, ended, until its status message has shown the end.
/// `false` when someone changed it first.
pub fn end(conn: &Conn, guild: GuildId, channel: u64, version: i64) -> Result<bool> {
    Ok(exec(
        conn,
        "UPDATE encounters SET ended = 1, version = version + 1, updated_at = ?4
         WHERE guild_id = ?1 AND channel_id = ?2 AND version = ?3 AND ended = 0",
        params![guild, channel as i64, version, now()],
    )? == 1)
}

/// Forgets an ended encounter (its status message shows the end now).
pub fn forget_ended(conn: &Conn, guild: GuildId, channel: u64) -> Result<()> {
    delete_ended(conn, guild, channel)
}

/// Remembers the status message posted for the encounter and what it showed.
pub fn set_status(
    conn: &Conn,
    guild: GuildId,
    channel: u64,
    message_id: u64,
    shown: &str,
) -> Result<()> {
    exec(
        conn,
        "UPDATE encounters SET status_message_id = ?3, status_shown = ?4
         WHERE guild_id = ?1 AND channel_id = ?2",
        params![guild, channel as i64, message_id as i64, shown],
    )?;
    Ok(())
}

/// Records that the encounter made `character` (an NPC copy).
pub fn add_spawned(
    conn: &Conn,
    guild: GuildId,
    channel: u64,
    character: CharacterId,
) -> Result<()> {
    exec(
        conn,
        "INSERT INTO encounter_spawned (guild_id, channel_id, character_id)
         VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
        params![guild, channel as i64, character],
    )?;
    Ok(())
}

/// The NPC copies the encounter made.
pub fn spawned(conn: &Conn, guild: GuildId, channel: u64) -> Result<Vec<CharacterId>> {
    let rows = query_map(
        conn,
        "SELECT character_id FROM encounter_spawned WHERE guild_id = ?1 AND channel_id = ?2
         ORDER BY character_id",
        params![guild, channel as i64],
        |r| r.get(0),
    )?;
    Ok(rows)
}

/// Forgets which characters the encounter made (they stay, as ordinary NPCs).
pub fn clear_spawned(conn: &Conn, guild: GuildId, channel: u64) -> Result<()> {
    exec(
        conn,
        "DELETE FROM encounter_spawned WHERE guild_id = ?1 AND channel_id = ?2",
        params![guild, channel as i64],
    )?;
    Ok(())
}

/// Copies the character `from` as a new NPC named `name`: its sheet, skills, gear, hidden
/// values and luck, but no wounds, hits or conditions (a fresh figure of the same kind).
/// `Ok(None)` when the name is taken.
pub fn copy_character(
    conn: &Conn,
    guild: GuildId,
    from: CharacterId,
    name: &str,
) -> Result<Option<CharacterId>> {
    let id = next_id(conn, "characters", guild)?;
    let t = now();
    let inserted = exec(
        conn,
        "INSERT INTO characters (guild_id, id, name, name_key, system, owner_id, npc, sheet_json,
                                 created_at, updated_at, last_used_at)
         SELECT guild_id, ?3, ?4, ?5, system, owner_id, 1, sheet_json, ?6, ?6, ?6
         FROM characters WHERE guild_id = ?1 AND id = ?2 AND deleted_at IS NULL
         ON CONFLICT (guild_id, name_key) DO NOTHING",
        params![guild, from, id, name.trim(), name_key(name), t],
    )?;
    if inserted != 1 {
        return Ok(None);
    }
    for sql in [
        "INSERT INTO skills (guild_id, character_id, skill, skill_key, rating)
         SELECT guild_id, ?3, skill, skill_key, rating FROM skills
         WHERE guild_id = ?1 AND character_id = ?2",
        "INSERT INTO equipment (guild_id, character_id, id, kind, name, stats_json)
         SELECT guild_id, ?3, id, kind, name, stats_json FROM equipment
         WHERE guild_id = ?1 AND character_id = ?2",
        "INSERT INTO hidden_values (guild_id, character_id, key, value, updated_at)
         SELECT guild_id, ?3, key, value, updated_at FROM hidden_values
         WHERE guild_id = ?1 AND character_id = ?2",
        "INSERT INTO luck (guild_id, character_id, points)
         SELECT guild_id, ?3, points FROM luck WHERE guild_id = ?1 AND character_id = ?2",
        // The GM's notes on the sheet go with it (issue 31): a copy is the same creature.
        "INSERT INTO gm_notes (guild_id, character_id, id, author_id, text, created_at)
         SELECT guild_id, ?3, id, author_id, text, created_at FROM gm_notes
         WHERE guild_id = ?1 AND character_id = ?2",
    ] {
        exec(conn, sql, params![guild, from, id])?;
    }
    Ok(Some(CharacterId(id)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::characters::{self, NewCharacter};

    const G: GuildId = GuildId(7);

    #[test]
    fn save_is_keyed_on_the_version() {
        for t in crate::store::testdb::backends() {
            let s = &t.store;
            s.write(|c| {
                assert!(create(c, G, 5, System::Thiz, "{}", UserId(1))?);
                // A second start in the same channel is refused while the first is under way.
                assert!(!create(c, G, 5, System::Tft, "{}", UserId(1))?);
                assert_eq!(save(c, G, 5, 1, "{\"a\":1}")?, Some(2));
                // The same version again: someone moved it on first.
                assert_eq!(save(c, G, 5, 1, "{\"a\":2}")?, None);
                let row = get(c, G, 5)?.unwrap();
                assert_eq!((row.version, row.state_json.as_str()), (2, "{\"a\":1}"));
                assert!(!end(c, G, 5, 1)?);
                assert!(end(c, G, 5, 2)?);
                assert!(get(c, G, 5)?.unwrap().ended);
                assert_eq!(
                    save(c, G, 5, 3, "{}")?,
                    None,
                    "an ended encounter is not saved"
                );
                assert!(active(c, G)?.is_empty());
                // A new start replaces the ended one.
                assert!(create(c, G, 5, System::Tft, "{}", UserId(1))?);
                assert_eq!(get(c, G, 5)?.unwrap().system, System::Tft);
                assert_eq!(get(c, GuildId(8), 5)?, None, "guilds are apart");
                Ok::<_, StoreError>(())
            })
            .unwrap();
        }
    }

    #[test]
    fn copies_carry_the_sheet_and_notes_but_not_the_wounds() {
        for t in crate::store::testdb::backends() {
            let s = &t.store;
            s.write(|c| {
                let new = NewCharacter {
                    name: "Goblin",
                    system: System::Thiz,
                    owner_id: UserId(1),
                    npc: true,
                    sheet_json: "{\"notes\":\"x\"}",
                };
                let from = characters::create(c, G, &new)?.unwrap();
                characters::set_skill(c, G, from, "Speed", 3)?;
                characters::set_wounds(
                    c,
                    G,
                    from,
                    &[characters::WoundRow {
                        location: "chest".into(),
                        level: "red".into(),
                        count: 1,
                    }],
                )?;
                let gm = crate::store::secrets::GmProof::verified(G);
                crate::store::secrets::add_note(c, gm, from, UserId(1), "fears fire")?;
                let copy = copy_character(c, G, from, "Goblin 1")?.unwrap();
                assert_eq!(copy_character(c, G, from, "goblin 1")?, None);
                assert_eq!(
                    crate::store::secrets::notes(c, gm, copy)?,
                    ["fears fire"],
                    "the GM's notes go with the copy"
                );
                let got = characters::by_id(c, G, copy)?.unwrap();
                assert!(got.npc);
                assert_eq!(got.sheet_json, "{\"notes\":\"x\"}");
                assert_eq!(characters::skills(c, G, copy)?.len(), 1);
                assert!(characters::wounds(c, G, copy)?.is_empty());
                assert!(create(c, G, 9, System::Thiz, "{}", UserId(1))?);
                add_spawned(c, G, 9, copy)?;
                assert_eq!(spawned(c, G, 9)?, vec![copy]);
                Ok::<_, StoreError>(())
            })
            .unwrap();
        }
    }
}
