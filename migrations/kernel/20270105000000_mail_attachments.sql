-- Files sent with a queued mail (kernel/mail attachments.go): kept until the
-- mail is sent, then deleted.
CREATE TABLE mail_attachments (
    id           {{ID}},
    mail_id      BIGINT NOT NULL REFERENCES mail_outbox (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL DEFAULT 0,
    name         TEXT NOT NULL,
    content_type TEXT NOT NULL DEFAULT '',
    data         {{BLOB}} NOT NULL
);

CREATE INDEX mail_attachments_mail ON mail_attachments (mail_id);
