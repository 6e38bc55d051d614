-- What a node's state keeps of its uplinks beside the latest data:
-- latest_received_at is when the latest uplink arrived (latest_time is the
-- time it carries, as the network server sent it), so that the node page can
-- say when a device's clock or its network server's timestamps are off;
-- decode_error is the last uplink whose payload the decoder could not read,
-- as JSON {"p": payload hex, "f": port, "e": [errors]}, and decode_error_at
-- the time that uplink carries: equal to latest_time while the node's latest
-- uplink is the one that failed (the node list's marker).
ALTER TABLE tags ADD COLUMN latest_received_at {{TIME}};
ALTER TABLE tags ADD COLUMN decode_error TEXT;
ALTER TABLE tags ADD COLUMN decode_error_at {{TIME}};
