//! The outbox: messages the bot must post after answering (a GM channel's copy of a private,
//! blind or secret roll), kept until Discord has them (`migrations/06-outbox`).
//!
//! A row is written in the same transaction as the roll it copies ([`hold`], with a provisional
//! body and `ready = 0`); the command then settles it ([`settle`]): the full copy replaces the
//! body and the row becomes ready. A background task in `bot` takes ready rows in id order
//! ([`due`]), deletes each one posted ([`delivered`]), reschedules one Discord failed for a while
//! ([`retry_later`]) and marks one Discord refused for good ([`failed`]); the GM is told of those
//! once ([`take_failures`]). Rows left by a process that died are picked up at the next start
//! ([`recover`]). The row id is global and never reused: it doubles as the message's nonce.
//! A row is still named by its guild and its id (the key on PostgreSQL is `(guild_id, id)`,
//! migration 15), so every statement on one row stays on its guild's shard of a cluster
//! sharded by guild (`docs/scale-out.md`); the sweeps across guilds are named there.

use super::{
    Conn, GuildId, Result, RollId, exec, insert_returning, now, params, query_map, query_opt,
    query_row,
};

/// A row to hold for delivery.
#[derive(Debug, Clone)]
pub struct NewItem<'a> {
    pub guild: GuildId,
    pub channel: u64,
    /// The interaction that produced it (the command settles its own rows by this key).
    pub interaction: &'a str,
    pub roll: Option<RollId>,
    /// The message as the `app` layer serialized it.
    pub body: &'a str,
}

/// A row ready to post.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub id: i64,
    pub guild: GuildId,
    pub channel: u64,
    pub body: String,
    /// Failed attempts so far.
    pub attempts: u32,
}

/// Failed copies of one channel not yet told to the guild's GM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub channel: u64,
    pub count: u32,
    /// What Discord said the last time.
    pub error: String,
}

/// How many rows wait, and how long the oldest has waited (for diagnostics and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Depth {
    /// Rows still to deliver (held, ready or waiting for a retry).
    pub waiting: u64,
    /// Rows Discord refused for good.
    pub failed: u64,
}

/// Holds a provisional row, not yet ready (run inside the roll's write transaction).
pub fn hold(conn: &Conn, item: &NewItem<'_>) -> Result<i64> {
    insert(conn, item, false)
}

fn insert(conn: &Conn, item: &NewItem<'_>, ready: bool) -> Result<i64> {
    macro_rules! insert_item {
        () => {
            "INSERT INTO outbox (guild_id, channel_id, interaction, roll_id, body, ready, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
        };
    }
    let values = params![
        item.guild,
        item.channel as i64,
        item.interaction,
        item.roll,
        item.body,
        ready,
        now()
    ];
    // The id is the row's rowid (`INTEGER PRIMARY KEY`).
    insert_returning(
        conn,
        insert_item!(),
        concat!(insert_item!(), " RETURNING id"),
        "SELECT last_insert_rowid()",
        values,
    )
}

/// Settles the rows an interaction held. With `copy` (channel and body), the first held row
/// takes it and becomes ready, and the others are dropped (the one copy covers them); without
/// held rows a new ready row is written. Without `copy` the held rows become ready as they are
/// (a command that logged a copied roll and then failed: the GM still hears of the roll).
/// Returns how many rows became ready. Run inside a write transaction.
pub fn settle(
    conn: &Conn,
    guild: GuildId,
    interaction: &str,
    copy: Option<(u64, &str)>,
) -> Result<usize> {
    let Some((channel, body)) = copy else {
        return exec(
            conn,
            "UPDATE outbox SET ready = 1 WHERE guild_id = ?1 AND interaction = ?2 AND ready = 0",
            params![guild, interaction],
        );
    };
    let first: Option<i64> = query_row(
        conn,
        "SELECT MIN(id) FROM outbox WHERE guild_id = ?1 AND interaction = ?2 AND ready = 0",
        params![guild, interaction],
        |r| r.get(0),
    )?;
    match first {
        Some(id) => {
            exec(
                conn,
                "UPDATE outbox SET channel_id = ?3, body = ?4, ready = 1
                 WHERE guild_id = ?1 AND id = ?2",
                params![guild, id, channel as i64, body],
            )?;
            exec(
                conn,
                "DELETE FROM outbox WHERE guild_id = ?1 AND interaction = ?2 AND ready = 0",
                params![guild, interaction],
            )?;
        }
        None => {
            insert(
                conn,
                &NewItem {
                    guild,
                    channel,
                    interaction,
                    roll: None,
                    body,
                },
                true,
            )?;
        }
    }
    Ok(1)
}

