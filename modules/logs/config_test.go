package logs_test

import (
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/config"
	"github.com/fieldhub/fieldhub/modules/logs"
)

// TestRetentionDaysOption checks FIELDHUB_LOG_RETENTION_DAYS: 90 days by
// default, 0 for good, and refused values named.
func TestRetentionDaysOption(t *testing.T) {
	cases := []struct {
		name  string
		value string
		days  int
		bad   bool
	}{
		{name: "default", days: 90},
		{name: "a month", value: "30", days: 30},
		{name: "zero keeps log entries for good", value: "0", days: 0},
		{name: "a duration is no number of days", value: "90d", bad: true},
		{name: "beyond a century", value: "36501", bad: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var cfg logs.Config
			env := map[string]string{"FIELDHUB_LOG_RETENTION_DAYS": tc.value}
			c, err := config.Load(func(k string) string { return env[k] }, nil, nil, cfg.Section())
			if err != nil {
				t.Fatal(err)
			}
			err = c.Apply(cfg.Section())
			if tc.bad {
				if err == nil || !strings.Contains(err.Error(), "FIELDHUB_LOG_RETENTION_DAYS") {
					t.Fatalf("got %v, want an error naming FIELDHUB_LOG_RETENTION_DAYS", err)
				}
				return
			}
			if err != nil || cfg.RetentionDays != tc.days {
				t.Errorf("%d days, %v; want %d", cfg.RetentionDays, err, tc.days)
			}
		})
	}
}
