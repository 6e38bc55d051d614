package tsdb

import (
	"errors"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
)

func TestCalendarEdgesFollowTheZonesDays(t *testing.T) {
	sthlm, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Fatal(err)
	}
	local := func(y int, m time.Month, d, h int) time.Time { return time.Date(y, m, d, h, 0, 0, 0, sthlm) }
	for _, tc := range []struct {
		name     string
		from, to time.Time
		unit     CalendarUnit
		want     []time.Time
		hours    []float64 // the length of each bucket
	}{
		{"days of spring forward: 23 hours", local(2026, 3, 28, 0), local(2026, 3, 31, 0), Day,
			[]time.Time{local(2026, 3, 28, 0), local(2026, 3, 29, 0), local(2026, 3, 30, 0), local(2026, 3, 31, 0)},
			[]float64{24, 23, 24}},
		{"days of fall back: 25 hours", local(2026, 10, 24, 0), local(2026, 10, 27, 0), Day,
			[]time.Time{local(2026, 10, 24, 0), local(2026, 10, 25, 0), local(2026, 10, 26, 0), local(2026, 10, 27, 0)},
			[]float64{24, 25, 24}},
		{"partial first and last day", local(2026, 10, 24, 15), local(2026, 10, 26, 6), Day,
			[]time.Time{local(2026, 10, 24, 15), local(2026, 10, 25, 0), local(2026, 10, 26, 0), local(2026, 10, 26, 6)},
			[]float64{9, 25, 6}},
		{"weeks start on Monday", local(2026, 10, 21, 12), local(2026, 11, 4, 0), Week,
			[]time.Time{local(2026, 10, 21, 12), local(2026, 10, 26, 0), local(2026, 11, 2, 0), local(2026, 11, 4, 0)},
			[]float64{109, 168, 48}}, // the first holds the 25-hour 25 October
		{"months start on the 1st", local(2026, 2, 15, 0), local(2026, 4, 10, 0), Month,
			[]time.Time{local(2026, 2, 15, 0), local(2026, 3, 1, 0), local(2026, 4, 1, 0), local(2026, 4, 10, 0)},
			[]float64{14 * 24, 31*24 - 1, 9 * 24}},
		{"inside one day", local(2026, 3, 29, 1), local(2026, 3, 29, 5), Day,
			[]time.Time{local(2026, 3, 29, 1), local(2026, 3, 29, 5)}, []float64{3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CalendarEdges(tc.from, tc.to, sthlm, tc.unit)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if !got[i].Equal(tc.want[i]) {
					t.Fatalf("edge %d: got %v, want %v", i, got[i].In(sthlm), tc.want[i])
				}
				if i > 0 && got[i].Sub(got[i-1]).Hours() != tc.hours[i-1] {
					t.Errorf("bucket %d lasts %v, want %vh", i-1, got[i].Sub(got[i-1]), tc.hours[i-1])
				}
			}
		})
	}
}

func TestCalendarEdgesInUTCWithoutAZone(t *testing.T) {
	got, err := CalendarEdges(t0.Add(time.Hour), t0.Add(49*time.Hour), nil, Day)
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Time{t0.Add(time.Hour), t0.Add(24 * time.Hour), t0.Add(48 * time.Hour), t0.Add(49 * time.Hour)}
	if len(got) != len(want) || !got[1].Equal(want[1]) || !got[2].Equal(want[2]) || !got[3].Equal(want[3]) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestCalendarEdgesRefuse(t *testing.T) {
	for _, tc := range []struct {
		name     string
		from, to time.Time
		unit     CalendarUnit
		field    string
	}{
		{"from after to", t0.Add(time.Hour), t0, Day, "from"},
		{"unknown unit", t0, t0.Add(time.Hour), CalendarUnit(9), "unit"},
		{"too many buckets", t0, t0.AddDate(0, 0, MaxBuckets+1), Day, "unit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CalendarEdges(tc.from, tc.to, time.UTC, tc.unit)
			var e *errs.Error
			if !errors.As(err, &e) || e.Kind != errs.Invalid || len(e.Fields) == 0 || e.Fields[0].Field != tc.field {
				t.Fatalf("got %v, want an Invalid error on %s", err, tc.field)
			}
		})
	}
}
