-- next_slot is where the gateway's next sample goes in its ring
-- (gateway_samples). Each flush moves it past the samples it writes, under
-- the gateway_seen row's lock, so that instances never write over each
-- other's samples of the same flush round.
ALTER TABLE gateway_seen ADD COLUMN next_slot INTEGER NOT NULL DEFAULT 0;
