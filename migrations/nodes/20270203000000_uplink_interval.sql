-- uplink_interval is how often a node is expected to send, in seconds (its
-- device profile's), 0 unknown. The inactivity alarm counts a node with one
-- silent after missing a few uplinks rather than after the installation's
-- default silence, so it walks the nodes of each interval apart: one range
-- scan of (uplink_interval, latest_time, id) each.
ALTER TABLE tags ADD COLUMN uplink_interval INTEGER NOT NULL DEFAULT 0;
DROP INDEX tags_latest_time;
CREATE INDEX tags_silence ON tags (uplink_interval, latest_time, id);
