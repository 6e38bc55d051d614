-- A company's own device decoders (JavaScript codecs or WebAssembly modules)
-- and their versions. A node names one as "custom:<id>" in tags.decoder; the
-- decoders module refuses to delete a decoder that a node still names. A
-- decoder goes with its company.
CREATE TABLE decoders (
    id         {{ID}},
    company_id {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    name       VARCHAR(255) NOT NULL,
    kind       VARCHAR(8) NOT NULL,
    created_at {{TIME}} NOT NULL,
    updated_at {{TIME}} NOT NULL
);

CREATE INDEX decoders_company ON decoders (company_id);

-- Every version is kept, so that a decoder can be rolled back. Exactly one
-- version of a decoder is active: the one that decodes. A JavaScript version
-- keeps its source, a WebAssembly version its module. created_by_name keeps
-- the author's name as it was, since the user may go.
CREATE TABLE decoder_versions (
    id              {{ID}},
    decoder_id      {{BIGINT}} NOT NULL REFERENCES decoders (id) ON DELETE CASCADE,
    version         INTEGER NOT NULL,
    source          TEXT NOT NULL DEFAULT '',
    module          {{BLOB}},
    hash            VARCHAR(64) NOT NULL,
    size            INTEGER NOT NULL,
    active          {{BOOL}} NOT NULL DEFAULT FALSE,
    created_by      {{BIGINT}} REFERENCES users (id) ON DELETE SET NULL,
    created_by_name VARCHAR(255) NOT NULL DEFAULT '',
    created_at      {{TIME}} NOT NULL
);

CREATE UNIQUE INDEX decoder_versions_number ON decoder_versions (decoder_id, version);
CREATE INDEX decoder_versions_active ON decoder_versions (decoder_id, active);

-- The sandbox limits of one decode for a company's nodes; a company without
-- a row has the installation's defaults.
CREATE TABLE decoder_limits (
    company_id {{BIGINT}} PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
    time_ms    INTEGER NOT NULL,
    memory_mib INTEGER NOT NULL,
    updated_at {{TIME}} NOT NULL
);

-- Re-decode jobs: the stored uplinks of a company's nodes that use a decoder
-- (or of one of them), in a time window, decoded again by a background job.
-- Progress is kept here so that every instance shows it and a job left by a
-- stopped instance goes on where it was: node_index is the node being done
-- (in the order of node_ids), cursor_at the oldest uplink done of it (the
-- window's end before the first).
CREATE TABLE redecode_jobs (
    id           {{ID}},
    company_id   {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    decoder_key  VARCHAR(64) NOT NULL,
    tag_id       {{BIGINT}},
    from_at      {{TIME}} NOT NULL,
    to_at        {{TIME}} NOT NULL,
    status       VARCHAR(16) NOT NULL,
    node_ids     TEXT NOT NULL DEFAULT '[]',
    node_index   INTEGER NOT NULL DEFAULT 0,
    cursor_at    {{TIME}},
    uplinks      {{BIGINT}} NOT NULL DEFAULT 0,
    failed       {{BIGINT}} NOT NULL DEFAULT 0,
    message      TEXT NOT NULL DEFAULT '',
    created_by   {{BIGINT}} REFERENCES users (id) ON DELETE SET NULL,
    created_at   {{TIME}} NOT NULL,
    started_at   {{TIME}},
    finished_at  {{TIME}},
    updated_at   {{TIME}} NOT NULL
);

CREATE INDEX redecode_jobs_company ON redecode_jobs (company_id, created_at);
CREATE INDEX redecode_jobs_status ON redecode_jobs (status, id);
