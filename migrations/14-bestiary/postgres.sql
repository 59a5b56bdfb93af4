-- PostgreSQL version of 14-bestiary/up.sql: the same table, columns and key, with BIGINT for
-- SQLite's INTEGER and no STRICT. Applied by src/store/pg.rs, which records it in
-- referee_migrations. Never edited once shipped.

-- The bestiary (`/npc save|list|show`): a GM's NPC kept under a name, the whole of its sheet
-- (fields, skills, gear) as it was when saved. Hidden like every NPC.
CREATE TABLE npc_templates (
    guild_id      BIGINT NOT NULL,
    -- The key of the name (app::characters::bestiary: the confusable key of it in lowercase).
    name_key      TEXT NOT NULL,
    -- The name as saved (canonical form: NFKC, single spaces).
    name          TEXT NOT NULL,
    -- 'thiz' or 'tft', as characters.system.
    system        TEXT NOT NULL,
    -- The sheet, skills and gear as app::characters::bestiary writes them (versioned JSON).
    template_json TEXT NOT NULL,
    -- Who saved it last, and when.
    saved_by      BIGINT NOT NULL,
    saved_at      BIGINT NOT NULL,
    PRIMARY KEY (guild_id, name_key)
);
