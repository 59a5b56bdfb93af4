//! Characters and their public parts: sheet, skills, equipment, wounds, TFT hits.
//!
//! Nothing here is hidden, but NPC rows are: the `app` layer decides who may read an NPC.

use super::guilds::System;
use super::{
    CharacterId, Conn, GuildId, Result, Row, StoreError, UserId, exec, next_id, now, params,
    query_map, query_opt, query_row,
};

/// A character row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Character {
    pub guild_id: GuildId,
    pub id: CharacterId,
    pub name: String,
    pub system: System,
    pub owner_id: UserId,
    pub npc: bool,
    /// The public sheet as JSON (its shape belongs to `app`).
    pub sheet_json: String,
    pub created_at: i64,
    pub updated_at: i64,
}

/// The key a name is unique and looked up by: trimmed, in Unicode's compatibility form (NFKC:
/// full-width "Ｚｏｅ" is "zoe"), lowercase. Names are stored in that form already (the `app`
/// layer's name check), so this only folds case and what a user typed to find one.
pub fn name_key(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization as _;
    name.trim().nfkc().collect::<String>().to_lowercase()
}

/// The `name_key` a deleted character's row holds while it is kept: no name folds to it (names
/// cannot hold control characters), so its name is free and no lookup by name finds it.
fn deleted_key(id: CharacterId) -> String {
    format!("\u{1}deleted {}", id.0)
}

/// How long a deleted character is kept for a GM to restore, in seconds (30 days).
pub const KEPT_FOR_SECS: i64 = 30 * 24 * 60 * 60;

const COLUMNS: &str =
    "guild_id, id, name, system, owner_id, npc, sheet_json, created_at, updated_at";

fn from_row(r: &Row<'_>) -> Result<(Character, String)> {
    let system: String = r.get(3)?;
    Ok((
        Character {
            guild_id: r.get(0)?,
            id: r.get(1)?,
            name: r.get(2)?,
            system: System::Thiz,
            owner_id: r.get(4)?,
            npc: r.get(5)?,
            sheet_json: r.get(6)?,
            created_at: r.get(7)?,
            updated_at: r.get(8)?,
        },
        system,
    ))
}

fn finish((mut c, system): (Character, String)) -> Result<Character> {
    c.system = System::parse(&system)
        .ok_or_else(|| StoreError::Corrupt(format!("character system {system:?}")))?;
    Ok(c)
}

/// A new character, for [`create`].
#[derive(Debug, Clone)]
pub struct NewCharacter<'a> {
    pub name: &'a str,
    pub system: System,
    pub owner_id: UserId,
    pub npc: bool,
    pub sheet_json: &'a str,
}

/// Creates a character; `Ok(None)` when the guild already has one of that name (ignoring case).
pub fn create(conn: &Conn, guild: GuildId, new: &NewCharacter<'_>) -> Result<Option<CharacterId>> {
    let id = next_id(conn, "characters", guild)?;
    let t = now();
    let inserted = exec(
        conn,
        "INSERT INTO characters (guild_id, id, name, name_key, system, owner_id, npc, sheet_json,
                                 created_at, updated_at, last_used_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?9)
         ON CONFLICT (guild_id, name_key) DO NOTHING",
        params![
            guild,
            id,
            new.name.trim(),
            name_key(new.name),
            new.system.as_str(),
            new.owner_id,
            new.npc,
            new.sheet_json,
            t
        ],
    )?;
    Ok((inserted == 1).then_some(CharacterId(id)))
}

/// Finds a character of the guild by name, ignoring case.
pub fn by_name(conn: &Conn, guild: GuildId, name: &str) -> Result<Option<Character>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM characters WHERE guild_id = ?1 AND deleted_at IS NULL AND name_key = ?2"
    );
    query_opt(conn, &sql, params![guild, name_key(name)], from_row)?
        .map(finish)
        .transpose()
}

