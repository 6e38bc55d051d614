package config

import (
	"strings"
	"testing"
)

// TestRetentionDays checks the two retention settings: their defaults (log
// entries 90 days, tag data for good), accepted values and refused ones.
func TestRetentionDays(t *testing.T) {
	cases := []struct {
		name       string
		env        map[string]string
		logs, tsdb int
		bad        string // the option the error names, "" when it loads
	}{
		{name: "defaults", logs: 90, tsdb: 0},
		{name: "both set", env: map[string]string{"FIELDHUB_LOG_RETENTION_DAYS": "30", "FIELDHUB_TSDB_RETENTION_DAYS": "365"}, logs: 30, tsdb: 365},
		{name: "zero keeps log entries for good", env: map[string]string{"FIELDHUB_LOG_RETENTION_DAYS": "0"}, logs: 0, tsdb: 0},
		{name: "negative", env: map[string]string{"FIELDHUB_TSDB_RETENTION_DAYS": "-1"}, bad: "FIELDHUB_TSDB_RETENTION_DAYS"},
		{name: "a duration is no number of days", env: map[string]string{"FIELDHUB_LOG_RETENTION_DAYS": "90d"}, bad: "FIELDHUB_LOG_RETENTION_DAYS"},
		{name: "beyond a century", env: map[string]string{"FIELDHUB_LOG_RETENTION_DAYS": "36501"}, bad: "FIELDHUB_LOG_RETENTION_DAYS"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(func(k string) string { return tc.env[k] }, nil, nil)
			if tc.bad != "" {
				if err == nil || !strings.Contains(err.Error(), tc.bad) {
					t.Fatalf("got %v, want an error naming %s", err, tc.bad)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.LogRetentionDays != tc.logs || c.TSDBRetentionDays != tc.tsdb {
				t.Errorf("log entries %d days, tag data %d days; want %d and %d", c.LogRetentionDays, c.TSDBRetentionDays, tc.logs, tc.tsdb)
			}
		})
	}
}
