-- PostgreSQL version of 03-advancement/up.sql: the same tables, columns, keys and checks, with
-- BIGINT for SQLite's INTEGER (ids, snowflakes, times and 0/1 flags alike) and no STRICT.
-- Applied by src/store/pg.rs, which records it in referee_migrations. Never edited once shipped.

-- Advancement between adventures (issue 16): a THIZ character's unspent skill points and the
-- piece of work they are crafting, as `/advance` keeps them. Nothing here is hidden: the owner
-- and the GM read it. One row per character, made on first use.
CREATE TABLE advancement (
    guild_id     BIGINT NOT NULL,
    character_id BIGINT NOT NULL,
    skill_points BIGINT NOT NULL DEFAULT 0,
    craft_json   TEXT,
    updated_at   BIGINT NOT NULL,
    PRIMARY KEY (guild_id, character_id),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);
