-- PostgreSQL version of 01-initial/up.sql: the same tables, columns, keys and checks, with
-- BIGINT for SQLite's INTEGER (ids, snowflakes, times and 0/1 flags alike) and no STRICT.
-- Applied by src/store/pg.rs, which records it in referee_migrations. Never edited once shipped.

-- referee schema, version 1.
-- Every per-guild table leads its primary key (or a leading index) with guild_id, and every query
-- filters on it, so the data can later be partitioned by guild. Hidden values (luck, the luck
-- ledger, GM notes, hidden keys, secret roll results) live in tables of their own, read only by
-- store functions that the app calls for a verified GM.
-- Shipped migrations are never edited: add a new NN-name/up.sql instead.

CREATE TABLE guilds (
    guild_id        BIGINT PRIMARY KEY,
    gm_role_id      BIGINT,
    gm_channel_id   BIGINT,
    default_system  TEXT NOT NULL DEFAULT 'thiz' CHECK (default_system IN ('thiz', 'tft')),
    -- House-rule switches, as a JSON object of name -> bool (missing names take their defaults).
    rules_json      TEXT NOT NULL DEFAULT '{}',
    created_at      BIGINT NOT NULL
);

CREATE TABLE characters (
    guild_id    BIGINT NOT NULL,
    id          BIGINT NOT NULL,
    name        TEXT NOT NULL,
    -- The name folded for uniqueness and lookup (lowercase), so "Vexa" and "vexa" are one character.
    name_key    TEXT NOT NULL,
    system      TEXT NOT NULL CHECK (system IN ('thiz', 'tft')),
    owner_id    BIGINT NOT NULL,
    npc         BIGINT NOT NULL DEFAULT 0 CHECK (npc IN (0, 1)),
    -- The public sheet (attributes, homeland, weaknesses, quirks…) as JSON; skills, gear and
    -- wounds have tables of their own.
    sheet_json  TEXT NOT NULL DEFAULT '{}',
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    last_used_at BIGINT NOT NULL,
    PRIMARY KEY (guild_id, id),
    UNIQUE (guild_id, name_key)
);
CREATE INDEX characters_by_owner ON characters (guild_id, owner_id, last_used_at);

CREATE TABLE skills (
    guild_id     BIGINT NOT NULL,
    character_id BIGINT NOT NULL,
    skill        TEXT NOT NULL,
    skill_key    TEXT NOT NULL,
    rating       BIGINT NOT NULL,
    PRIMARY KEY (guild_id, character_id, skill_key),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);

CREATE TABLE equipment (
    guild_id     BIGINT NOT NULL,
    character_id BIGINT NOT NULL,
    id           BIGINT NOT NULL,
    kind         TEXT NOT NULL,
    name         TEXT NOT NULL,
    -- Numbers that matter to the rules (attack bonus, armor bonus per location, hits stopped…).
    stats_json   TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (guild_id, character_id, id),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);

-- THIZ wounds: per location, the number of wounds of each colour.
CREATE TABLE wounds (
    guild_id     BIGINT NOT NULL,
    character_id BIGINT NOT NULL,
    location     TEXT NOT NULL,
    level        TEXT NOT NULL CHECK (level IN ('green', 'yellow', 'red', 'black')),
    count        BIGINT NOT NULL CHECK (count > 0),
    PRIMARY KEY (guild_id, character_id, location, level),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);

-- TFT hits taken and fatigue.
CREATE TABLE tft_damage (
    guild_id     BIGINT NOT NULL,
    character_id BIGINT NOT NULL,
    hits         BIGINT NOT NULL DEFAULT 0,
    fatigue      BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, character_id),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);

-- ---- Hidden: only for a verified GM ----------------------------------------------------------

CREATE TABLE hidden_values (
    guild_id     BIGINT NOT NULL,
    character_id BIGINT NOT NULL,
    key          TEXT NOT NULL,
    value        TEXT NOT NULL,
    updated_at   BIGINT NOT NULL,
    PRIMARY KEY (guild_id, character_id, key),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);

CREATE TABLE gm_notes (
    guild_id     BIGINT NOT NULL,
    character_id BIGINT NOT NULL,
    id           BIGINT NOT NULL,
    author_id    BIGINT NOT NULL,
    text         TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (guild_id, character_id, id),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);

CREATE TABLE luck (
    guild_id     BIGINT NOT NULL,
    character_id BIGINT NOT NULL,
    points       BIGINT NOT NULL CHECK (points >= 0),
    PRIMARY KEY (guild_id, character_id),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);

-- Every change of luck: who, when, why, which roll. The idempotency key (a roll id for a button,
-- the interaction id otherwise) makes a repeated delivery spend nothing.
CREATE TABLE luck_ledger (
    guild_id     BIGINT NOT NULL,
    id           BIGINT NOT NULL,
    character_id BIGINT NOT NULL,
    actor_id     BIGINT NOT NULL,
    delta        BIGINT NOT NULL,
    points_after BIGINT NOT NULL,
    kind         TEXT NOT NULL,
    reason       TEXT NOT NULL DEFAULT '',
    roll_id      BIGINT,
    idem_key     TEXT,
    at           BIGINT NOT NULL,
    PRIMARY KEY (guild_id, id),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX luck_ledger_idem ON luck_ledger (guild_id, idem_key) WHERE idem_key IS NOT NULL;
CREATE INDEX luck_ledger_by_character ON luck_ledger (guild_id, character_id, id);

-- ---- The roll log ------------------------------------------------------------------------------

-- Every roll. `mode` is public/private/blind/self or 'secret' (a GM's committed roll). The result a
-- player may see lives in `public_json`; for blind and secret rolls it stays NULL until revealed and
-- the result lives in `secret_rolls`.
CREATE TABLE rolls (
    guild_id      BIGINT NOT NULL,
    id            BIGINT NOT NULL,
    user_id       BIGINT NOT NULL,
    character_id  BIGINT,
    command       TEXT NOT NULL,
    mode          TEXT NOT NULL CHECK (mode IN ('public', 'private', 'blind', 'self', 'secret')),
    label         TEXT NOT NULL DEFAULT '',
    public_json   TEXT,
    commitment    TEXT,
    -- Set once when luck rerolls this roll or lowers its wound; a second use is refused.
    luck_used     TEXT,
    parent_id     BIGINT,
    created_at    BIGINT NOT NULL,
    PRIMARY KEY (guild_id, id)
);
CREATE INDEX rolls_by_character ON rolls (guild_id, character_id, id);
CREATE INDEX rolls_by_user ON rolls (guild_id, user_id, id);

CREATE TABLE secret_rolls (
    guild_id     BIGINT NOT NULL,
    roll_id      BIGINT NOT NULL,
    result_json  TEXT NOT NULL,
    nonce        TEXT,
    revealed_at  BIGINT,
    PRIMARY KEY (guild_id, roll_id),
    FOREIGN KEY (guild_id, roll_id) REFERENCES rolls (guild_id, id) ON DELETE CASCADE
);
