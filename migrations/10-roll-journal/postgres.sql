-- PostgreSQL's version of up.sql beside it: the roll journal's id leases (issue 33). No process
-- journals rolls on PostgreSQL; the table is here so that both backends insert rolls with the
-- same statement, and a database moved up from SQLite keeps its shape.
-- Never edited once shipped.
CREATE TABLE roll_id_leases (
    guild_id BIGINT NOT NULL,
    holder TEXT NOT NULL,
    last_id BIGINT NOT NULL,
    PRIMARY KEY (guild_id, holder)
);