/// Makes every held row ready, with the body it has: at start-up, the rows a process that died
/// left between a roll and its command's end. Returns how many.
pub fn recover(conn: &Conn) -> Result<usize> {
    exec(
        conn,
        "UPDATE outbox SET ready = 1 WHERE ready = 0",
        params![],
    )
}

/// Up to `limit` rows to post now, oldest first: ready (or held since before `orphaned_before`,
/// a command that never settled), not failed, and due by `now_ms`.
pub fn due(conn: &Conn, now_ms: i64, orphaned_before: i64, limit: u32) -> Result<Vec<Item>> {
    let rows = query_map(
        conn,
        "SELECT id, guild_id, channel_id, body, attempts FROM outbox
         WHERE failed_at IS NULL AND next_at_ms <= ?1 AND (ready = 1 OR created_at < ?2)
         ORDER BY id LIMIT ?3",
        params![now_ms, orphaned_before, limit],
        |r| {
            Ok(Item {
                id: r.get(0)?,
                guild: r.get(1)?,
                channel: r.get::<i64>(2)? as u64,
                body: r.get(3)?,
                attempts: r.get(4)?,
            })
        },
    )?;
    Ok(rows)
}

/// When the next ready row is due (ms since the epoch), if any waits. Held rows are left out:
/// their command settles them, or they become orphans after a while.
pub fn next_due(conn: &Conn) -> Result<Option<i64>> {
    query_row(
        conn,
        "SELECT MIN(next_at_ms) FROM outbox WHERE failed_at IS NULL AND ready = 1",
        params![],
        |r| r.get(0),
    )
}

/// Removes a row Discord accepted (row `id` of `guild`: an [`Item`]'s own).
pub fn delivered(conn: &Conn, guild: GuildId, id: i64) -> Result<()> {
    exec(
        conn,
        "DELETE FROM outbox WHERE guild_id = ?1 AND id = ?2",
        params![guild, id],
    )?;
    Ok(())
}

/// Counts a failed attempt of row `id` and puts it, and every later row of its channel, off
/// until `next_at_ms`: a channel's copies keep their order, and one failing channel is asked
/// once per backoff, not once per copy.
pub fn retry_later(
    conn: &Conn,
    guild: GuildId,
    id: i64,
    next_at_ms: i64,
    error: &str,
) -> Result<()> {
    exec(
        conn,
        "UPDATE outbox SET attempts = attempts + 1, next_at_ms = ?3, last_error = ?4
         WHERE guild_id = ?1 AND id = ?2",
        params![guild, id, next_at_ms, error],
    )?;
    exec(
        conn,
        "UPDATE outbox SET next_at_ms = CASE WHEN next_at_ms > ?3 THEN next_at_ms ELSE ?3 END
         WHERE guild_id = ?1
           AND channel_id = (SELECT o.channel_id FROM outbox AS o WHERE o.guild_id = ?1 AND o.id = ?2)
           AND id > ?2 AND failed_at IS NULL",
        params![guild, id, next_at_ms],
    )?;
    Ok(())
}

