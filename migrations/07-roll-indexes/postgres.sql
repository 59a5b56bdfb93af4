-- PostgreSQL version of 07-roll-indexes/up.sql: the same indexes dropped and rebuilt.
-- Applied by src/store/pg.rs, which records it in referee_migrations. Never edited once shipped.
DROP INDEX rolls_by_user;
DROP INDEX rolls_by_character;
CREATE INDEX rolls_by_character ON rolls (guild_id, character_id, id) WHERE character_id IS NOT NULL;
