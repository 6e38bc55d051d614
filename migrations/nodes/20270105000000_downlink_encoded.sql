-- The bytes a JSON downlink was encoded into by its node's decoder
-- (encodeDownlink), in upper-case hex, when it was queued; '' for hex and
-- base64 downlinks and for JSON ones without an encoder.
ALTER TABLE downlinks ADD COLUMN encoded TEXT NOT NULL DEFAULT '';
