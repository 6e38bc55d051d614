-- The Things Network's device repository as last imported (fieldhub devices
-- import, or the SuperAdmin's upload): its vendors, their device models and
-- the codecs, installation-wide. A node names an imported codec by its key
-- "ttn/<vendor>/<codec>" in tags.decoder. firmware_versions holds a model's
-- firmware versions with their profiles per region (JSON), from which device
-- profiles are made.
CREATE TABLE device_vendors (
    id          VARCHAR(64) PRIMARY KEY,
    name        VARCHAR(255) NOT NULL,
    website     VARCHAR(500) NOT NULL DEFAULT '',
    logo        VARCHAR(255) NOT NULL DEFAULT '',
    imported_at {{TIME}} NOT NULL
);

CREATE TABLE device_models (
    id                {{ID}},
    vendor_id         VARCHAR(64) NOT NULL REFERENCES device_vendors (id) ON DELETE CASCADE,
    model_id          VARCHAR(64) NOT NULL,
    name              VARCHAR(255) NOT NULL,
    description       TEXT NOT NULL DEFAULT '',
    picture           VARCHAR(500) NOT NULL DEFAULT '',
    firmware_versions TEXT NOT NULL DEFAULT '[]',
    imported_at       {{TIME}} NOT NULL
);

CREATE UNIQUE INDEX device_models_id ON device_models (vendor_id, model_id);

-- Every imported version of a codec is kept, as a company's own decoder's
-- are; exactly one is active. results holds each example's outcome (JSON);
-- a version with failed > 0 is shown failing.
CREATE TABLE device_codecs (
    id         {{ID}},
    key        VARCHAR(64) NOT NULL,
    vendor_id  VARCHAR(64) NOT NULL,
    codec_id   VARCHAR(64) NOT NULL,
    created_at {{TIME}} NOT NULL,
    updated_at {{TIME}} NOT NULL
);

CREATE UNIQUE INDEX device_codecs_key ON device_codecs (key);

CREATE TABLE device_codec_versions (
    id          {{ID}},
    codec_id    {{BIGINT}} NOT NULL REFERENCES device_codecs (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,
    source      TEXT NOT NULL,
    hash        VARCHAR(64) NOT NULL,
    encoder     {{BOOL}} NOT NULL DEFAULT FALSE,
    passed      INTEGER NOT NULL DEFAULT 0,
    failed      INTEGER NOT NULL DEFAULT 0,
    results     TEXT NOT NULL DEFAULT '[]',
    active      {{BOOL}} NOT NULL DEFAULT FALSE,
    imported_at {{TIME}} NOT NULL
);

CREATE UNIQUE INDEX device_codec_versions_number ON device_codec_versions (codec_id, version);
