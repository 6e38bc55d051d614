package httpapi

import (
	"testing"
	"time"
)

func TestNextHourIsTheCompanysClockHour(t *testing.T) {
	zone := func(name string) *time.Location {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		return loc
	}
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		name string
		t    time.Time
		loc  *time.Location
		want time.Time
	}{
		{"UTC", at("2026-11-27T05:27:29Z"), time.UTC, at("2026-11-27T06:00:00Z")},
		{"Stockholm hours are UTC hours", at("2026-11-27T05:27:29Z"), zone("Europe/Stockholm"), at("2026-11-27T06:00:00Z")},
		{"Kolkata hours start at half past UTC", at("2026-11-27T05:27:29Z"), zone("Asia/Kolkata"), at("2026-11-27T05:30:00Z")},
		{"the first 02:00 hour of a fall-back night", at("2026-10-25T00:15:00Z"), zone("Europe/Stockholm"), at("2026-10-25T01:00:00Z")},
		{"the repeated 02:00 hour", at("2026-10-25T01:15:00Z"), zone("Europe/Stockholm"), at("2026-10-25T02:00:00Z")},
		{"on the hour", at("2026-03-29T01:00:00Z"), zone("Europe/Stockholm"), at("2026-03-29T02:00:00Z")},
	} {
		if got := nextHour(tc.t, tc.loc); !got.Equal(tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got.UTC(), tc.want)
		}
	}
	// A day of 25 hours has 25 clock hours, each an hour long.
	sthlm := zone("Europe/Stockholm")
	n := 0
	for h, end := time.Date(2026, 10, 25, 0, 0, 0, 0, sthlm), time.Date(2026, 10, 26, 0, 0, 0, 0, sthlm); h.Before(end); h = nextHour(h, sthlm) {
		n++
	}
	if n != 25 {
		t.Errorf("the fall-back day has %d clock hours, want 25", n)
	}
}
