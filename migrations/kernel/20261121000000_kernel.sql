-- The kernel's own tables: the installation secret and the mail outbox.
CREATE TABLE IF NOT EXISTS kernel_secrets (
    name  VARCHAR(64) PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE mail_outbox (
    id              {{ID}},
    recipients      TEXT NOT NULL,
    subject         TEXT NOT NULL,
    body            TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at {{TIME}} NOT NULL,
    last_error      TEXT NOT NULL DEFAULT '',
    sent_at         {{TIME}},
    created_at      {{TIME}} NOT NULL
);

CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL;
