-- The watermarks of the hourly summaries on PostgreSQL (kernel/tsdb/sqlts,
-- seal.go). Hours before "sealed" have their rows in tsdb_hours, complete;
-- reads compute later hours from their points. Writers keep the rows of
-- hours before "writing" exact; later hours get points only, and the sealing
-- job summarises them once they have ended. sealed <= writing, both hour
-- starts in Unix microseconds, and neither ever goes back.
--
-- Both start at the current hour. Its rows, and those of later hours
-- (points from the future), are dropped: reads compute those hours from
-- their points until the job seals them.
CREATE TABLE tsdb_watermark (
    id      SMALLINT PRIMARY KEY CHECK (id = 1),
    sealed  BIGINT NOT NULL,
    writing BIGINT NOT NULL,
    CHECK (sealed <= writing)
);

INSERT INTO tsdb_watermark (id, sealed, writing)
SELECT 1, h, h FROM (SELECT floor(extract(epoch FROM now()) / 3600)::bigint * 3600000000 AS h) AS next;

DELETE FROM tsdb_hours WHERE hour >= (SELECT writing FROM tsdb_watermark);