/// Finds a character of the guild by id.
pub fn by_id(conn: &Conn, guild: GuildId, id: CharacterId) -> Result<Option<Character>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM characters WHERE guild_id = ?1 AND deleted_at IS NULL AND id = ?2"
    );
    query_opt(conn, &sql, params![guild, id], from_row)?
        .map(finish)
        .transpose()
}

/// Every character of the guild, by name. The `app` layer filters what a caller may see.
pub fn all(conn: &Conn, guild: GuildId) -> Result<Vec<Character>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM characters WHERE guild_id = ?1 AND deleted_at IS NULL ORDER BY name_key"
    );
    let rows = query_map(conn, &sql, params![guild], from_row)?;
    rows.into_iter().map(finish).collect()
}

/// The owner's characters, most recently used first (NPCs excluded).
pub fn owned_by(conn: &Conn, guild: GuildId, owner: UserId) -> Result<Vec<Character>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM characters WHERE guild_id = ?1 AND owner_id = ?2 AND npc = 0
           AND deleted_at IS NULL
         ORDER BY last_used_at DESC, id DESC"
    );
    let rows = query_map(conn, &sql, params![guild, owner], from_row)?;
    rows.into_iter().map(finish).collect()
}

/// The character `user` chose to act with in `system` (`/character use`, `migrations/13`), if
/// it still exists.
pub fn active(
    conn: &Conn,
    guild: GuildId,
    user: UserId,
    system: System,
) -> Result<Option<Character>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM characters
         WHERE guild_id = ?1 AND deleted_at IS NULL AND id = (
             SELECT character_id FROM active_characters
             WHERE guild_id = ?1 AND user_id = ?2 AND system = ?3)"
    );
    query_opt(conn, &sql, params![guild, user, system.as_str()], from_row)?
        .map(finish)
        .transpose()
}

/// The character `user` chose last with `/character use`, of any system, if it still exists
/// (of two chosen in the same second, the later row).
pub fn latest_active(conn: &Conn, guild: GuildId, user: UserId) -> Result<Option<Character>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM characters
         WHERE guild_id = ?1 AND deleted_at IS NULL AND id = (
             SELECT a.character_id FROM active_characters a
             JOIN characters c ON c.guild_id = a.guild_id AND c.id = a.character_id
             WHERE a.guild_id = ?1 AND a.user_id = ?2 AND c.deleted_at IS NULL
             ORDER BY a.set_at DESC, a.character_id DESC LIMIT 1)"
    );
    query_opt(conn, &sql, params![guild, user], from_row)?
        .map(finish)
        .transpose()
}

/// Makes `id` the character `user` acts with in `system`, replacing the one before.
pub fn set_active(
    conn: &Conn,
    guild: GuildId,
    user: UserId,
    system: System,
    id: CharacterId,
) -> Result<()> {
    exec(
        conn,
        "INSERT INTO active_characters (guild_id, user_id, system, character_id, set_at)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (guild_id, user_id, system) DO UPDATE SET
             character_id = excluded.character_id, set_at = excluded.set_at",
        params![guild, user, system.as_str(), id, now()],
    )?;
    Ok(())
}

/// The owner's most recently used character (NPCs excluded): the first of [`owned_by`], without
/// reading the others.
pub fn last_used(conn: &Conn, guild: GuildId, owner: UserId) -> Result<Option<Character>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM characters WHERE guild_id = ?1 AND owner_id = ?2 AND npc = 0
           AND deleted_at IS NULL
         ORDER BY last_used_at DESC, id DESC LIMIT 1"
    );
    query_opt(conn, &sql, params![guild, owner], from_row)?
        .map(finish)
        .transpose()
}

/// Marks a character as just used (the default for commands that omit `character`). A touch
/// within the same second as the last changes nothing and writes nothing: `last_used_at` is in
/// an index, and rewriting its entry cost every check two pages written to disk (`bot_load`).
pub fn touch(conn: &Conn, guild: GuildId, id: CharacterId) -> Result<()> {
    touch_at(conn, guild, id, now())?;
    Ok(())
}

