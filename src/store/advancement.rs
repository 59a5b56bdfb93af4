//! Advancement between adventures: a THIZ character's unspent skill points and the piece of work
//! they are crafting (`migrations/03-advancement`).
//!
//! Nothing here is hidden; the `app` layer decides who may act. The craft is kept as JSON whose
//! shape belongs to `app`. A character without a row has no points and no work under way.

use super::{CharacterId, Conn, GuildId, Result, exec, now, params, query_opt};

/// What `/advance` keeps for one character.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Advancement {
    pub skill_points: i64,
    pub craft_json: Option<String>,
}

/// The character's advancement row, or the empty one.
pub fn get(conn: &Conn, guild: GuildId, id: CharacterId) -> Result<Advancement> {
    Ok(query_opt(
        conn,
        "SELECT skill_points, craft_json FROM advancement WHERE guild_id = ?1 AND character_id = ?2",
        params![guild, id],
        |r| {
            Ok(Advancement {
                skill_points: r.get(0)?,
                craft_json: r.get(1)?,
            })
        },
    )?
    .unwrap_or_default())
}

/// Writes the character's advancement row whole.
pub fn put(conn: &Conn, guild: GuildId, id: CharacterId, a: &Advancement) -> Result<()> {
    exec(
        conn,
        "INSERT INTO advancement (guild_id, character_id, skill_points, craft_json, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (guild_id, character_id) DO UPDATE SET skill_points = excluded.skill_points,
         craft_json = excluded.craft_json, updated_at = excluded.updated_at",
        params![guild, id, a.skill_points, a.craft_json, now()],
    )?;
    Ok(())
}
