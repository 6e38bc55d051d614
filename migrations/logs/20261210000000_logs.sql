-- Log entries (SPEC.md section 3 "log entries"): what the portal learned about
-- a company's devices (joins, device status, the network servers' log
-- messages, downlink outcomes, decoder failures, DevEUIs sent to the node
-- pool) and its users (logins). company_id is NULL for an entry of the
-- installation, which only a SuperAdmin sees. An entry goes with its company
-- and with its user.
CREATE TABLE log_entries (
    id         {{ID}},
    company_id {{BIGINT}} REFERENCES companies (id) ON DELETE CASCADE,
    user_id    {{BIGINT}} REFERENCES users (id) ON DELETE CASCADE,
    type       VARCHAR(16) NOT NULL,
    message    TEXT NOT NULL,
    message_id VARCHAR(64) NOT NULL DEFAULT '',
    deveui     VARCHAR(16) NOT NULL DEFAULT '',
    data       TEXT NOT NULL DEFAULT '{}',
    created_at {{TIME}} NOT NULL
);

-- The list reads a company's newest entries first; retention deletes by age.
CREATE INDEX log_entries_company_time ON log_entries (company_id, created_at);
CREATE INDEX log_entries_company_deveui ON log_entries (company_id, deveui, created_at);
CREATE INDEX log_entries_time ON log_entries (created_at);

-- When each user last signed in or renewed a session: GET /logs/activeusers
-- counts the users of a company seen within a window. One row per user.
CREATE TABLE log_user_activity (
    user_id      {{BIGINT}} PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    company_id   {{BIGINT}} REFERENCES companies (id) ON DELETE SET NULL,
    last_seen_at {{TIME}} NOT NULL
);

CREATE INDEX log_user_activity_company ON log_user_activity (company_id, last_seen_at);
