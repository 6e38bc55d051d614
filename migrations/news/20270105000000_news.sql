-- The installation's own news entries, which a SuperAdmin posts on /news
-- beside the entries of the configured feed. They belong to no company.
CREATE TABLE news_entries (
    id           {{ID}},
    title        VARCHAR(255) NOT NULL,
    body         TEXT NOT NULL,
    published_at {{TIME}} NOT NULL,
    created_at   {{TIME}} NOT NULL,
    updated_at   {{TIME}} NOT NULL
);

-- The page lists the newest first.
CREATE INDEX news_entries_published ON news_entries (published_at);
