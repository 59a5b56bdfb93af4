-- The character a player acts with (`/character use`), one per game system: commands that name
-- no character take it. A row whose character was deleted is ignored (and replaced by the next
-- `/character use`). Never edited once shipped.
CREATE TABLE active_characters (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    -- 'thiz' or 'tft'.
    system       TEXT NOT NULL,
    character_id INTEGER NOT NULL,
    set_at       INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id, system)
) STRICT;
