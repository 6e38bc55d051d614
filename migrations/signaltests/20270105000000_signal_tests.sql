-- Field signal tests (SPEC.md section 3): a test of one node of a company,
-- and the points its uplinks added while it was active. A node has at most
-- one active test (the partial unique index, which also settles two starts
-- at once on different instances). Deleting the node or the company
-- deletes its tests.
CREATE TABLE signal_tests (
    id            {{ID}},
    company_id    {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    tag_id        {{BIGINT}} NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    deveui        VARCHAR(16) NOT NULL,
    tag_name      VARCHAR(255) NOT NULL DEFAULT '',
    description   VARCHAR(255) NOT NULL DEFAULT '',
    latitude_key  VARCHAR(255) NOT NULL DEFAULT '',
    longitude_key VARCHAR(255) NOT NULL DEFAULT '',
    started_at    {{TIME}} NOT NULL,
    ended_at      {{TIME}},
    active        {{BOOL}} NOT NULL
);

CREATE UNIQUE INDEX signal_tests_one_active ON signal_tests (tag_id) WHERE active;
CREATE INDEX signal_tests_company ON signal_tests (company_id, started_at);

-- rssi and snr are the best gateway's; receptions every gateway's, as JSON.
CREATE TABLE signal_test_points (
    id               {{ID}},
    test_id          {{BIGINT}} NOT NULL REFERENCES signal_tests (id) ON DELETE CASCADE,
    rssi             DOUBLE PRECISION,
    snr              DOUBLE PRECISION,
    lat              DOUBLE PRECISION,
    lng              DOUBLE PRECISION,
    gateway_id       VARCHAR(64) NOT NULL DEFAULT '',
    spreading_factor INTEGER NOT NULL DEFAULT 0,
    fcnt             {{BIGINT}} NOT NULL DEFAULT 0,
    receptions       TEXT NOT NULL DEFAULT '[]',
    created_at       {{TIME}} NOT NULL
);

CREATE INDEX signal_test_points_test ON signal_test_points (test_id, id);
