-- The radio part of a spilled uplink (its node's id, fCnt, spreading factor
-- and receptions, as JSON), from which the other instances rebuild the
-- uplink for the partner API's Watch; NULL for a log entry
-- (modules/events/internal/feed/fanout.go).
ALTER TABLE live_events ADD COLUMN radio TEXT;