/// [`touch`] at time `at` (seconds); whether it changed the row.
fn touch_at(conn: &Conn, guild: GuildId, id: CharacterId, at: i64) -> Result<bool> {
    let changed = exec(
        conn,
        "UPDATE characters SET last_used_at = ?3
         WHERE guild_id = ?1 AND id = ?2 AND last_used_at <> ?3",
        params![guild, id, at],
    )?;
    Ok(changed > 0)
}

/// Replaces the public sheet JSON.
pub fn set_sheet(conn: &Conn, guild: GuildId, id: CharacterId, sheet_json: &str) -> Result<()> {
    exec(
        conn,
        "UPDATE characters SET sheet_json = ?3, updated_at = ?4 WHERE guild_id = ?1 AND id = ?2",
        params![guild, id, sheet_json, now()],
    )?;
    Ok(())
}

/// Deletes a character for good, with everything that hangs off it (skills, gear, wounds,
/// secrets). Users' deletes go through [`soft_delete`]; this is for tests and the purge.
pub fn delete(conn: &Conn, guild: GuildId, id: CharacterId) -> Result<bool> {
    Ok(exec(
        conn,
        "DELETE FROM characters WHERE guild_id = ?1 AND id = ?2",
        params![guild, id],
    )? == 1)
}

/// Deletes a character the way a user's delete does: kept for [`KEPT_FOR_SECS`] for a GM to
/// restore, its name freed, found by no lookup. Whether it was there (and not deleted) to delete.
/// Characters deleted longer ago than the keeping time go for good first.
pub fn soft_delete(conn: &Conn, guild: GuildId, id: CharacterId, by: UserId) -> Result<bool> {
    let t = now();
    exec(
        conn,
        "DELETE FROM characters WHERE guild_id = ?1 AND deleted_at IS NOT NULL AND deleted_at < ?2",
        params![guild, t - KEPT_FOR_SECS],
    )?;
    Ok(exec(
        conn,
        "UPDATE characters SET deleted_at = ?3, deleted_by = ?4, name_key = ?5, updated_at = ?3
         WHERE guild_id = ?1 AND id = ?2 AND deleted_at IS NULL",
        params![guild, id, t, by, deleted_key(id)],
    )? == 1)
}

/// A deleted character still kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deleted {
    pub character: Character,
    pub deleted_at: i64,
    pub deleted_by: UserId,
}

/// The guild's deleted characters still kept, newest deletion first.
pub fn deleted(conn: &Conn, guild: GuildId) -> Result<Vec<Deleted>> {
    let sql = format!(
        "SELECT {COLUMNS}, deleted_at, deleted_by FROM characters
         WHERE guild_id = ?1 AND deleted_at IS NOT NULL AND deleted_at >= ?2
         ORDER BY deleted_at DESC, id DESC"
    );
    let rows = query_map(conn, &sql, params![guild, now() - KEPT_FOR_SECS], |r| {
        Ok((from_row(r)?, r.get::<i64>(9)?, r.get::<UserId>(10)?))
    })?;
    rows.into_iter()
        .map(|(c, deleted_at, deleted_by)| {
            Ok(Deleted {
                character: finish(c)?,
                deleted_at,
                deleted_by,
            })
        })
        .collect()
}

