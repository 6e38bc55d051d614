-- Points and hourly summaries as on PostgreSQL (see the .postgres.sql file of
-- the same name), as WITHOUT ROWID tables: SQLite then stores the rows in
-- primary-key order, so a series' time range is one sequential read.
-- As there, the primary key is the only index.
CREATE TABLE tsdb_points (
    series_id  INTEGER NOT NULL,
    ts         INTEGER NOT NULL,
    value      REAL,
    text_value TEXT,
    PRIMARY KEY (series_id, ts)
) WITHOUT ROWID;

CREATE TABLE tsdb_hours (
    series_id   INTEGER NOT NULL,
    hour        INTEGER NOT NULL,
    points      INTEGER NOT NULL,
    numbers     INTEGER NOT NULL,
    value_sum   REAL NOT NULL,
    min_value   REAL,
    min_ts      INTEGER,
    max_value   REAL,
    max_ts      INTEGER,
    first_value REAL,
    first_ts    INTEGER,
    last_value  REAL,
    last_ts     INTEGER,
    PRIMARY KEY (series_id, hour)
) WITHOUT ROWID;
