-- Outbound forwarding: the targets of an application (an HTTP webhook or an
-- MQTT broker) with their delivery state, and the durable queue of each
-- target's uplinks. The state lives on the target's row, where one
-- conditional update claims the target's delivery (lease_until) on any
-- instance, so that a target's uplinks go out once and in order.
CREATE TABLE forwarding_targets (
    id              {{ID}},
    company_id      {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    application_id  {{BIGINT}} NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    name            VARCHAR(255) NOT NULL,
    kind            VARCHAR(16) NOT NULL,
    enabled         {{BOOL}} NOT NULL DEFAULT TRUE,
    url             VARCHAR(2048) NOT NULL,
    headers         TEXT NOT NULL DEFAULT '{}',
    sealed_secret   TEXT NOT NULL DEFAULT '',
    username        VARCHAR(255) NOT NULL DEFAULT '',
    sealed_password TEXT NOT NULL DEFAULT '',
    topic           VARCHAR(1024) NOT NULL DEFAULT '',
    -- Delivery state.
    delivered       {{BIGINT}} NOT NULL DEFAULT 0,
    failures        INTEGER NOT NULL DEFAULT 0,
    last_success    {{TIME}},
    last_errors     TEXT NOT NULL DEFAULT '[]',
    disabled_reason VARCHAR(32) NOT NULL DEFAULT '',
    next_attempt_at {{TIME}} NOT NULL,
    lease_until     {{TIME}},
    created_at      {{TIME}} NOT NULL,
    updated_at      {{TIME}} NOT NULL
);

CREATE INDEX forwarding_targets_application ON forwarding_targets (application_id);
CREATE INDEX forwarding_targets_company ON forwarding_targets (company_id);

-- One row per uplink and target, written in the ingest batch that stored the
-- uplink (before its request is answered) and deleted once delivered. A
-- sender's retry of the same uplink (same node and time) finds its row and
-- adds none.
CREATE TABLE forwarding_queue (
    id          {{ID}},
    target_id   {{BIGINT}} NOT NULL REFERENCES forwarding_targets (id) ON DELETE CASCADE,
    dev_eui     VARCHAR(16) NOT NULL,
    uplink_time {{TIME}} NOT NULL,
    body        TEXT NOT NULL,
    created_at  {{TIME}} NOT NULL
);

CREATE UNIQUE INDEX forwarding_queue_uplink ON forwarding_queue (target_id, dev_eui, uplink_time);
CREATE INDEX forwarding_queue_order ON forwarding_queue (target_id, id);
