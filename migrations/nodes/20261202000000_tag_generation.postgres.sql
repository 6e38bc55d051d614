-- The generation of the tags' identities: a number that every change to what
-- a tag is (its company, application, name, DevEUI, decoder, keys, ...) or to
-- whether it exists raises, in the changing transaction. The ingest keeps the
-- tags it looked up in memory while the number stays the same, on every
-- instance (nodes' CachedTagsByDevEUI). What every uplink changes (the state
-- columns: latest time and data, battery, signal, alarm) does not raise it.
-- Triggers raise it, so that no writer, present or future, can forget to.
-- (Each trigger body stays on one line: migrations split at a line's ";".)
CREATE TABLE tag_generation (
    id INTEGER PRIMARY KEY,
    n  BIGINT NOT NULL
);
INSERT INTO tag_generation (id, n) VALUES (1, 0);

CREATE FUNCTION tag_generation_raise() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE tag_generation SET n = n + 1 WHERE id = 1; RETURN NULL; END $$;

CREATE TRIGGER tags_identity_changed AFTER UPDATE OF id, company_id, application_id, name, deveui, app_key, app_eui, profile, latitude, longitude, location, type, decoder ON tags
    FOR EACH STATEMENT EXECUTE FUNCTION tag_generation_raise();
CREATE TRIGGER tags_deleted AFTER DELETE ON tags FOR EACH STATEMENT EXECUTE FUNCTION tag_generation_raise();
CREATE TRIGGER tag_keys_changed AFTER INSERT OR UPDATE OR DELETE ON tag_keys FOR EACH STATEMENT EXECUTE FUNCTION tag_generation_raise();
CREATE TRIGGER tag_images_changed AFTER INSERT OR UPDATE OR DELETE ON tag_images FOR EACH STATEMENT EXECUTE FUNCTION tag_generation_raise();
