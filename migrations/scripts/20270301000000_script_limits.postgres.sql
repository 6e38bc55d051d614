-- The per-minute counters of scripts' writes and sends, shared by the
-- instances (docs/decisions.md, "Scripts": limits). scope names what is
-- counted (a script's or a company's writes or sends), minute the minute
-- (Unix seconds / 60). A row matters for a minute and is deleted a few
-- minutes later, so the table is UNLOGGED: a crash empties it, which at
-- worst lets scripts do one more minute's worth. SQLite runs one instance
-- and counts in memory: it has no such table.
CREATE UNLOGGED TABLE script_limits (
    scope  VARCHAR(64) NOT NULL,
    minute BIGINT NOT NULL,
    used   BIGINT NOT NULL,
    PRIMARY KEY (scope, minute)
);
