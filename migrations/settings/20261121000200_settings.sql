-- Settings as name/value strings: per user, per company and installation-wide.
CREATE TABLE user_settings (
    user_id {{BIGINT}} NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name    VARCHAR(64) NOT NULL,
    value   TEXT NOT NULL,
    PRIMARY KEY (user_id, name)
);

CREATE TABLE company_settings (
    company_id {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    name       VARCHAR(64) NOT NULL,
    value      TEXT NOT NULL,
    PRIMARY KEY (company_id, name)
);

CREATE TABLE global_settings (
    name  VARCHAR(64) PRIMARY KEY,
    value TEXT NOT NULL
);
