-- A refresh token stays good for a few seconds after it is rotated, so that
-- two page loads that race to renew one browser session both succeed.
ALTER TABLE sessions ADD COLUMN previous_hash VARCHAR(64) NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN rotated_at {{TIME}};
CREATE INDEX sessions_previous ON sessions (previous_hash);
