-- PostgreSQL's version of up.sql beside it: deleted characters are kept for a while (issue 32).
-- Never edited once shipped.
ALTER TABLE characters ADD COLUMN deleted_at BIGINT;
ALTER TABLE characters ADD COLUMN deleted_by BIGINT;
