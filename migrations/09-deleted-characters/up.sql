-- Deleted characters are kept for a while, so that a GM can bring one back (issue 32).
--
-- A deleted character keeps its row and everything hanging off it (sheet, luck and its ledger,
-- notes), with `deleted_at` set and its `name_key` moved aside (to a key no name can have), so
-- that its name is free and no lookup finds it. Every read of `characters` skips rows with
-- `deleted_at` set; a GM's restore clears it and takes the name back if it is still free.
-- Rows deleted longer ago than the keeping time are removed for good.
-- Never edited once shipped.
ALTER TABLE characters ADD COLUMN deleted_at INTEGER;
ALTER TABLE characters ADD COLUMN deleted_by INTEGER;
