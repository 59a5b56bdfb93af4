-- PostgreSQL version of 04-encounter/up.sql: the same tables, columns, keys and checks, with
-- BIGINT for SQLite's INTEGER (ids, snowflakes, times and 0/1 flags alike) and no STRICT.
-- Applied by src/store/pg.rs, which records it in referee_migrations. Never edited once shipped.

-- Encounters (issue 20): one combat tracker per channel. The tracker's state (figures, order,
-- round or pass, whose turn, declared options, hits counted this round) is one JSON document
-- that `app::encounter` owns; `version` goes up by one on every change, so a "next turn" press
-- carries the version it saw and a second press of the same turn changes nothing. The status
-- message the bot edits in place is remembered by its id, with the text it last showed.
CREATE TABLE encounters (
    guild_id          BIGINT NOT NULL,
    channel_id        BIGINT NOT NULL,
    system            TEXT NOT NULL CHECK (system IN ('thiz', 'tft')),
    state_json        TEXT NOT NULL,
    version           BIGINT NOT NULL DEFAULT 0 CHECK (version >= 0),
    -- 1 once ended: the row stays until the status message shows the end, or a new start.
    ended             BIGINT NOT NULL DEFAULT 0 CHECK (ended IN (0, 1)),
    status_message_id BIGINT,
    status_shown      TEXT,
    created_by        BIGINT NOT NULL,
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);

-- NPCs the encounter made from a sheet ("Goblin 1", "Goblin 2"): removed with the encounter
-- unless kept. The copy is an ordinary character row, so every roll works on it unchanged.
CREATE TABLE encounter_spawned (
    guild_id     BIGINT NOT NULL,
    channel_id   BIGINT NOT NULL,
    character_id BIGINT NOT NULL,
    PRIMARY KEY (guild_id, channel_id, character_id),
    FOREIGN KEY (guild_id, channel_id) REFERENCES encounters (guild_id, channel_id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);
