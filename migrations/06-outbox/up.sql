-- The outbox (issue 18): every message the bot must post after answering an interaction (a GM
-- channel's copy of a private, blind or secret roll), kept until Discord has it.
--
-- A row is written in the same transaction as the roll it copies, with a provisional body (what
-- the GM is told if the bot dies before the command finishes); the command then replaces the body
-- with the full copy and sets `ready`. Rows are delivered in id order by a background task,
-- retried with backoff while Discord fails for a while (`next_at_ms`, `attempts`), deleted once
-- posted, and marked `failed_at` when Discord refuses for good (no channel, no access): the GM is
-- told once (`reported`). The id is global (AUTOINCREMENT, never reused): it is the message's
-- nonce, so a copy posted just before a crash is not posted twice.
CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    interaction TEXT    NOT NULL,
    roll_id     INTEGER,
    body        TEXT    NOT NULL,
    ready       INTEGER NOT NULL DEFAULT 0,
    attempts    INTEGER NOT NULL DEFAULT 0,
    next_at_ms  INTEGER NOT NULL DEFAULT 0,
    last_error  TEXT,
    failed_at   INTEGER,
    reported    INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL
) STRICT;

CREATE INDEX outbox_due ON outbox (next_at_ms) WHERE failed_at IS NULL;
CREATE INDEX outbox_interaction ON outbox (guild_id, interaction) WHERE ready = 0;
CREATE INDEX outbox_unreported ON outbox (guild_id) WHERE failed_at IS NOT NULL AND reported = 0;
