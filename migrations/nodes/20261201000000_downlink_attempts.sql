-- Delivery attempts of a downlink: how many the downlink worker made, and
-- when it may try again after one that failed for a reason that may pass.
ALTER TABLE downlinks ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE downlinks ADD COLUMN retry_at {{TIME}};