/// Marks a row Discord refused for good: it is never tried again, and its guild's GM is told.
/// With `whole_channel` (the channel is gone or closed to the bot), every copy waiting for that
/// channel fails with it. Returns how many rows failed.
pub fn failed(
    conn: &Conn,
    guild: GuildId,
    id: i64,
    error: &str,
    whole_channel: bool,
) -> Result<usize> {
    let one = exec(
        conn,
        "UPDATE outbox SET attempts = attempts + 1, failed_at = ?3, last_error = ?4
         WHERE guild_id = ?1 AND id = ?2 AND failed_at IS NULL",
        params![guild, id, now(), error],
    )?;
    let rest = if whole_channel {
        exec(
            conn,
            "UPDATE outbox SET failed_at = ?3, last_error = ?4
             WHERE guild_id = ?1
               AND channel_id = (SELECT o.channel_id FROM outbox AS o WHERE o.guild_id = ?1 AND o.id = ?2)
               AND failed_at IS NULL AND ready = 1",
            params![guild, id, now(), error],
        )?
    } else {
        0
    };
    Ok(one + rest)
}

/// The guild's failed copies not yet told to its GM, by channel; marks them told. Run inside a
/// write transaction, so two commands at once cannot both tell.
pub fn take_failures(conn: &Conn, guild: GuildId) -> Result<Vec<Failure>> {
    let failures = {
        query_map(
            conn,
            "SELECT channel_id, COUNT(*), (SELECT last_error FROM outbox AS o
                 WHERE o.guild_id = ?1 AND o.channel_id = outbox.channel_id
                   AND o.failed_at IS NOT NULL AND o.reported = 0 ORDER BY o.id DESC LIMIT 1)
             FROM outbox WHERE guild_id = ?1 AND failed_at IS NOT NULL AND reported = 0
             GROUP BY channel_id ORDER BY channel_id",
            params![guild],
            |r| {
                Ok(Failure {
                    channel: r.get::<i64>(0)? as u64,
                    count: r.get(1)?,
                    error: r.get::<Option<String>>(2)?.unwrap_or_default(),
                })
            },
        )?
    };
    if !failures.is_empty() {
        exec(
            conn,
            "UPDATE outbox SET reported = 1 WHERE guild_id = ?1 AND failed_at IS NOT NULL AND reported = 0",
            params![guild],
        )?;
    }
    Ok(failures)
}

/// Guilds with failed copies not yet told to their GM.
pub fn unreported_guilds(conn: &Conn) -> Result<Vec<GuildId>> {
    let rows = query_map(
        conn,
        "SELECT DISTINCT guild_id FROM outbox WHERE failed_at IS NOT NULL AND reported = 0",
        params![],
        |r| r.get(0),
    )?;
    Ok(rows)
}

/// How many rows wait and how many failed.
pub fn depth(conn: &Conn) -> Result<Depth> {
    Ok(query_opt(
        conn,
        "SELECT COUNT(*) FILTER (WHERE failed_at IS NULL), COUNT(*) FILTER (WHERE failed_at IS NOT NULL)
         FROM outbox",
        params![],
        |r| {
            Ok(Depth {
                waiting: r.get::<i64>(0)? as u64,
                failed: r.get::<i64>(1)? as u64,
            })
        },
    )?
    .unwrap_or_default())
}