/// Brings a deleted character back under its name (or `as_name`, a name the caller checked):
/// `Ok(false)` when a character of that name is here now (or it is no longer kept).
pub fn restore(
    conn: &Conn,
    guild: GuildId,
    id: CharacterId,
    as_name: Option<&str>,
) -> Result<bool> {
    let Some(old) = query_opt(
        conn,
        "SELECT name FROM characters WHERE guild_id = ?1 AND id = ?2 AND deleted_at >= ?3",
        params![guild, id, now() - KEPT_FOR_SECS],
        |r| r.get::<String>(0),
    )?
    else {
        return Ok(false);
    };
    let name = as_name.map_or(old, |n| n.trim().to_owned());
    let key = name_key(&name);
    if query_opt(
        conn,
        "SELECT id FROM characters WHERE guild_id = ?1 AND name_key = ?2",
        params![guild, key],
        |r| r.get::<i64>(0),
    )?
    .is_some()
    {
        return Ok(false);
    }
    Ok(exec(
        conn,
        "UPDATE characters SET deleted_at = NULL, deleted_by = NULL, name = ?5, name_key = ?3,
                               updated_at = ?4
         WHERE guild_id = ?1 AND id = ?2 AND deleted_at IS NOT NULL",
        params![guild, id, key, now(), name],
    )? == 1)
}

/// A skill and its rating.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillRow {
    pub skill: String,
    pub rating: i64,
}

/// Sets a skill's rating (0 removes it).
pub fn set_skill(
    conn: &Conn,
    guild: GuildId,
    id: CharacterId,
    skill: &str,
    rating: i64,
) -> Result<()> {
    if rating == 0 {
        exec(
            conn,
            "DELETE FROM skills WHERE guild_id = ?1 AND character_id = ?2 AND skill_key = ?3",
            params![guild, id, name_key(skill)],
        )?;
    } else {
        exec(conn,
            "INSERT INTO skills (guild_id, character_id, skill, skill_key, rating) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (guild_id, character_id, skill_key) DO UPDATE SET skill = excluded.skill, rating = excluded.rating",
            params![guild, id, skill.trim(), name_key(skill), rating],
        )?;
    }
    Ok(())
}

/// The character's skills, by name.
pub fn skills(conn: &Conn, guild: GuildId, id: CharacterId) -> Result<Vec<SkillRow>> {
    let rows = query_map(
        conn,
        "SELECT skill, rating FROM skills WHERE guild_id = ?1 AND character_id = ?2 ORDER BY skill_key",
        params![guild, id],
        |r| {
            Ok(SkillRow {
                skill: r.get(0)?,
                rating: r.get(1)?,
            })
        },
    )?;
    Ok(rows)
}

/// A piece of equipment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub id: i64,
    pub kind: String,
    pub name: String,
    pub stats_json: String,
}

/// Adds an item and returns its id.
pub fn add_item(
    conn: &Conn,
    guild: GuildId,
    id: CharacterId,
    kind: &str,
    name: &str,
    stats_json: &str,
) -> Result<i64> {
    let item: i64 = query_row(
        conn,
        "SELECT COALESCE(MAX(id), 0) + 1 FROM equipment WHERE guild_id = ?1 AND character_id = ?2",
        params![guild, id],
        |r| r.get(0),
    )?;
    exec(
        conn,
        "INSERT INTO equipment (guild_id, character_id, id, kind, name, stats_json) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![guild, id, item, kind, name.trim(), stats_json],
    )?;
    Ok(item)
}

/// Replaces one item's stats (a sundered shield's lower bonus); true if the item exists.
pub fn set_item_stats(
    conn: &Conn,
    guild: GuildId,
    id: CharacterId,
    item: i64,
    stats_json: &str,
) -> Result<bool> {
    Ok(exec(
        conn,
        "UPDATE equipment SET stats_json = ?4 WHERE guild_id = ?1 AND character_id = ?2 AND id = ?3",
        params![guild, id, item, stats_json],
    )? == 1)
}

/// Removes an item by name (ignoring case); true if one was removed.
pub fn remove_item(conn: &Conn, guild: GuildId, id: CharacterId, name: &str) -> Result<bool> {
    Ok(exec(conn,
        "DELETE FROM equipment WHERE guild_id = ?1 AND character_id = ?2 AND id =
           (SELECT id FROM equipment WHERE guild_id = ?1 AND character_id = ?2 AND lower(name) = ?3 LIMIT 1)",
        params![guild, id, name_key(name)],
    )? == 1)
}

