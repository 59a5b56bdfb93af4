-- Every guild-owned table keyed with guild_id first (issue 61, item 5: ready to distribute by
-- guild; docs/scale-out.md).
--
-- The outbox was the one table keyed without its guild: `id` alone. A cluster sharded by
-- guild_id (Citus and the like) accepts a primary key only if it holds the distribution column,
-- and every statement on a row now names its guild, so the key becomes (guild_id, id). The id
-- stays the database's own (the identity column): unique across guilds and never reused, as a
-- message's nonce must be. No row changes.
-- Never edited once shipped.
ALTER TABLE outbox DROP CONSTRAINT outbox_pkey;
ALTER TABLE outbox ADD PRIMARY KEY (guild_id, id);
