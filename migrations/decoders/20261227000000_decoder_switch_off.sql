-- A company's own decoder whose decodes broke the sandbox's limits (time,
-- memory, stack, output) too many times in a row is switched off: since
-- when, and the last limit it broke. NULL while it decodes. Saving or
-- activating a version, or switching it on, clears both.
ALTER TABLE decoders ADD COLUMN switched_off_at {{TIME}};
ALTER TABLE decoders ADD COLUMN switched_off_reason TEXT NOT NULL DEFAULT '';
