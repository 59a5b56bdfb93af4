-- referee schema, version 2: what became of an Incapacitated THIZ character, and the days that
-- Knowledge (Surgery) counts in.

-- One row per THIZ character that has been through either: the condition recorded (dying, stable,
-- unconscious or dead; NULL when none is), and the character's own day count, which each day of
-- `/wound rest` moves on.
CREATE TABLE thiz_condition (
    guild_id     INTEGER NOT NULL,
    character_id INTEGER NOT NULL,
    condition    TEXT CHECK (condition IN ('dying', 'stable', 'unconscious', 'dead')),
    day          INTEGER NOT NULL DEFAULT 0 CHECK (day >= 0),
    PRIMARY KEY (guild_id, character_id),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
) STRICT;

-- The locations Knowledge (Surgery) healed a wound on, on which of the patient's days: at most one
-- wound per location per day.
CREATE TABLE surgery_treated (
    guild_id     INTEGER NOT NULL,
    character_id INTEGER NOT NULL,
    day          INTEGER NOT NULL,
    location     TEXT NOT NULL,
    PRIMARY KEY (guild_id, character_id, day, location),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
) STRICT;
