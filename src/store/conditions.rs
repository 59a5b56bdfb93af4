//! THIZ conditions (dying, stable, unconscious, dead) and each character's day count with the
//! locations Knowledge (Surgery) treated on it. Public data: the `app` layer decides who may read
//! an NPC's. The names stored are the rules' (`Condition::name`, lower-case location names).

use super::{CharacterId, Conn, GuildId, Result, exec, params, query_map, query_opt, query_row};

/// A character's row: the condition recorded (`None` when none is) and its day count.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ConditionRow {
    pub condition: Option<String>,
    pub day: i64,
}

/// The character's condition and day (no condition, day 0, when nothing was ever recorded).
pub fn get(conn: &Conn, guild: GuildId, id: CharacterId) -> Result<ConditionRow> {
    Ok(query_opt(
        conn,
        "SELECT condition, day FROM thiz_condition WHERE guild_id = ?1 AND character_id = ?2",
        params![guild, id],
        |r| {
            Ok(ConditionRow {
                condition: r.get(0)?,
                day: r.get(1)?,
            })
        },
    )?
    .unwrap_or_default())
}

/// Records the character's condition (`None` clears it), keeping the day.
pub fn set(conn: &Conn, guild: GuildId, id: CharacterId, condition: Option<&str>) -> Result<()> {
    exec(
        conn,
        "INSERT INTO thiz_condition (guild_id, character_id, condition) VALUES (?1, ?2, ?3)
         ON CONFLICT (guild_id, character_id) DO UPDATE SET condition = excluded.condition",
        params![guild, id, condition],
    )?;
    Ok(())
}

/// Moves the character's day on by `days` and forgets the Surgery of the days gone by; returns
/// the new day.
pub fn advance_day(conn: &Conn, guild: GuildId, id: CharacterId, days: i64) -> Result<i64> {
    let day: i64 = query_row(
        conn,
        "INSERT INTO thiz_condition (guild_id, character_id, day) VALUES (?1, ?2, ?3)
         ON CONFLICT (guild_id, character_id) DO UPDATE SET day = thiz_condition.day + excluded.day
         RETURNING day",
        params![guild, id, days],
        |r| r.get(0),
    )?;
    exec(
        conn,
        "DELETE FROM surgery_treated WHERE guild_id = ?1 AND character_id = ?2 AND day < ?3",
        params![guild, id, day],
    )?;
    Ok(day)
}

/// The locations Surgery treated on the character's day `day`.
pub fn treated(conn: &Conn, guild: GuildId, id: CharacterId, day: i64) -> Result<Vec<String>> {
    let rows = query_map(
        conn,
        "SELECT location FROM surgery_treated WHERE guild_id = ?1 AND character_id = ?2 AND day = ?3 ORDER BY location",
        params![guild, id, day],
        |r| r.get(0),
    )?;
    Ok(rows)
}

/// Records that Surgery treated `location` on the character's day `day`.
pub fn mark_treated(
    conn: &Conn,
    guild: GuildId,
    id: CharacterId,
    day: i64,
    location: &str,
) -> Result<()> {
    exec(
        conn,
        "INSERT INTO surgery_treated (guild_id, character_id, day, location) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT DO NOTHING",
        params![guild, id, day, location],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::characters::{self, NewCharacter};
    use crate::store::guilds::System;
    use crate::store::{StoreError, UserId};

    #[test]
    fn conditions_and_days_round_trip_and_old_surgery_is_forgotten() {
        for t in crate::store::testdb::backends() {
            let store = &t.store;
            let guild = GuildId(7);
            store
                .write(|tx| {
                    let new = NewCharacter {
                        name: "Ada",
                        system: System::Thiz,
                        owner_id: UserId(1),
                        npc: false,
                        sheet_json: "{}",
                    };
                    let id = characters::create(tx, guild, &new)?.expect("fresh");
                    assert_eq!(get(tx, guild, id)?, ConditionRow::default());
                    set(tx, guild, id, Some("dying"))?;
                    mark_treated(tx, guild, id, 0, "gut")?;
                    mark_treated(tx, guild, id, 0, "gut")?;
                    assert_eq!(treated(tx, guild, id, 0)?, ["gut"]);
                    assert_eq!(advance_day(tx, guild, id, 2)?, 2);
                    assert_eq!(
                        get(tx, guild, id)?,
                        ConditionRow {
                            condition: Some("dying".into()),
                            day: 2
                        }
                    );
                    assert!(treated(tx, guild, id, 0)?.is_empty());
                    set(tx, guild, id, None)?;
                    assert_eq!(get(tx, guild, id)?.day, 2);
                    // Another guild's character of the same id sees nothing of this.
                    assert_eq!(get(tx, GuildId(8), id)?, ConditionRow::default());
                    Ok::<_, StoreError>(id)
                })
                .map(|id| {
                    // In a write of its own: on PostgreSQL a failed statement ends its write.
                    let refused = store.write(|tx| set(tx, guild, id, Some("asleep")));
                    assert!(refused.is_err(), "{}: CHECK holds", t.name);
                })
                .expect("write");
        }
    }
}