/// The character's equipment, in the order added.
pub fn items(conn: &Conn, guild: GuildId, id: CharacterId) -> Result<Vec<Item>> {
    let rows = query_map(
        conn,
        "SELECT id, kind, name, stats_json FROM equipment WHERE guild_id = ?1 AND character_id = ?2 ORDER BY id",
        params![guild, id],
        |r| {
            Ok(Item {
                id: r.get(0)?,
                kind: r.get(1)?,
                name: r.get(2)?,
                stats_json: r.get(3)?,
            })
        },
    )?;
    Ok(rows)
}

/// One (location, colour, count) entry of a THIZ wound sheet; names are the app's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WoundRow {
    pub location: String,
    pub level: String,
    pub count: i64,
}

/// The character's wounds.
pub fn wounds(conn: &Conn, guild: GuildId, id: CharacterId) -> Result<Vec<WoundRow>> {
    let rows = query_map(
        conn,
        "SELECT location, level, count FROM wounds WHERE guild_id = ?1 AND character_id = ?2 ORDER BY location, level",
        params![guild, id],
        |r| {
            Ok(WoundRow {
                location: r.get(0)?,
                level: r.get(1)?,
                count: r.get(2)?,
            })
        },
    )?;
    Ok(rows)
}

/// Replaces the character's whole wound sheet (inside the caller's write transaction).
pub fn set_wounds(conn: &Conn, guild: GuildId, id: CharacterId, rows: &[WoundRow]) -> Result<()> {
    exec(
        conn,
        "DELETE FROM wounds WHERE guild_id = ?1 AND character_id = ?2",
        params![guild, id],
    )?;
    for w in rows.iter().filter(|w| w.count > 0) {
        exec(
            conn,
            "INSERT INTO wounds (guild_id, character_id, location, level, count) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![guild, id, w.location, w.level, w.count],
        )?;
    }
    Ok(())
}

