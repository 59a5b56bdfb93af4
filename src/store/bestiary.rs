//! The bestiary (`migrations/14-bestiary`): a guild's NPC templates, each a whole NPC sheet kept
//! under a name for `/encounter add npc:<name>` to copy.
//!
//! Owns the one table and its key: a template is found by its guild and the key of its name,
//! which `app` computes (the name's confusable key). The template itself is JSON whose shape
//! belongs to `app` (`app::characters::bestiary`). Every row is hidden (an NPC's numbers): only
//! `app`, for a verified GM, reads it. Never checks a name and never counts against a limit:
//! `app` does, in the same write as the [`put`] (see [`count`]).

use super::guilds::System;
use super::{Conn, GuildId, Result, StoreError, UserId, exec, now, params, query_map, query_opt};
use super::{Row, query_row};

/// A template, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateRow {
    /// The name as saved.
    pub name: String,
    /// The key it is found by (`app`'s).
    pub key: String,
    pub system: System,
    /// The sheet, skills and gear (`app`'s JSON).
    pub template_json: String,
    /// Who saved it last, and when (seconds since the epoch).
    pub saved_by: UserId,
    pub saved_at: i64,
}

/// A template to store.
#[derive(Debug, Clone, Copy)]
pub struct NewTemplate<'a> {
    pub name: &'a str,
    pub key: &'a str,
    pub system: System,
    pub template_json: &'a str,
    pub by: UserId,
}

const COLUMNS: &str = "name, name_key, system, template_json, saved_by, saved_at";

fn from_row(r: &Row<'_>) -> Result<TemplateRow> {
    let system: String = r.get(2)?;
    Ok(TemplateRow {
        name: r.get(0)?,
        key: r.get(1)?,
        system: System::parse(&system)
            .ok_or_else(|| StoreError::Corrupt(format!("npc template system {system:?}")))?,
        template_json: r.get(3)?,
        saved_by: r.get(4)?,
        saved_at: r.get(5)?,
    })
}

/// Every template of the guild, by key.
pub fn all(conn: &Conn, guild: GuildId) -> Result<Vec<TemplateRow>> {
    let sql = format!("SELECT {COLUMNS} FROM npc_templates WHERE guild_id = ?1 ORDER BY name_key");
    let mut rows = query_map(conn, &sql, params![guild], from_row)?;
    // The order of keys is the same on both databases (their collations differ).
    rows.sort_by(|a, b| a.key.cmp(&b.key));
    Ok(rows)
}

/// One template, by key.
pub fn get(conn: &Conn, guild: GuildId, key: &str) -> Result<Option<TemplateRow>> {
    let sql = format!("SELECT {COLUMNS} FROM npc_templates WHERE guild_id = ?1 AND name_key = ?2");
    query_opt(conn, &sql, params![guild, key], from_row)
}

/// How many templates the guild has.
pub fn count(conn: &Conn, guild: GuildId) -> Result<u64> {
    let n: i64 = query_row(
        conn,
        "SELECT COUNT(*) FROM npc_templates WHERE guild_id = ?1",
        params![guild],
        |r| r.get(0),
    )?;
    Ok(u64::try_from(n).unwrap_or_default())
}

/// Stores a template, replacing the one of the same key (its name, system and sheet). Run it in
/// the write that checked the limit.
pub fn put(conn: &Conn, guild: GuildId, new: &NewTemplate<'_>) -> Result<()> {
    exec(
        conn,
        "INSERT INTO npc_templates (guild_id, name_key, name, system, template_json,
                                    saved_by, saved_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (guild_id, name_key) DO UPDATE SET
             name = excluded.name, system = excluded.system,
             template_json = excluded.template_json,
             saved_by = excluded.saved_by, saved_at = excluded.saved_at",
        params![
            guild,
            new.key,
            new.name,
            new.system.as_str(),
            new.template_json,
            new.by,
            now()
        ],
    )?;
    Ok(())
}

/// Deletes a template; `false` when there was none of that key.
pub fn delete(conn: &Conn, guild: GuildId, key: &str) -> Result<bool> {
    let gone = exec(
        conn,
        "DELETE FROM npc_templates WHERE guild_id = ?1 AND name_key = ?2",
        params![guild, key],
    )?;
    Ok(gone == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new<'a>(name: &'a str, system: System, json: &'a str) -> NewTemplate<'a> {
        NewTemplate {
            name,
            key: name,
            system,
            template_json: json,
            by: UserId(5),
        }
    }

    /// Save, read, list, replace and count, each guild's apart, on every backend.
    #[test]
    fn templates_round_trip_per_guild() {
        for t in crate::store::testdb::backends() {
            let store = &t.store;
            let (guild, other) = (GuildId(7), GuildId(8));
            store
                .write(|tx| {
                    put(tx, guild, &new("orc", System::Tft, "{\"st\":12}"))?;
                    put(tx, guild, &new("goblin", System::Thiz, "{}"))?;
                    put(tx, other, &new("troll", System::Thiz, "{}"))?;
                    Ok::<_, StoreError>(())
                })
                .unwrap();
            let names: Vec<String> = store
                .read(|c| all(c, guild))
                .unwrap()
                .into_iter()
                .map(|r| r.name)
                .collect();
            assert_eq!(names, ["goblin", "orc"], "{}", t.name);
            store
                .write(|tx| {
                    // The same key again replaces the system and the sheet.
                    put(tx, guild, &new("orc", System::Thiz, "{\"x\":1}"))?;
                    assert_eq!(count(tx, guild)?, 2);
                    assert_eq!(count(tx, other)?, 1);
                    let row = get(tx, guild, "orc")?.expect("kept");
                    assert_eq!(
                        (row.system, row.template_json.as_str(), row.saved_by),
                        (System::Thiz, "{\"x\":1}", UserId(5))
                    );
                    assert!(row.saved_at > 0);
                    assert!(get(tx, other, "orc")?.is_none(), "guilds apart");
                    assert!(get(tx, guild, "troll")?.is_none(), "guilds apart");
                    Ok::<_, StoreError>(())
                })
                .unwrap();
        }
    }
}
