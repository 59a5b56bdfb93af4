//! Saved rolls (`migrations/12-aliases`): a dice expression kept under a name, a player's own or
//! the server's.
//!
//! Owns the one table and its key: a saved roll is found by its guild, its owner ([`Owner`]: a
//! player, or the server) and the key of its name, which `app` computes (the name's confusable
//! key), so two spellings that look alike are one saved roll. Never checks a name or an
//! expression, never decides who may set the server's, and never counts against a limit: `app`
//! does, in the same write as the [`put`] (see [`count`]).

use super::{Conn, GuildId, Result, UserId, exec, now, params, query_map, query_opt, query_row};

/// Whose a saved roll is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Owner {
    /// The server's, set by a GM, for everyone in it.
    Server,
    /// One player's own.
    Player(UserId),
}

impl Owner {
    /// The stored `owner_user_id`: 0 for the server's (no Discord user has id 0).
    fn id(self) -> UserId {
        match self {
            Owner::Server => UserId(0),
            Owner::Player(user) => user,
        }
    }

    fn from_id(id: UserId) -> Self {
        if id.0 == 0 {
            Owner::Server
        } else {
            Owner::Player(id)
        }
    }
}

/// A saved roll, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AliasRow {
    pub owner: Owner,
    /// The name as set.
    pub name: String,
    /// The key it is found by (`app`'s).
    pub key: String,
    pub expression: String,
    /// Who set it last, and when (seconds since the epoch).
    pub updated_by: UserId,
    pub updated_at: i64,
}

/// A saved roll to store.
#[derive(Debug, Clone, Copy)]
pub struct NewAlias<'a> {
    pub owner: Owner,
    pub name: &'a str,
    pub key: &'a str,
    pub expression: &'a str,
    pub by: UserId,
}

const COLUMNS: &str = "owner_user_id, name, name_key, expression, updated_by, updated_at";

fn from_row(r: &super::Row<'_>) -> Result<AliasRow> {
    Ok(AliasRow {
        owner: Owner::from_id(r.get(0)?),
        name: r.get(1)?,
        key: r.get(2)?,
        expression: r.get(3)?,
        updated_by: r.get(4)?,
        updated_at: r.get(5)?,
    })
}

/// The saved rolls `user` may roll: their own, then the server's, each by key.
pub fn visible(conn: &Conn, guild: GuildId, user: UserId) -> Result<Vec<AliasRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM roll_aliases
         WHERE guild_id = ?1 AND owner_user_id IN (?2, 0)
         ORDER BY CASE WHEN owner_user_id = 0 THEN 1 ELSE 0 END, name_key"
    );
    let mut rows = query_map(conn, &sql, params![guild, user], from_row)?;
    // The order of keys is the same on both databases (their collations differ).
    rows.sort_by(|a, b| {
        (a.owner == Owner::Server)
            .cmp(&(b.owner == Owner::Server))
            .then_with(|| a.key.cmp(&b.key))
    });
    Ok(rows)
}

/// One saved roll of `owner`, by key.
pub fn get(conn: &Conn, guild: GuildId, owner: Owner, key: &str) -> Result<Option<AliasRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM roll_aliases
         WHERE guild_id = ?1 AND owner_user_id = ?2 AND name_key = ?3"
    );
    query_opt(conn, &sql, params![guild, owner.id(), key], from_row)
}

/// How many saved rolls `owner` has in the guild.
pub fn count(conn: &Conn, guild: GuildId, owner: Owner) -> Result<u64> {
    let n: i64 = query_row(
        conn,
        "SELECT COUNT(*) FROM roll_aliases WHERE guild_id = ?1 AND owner_user_id = ?2",
        params![guild, owner.id()],
        |r| r.get(0),
    )?;
    Ok(u64::try_from(n).unwrap_or_default())
}

