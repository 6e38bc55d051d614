-- Sessions that ended (a logout, a password reset, a role change, a
-- deletion) while access tokens of theirs may still be unexpired. Every
-- instance keeps the recent ones in memory and refuses those tokens; a row
-- is deleted once the last token it could stop has lapsed.
CREATE TABLE ended_sessions (
    session_id VARCHAR(64) PRIMARY KEY,
    ended_at   {{TIME}} NOT NULL
);

CREATE INDEX ended_sessions_at ON ended_sessions (ended_at);
