-- PostgreSQL version of 02-thiz-condition/up.sql: the same tables, columns, keys and checks, with
-- BIGINT for SQLite's INTEGER (ids, snowflakes, times and 0/1 flags alike) and no STRICT.
-- Applied by src/store/pg.rs, which records it in referee_migrations. Never edited once shipped.

-- referee schema, version 2: what became of an Incapacitated THIZ character, and the days that
-- Knowledge (Surgery) counts in.

-- One row per THIZ character that has been through either: the condition recorded (dying, stable,
-- unconscious or dead; NULL when none is), and the character's own day count, which each day of
-- `/wound rest` moves on.
CREATE TABLE thiz_condition (
    guild_id     BIGINT NOT NULL,
    character_id BIGINT NOT NULL,
    condition    TEXT CHECK (condition IN ('dying', 'stable', 'unconscious', 'dead')),
    day          BIGINT NOT NULL DEFAULT 0 CHECK (day >= 0),
    PRIMARY KEY (guild_id, character_id),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);

-- The locations Knowledge (Surgery) healed a wound on, on which of the patient's days: at most one
-- wound per location per day.
CREATE TABLE surgery_treated (
    guild_id     BIGINT NOT NULL,
    character_id BIGINT NOT NULL,
    day          BIGINT NOT NULL,
    location     TEXT NOT NULL,
    PRIMARY KEY (guild_id, character_id, day, location),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);
