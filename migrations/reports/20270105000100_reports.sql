-- Report subscriptions (modules/reports) and the periods they were sent
-- for. A scheduled send claims (report, period) with its row in the
-- transaction that queues the mail, so a period goes out once across
-- instances and restarts.
CREATE TABLE reports (
    id              {{ID}},
    company_id      BIGINT NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    name            TEXT NOT NULL,
    type            TEXT NOT NULL,
    tempo           INTEGER NOT NULL,
    reference_date  TEXT NOT NULL DEFAULT '',
    report_contacts TEXT NOT NULL DEFAULT '[]',
    node_ids        TEXT NOT NULL DEFAULT '[]',
    report_keys     TEXT NOT NULL DEFAULT '[]',
    resolution      TEXT NOT NULL DEFAULT 'hour',
    created_at      {{TIME}} NOT NULL,
    updated_at      {{TIME}} NOT NULL,
    last_sent       {{TIME}}
);

CREATE INDEX reports_company ON reports (company_id);

CREATE TABLE report_sends (
    id           {{ID}},
    report_id    BIGINT NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
    period_start {{TIME}} NOT NULL,
    period_end   {{TIME}} NOT NULL,
    sent_at      {{TIME}} NOT NULL
);

CREATE UNIQUE INDEX report_sends_period ON report_sends (report_id, period_start);
