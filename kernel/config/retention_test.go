package config

import (
	"strings"
	"testing"
)

// TestTagDataRetentionDays checks FIELDHUB_TSDB_RETENTION_DAYS: for good by
// default, accepted values and refused ones.
func TestTagDataRetentionDays(t *testing.T) {
	cases := []struct {
		name  string
		value string
		days  int
		bad   bool
	}{
		{name: "default keeps the tag data for good", days: 0},
		{name: "a year", value: "365", days: 365},
		{name: "negative", value: "-1", bad: true},
		{name: "a duration is no number of days", value: "90d", bad: true},
		{name: "beyond a century", value: "36501", bad: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"FIELDHUB_TSDB_RETENTION_DAYS": tc.value}
			c, err := Load(func(k string) string { return env[k] }, nil, nil)
			if tc.bad {
				if err == nil || !strings.Contains(err.Error(), "FIELDHUB_TSDB_RETENTION_DAYS") {
					t.Fatalf("got %v, want an error naming FIELDHUB_TSDB_RETENTION_DAYS", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.TSDBRetentionDays != tc.days {
				t.Errorf("tag data %d days, want %d", c.TSDBRetentionDays, tc.days)
			}
		})
	}
}
