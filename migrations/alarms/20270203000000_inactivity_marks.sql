-- The inactivity job walks the nodes of each expected uplink interval
-- (tags.uplink_interval, 0 for none) apart, each from its own mark: how far
-- it has scanned their latest uplink times (up to and including at, then
-- ids up to tag_id). The mark of the nodes without an interval is the one
-- row of alarm_inactivity_scan so far.
CREATE TABLE alarm_inactivity_marks (
    uplink_interval INTEGER PRIMARY KEY,
    at              {{TIME}},
    tag_id          {{BIGINT}} NOT NULL DEFAULT 0
);
INSERT INTO alarm_inactivity_marks (uplink_interval, at, tag_id) SELECT 0, at, tag_id FROM alarm_inactivity_scan WHERE id = 1;
DROP TABLE alarm_inactivity_scan;