/// When the oldest row still to deliver was written, in seconds since the Unix epoch; `None`
/// when none waits (the metrics' outbox age).
pub fn oldest_waiting(conn: &Conn) -> Result<Option<i64>> {
    query_row(
        conn,
        "SELECT MIN(created_at) FROM outbox WHERE failed_at IS NULL",
        params![],
        |r| r.get::<Option<i64>>(0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    const G: GuildId = GuildId(7);

    fn hold_one(store: &Store, interaction: &str, body: &str) -> i64 {
        store
            .write(|c| {
                hold(
                    c,
                    &NewItem {
                        guild: G,
                        channel: 99,
                        interaction,
                        roll: Some(RollId(1)),
                        body,
                    },
                )
            })
            .expect("hold")
    }

    fn due_now(store: &Store) -> Vec<Item> {
        store.read(|c| due(c, i64::MAX, 0, 100)).expect("due")
    }

    #[test]
    fn the_oldest_waiting_row_is_the_first_not_delivered_nor_failed() {
        for t in crate::store::testdb::backends() {
            let store = &t.store;
            assert_eq!(
                store.read(oldest_waiting).expect("read"),
                None,
                "none waits"
            );
            let first = hold_one(store, "i1", "one");
            let second = hold_one(store, "i2", "two");
            let stamp = |id: i64, at: i64| {
                store
                    .write(|c| {
                        exec(
                            c,
                            "UPDATE outbox SET created_at = ?2 WHERE id = ?1",
                            params![id, at],
                        )
                    })
                    .expect("stamp");
            };
            stamp(first, 1_000);
            stamp(second, 2_000);
            assert_eq!(store.read(oldest_waiting).expect("read"), Some(1_000));
            store
                .write(|c| failed(c, G, first, "403", false))
                .expect("fail the first");
            assert_eq!(
                store.read(oldest_waiting).expect("read"),
                Some(2_000),
                "a failed row no longer waits"
            );
            store.write(|c| delivered(c, G, second)).expect("deliver");
            assert_eq!(store.read(oldest_waiting).expect("read"), None);
        }
    }

    #[test]
    fn a_held_row_waits_until_settled_then_carries_the_full_copy() {
        for t in crate::store::testdb::backends() {
            let store = &t.store;
            let id = hold_one(store, "i1", "provisional");
            let second = hold_one(store, "i1", "provisional 2");
            assert!(due_now(store).is_empty(), "held rows are not due");
            let n = store
                .write(|c| settle(c, G, "i1", Some((98, "full"))))
                .expect("settle");
            assert_eq!(n, 1);
            let items = due_now(store);
            assert_eq!(items.len(), 1, "one copy for the interaction: {items:?}");
            assert_eq!(
                (items[0].id, items[0].channel, items[0].body.as_str()),
                (id, 98, "full")
            );
            assert!(items.iter().all(|i| i.id != second));
        }
    }

    #[test]
    fn settling_without_a_copy_releases_the_provisional_body() {
        for t in crate::store::testdb::backends() {
            let store = &t.store;
            hold_one(store, "i2", "provisional");
            store.write(|c| settle(c, G, "i2", None)).expect("settle");
            let items = due_now(store);
            assert_eq!(items.len(), 1);
            assert_eq!(items[0].body, "provisional");
        }
    }

    #[test]
    fn settling_a_copy_with_nothing_held_writes_a_ready_row() {
        for t in crate::store::testdb::backends() {
            let store = &t.store;
            store
                .write(|c| settle(c, G, "i3", Some((5, "note"))))
                .expect("settle");
            assert_eq!(due_now(store)[0].body, "note");
        }
    }

    #[test]
    fn recovery_readies_held_rows_and_orphans_are_due_after_the_cutoff() {
        for t in crate::store::testdb::backends() {
            let store = &t.store;
            hold_one(store, "i4", "provisional");
            // Held since "now": not an orphan for a cutoff in the past, one for a cutoff ahead.
            assert!(store.read(|c| due(c, i64::MAX, 0, 10)).unwrap().is_empty());
            assert_eq!(
                store
                    .read(|c| due(c, i64::MAX, now() + 1, 10))
                    .unwrap()
                    .len(),
                1
            );
            assert_eq!(store.write(recover).unwrap(), 1);
            assert_eq!(due_now(store).len(), 1);
        }
    }

    #[test]
    fn retries_wait_for_their_time_and_delivery_removes_the_row() {
        for t in crate::store::testdb::backends() {
            let store = &t.store;
            store
                .write(|c| settle(c, G, "i5", Some((5, "x"))))
                .expect("settle");
            let id = due_now(store)[0].id;
            store
                .write(|c| retry_later(c, G, id, 1_000, "500"))
                .expect("retry");
            assert!(store.read(|c| due(c, 999, 0, 10)).unwrap().is_empty());
            let items = store.read(|c| due(c, 1_000, 0, 10)).unwrap();
            assert_eq!(items[0].attempts, 1);
            assert_eq!(store.read(next_due).unwrap(), Some(1_000));
            store.write(|c| delivered(c, G, id)).expect("delivered");
            assert_eq!(store.read(depth).unwrap(), Depth::default());
            assert_eq!(store.read(next_due).unwrap(), None);
        }
    }

    /// Issue 61: a row is named by its guild and its id, so a call naming another guild with
    /// the id changes nothing.
    #[test]
    fn a_row_is_reached_only_through_its_own_guild() {
        for t in crate::store::testdb::backends() {
            let store = &t.store;
            store
                .write(|c| settle(c, G, "i7", Some((5, "x"))))
                .expect("settle");
            let id = due_now(store)[0].id;
            let other = GuildId(8);
            store
                .write(|c| {
                    delivered(c, other, id)?;
                    retry_later(c, other, id, 9_000, "500")?;
                    failed(c, other, id, "403", true)
                })
                .expect("other guild");
            let items = due_now(store);
            assert_eq!(items.len(), 1, "{}: still there", t.name);
            assert_eq!(items[0].attempts, 0, "{}: untouched", t.name);
            store.write(|c| delivered(c, G, id)).expect("delivered");
            assert!(due_now(store).is_empty(), "{}", t.name);
        }
    }

    #[test]
    fn a_failure_is_never_due_again_and_is_told_once() {
        for t in crate::store::testdb::backends() {
            let store = &t.store;
            for i in ["a", "b"] {
                store
                    .write(|c| settle(c, G, i, Some((5, "x"))))
                    .expect("settle");
            }
            for item in due_now(store) {
                store
                    .write(|c| failed(c, item.guild, item.id, "403 Missing Access", false))
                    .expect("failed");
            }
            assert!(due_now(store).is_empty());
            assert_eq!(store.read(unreported_guilds).unwrap(), vec![G]);
            let told = store.write(|c| take_failures(c, G)).unwrap();
            assert_eq!(
                told,
                vec![Failure {
                    channel: 5,
                    count: 2,
                    error: "403 Missing Access".into()
                }]
            );
            assert!(store.write(|c| take_failures(c, G)).unwrap().is_empty());
            assert!(store.read(unreported_guilds).unwrap().is_empty());
            assert_eq!(
                store.read(depth).unwrap(),
                Depth {
                    waiting: 0,
                    failed: 2
                }
            );
        }
    }

    #[test]
    fn a_rolled_back_roll_leaves_no_row() {
        for t in crate::store::testdb::backends() {
            let store = &t.store;
            let out: Result<(), crate::store::StoreError> = store.write(|c| {
                hold(
                    c,
                    &NewItem {
                        guild: G,
                        channel: 1,
                        interaction: "i6",
                        roll: None,
                        body: "x",
                    },
                )?;
                Err(crate::store::StoreError::Corrupt("refused".into()))
            });
            assert!(out.is_err());
            store.write(recover).unwrap();
            assert!(due_now(store).is_empty());
        }
    }

    #[test]
    fn a_retry_puts_off_the_rest_of_its_channel_and_a_closed_channel_fails_whole() {
        for t in crate::store::testdb::backends() {
            let store = &t.store;
            for (i, channel) in [("a", 5), ("b", 5), ("c", 6)] {
                store
                    .write(|c| settle(c, G, i, Some((channel, i))))
                    .expect("settle");
            }
            let items = due_now(store);
            store
                .write(|c| retry_later(c, G, items[0].id, 5_000, "500"))
                .expect("retry");
            let due: Vec<String> = store
                .read(|c| due(c, 4_999, 0, 10))
                .unwrap()
                .into_iter()
                .map(|i| i.body)
                .collect();
            assert_eq!(
                due,
                vec!["c".to_owned()],
                "channel 5 waits, channel 6 does not"
            );
            let n = store
                .write(|c| failed(c, G, items[0].id, "403", true))
                .expect("failed");
            assert_eq!(n, 2, "both copies for channel 5");
            assert_eq!(due_now(store).len(), 1);
        }
    }
}
