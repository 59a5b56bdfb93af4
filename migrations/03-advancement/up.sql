-- Advancement between adventures (issue 16): a THIZ character's unspent skill points and the
-- piece of work they are crafting, as `/advance` keeps them. Nothing here is hidden: the owner
-- and the GM read it. One row per character, made on first use.
CREATE TABLE advancement (
    guild_id     INTEGER NOT NULL,
    character_id INTEGER NOT NULL,
    skill_points INTEGER NOT NULL DEFAULT 0,
    craft_json   TEXT,
    updated_at   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, character_id),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
) STRICT;
