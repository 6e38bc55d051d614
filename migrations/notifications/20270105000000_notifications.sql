-- Notifications (SPEC.md section 3 "Notification"): per user, a label, a
-- message and the route of the page it leads to; unread until the user marks
-- it read. announced tells whether the dispatcher has told the live feed of
-- it (rows are stored in other modules' transactions, so only a committed
-- row may be announced). A notification goes with its user and its company.
CREATE TABLE notifications (
    id         {{ID}},
    user_id    {{BIGINT}} NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    company_id {{BIGINT}} REFERENCES companies (id) ON DELETE CASCADE,
    label      VARCHAR(255) NOT NULL,
    message    TEXT NOT NULL,
    route      VARCHAR(2048) NOT NULL DEFAULT '',
    read       {{BOOL}} NOT NULL DEFAULT FALSE,
    announced  {{BOOL}} NOT NULL DEFAULT FALSE,
    created_at {{TIME}} NOT NULL
);

-- The bell lists and counts a user's unread notifications, newest first.
CREATE INDEX notifications_user ON notifications (user_id, read, created_at);
CREATE INDEX notifications_company ON notifications (company_id);
-- The dispatcher looks for the rows it has not announced yet.
CREATE INDEX notifications_unannounced ON notifications (id) WHERE announced = FALSE;
