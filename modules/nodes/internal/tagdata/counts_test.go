package tagdata

import (
	"testing"
	"time"
)

func TestWeekDaysAreTheZonesDays23And25HoursOnDaylightSavingDays(t *testing.T) {
	stockholm, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		now   time.Time
		hours []float64 // the six whole days; the seventh is today until now
	}{
		{"spring forward on the 29th of March", time.Date(2026, 3, 31, 9, 30, 0, 0, stockholm), []float64{24, 24, 24, 24, 23, 24}},
		{"fall back on the 25th of October", time.Date(2026, 10, 27, 9, 30, 0, 0, stockholm), []float64{24, 24, 24, 24, 25, 24}},
		{"no change", time.Date(2026, 11, 27, 9, 30, 0, 0, stockholm), []float64{24, 24, 24, 24, 24, 24}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bounds := weekDays(tc.now, stockholm)
			if len(bounds) != 8 {
				t.Fatalf("got %d bounds, want 8", len(bounds))
			}
			for i, b := range bounds[:7] {
				if l := b.In(stockholm); l.Hour() != 0 || l.Minute() != 0 {
					t.Errorf("day %d starts at %v, want local midnight", i, l)
				}
			}
			for i, want := range tc.hours {
				if got := bounds[i+1].Sub(bounds[i]).Hours(); got != want {
					t.Errorf("day %d lasts %vh, want %vh", i, got, want)
				}
			}
			if !bounds[7].Equal(tc.now) || bounds[7].Sub(bounds[6]) != 9*time.Hour+30*time.Minute {
				t.Errorf("today runs from %v to %v, want from midnight to now", bounds[6], bounds[7])
			}
		})
	}
}
