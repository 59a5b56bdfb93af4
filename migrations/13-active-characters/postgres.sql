-- PostgreSQL version of 13-active-characters/up.sql: the same table, columns and key, with
-- BIGINT for SQLite's INTEGER and no STRICT. Applied by src/store/pg.rs, which records it in
-- referee_migrations. Never edited once shipped.

-- The character a player acts with (`/character use`), one per game system: commands that name
-- no character take it. A row whose character was deleted is ignored.
CREATE TABLE active_characters (
    guild_id     BIGINT NOT NULL,
    user_id      BIGINT NOT NULL,
    -- 'thiz' or 'tft'.
    system       TEXT NOT NULL,
    character_id BIGINT NOT NULL,
    set_at       BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id, system)
);
