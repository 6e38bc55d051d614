-- Node registrations refused because another company's node has the DevEUI
-- (nodes.Claim): company_id tried, owner_id has it. The limit of refused
-- claims counts a company's rows of the last hour; the node pool page lists
-- them for the SuperAdmin. Rows older than 30 days are deleted as new ones
-- come.
CREATE TABLE deveui_claims (
    id         {{ID}},
    company_id {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    owner_id   {{BIGINT}} NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    deveui     VARCHAR(16) NOT NULL,
    at         {{TIME}} NOT NULL
);

CREATE INDEX deveui_claims_company ON deveui_claims (company_id, at);
CREATE INDEX deveui_claims_at ON deveui_claims (at);
