-- Dashboards (SPEC.md section 3): a company's categories (a tree through
-- parent_id; the API names a parent by its guid), its dashboards, the
-- default dashboard of a user and of a company, the modules of a dashboard
-- with their attributes and settings, module pictures, and public links.
-- "index" of the API is "position" here (INDEX is an SQL keyword).

-- A category's parent is a category of the same company. The key has no ON
-- DELETE action: only an empty category may go (the module checks it), and
-- deleting a company removes all of its categories in one statement.
CREATE TABLE dashboard_categories (
    id          {{ID}},
    company_id  {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    guid        VARCHAR(36) NOT NULL,
    parent_id   {{BIGINT}} REFERENCES dashboard_categories (id),
    title       VARCHAR(255) NOT NULL,
    icon        VARCHAR(64) NOT NULL DEFAULT 'mdi-shape-outline',
    color       VARCHAR(7) NOT NULL DEFAULT '#2196F3',
    position    INTEGER NOT NULL DEFAULT 0,
    created_at  {{TIME}} NOT NULL,
    updated_at  {{TIME}} NOT NULL
);

CREATE UNIQUE INDEX dashboard_categories_guid ON dashboard_categories (guid);
CREATE INDEX dashboard_categories_company ON dashboard_categories (company_id, parent_id, position);

-- category_id NULL: the dashboard sits at the root of the tree.
CREATE TABLE dashboards (
    id          {{ID}},
    company_id  {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    category_id {{BIGINT}} REFERENCES dashboard_categories (id),
    name        VARCHAR(255) NOT NULL,
    position    INTEGER NOT NULL DEFAULT 0,
    created_at  {{TIME}} NOT NULL,
    updated_at  {{TIME}} NOT NULL
);

CREATE INDEX dashboards_company ON dashboards (company_id, category_id, position);

-- A user's default dashboard, per company (a SuperAdmin switches companies).
CREATE TABLE dashboard_user_defaults (
    user_id      {{BIGINT}} NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    company_id   {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    dashboard_id {{BIGINT}} NOT NULL REFERENCES dashboards (id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, company_id)
);

CREATE INDEX dashboard_user_defaults_dashboard ON dashboard_user_defaults (dashboard_id);

-- The company's default, for users who chose none.
CREATE TABLE dashboard_company_defaults (
    company_id   {{BIGINT}} PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
    dashboard_id {{BIGINT}} NOT NULL REFERENCES dashboards (id) ON DELETE CASCADE
);

CREATE INDEX dashboard_company_defaults_dashboard ON dashboard_company_defaults (dashboard_id);

-- A module of a dashboard. deveui is its node ("tag" in the API, '' for
-- none); attributes is a JSON object of the SPEC.md meta keys, every value
-- a string; the last columns are the module settings (SPEC.md section 3).
CREATE TABLE dashboard_modules (
    id             {{ID}},
    dashboard_id   {{BIGINT}} NOT NULL REFERENCES dashboards (id) ON DELETE CASCADE,
    title          VARCHAR(255) NOT NULL DEFAULT '',
    type           INTEGER NOT NULL,
    position       INTEGER NOT NULL DEFAULT 0,
    deveui         VARCHAR(16) NOT NULL DEFAULT '',
    size_small     VARCHAR(2) NOT NULL DEFAULT 'md',
    size_mid       VARCHAR(2) NOT NULL DEFAULT 'md',
    content        TEXT NOT NULL DEFAULT '',
    url            TEXT NOT NULL DEFAULT '',
    min_value      DOUBLE PRECISION,
    max_value      DOUBLE PRECISION,
    sync_chart     {{BOOL}} NOT NULL DEFAULT FALSE,
    card_color     VARCHAR(32) NOT NULL DEFAULT '',
    title_color    VARCHAR(32) NOT NULL DEFAULT '',
    value_color    VARCHAR(32) NOT NULL DEFAULT '',
    attributes     TEXT NOT NULL DEFAULT '{}',
    time_offset    {{BIGINT}} NOT NULL DEFAULT 0,
    map_zoom       DOUBLE PRECISION NOT NULL DEFAULT 7,
    map_lat        DOUBLE PRECISION,
    map_lng        DOUBLE PRECISION,
    map_type       VARCHAR(16) NOT NULL DEFAULT 'roadmap',
    image_map_zoom DOUBLE PRECISION NOT NULL DEFAULT -1,
    created_at     {{TIME}} NOT NULL,
    updated_at     {{TIME}} NOT NULL
);

CREATE INDEX dashboard_modules_dashboard ON dashboard_modules (dashboard_id, position);

CREATE TABLE dashboard_module_images (
    module_id    {{BIGINT}} PRIMARY KEY REFERENCES dashboard_modules (id) ON DELETE CASCADE,
    content_type VARCHAR(64) NOT NULL,
    data         {{BLOB}} NOT NULL,
    version      VARCHAR(32) NOT NULL
);

-- Public links. The token is kept as it is (not hashed): the company's list
-- shows each link for copying. It is 32 random bytes, base64url.
CREATE TABLE dashboard_public_links (
    id           {{ID}},
    company_id   {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    dashboard_id {{BIGINT}} NOT NULL REFERENCES dashboards (id) ON DELETE CASCADE,
    token        VARCHAR(64) NOT NULL,
    host         VARCHAR(255) NOT NULL DEFAULT '',
    expires_at   {{TIME}} NOT NULL,
    created_by   {{BIGINT}} REFERENCES users (id) ON DELETE SET NULL,
    created_at   {{TIME}} NOT NULL
);

CREATE UNIQUE INDEX dashboard_public_links_token ON dashboard_public_links (token);
CREATE INDEX dashboard_public_links_company ON dashboard_public_links (company_id, created_at);
