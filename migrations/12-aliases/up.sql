-- Saved rolls (`/alias`): a dice expression kept under a name, rolled as `/roll attack` or
-- `/roll attack+2`. A player's own (owner_user_id: their user id) and the server's, set by a
-- GM (owner_user_id 0, which no Discord user has). Nothing here is hidden: a player reads their
-- own and the server's. Never edited once shipped.
CREATE TABLE roll_aliases (
    guild_id      INTEGER NOT NULL,
    -- The player whose saved roll it is, or 0 for the server's.
    owner_user_id INTEGER NOT NULL,
    -- The name's confusable key (app::characters::fields::confusable_key): "Attack", "ATTACK"
    -- and "Аttack" with a Cyrillic А are one name.
    name_key      TEXT NOT NULL,
    -- The name as set (canonical form: NFKC, single spaces).
    name          TEXT NOT NULL,
    -- The expression as set, checked by the dice parser when it was set.
    expression    TEXT NOT NULL,
    -- Who set it last (the player, or the GM for the server's), and when.
    updated_by    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    PRIMARY KEY (guild_id, owner_user_id, name_key)
) STRICT;