/// Stores a saved roll, replacing the one of the same owner and key (its name and expression
/// both). Run it in the write that checked the limit.
pub fn put(conn: &Conn, guild: GuildId, new: &NewAlias<'_>) -> Result<()> {
    exec(
        conn,
        "INSERT INTO roll_aliases (guild_id, owner_user_id, name_key, name, expression,
                                   updated_by, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (guild_id, owner_user_id, name_key) DO UPDATE SET
             name = excluded.name, expression = excluded.expression,
             updated_by = excluded.updated_by, updated_at = excluded.updated_at",
        params![
            guild,
            new.owner.id(),
            new.key,
            new.name,
            new.expression,
            new.by,
            now()
        ],
    )?;
    Ok(())
}

/// Deletes a saved roll of `owner`; `false` when there was none of that key.
pub fn delete(conn: &Conn, guild: GuildId, owner: Owner, key: &str) -> Result<bool> {
    let gone = exec(
        conn,
        "DELETE FROM roll_aliases WHERE guild_id = ?1 AND owner_user_id = ?2 AND name_key = ?3",
        params![guild, owner.id(), key],
    )?;
    Ok(gone == 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::StoreError;

    fn new<'a>(owner: Owner, name: &'a str, expression: &'a str) -> NewAlias<'a> {
        NewAlias {
            owner,
            name,
            key: name,
            expression,
            by: UserId(5),
        }
    }

    /// Set, read, replace, count and delete, a player's and the server's apart, each guild's
    /// apart, on every backend.
    #[test]
    fn saved_rolls_round_trip_per_owner_and_guild() {
        for t in crate::store::testdb::backends() {
            let store = &t.store;
            let (guild, other) = (GuildId(7), GuildId(8));
            let ann = Owner::Player(UserId(10));
            store
                .write(|tx| {
                    put(tx, guild, &new(ann, "attack", "1d20+5"))?;
                    put(tx, guild, &new(Owner::Server, "attack", "1d20+3"))?;
                    put(tx, guild, &new(Owner::Server, "init", "1d20"))?;
                    put(tx, guild, &new(Owner::Player(UserId(11)), "bob", "2d6"))?;
                    put(tx, other, &new(ann, "elsewhere", "1d4"))?;
                    Ok::<_, StoreError>(())
                })
                .unwrap();
            let names = |rows: Vec<AliasRow>| -> Vec<(Owner, String, String)> {
                rows.into_iter()
                    .map(|r| (r.owner, r.name, r.expression))
                    .collect()
            };
            let seen = store.read(|c| visible(c, guild, UserId(10))).unwrap();
            assert_eq!(
                names(seen),
                [
                    (ann, "attack".into(), "1d20+5".into()),
                    (Owner::Server, "attack".into(), "1d20+3".into()),
                    (Owner::Server, "init".into(), "1d20".into()),
                ],
                "{}",
                t.name
            );
            store
                .write(|tx| {
                    // The same key again replaces the name and the expression.
                    put(tx, guild, &new(ann, "attack", "1d20+6"))?;
                    assert_eq!(count(tx, guild, ann)?, 1);
                    assert_eq!(count(tx, guild, Owner::Server)?, 2);
                    assert_eq!(count(tx, other, Owner::Server)?, 0);
                    let row = get(tx, guild, ann, "attack")?.expect("kept");
                    assert_eq!(
                        (row.expression.as_str(), row.updated_by),
                        ("1d20+6", UserId(5))
                    );
                    assert!(row.updated_at > 0);
                    assert!(get(tx, other, ann, "attack")?.is_none(), "guilds apart");
                    assert!(delete(tx, guild, ann, "attack")?);
                    assert!(!delete(tx, guild, ann, "attack")?, "gone already");
                    assert!(get(tx, guild, ann, "attack")?.is_none());
                    // The server's of the same name is untouched.
                    assert!(get(tx, guild, Owner::Server, "attack")?.is_some());
                    Ok::<_, StoreError>(())
                })
                .unwrap();
            let seen = store.read(|c| visible(c, other, UserId(10))).unwrap();
            assert_eq!(names(seen).len(), 1, "{}", t.name);
        }
    }
}
