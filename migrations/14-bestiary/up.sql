-- The bestiary (`/npc save|list|show`): a GM's NPC kept under a name, the whole of its sheet
-- (fields, skills, gear) as it was when saved, for `/encounter add npc:<name> count:4` to make
-- numbered copies of. Hidden like every NPC: read only for a verified GM. Never edited once
-- shipped.
CREATE TABLE npc_templates (
    guild_id      INTEGER NOT NULL,
    -- The key of the name (app::characters::bestiary: the confusable key of it in lowercase).
    name_key      TEXT NOT NULL,
    -- The name as saved (canonical form: NFKC, single spaces).
    name          TEXT NOT NULL,
    -- 'thiz' or 'tft', as characters.system.
    system        TEXT NOT NULL,
    -- The sheet, skills and gear as app::characters::bestiary writes them (versioned JSON).
    template_json TEXT NOT NULL,
    -- Who saved it last, and when.
    saved_by      INTEGER NOT NULL,
    saved_at      INTEGER NOT NULL,
    PRIMARY KEY (guild_id, name_key)
) STRICT;
