-- Fewer index pages written per logged roll (issue 18, item 6: bytes written per roll).
--
-- `rolls_by_user` served no query: the history filters by user through the primary key's index
-- (an optional filter, which SQLite cannot answer from a per-user index), so every roll paid a
-- page of an index nobody read. `rolls_by_character` keeps only rolls made for a character:
-- the one query that uses it (a character's recent rolls) always names one, and `/roll` and other
-- rolls without a character no longer write to it.
DROP INDEX rolls_by_user;
DROP INDEX rolls_by_character;
CREATE INDEX rolls_by_character ON rolls (guild_id, character_id, id) WHERE character_id IS NOT NULL;
