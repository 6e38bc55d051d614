-- A company's scripts (the script engine) and the history of their runs.
-- A looping script's next_run is claimed with a compare-and-swap, so that
-- each run happens once across instances.
CREATE TABLE scripts (
    id          {{ID}},
    company_id  {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    name        VARCHAR(255) NOT NULL,
    type        INTEGER NOT NULL DEFAULT 1,
    interval_s  INTEGER NOT NULL DEFAULT 0,
    last_run    {{TIME}},
    enabled     {{BOOL}} NOT NULL DEFAULT FALSE,
    bound_tag   {{BIGINT}} REFERENCES tags (id) ON DELETE SET NULL,
    content     TEXT NOT NULL DEFAULT '',
    last_result TEXT NOT NULL DEFAULT '',
    last_error  TEXT NOT NULL DEFAULT '',
    failures    INTEGER NOT NULL DEFAULT 0,
    next_run    {{TIME}},
    created_at  {{TIME}} NOT NULL,
    updated_at  {{TIME}} NOT NULL
);

CREATE INDEX scripts_company ON scripts (company_id);
-- The triggered scripts of a node, looked up on every uplink.
CREATE INDEX scripts_bound_tag ON scripts (bound_tag);

CREATE TABLE script_runs (
    id          {{ID}},
    script_id   {{BIGINT}} NOT NULL REFERENCES scripts (id) ON DELETE CASCADE,
    company_id  {{BIGINT}} NOT NULL,
    started_at  {{TIME}} NOT NULL,
    duration_ms {{BIGINT}} NOT NULL DEFAULT 0,
    cause       VARCHAR(16) NOT NULL,
    result      TEXT NOT NULL DEFAULT '',
    error       TEXT NOT NULL DEFAULT '',
    actions     INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX script_runs_script ON script_runs (script_id, id);
