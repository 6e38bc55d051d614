-- Alarm rules on a node's key, their evaluation state, and every firing
-- (the history). The state lives on the rule's row so that one row lock (or
-- one conditional update) decides a firing, on any instance.
CREATE TABLE alarms (
    id                  {{ID}},
    company_id          {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    tag_id              {{BIGINT}} NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    name                VARCHAR(255) NOT NULL,
    priority            INTEGER NOT NULL DEFAULT 0,
    alarm_delay         INTEGER NOT NULL DEFAULT 0,
    active              {{BOOL}} NOT NULL DEFAULT TRUE,
    tag_data_key        VARCHAR(255) NOT NULL,
    message             TEXT NOT NULL DEFAULT '',
    limit_high          DOUBLE PRECISION,
    limit_low           DOUBLE PRECISION,
    contact_type        INTEGER NOT NULL DEFAULT 2,
    alarm_contacts      TEXT NOT NULL DEFAULT '[]',
    active_days         TEXT NOT NULL DEFAULT '[0,1,2,3,4,5,6]',
    signal_type         INTEGER NOT NULL DEFAULT 0,
    digital_trigger     DOUBLE PRECISION NOT NULL DEFAULT 1,
    trigger_high        {{BOOL}} NOT NULL DEFAULT FALSE,
    trigger_low         {{BOOL}} NOT NULL DEFAULT FALSE,
    advanced            {{BOOL}} NOT NULL DEFAULT FALSE,
    hysteresis          DOUBLE PRECISION NOT NULL DEFAULT 0,
    renotify_interval   INTEGER NOT NULL DEFAULT 0,
    escalate_after      INTEGER NOT NULL DEFAULT 0,
    escalation_contacts TEXT NOT NULL DEFAULT '[]',
    -- Evaluation state: since when the condition holds (NULL: it does not),
    -- whether the rule may fire (a firing disarms it until the value is back
    -- past the limit by the hysteresis band), the open firing, the last
    -- digital level (0 or 1) and the time of the last value evaluated.
    pending_since       {{TIME}},
    armed               {{BOOL}} NOT NULL DEFAULT TRUE,
    open_event_id       {{BIGINT}},
    digital_state       INTEGER,
    evaluated_at        {{TIME}},
    last_value          DOUBLE PRECISION,
    created_at          {{TIME}} NOT NULL,
    updated_at          {{TIME}} NOT NULL
);

CREATE INDEX alarms_company ON alarms (company_id);
CREATE INDEX alarms_tag ON alarms (tag_id);

CREATE TABLE alarm_events (
    id            {{ID}},
    alarm_id      {{BIGINT}} NOT NULL REFERENCES alarms (id) ON DELETE CASCADE,
    company_id    {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    tag_id        {{BIGINT}} NOT NULL,
    name          VARCHAR(255) NOT NULL,
    tag_data_key  VARCHAR(255) NOT NULL,
    value         DOUBLE PRECISION NOT NULL,
    message_sent  TEXT NOT NULL,
    channels      VARCHAR(32) NOT NULL DEFAULT '',
    triggered_at  {{TIME}} NOT NULL,
    cleared_at    {{TIME}},
    reset_at      {{TIME}},
    reset_by      {{BIGINT}},
    reset_by_name VARCHAR(255) NOT NULL DEFAULT '',
    notified_at   {{TIME}} NOT NULL,
    notify_count  INTEGER NOT NULL DEFAULT 1,
    escalated_at  {{TIME}}
);

CREATE INDEX alarm_events_alarm ON alarm_events (alarm_id, triggered_at);
CREATE INDEX alarm_events_company ON alarm_events (company_id, triggered_at);
-- The open firings of nodes (their activeAlarm) and of the installation.
CREATE INDEX alarm_events_open ON alarm_events (tag_id) WHERE reset_at IS NULL;

-- The silence of a node the inactivity job has mailed about: silent_since
-- is the node's latest uplink time when it went silent. A node that speaks
-- and goes silent again has a later silent_since, which the job's
-- conditional upsert takes once.
CREATE TABLE alarm_inactivity (
    tag_id       {{BIGINT}} PRIMARY KEY REFERENCES tags (id) ON DELETE CASCADE,
    silent_since {{TIME}} NOT NULL,
    notified_at  {{TIME}} NOT NULL
);

-- How far the inactivity job has scanned (latest uplink times up to and
-- including at, then ids up to tag_id): one row.
CREATE TABLE alarm_inactivity_scan (
    id      INTEGER PRIMARY KEY,
    at      {{TIME}},
    tag_id  {{BIGINT}} NOT NULL DEFAULT 0
);
INSERT INTO alarm_inactivity_scan (id, at, tag_id) VALUES (1, NULL, 0);
