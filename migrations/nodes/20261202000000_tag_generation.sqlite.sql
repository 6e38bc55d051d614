-- The generation of the tags' identities: see the PostgreSQL form of this
-- migration. SQLite has row triggers only; one writer at a time, so raising
-- the number once per row costs nothing that matters.
CREATE TABLE tag_generation (
    id INTEGER PRIMARY KEY,
    n  INTEGER NOT NULL
);
INSERT INTO tag_generation (id, n) VALUES (1, 0);

CREATE TRIGGER tags_identity_changed AFTER UPDATE OF id, company_id, application_id, name, deveui, app_key, app_eui, profile, latitude, longitude, location, type, decoder ON tags BEGIN UPDATE tag_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER tags_deleted AFTER DELETE ON tags BEGIN UPDATE tag_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER tag_keys_inserted AFTER INSERT ON tag_keys BEGIN UPDATE tag_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER tag_keys_updated AFTER UPDATE ON tag_keys BEGIN UPDATE tag_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER tag_keys_deleted AFTER DELETE ON tag_keys BEGIN UPDATE tag_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER tag_images_inserted AFTER INSERT ON tag_images BEGIN UPDATE tag_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER tag_images_updated AFTER UPDATE ON tag_images BEGIN UPDATE tag_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER tag_images_deleted AFTER DELETE ON tag_images BEGIN UPDATE tag_generation SET n = n + 1 WHERE id = 1; END;
