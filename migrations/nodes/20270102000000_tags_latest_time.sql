-- The inactivity alarm finds nodes silent since a time in one range scan.
CREATE INDEX tags_latest_time ON tags (latest_time, id);
