-- The SMS outbox tells a retry from a resend after a crash (kernel/sms):
-- dedupe_key is the message's idempotency key, provider_ids the provider's
-- ids of the recipients it accepted (JSON, number -> id), sending_since
-- marks an attempt in flight, unsure counts the attempts a crash
-- interrupted, failed_at is set when the outbox gives up.
ALTER TABLE sms_outbox ADD COLUMN dedupe_key TEXT NOT NULL DEFAULT '';
ALTER TABLE sms_outbox ADD COLUMN provider_ids TEXT NOT NULL DEFAULT '{}';
ALTER TABLE sms_outbox ADD COLUMN sending_since {{TIME}};
ALTER TABLE sms_outbox ADD COLUMN unsure INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sms_outbox ADD COLUMN failed_at {{TIME}};
DROP INDEX sms_outbox_due;
CREATE INDEX sms_outbox_due ON sms_outbox (next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL;

-- A mail names its company, for the log of its attempts.
ALTER TABLE mail_outbox ADD COLUMN company_id BIGINT NOT NULL DEFAULT 0;
