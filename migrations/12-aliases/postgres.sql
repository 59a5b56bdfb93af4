-- PostgreSQL version of 12-aliases/up.sql: the same table, columns and key, with BIGINT for
-- SQLite's INTEGER and no STRICT. Applied by src/store/pg.rs, which records it in
-- referee_migrations. Never edited once shipped.

-- Saved rolls (`/alias`): a dice expression kept under a name, rolled as `/roll attack` or
-- `/roll attack+2`. A player's own (owner_user_id: their user id) and the server's, set by a
-- GM (owner_user_id 0, which no Discord user has). Nothing here is hidden: a player reads their
-- own and the server's.
CREATE TABLE roll_aliases (
    guild_id      BIGINT NOT NULL,
    -- The player whose saved roll it is, or 0 for the server's.
    owner_user_id BIGINT NOT NULL,
    -- The name's confusable key (app::characters::fields::confusable_key).
    name_key      TEXT NOT NULL,
    -- The name as set (canonical form: NFKC, single spaces).
    name          TEXT NOT NULL,
    -- The expression as set, checked by the dice parser when it was set.
    expression    TEXT NOT NULL,
    -- Who set it last (the player, or the GM for the server's), and when.
    updated_by    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL,
    PRIMARY KEY (guild_id, owner_user_id, name_key)
);
