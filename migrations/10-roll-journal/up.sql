-- Id leases of the roll journal (issue 33, the tail; src/store/journal.rs).
--
-- A bot process on SQLite answers a plain `/roll` once the roll is appended to a journal file of
-- its own, and folds the journal into `rolls` a moment later. The roll's id must be known when it
-- is answered ("Roll #n"), before its row exists, so the process takes a block of each guild's
-- next ids at a time: a lease, one row per guild and holder (the journal's name), up to
-- `last_id`. Every other insert into `rolls`, in any process, takes an id above both the guild's
-- largest roll and every lease of the guild, so it never takes a leased id. A lease is dropped
-- when its holder closes, or, after a crash, by the next process to open the file once it has
-- replayed the dead holder's journal.
-- Never edited once shipped.
CREATE TABLE roll_id_leases (
    guild_id INTEGER NOT NULL,
    holder TEXT NOT NULL,
    last_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, holder)
);
