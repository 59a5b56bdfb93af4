-- Roll requests (issue 20, item 4): a GM asks named characters for a check or a save, and each
-- player answers with a button. The request keeps the roll's options (never a result: results go
-- to the roll log, blind ones to its hidden table), and each named character's row says whether
-- it has rolled. Nothing here is hidden: the request message shows it all to the channel.
CREATE TABLE roll_requests (
    guild_id     INTEGER NOT NULL,
    id           INTEGER NOT NULL,
    gm_user_id   INTEGER NOT NULL,
    -- The command the press runs ('check' or 'tft save') and its options as a JSON array of
    -- [name, value] pairs, without the character (each press adds its own).
    command      TEXT NOT NULL,
    options_json TEXT NOT NULL,
    -- What is asked for, as the request message shows it.
    what         TEXT NOT NULL,
    mode         TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    closed_at    INTEGER,
    PRIMARY KEY (guild_id, id)
) STRICT;

CREATE TABLE roll_request_characters (
    guild_id     INTEGER NOT NULL,
    request_id   INTEGER NOT NULL,
    character_id INTEGER NOT NULL,
    -- The order the GM named them in.
    position     INTEGER NOT NULL,
    -- Who pressed (the owner or a GM) and when; NULL while the character has not rolled.
    rolled_by    INTEGER,
    rolled_at    INTEGER,
    PRIMARY KEY (guild_id, request_id, character_id),
    FOREIGN KEY (guild_id, request_id) REFERENCES roll_requests (guild_id, id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
) STRICT;
