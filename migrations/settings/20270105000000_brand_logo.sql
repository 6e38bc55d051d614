-- The installation's logo, which the side menu shows instead of the brand
-- icon under a white-label license. One row at most (id 1).
CREATE TABLE brand_logo (
    id           INTEGER PRIMARY KEY,
    content_type VARCHAR(64) NOT NULL,
    data         {{BLOB}} NOT NULL,
    version      VARCHAR(32) NOT NULL,
    updated_at   {{TIME}} NOT NULL
);
