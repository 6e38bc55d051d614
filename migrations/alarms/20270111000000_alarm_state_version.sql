-- The evaluation of a batch of uplinks writes the time and value of the rules
-- whose state they leave as it was in one statement, without the row lock,
-- and only where the state is still the version it read: every write of the
-- state (an evaluation that moves it, an edit, a switch, an acknowledgement)
-- counts it up, so a concurrent change on another instance is never
-- overwritten; the rule is then evaluated again under its lock.
ALTER TABLE alarms ADD COLUMN state_version {{BIGINT}} NOT NULL DEFAULT 0;
