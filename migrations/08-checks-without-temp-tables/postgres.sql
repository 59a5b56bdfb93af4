-- PostgreSQL version of 08-checks-without-temp-tables/up.sql: nothing to change. PostgreSQL
-- checks `IN (…)` against a list without building anything, so its constraints stay as they are.
-- Applied by src/store/pg.rs, which records it in referee_migrations. Never edited once shipped.
SELECT 1;
