-- The mails that tell the owner of an address that someone tried to
-- register it again, counted so that the form cannot flood their mailbox.
CREATE TABLE registration_notices (
    id      {{ID}},
    user_id {{BIGINT}} NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    sent_at {{TIME}} NOT NULL
);

CREATE INDEX registration_notices_user ON registration_notices (user_id, sent_at);
