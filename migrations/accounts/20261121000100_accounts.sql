-- Companies, their users, sessions (refresh tokens), password resets and the
-- login attempts that rate limiting counts.
CREATE TABLE companies (
    id               {{ID}},
    name             VARCHAR(255) NOT NULL,
    org_number       VARCHAR(64) NOT NULL,
    postal_address   TEXT NOT NULL DEFAULT '',
    delivery_address TEXT NOT NULL DEFAULT '',
    contact_phone    VARCHAR(64) NOT NULL DEFAULT '',
    contact_email    VARCHAR(320) NOT NULL,
    reference_number VARCHAR(255) NOT NULL DEFAULT '',
    country          VARCHAR(2) NOT NULL DEFAULT '',
    created_at       {{TIME}} NOT NULL,
    updated_at       {{TIME}} NOT NULL
);

CREATE TABLE company_images (
    company_id   {{BIGINT}} PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
    content_type VARCHAR(64) NOT NULL,
    data         {{BLOB}} NOT NULL,
    version      VARCHAR(32) NOT NULL
);

CREATE TABLE users (
    id            {{ID}},
    company_id    {{BIGINT}} REFERENCES companies (id) ON DELETE SET NULL,
    email         VARCHAR(320) NOT NULL,
    first_name    VARCHAR(255) NOT NULL DEFAULT '',
    last_name     VARCHAR(255) NOT NULL DEFAULT '',
    phone_number  VARCHAR(32) NOT NULL DEFAULT '',
    password_hash TEXT NOT NULL,
    role          VARCHAR(32) NOT NULL,
    created_at    {{TIME}} NOT NULL,
    updated_at    {{TIME}} NOT NULL
);

CREATE UNIQUE INDEX users_email ON users (email);
CREATE INDEX users_company ON users (company_id);

CREATE TABLE sessions (
    id           VARCHAR(64) PRIMARY KEY,
    user_id      {{BIGINT}} NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    refresh_hash VARCHAR(64) NOT NULL,
    expires_at   {{TIME}} NOT NULL,
    created_at   {{TIME}} NOT NULL,
    user_agent   VARCHAR(255) NOT NULL DEFAULT ''
);

CREATE UNIQUE INDEX sessions_refresh ON sessions (refresh_hash);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE password_resets (
    id         VARCHAR(36) PRIMARY KEY,
    user_id    {{BIGINT}} NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at {{TIME}} NOT NULL,
    used_at    {{TIME}}
);

CREATE TABLE login_failures (
    id    {{ID}},
    email VARCHAR(320) NOT NULL,
    ip    VARCHAR(64) NOT NULL,
    at    {{TIME}} NOT NULL
);

CREATE INDEX login_failures_email ON login_failures (email, at);
CREATE INDEX login_failures_ip ON login_failures (ip, at);
