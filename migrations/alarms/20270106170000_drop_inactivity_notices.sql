-- The inactivity job claims the nodes it mails about by moving its mark
-- (alarm_inactivity_scan) with a compare-and-swap in the mails'
-- transaction; the row per silent node it wrote before is no longer read.
DROP TABLE alarm_inactivity;