/// TFT hits taken and fatigue.
pub fn tft_damage(conn: &Conn, guild: GuildId, id: CharacterId) -> Result<(i64, i64)> {
    Ok(query_opt(
        conn,
        "SELECT hits, fatigue FROM tft_damage WHERE guild_id = ?1 AND character_id = ?2",
        params![guild, id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?
    .unwrap_or((0, 0)))
}

/// Sets TFT hits taken and fatigue.
pub fn set_tft_damage(
    conn: &Conn,
    guild: GuildId,
    id: CharacterId,
    hits: i64,
    fatigue: i64,
) -> Result<()> {
    exec(conn,
        "INSERT INTO tft_damage (guild_id, character_id, hits, fatigue) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (guild_id, character_id) DO UPDATE SET hits = excluded.hits, fatigue = excluded.fatigue",
        params![guild, id, hits, fatigue],
    )?;
    Ok(())
}

/// Records a GM's approval of a character's sheet (or takes it back: `by` = `None`).
pub fn set_approval(
    conn: &Conn,
    guild: GuildId,
    id: CharacterId,
    by: Option<UserId>,
) -> Result<()> {
    match by {
        Some(by) => exec(
            conn,
            "INSERT INTO character_approvals (guild_id, character_id, approved_by, approved_at)
             VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (guild_id, character_id) DO UPDATE
             SET approved_by = excluded.approved_by, approved_at = excluded.approved_at",
            params![guild, id, by, now()],
        )?,
        None => exec(
            conn,
            "DELETE FROM character_approvals WHERE guild_id = ?1 AND character_id = ?2",
            params![guild, id],
        )?,
    };
    Ok(())
}

/// Who approved the character's sheet, if a GM did.
pub fn approved_by(conn: &Conn, guild: GuildId, id: CharacterId) -> Result<Option<UserId>> {
    query_opt(
        conn,
        "SELECT approved_by FROM character_approvals WHERE guild_id = ?1 AND character_id = ?2",
        params![guild, id],
        |r| r.get(0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A soft delete hides the row from every read and frees the name; a restore brings it back
    /// unless the name is taken; rows past the keeping time go for good at the next delete.
    #[test]
    fn deleted_characters_are_kept_hidden_restorable_and_purged() {
        for t in crate::store::testdb::backends() {
            let store = &t.store;
            let guild = GuildId(7);
            let owner = UserId(10);
            let new = |name| NewCharacter {
                name,
                system: System::Thiz,
                owner_id: owner,
                npc: false,
                sheet_json: "{}",
            };
            store
                .write(|tx| {
                    let ada = create(tx, guild, &new("Ada"))?.expect("fresh");
                    assert!(soft_delete(tx, guild, ada, UserId(3))?);
                    assert!(!soft_delete(tx, guild, ada, UserId(3))?, "once");
                    assert_eq!(by_id(tx, guild, ada)?, None);
                    assert_eq!(by_name(tx, guild, "ada")?, None);
                    assert!(all(tx, guild)?.is_empty());
                    assert!(owned_by(tx, guild, owner)?.is_empty());
                    assert_eq!(last_used(tx, guild, owner)?, None);
                    let kept = deleted(tx, guild)?;
                    assert_eq!(kept.len(), 1);
                    assert_eq!((kept[0].character.id, kept[0].deleted_by), (ada, UserId(3)));
                    // The name is free; while it is taken the old Ada cannot come back.
                    let other = create(tx, guild, &new("ADA"))?.expect("the name is free");
                    assert!(!restore(tx, guild, ada, None)?);
                    assert!(delete(tx, guild, other)?);
                    assert!(restore(tx, guild, ada, None)?);
                    assert_eq!(by_name(tx, guild, "Ada")?.map(|c| c.id), Some(ada));
                    assert!(deleted(tx, guild)?.is_empty());
                    assert!(!restore(tx, guild, ada, None)?, "not deleted now");
                    // Past the keeping time: not listed, not restorable, purged by the next delete.
                    assert!(soft_delete(tx, guild, ada, UserId(3))?);
                    exec(
                        tx,
                        "UPDATE characters SET deleted_at = deleted_at - ?3 WHERE guild_id = ?1 AND id = ?2",
                        params![guild, ada, KEPT_FOR_SECS + 1],
                    )?;
                    assert!(deleted(tx, guild)?.is_empty());
                    assert!(!restore(tx, guild, ada, None)?);
                    let bo = create(tx, guild, &new("Bo"))?.expect("fresh");
                    assert!(soft_delete(tx, guild, bo, owner)?);
                    let rows: i64 = query_row(
                        tx,
                        "SELECT COUNT(*) FROM characters WHERE guild_id = ?1",
                        params![guild],
                        |r| r.get(0),
                    )?;
                    assert_eq!(rows, 1, "Ada is gone for good; Bo is kept");
                    Ok::<_, StoreError>(())
                })
                .expect("write");
        }
    }

    #[test]
    fn last_used_is_the_first_of_owned_by_and_skips_npcs() {
        for t in crate::store::testdb::backends() {
            let store = &t.store;
            let guild = GuildId(7);
            let owner = UserId(10);
            let new = |name, npc| NewCharacter {
                name,
                system: System::Thiz,
                owner_id: owner,
                npc,
                sheet_json: "{}",
            };
            let (found, all) = store
                .write(|tx| {
                    assert_eq!(last_used(tx, guild, owner)?, None);
                    let a = create(tx, guild, &new("Ada", false))?.expect("fresh");
                    create(tx, guild, &new("Bo", false))?.expect("fresh");
                    let npc = create(tx, guild, &new("Grunt", true))?.expect("fresh");
                    // Same second for all: the later id wins the tie, unless used later.
                    exec(
                        tx,
                        "UPDATE characters SET last_used_at = last_used_at + 5 WHERE guild_id = ?1 AND id = ?2",
                        params![guild, a],
                    )?;
                    exec(
                        tx,
                        "UPDATE characters SET last_used_at = last_used_at + 9 WHERE guild_id = ?1 AND id = ?2",
                        params![guild, npc],
                    )?;
                    Ok::<_, StoreError>((last_used(tx, guild, owner)?, owned_by(tx, guild, owner)?))
                })
                .expect("write");
            let found = found.expect("a character");
            assert_eq!(found.name, "Ada");
            assert_eq!(Some(&found), all.first());
            assert_eq!(all.len(), 2, "the NPC is not the owner's to act with");
        }
    }

    #[test]
    fn the_active_character_is_one_per_system_and_a_deleted_one_is_none() {
        for t in crate::store::testdb::backends() {
            let store = &t.store;
            let (guild, other) = (GuildId(7), GuildId(8));
            let owner = UserId(10);
            let new = |name, system| NewCharacter {
                name,
                system,
                owner_id: owner,
                npc: false,
                sheet_json: "{}",
            };
            store
                .write(|tx| {
                    let a = create(tx, guild, &new("Ada", System::Thiz))?.expect("fresh");
                    let b = create(tx, guild, &new("Bo", System::Thiz))?.expect("fresh");
                    let j = create(tx, guild, &new("Jo", System::Tft))?.expect("fresh");
                    assert_eq!(active(tx, guild, owner, System::Thiz)?, None);
                    assert_eq!(latest_active(tx, guild, owner)?, None);
                    set_active(tx, guild, owner, System::Thiz, a)?;
                    set_active(tx, guild, owner, System::Thiz, b)?;
                    set_active(tx, guild, owner, System::Tft, j)?;
                    let name = |c: Option<Character>| c.map(|c| c.name);
                    assert_eq!(
                        name(active(tx, guild, owner, System::Thiz)?).as_deref(),
                        Some("Bo")
                    );
                    assert_eq!(
                        name(active(tx, guild, owner, System::Tft)?).as_deref(),
                        Some("Jo")
                    );
                    assert_eq!(
                        name(latest_active(tx, guild, owner)?).as_deref(),
                        Some("Jo")
                    );
                    assert_eq!(active(tx, other, owner, System::Thiz)?, None, "per guild");
                    assert_eq!(
                        active(tx, guild, UserId(11), System::Thiz)?,
                        None,
                        "per player"
                    );
                    soft_delete(tx, guild, b, owner)?;
                    assert_eq!(active(tx, guild, owner, System::Thiz)?, None, "deleted");
                    Ok::<_, StoreError>(())
                })
                .unwrap_or_else(|e| panic!("{}: {e}", t.name));
        }
    }

    #[test]
    fn a_touch_in_the_same_second_writes_nothing_and_a_later_one_moves_the_default() {
        for t in crate::store::testdb::backends() {
            let store = &t.store;
            let (guild, owner) = (GuildId(7), UserId(10));
            let new = |name| NewCharacter {
                name,
                system: System::Thiz,
                owner_id: owner,
                npc: false,
                sheet_json: "{}",
            };
            let (writes, default) = store
                .write(|tx| {
                    let ada = create(tx, guild, &new("Ada"))?.expect("fresh");
                    let bo = create(tx, guild, &new("Bo"))?.expect("fresh");
                    let later = now() + 100;
                    let writes = [
                        touch_at(tx, guild, ada, later)?,
                        touch_at(tx, guild, ada, later)?,
                        touch_at(tx, guild, bo, later - 1)?,
                    ];
                    Ok::<_, StoreError>((writes, last_used(tx, guild, owner)?))
                })
                .expect("write");
            assert_eq!(writes, [true, false, true], "{}", t.name);
            assert_eq!(default.expect("a character").name, "Ada", "{}", t.name);
        }
    }
}
