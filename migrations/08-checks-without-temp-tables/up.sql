-- Cheaper CHECK constraints (issue 18, item 6: CPU per interaction).
--
-- SQLite checks `column IN (a, b, c, …)` with more than two constant values by building a
-- temporary b-tree of the values, at every INSERT or UPDATE that checks it: for `rolls.mode`
-- that was every logged roll (about 12,000 instructions of a /roll's 100,000 in the store, by
-- callgrind). The same constraints as chains of `=` are checked with plain comparisons.
--
-- Each new constraint accepts exactly the values the old one did, so every row still satisfies
-- it, and SQLite's documented in-place procedure for changing a table's constraints applies
-- (https://sqlite.org/lang_altertable.html, "Making Other Kinds Of Table Schema Changes"): edit
-- the table's SQL in sqlite_schema; `writable_schema = RESET` makes this connection parse the
-- schema again (with OFF it would go on checking the old way until reopened), and the CREATE and
-- DROP of a scratch table change the schema cookie, so that every other connection does too.
-- A rebuilt table would have had to copy every roll, and its secret_rolls would have cascaded
-- away with the old one.
-- Never edited once shipped.
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
   SET sql = replace(sql,
         'mode IN (''public'', ''private'', ''blind'', ''self'', ''secret'')',
         'mode = ''public'' OR mode = ''private'' OR mode = ''blind'' OR mode = ''self'' OR mode = ''secret''')
 WHERE type = 'table' AND name = 'rolls';
UPDATE sqlite_schema
   SET sql = replace(sql,
         'level IN (''green'', ''yellow'', ''red'', ''black'')',
         'level = ''green'' OR level = ''yellow'' OR level = ''red'' OR level = ''black''')
 WHERE type = 'table' AND name = 'wounds';
UPDATE sqlite_schema
   SET sql = replace(sql,
         'condition IN (''dying'', ''stable'', ''unconscious'', ''dead'')',
         'condition = ''dying'' OR condition = ''stable'' OR condition = ''unconscious'' OR condition = ''dead''')
 WHERE type = 'table' AND name = 'thiz_condition';
PRAGMA writable_schema = RESET;
CREATE TABLE referee_schema_reload (x INTEGER);
DROP TABLE referee_schema_reload;
