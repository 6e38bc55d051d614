-- Applications, their nodes (tags) with data keys and pictures, the pool of
-- unknown DevEUIs, integration tokens and queued downlinks.
CREATE TABLE applications (
    id                        {{ID}},
    company_id                {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    name                      VARCHAR(255) NOT NULL,
    network_server            VARCHAR(16) NOT NULL DEFAULT 'generic',
    chirpstack_application_id VARCHAR(64) NOT NULL DEFAULT '',
    tts_downlink_url          TEXT NOT NULL DEFAULT '',
    tts_api_key               TEXT NOT NULL DEFAULT '',
    created_at                {{TIME}} NOT NULL,
    updated_at                {{TIME}} NOT NULL
);

CREATE INDEX applications_company ON applications (company_id);

-- A tag's company_id is always its application's; it is kept on the tag so
-- that every company-scoped query reads one table. Deleting an application
-- never takes its tags along (the key has no ON DELETE action, checked at the
-- end of the statement, so that deleting a company still removes both).
CREATE TABLE tags (
    id             {{ID}},
    company_id     {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    application_id {{BIGINT}} NOT NULL REFERENCES applications (id),
    name           VARCHAR(255) NOT NULL,
    deveui         VARCHAR(16) NOT NULL,
    app_key        TEXT NOT NULL DEFAULT '',
    app_eui        VARCHAR(16) NOT NULL DEFAULT '',
    profile        VARCHAR(255) NOT NULL DEFAULT '',
    latitude       DOUBLE PRECISION,
    longitude      DOUBLE PRECISION,
    location       VARCHAR(255) NOT NULL DEFAULT '',
    type           VARCHAR(64) NOT NULL DEFAULT '',
    decoder        VARCHAR(64) NOT NULL,
    battery        DOUBLE PRECISION,
    rssi           DOUBLE PRECISION,
    vdd            DOUBLE PRECISION,
    active_alarm   {{BOOL}} NOT NULL DEFAULT FALSE,
    latest_time    {{TIME}},
    latest_data    TEXT NOT NULL DEFAULT '{}',
    created_at     {{TIME}} NOT NULL,
    updated_at     {{TIME}} NOT NULL
);

CREATE UNIQUE INDEX tags_deveui ON tags (deveui);
CREATE INDEX tags_company ON tags (company_id);
CREATE INDEX tags_application ON tags (application_id);

CREATE TABLE tag_images (
    tag_id       {{BIGINT}} PRIMARY KEY REFERENCES tags (id) ON DELETE CASCADE,
    content_type VARCHAR(64) NOT NULL,
    data         {{BLOB}} NOT NULL,
    version      VARCHAR(32) NOT NULL
);

CREATE TABLE tag_keys (
    id          {{ID}},
    tag_id      {{BIGINT}} NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    tag_key     VARCHAR(64) NOT NULL,
    label       VARCHAR(255) NOT NULL DEFAULT '',
    unit        VARCHAR(32) NOT NULL DEFAULT '',
    decimals    INTEGER,
    is_default  {{BOOL}} NOT NULL DEFAULT FALSE,
    created_at  {{TIME}} NOT NULL
);

CREATE UNIQUE INDEX tag_keys_tag_key ON tag_keys (tag_id, tag_key);

CREATE TABLE node_pool (
    id           {{ID}},
    deveui       VARCHAR(16) NOT NULL,
    source       VARCHAR(64) NOT NULL DEFAULT '',
    status       VARCHAR(16) NOT NULL DEFAULT 'shown',
    created_at   {{TIME}} NOT NULL,
    last_seen_at {{TIME}} NOT NULL
);

CREATE UNIQUE INDEX node_pool_deveui ON node_pool (deveui);

-- Only the SHA-256 of a token is kept; hint is its first characters, so that
-- people can tell their tokens apart. A personal token (is_company false)
-- belongs to the user who made it and goes with them.
CREATE TABLE integration_tokens (
    id           {{ID}},
    company_id   {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    user_id      {{BIGINT}} REFERENCES users (id) ON DELETE CASCADE,
    label        VARCHAR(255) NOT NULL,
    is_company   {{BOOL}} NOT NULL,
    token_hash   VARCHAR(64) NOT NULL,
    hint         VARCHAR(16) NOT NULL,
    created_at   {{TIME}} NOT NULL,
    last_used_at {{TIME}}
);

CREATE UNIQUE INDEX integration_tokens_hash ON integration_tokens (token_hash);
CREATE INDEX integration_tokens_company ON integration_tokens (company_id);

CREATE TABLE downlinks (
    id           {{ID}},
    tag_id       {{BIGINT}} NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    port         INTEGER NOT NULL,
    payload      TEXT NOT NULL,
    payload_type VARCHAR(8) NOT NULL,
    confirmed    {{BOOL}} NOT NULL DEFAULT FALSE,
    status       VARCHAR(16) NOT NULL DEFAULT 'queued',
    detail       TEXT NOT NULL DEFAULT '',
    created_by   {{BIGINT}} REFERENCES users (id) ON DELETE SET NULL,
    created_at   {{TIME}} NOT NULL,
    updated_at   {{TIME}} NOT NULL
);

CREATE INDEX downlinks_tag ON downlinks (tag_id, created_at);
CREATE INDEX downlinks_queued ON downlinks (created_at) WHERE status = 'queued';
