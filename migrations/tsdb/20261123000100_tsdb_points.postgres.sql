-- Points: one row per series and microsecond (ts, Unix microseconds). The
-- primary key (series_id, ts) is the only index: it serves every range read,
-- makes a rewrite of the same time an update, and lets retention delete
-- series by series from the oldest end. (A BRIN index on ts was tried for
-- retention and dropped: the planner took it for the one-hour reads of the
-- write path, which then cost 50 ms instead of 0.1 ms on a 10-million-row
-- series.) No foreign key to tsdb_series: the store deletes a series' rows
-- itself, and a key check per inserted row would cost ingest throughput.
CREATE TABLE tsdb_points (
    series_id  BIGINT NOT NULL,
    ts         BIGINT NOT NULL,
    value      DOUBLE PRECISION,
    text_value TEXT,
    PRIMARY KEY (series_id, ts)
);

-- Hourly summaries of each series, kept exact by every write, so that a
-- downsampled month or an hourly trend reads hundreds of rows, not millions:
-- how many points (texts included) and numbers, their sum, and the minimum,
-- maximum, first and last number each with its time. A row exists exactly
-- for the hours that hold points.
CREATE TABLE tsdb_hours (
    series_id   BIGINT NOT NULL,
    hour        BIGINT NOT NULL,
    points      BIGINT NOT NULL,
    numbers     BIGINT NOT NULL,
    value_sum   DOUBLE PRECISION NOT NULL,
    min_value   DOUBLE PRECISION,
    min_ts      BIGINT,
    max_value   DOUBLE PRECISION,
    max_ts      BIGINT,
    first_value DOUBLE PRECISION,
    first_ts    BIGINT,
    last_value  DOUBLE PRECISION,
    last_ts     BIGINT,
    PRIMARY KEY (series_id, hour)
);
