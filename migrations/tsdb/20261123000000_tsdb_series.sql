-- Time series of tag data, kept by the SQL time-series store (kernel/tsdb/sqlts).
-- A series is one key of one node of one company; the points and the hourly
-- summaries refer to it by id, which keeps their rows narrow. No foreign key
-- to companies: the store is part of the kernel, migrated before accounts.
CREATE TABLE tsdb_series (
    id         {{ID}},
    company_id {{BIGINT}} NOT NULL,
    deveui     VARCHAR(16) NOT NULL,
    tag_key    VARCHAR(255) NOT NULL
);

CREATE UNIQUE INDEX tsdb_series_name ON tsdb_series (company_id, deveui, tag_key);
