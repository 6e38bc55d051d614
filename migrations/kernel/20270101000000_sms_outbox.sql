-- Text messages waiting for their SMS provider (kernel/sms).
CREATE TABLE sms_outbox (
    id              {{ID}},
    company_id      BIGINT NOT NULL DEFAULT 0,
    recipients      TEXT NOT NULL,
    body            TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at {{TIME}} NOT NULL,
    last_error      TEXT NOT NULL DEFAULT '',
    sent_at         {{TIME}},
    created_at      {{TIME}} NOT NULL
);

CREATE INDEX sms_outbox_due ON sms_outbox (next_attempt_at) WHERE sent_at IS NULL;
