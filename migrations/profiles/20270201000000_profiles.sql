-- Device profiles: what a node of one device model gets when it is
-- created. company_id NULL is an installation-wide profile (a
-- SuperAdmin's), usable by every company. key_labels, alarms and dashboard are
-- JSON lists (the contract's KeyLabel, alarms.Template, DashboardModule).
CREATE TABLE device_profiles (
    id              {{ID}},
    company_id      {{BIGINT}} REFERENCES companies (id) ON DELETE CASCADE,
    name            VARCHAR(255) NOT NULL,
    vendor_id       VARCHAR(255) NOT NULL DEFAULT '',
    model_id        VARCHAR(255) NOT NULL DEFAULT '',
    decoder         VARCHAR(255) NOT NULL DEFAULT '',
    key_labels      TEXT NOT NULL,
    default_key     VARCHAR(255) NOT NULL DEFAULT '',
    uplink_interval INTEGER NOT NULL DEFAULT 0,
    alarms          TEXT NOT NULL,
    dashboard       TEXT NOT NULL,
    created_at      {{TIME}} NOT NULL,
    updated_at      {{TIME}} NOT NULL
);

-- A name is unique among a company's profiles, and among the
-- installation's (company 0 stands for NULL, which unique indexes would
-- not compare).
CREATE UNIQUE INDEX device_profiles_name ON device_profiles (COALESCE(company_id, 0), name);

-- The profile each node was created with; a node goes, its row goes.
CREATE TABLE profile_nodes (
    node_id    {{BIGINT}} PRIMARY KEY REFERENCES tags (id) ON DELETE CASCADE,
    profile_id {{BIGINT}} NOT NULL REFERENCES device_profiles (id) ON DELETE CASCADE
);

CREATE INDEX profile_nodes_profile ON profile_nodes (profile_id);
