-- PostgreSQL version of 05-roll-request/up.sql: the same tables, columns, keys and checks, with
-- BIGINT for SQLite's INTEGER (ids, snowflakes, times and 0/1 flags alike) and no STRICT.
-- Applied by src/store/pg.rs, which records it in referee_migrations. Never edited once shipped.

-- Roll requests (issue 20, item 4): a GM asks named characters for a check or a save, and each
-- player answers with a button. The request keeps the roll's options (never a result: results go
-- to the roll log, blind ones to its hidden table), and each named character's row says whether
-- it has rolled. Nothing here is hidden: the request message shows it all to the channel.
CREATE TABLE roll_requests (
    guild_id     BIGINT NOT NULL,
    id           BIGINT NOT NULL,
    gm_user_id   BIGINT NOT NULL,
    -- The command the press runs ('check' or 'tft save') and its options as a JSON array of
    -- [name, value] pairs, without the character (each press adds its own).
    command      TEXT NOT NULL,
    options_json TEXT NOT NULL,
    -- What is asked for, as the request message shows it.
    what         TEXT NOT NULL,
    mode         TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    closed_at    BIGINT,
    PRIMARY KEY (guild_id, id)
);

CREATE TABLE roll_request_characters (
    guild_id     BIGINT NOT NULL,
    request_id   BIGINT NOT NULL,
    character_id BIGINT NOT NULL,
    -- The order the GM named them in.
    position     BIGINT NOT NULL,
    -- Who pressed (the owner or a GM) and when; NULL while the character has not rolled.
    rolled_by    BIGINT,
    rolled_at    BIGINT,
    PRIMARY KEY (guild_id, request_id, character_id),
    FOREIGN KEY (guild_id, request_id) REFERENCES roll_requests (guild_id, id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);
