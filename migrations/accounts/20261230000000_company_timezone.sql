-- Each company's time zone (an IANA name), in which its people see times
-- and its days begin; existing companies get that of their country.
ALTER TABLE companies ADD COLUMN timezone VARCHAR(64) NOT NULL DEFAULT '';
UPDATE companies SET timezone = CASE country
    WHEN 'SE' THEN 'Europe/Stockholm' WHEN 'NO' THEN 'Europe/Oslo' WHEN 'DK' THEN 'Europe/Copenhagen'
    WHEN 'FI' THEN 'Europe/Helsinki' WHEN 'DE' THEN 'Europe/Berlin' WHEN 'GB' THEN 'Europe/London'
    WHEN 'US' THEN 'America/New_York' WHEN 'NL' THEN 'Europe/Amsterdam' ELSE 'UTC' END;
