-- PostgreSQL's version of up.sql beside it: ids that only rise (issue 57).
--
-- A per-guild id was `MAX(id) + 1` of its table, so deleting the newest row (an encounter's NPC
-- copies, deleted when the fight ends) gave its id to the next row made: an old button naming
-- the deleted copy acted on the new one. Each guild now keeps the last id it handed out of each
-- kind (`name`: the table, or `encounter_version`), and a new id is above both that and the
-- table's largest. An encounter's versions likewise start above every version an earlier
-- encounter of the guild reached, so a status button of an ended fight never matches a new one.
-- Never edited once shipped.
CREATE TABLE id_counters (
    guild_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    last_id BIGINT NOT NULL,
    PRIMARY KEY (guild_id, name)
);
INSERT INTO id_counters (guild_id, name, last_id)
    SELECT guild_id, 'characters', MAX(id) FROM characters GROUP BY guild_id;
INSERT INTO id_counters (guild_id, name, last_id)
    SELECT guild_id, 'roll_requests', MAX(id) FROM roll_requests GROUP BY guild_id;
INSERT INTO id_counters (guild_id, name, last_id)
    SELECT guild_id, 'encounter_version', MAX(version) FROM encounters GROUP BY guild_id;

-- A GM's approval of a character's sheet (issue 57): see up.sql.
CREATE TABLE character_approvals (
    guild_id BIGINT NOT NULL,
    character_id BIGINT NOT NULL,
    approved_by BIGINT NOT NULL,
    approved_at BIGINT NOT NULL,
    PRIMARY KEY (guild_id, character_id)
);
