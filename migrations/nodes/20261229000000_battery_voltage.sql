-- A node's battery is two readings: `battery` in percent (0-100) and
-- `battery_voltage` in volts, each NULL until known (nodes.BatteryOf). Until
-- now `battery` took a decoder's reading in whatever unit it came (volts,
-- millivolts or percent) and `vdd` a voltage in volts or millivolts. The
-- readings are moved to the scale they belong to by nodes.BatteryOf's rules
-- (a `battery` up to 5 is volts, from 1000 millivolts), and those that fit
-- no scale are cleared: the next uplink sets them again.
ALTER TABLE tags RENAME COLUMN vdd TO battery_voltage;
UPDATE tags SET battery_voltage = CASE WHEN battery_voltage > 0 AND battery_voltage <= 100 THEN battery_voltage WHEN battery_voltage >= 1000 AND battery_voltage <= 100000 THEN ROUND(battery_voltage) / 1000 END WHERE battery_voltage IS NOT NULL;
UPDATE tags SET battery_voltage = CASE WHEN battery > 0 AND battery <= 5 THEN battery WHEN battery >= 1000 AND battery <= 100000 THEN ROUND(battery) / 1000 END WHERE battery_voltage IS NULL AND battery IS NOT NULL;
UPDATE tags SET battery = NULL WHERE battery < 0 OR battery > 100 OR (battery > 0 AND battery <= 5);
