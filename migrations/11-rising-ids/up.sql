-- Ids that only rise (issue 57: stale buttons acted on another fight).
--
-- A per-guild id was `MAX(id) + 1` of its table, so deleting the newest row (an encounter's NPC
-- copies, deleted when the fight ends) gave its id to the next row made: an old button naming
-- the deleted copy acted on the new one. Each guild now keeps the last id it handed out of each
-- kind (`name`: the table, or `encounter_version`), and a new id is above both that and the
-- table's largest. An encounter's versions likewise start above every version an earlier
-- encounter of the guild reached, so a status button of an ended fight never matches a new one.
-- Never edited once shipped.
CREATE TABLE id_counters (
    guild_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    last_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, name)
);
INSERT INTO id_counters (guild_id, name, last_id)
    SELECT guild_id, 'characters', MAX(id) FROM characters GROUP BY guild_id;
INSERT INTO id_counters (guild_id, name, last_id)
    SELECT guild_id, 'roll_requests', MAX(id) FROM roll_requests GROUP BY guild_id;
INSERT INTO id_counters (guild_id, name, last_id)
    SELECT guild_id, 'encounter_version', MAX(version) FROM encounters GROUP BY guild_id;

-- A GM's approval of a character's sheet (issue 57): once approved, and while the guild's
-- switch `sheets_lock_when_approved` is on (the default), the player changes its attributes,
-- traits and skills only through the advancement commands; a GM changes anything.
CREATE TABLE character_approvals (
    guild_id INTEGER NOT NULL,
    character_id INTEGER NOT NULL,
    approved_by INTEGER NOT NULL,
    approved_at INTEGER NOT NULL,
    PRIMARY KEY (guild_id, character_id)
);
