package pages

import (
	"context"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/modules/nodes"
)

func TestClockOffWarnsOnlyWhenFarFromArrival(t *testing.T) {
	received := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	for _, tc := range []struct {
		name   string
		sent   time.Duration // before arrival
		known  bool
		warn   bool
		unitID string // the catalog id offsetText chooses
	}{
		{"on time", 3 * time.Second, true, false, "page.tag.offset.hours"},
		{"a network server's retries", 20 * time.Minute, true, false, "page.tag.offset.hours"},
		{"a day and an hour behind", day + time.Hour, true, true, "page.tag.offset.day"},
		{"five years behind", 5*365*day + 3*time.Hour, true, true, "page.tag.offset.years"},
		{"a year ahead", -366 * day, true, true, "page.tag.offset.year"},
		{"arrival unknown", 5 * 365 * day, false, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sent := received.Add(-tc.sent)
			tag := &nodes.Tag{LatestTime: &sent}
			if tc.known {
				tag.LatestReceivedAt = &received
			}
			off, warn := clockOff(tag)
			if warn != tc.warn {
				t.Errorf("warn %v, want %v (offset %s)", warn, tc.warn, off)
			}
			if tc.unitID != "" {
				if got := offsetText(context.Background(), off); got != tc.unitID {
					t.Errorf("offset %s written with %q, want %q", off, got, tc.unitID)
				}
			}
		})
	}
}
