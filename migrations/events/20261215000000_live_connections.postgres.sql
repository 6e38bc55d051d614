-- The open live feed connections of every instance, one row each, so that
-- the caps on connections per user and per company hold across instances
-- (modules/events/internal/feed/limit.go). A row lives as long as its
-- connection; each instance marks its rows alive every 30 seconds, and rows
-- not marked for a while (an instance that died) are not counted, then
-- deleted. UNLOGGED: emptied after a crash, as the connections are.
-- SQLite runs one instance and counts in memory: it has no such table.
CREATE UNLOGGED TABLE live_connections (
    id         TEXT PRIMARY KEY,
    instance   TEXT NOT NULL,
    user_id    BIGINT NOT NULL,
    company_id BIGINT NOT NULL,
    seen_at    TIMESTAMPTZ NOT NULL
);

CREATE INDEX live_connections_user ON live_connections (user_id);
CREATE INDEX live_connections_company ON live_connections (company_id);
CREATE INDEX live_connections_instance ON live_connections (instance);
