-- Gateways a company registers under one of its applications; the EUI
-- (mac_address, 16 upper-case hexadecimal digits) is unique per company.
CREATE TABLE gateways (
    id             {{ID}},
    company_id     {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    application_id {{BIGINT}} NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    name           VARCHAR(255) NOT NULL,
    mac_address    VARCHAR(16) NOT NULL,
    latitude       DOUBLE PRECISION NOT NULL,
    longitude      DOUBLE PRECISION NOT NULL,
    created_at     {{TIME}} NOT NULL
);

CREATE UNIQUE INDEX gateways_company_eui ON gateways (company_id, mac_address);
CREATE INDEX gateways_application ON gateways (application_id);

-- When a company's uplinks last named a gateway, registered or not.
CREATE TABLE gateway_seen (
    company_id {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    eui        VARCHAR(16) NOT NULL,
    first_seen {{TIME}} NOT NULL,
    last_seen  {{TIME}} NOT NULL,
    PRIMARY KEY (company_id, eui)
);

-- The company's uplinks a gateway heard, per clock hour; every instance
-- adds its own counts.
CREATE TABLE gateway_uplinks (
    company_id {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    eui        VARCHAR(16) NOT NULL,
    bucket     {{TIME}} NOT NULL,
    uplinks    {{BIGINT}} NOT NULL,
    PRIMARY KEY (company_id, eui, bucket)
);

-- A bounded ring of a gateway's latest receptions for the medians of RSSI
-- and SNR: a new sample overwrites the slot it lands on.
CREATE TABLE gateway_samples (
    company_id {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    eui        VARCHAR(16) NOT NULL,
    slot       INTEGER NOT NULL,
    at         {{TIME}} NOT NULL,
    rssi       DOUBLE PRECISION,
    snr        DOUBLE PRECISION,
    PRIMARY KEY (company_id, eui, slot)
);
