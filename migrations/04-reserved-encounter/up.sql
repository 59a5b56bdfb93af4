-- PLACEHOLDER, branch h-req only: migration ids must be consecutive, and 04 belongs to the
-- encounter tracker (branch h-enc). Delete this directory when merging h-enc's 04.
SELECT 1;
