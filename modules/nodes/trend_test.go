package nodes

import (
	"errors"
	"testing"
	"time"
)

func TestTrendEdgesChooseTheBucketFromTheWindowAndEndAtNow(t *testing.T) {
	now := time.Date(2026, 11, 27, 10, 37, 13, 0, time.UTC)
	hour, day := time.Hour, 24*time.Hour
	for _, tc := range []struct {
		name       string
		window     time.Duration
		resolution string
		want       string
		buckets    int // including the partial first and last
	}{
		{"last hour, auto", hour, "", ResolutionHour, 2},
		{"last 5 hours, auto", 5 * hour, ResolutionAuto, ResolutionHour, 6},
		{"last 24 hours, auto", day, "", ResolutionHour, 25},
		{"last 24 hours asked in days draws hours", day, ResolutionDay, ResolutionHour, 25},
		{"last 7 days, auto", 7 * day, "", ResolutionHours5, 35},
		{"last 7 days in days", 7 * day, ResolutionDay, ResolutionDay, 8},
		{"last 7 days asked in weeks", 7 * day, ResolutionWeek, ResolutionHours5, 35},
		{"last 30 days, auto", 30 * day, "", ResolutionDay, 31},
		{"last 30 days in hours", 30 * day, ResolutionHour, ResolutionHour, 721},
		{"last year, auto", 365 * day, "", ResolutionWeek, 53},
	} {
		t.Run(tc.name, func(t *testing.T) {
			from := now.Add(-tc.window)
			edges, res, err := TrendEdges(from, now, tc.resolution, time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			if res != tc.want {
				t.Errorf("resolution %q, want %q", res, tc.want)
			}
			if got := len(edges) - 1; got != tc.buckets {
				t.Errorf("%d buckets, want %d", got, tc.buckets)
			}
			if !edges[0].Equal(from) || !edges[len(edges)-1].Equal(now) {
				t.Errorf("edges run %s to %s, want %s to now %s", edges[0], edges[len(edges)-1], from, now)
			}
			width := TrendWidths[res]
			for i := 1; i < len(edges)-1; i++ {
				if d := edges[i+1].Sub(edges[i]); i < len(edges)-2 && d != width {
					t.Errorf("bucket %d is %s wide, want %s", i, d, width)
				}
				if res != ResolutionWeek && res != ResolutionDay && edges[i].Truncate(time.Hour) != edges[i] {
					t.Errorf("inner edge %s is not on the hour", edges[i])
				}
			}
		})
	}
}

func TestTrendEdgesStartDaysAndWeeksAtMidnight(t *testing.T) {
	stockholm, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Skipf("no time zone data: %v", err)
	}
	now := time.Date(2026, 11, 27, 10, 37, 0, 0, time.UTC) // a Friday
	edges, _, err := TrendEdges(now.Add(-30*24*time.Hour), now, ResolutionDay, stockholm)
	if err != nil {
		t.Fatal(err)
	}
	if l := edges[1].In(stockholm); l.Hour() != 0 || l.Minute() != 0 {
		t.Errorf("the first whole day starts at %s, want midnight in Stockholm", l)
	}
	edges, _, err = TrendEdges(now.Add(-120*24*time.Hour), now, ResolutionWeek, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if w := edges[1]; w.Weekday() != time.Monday || w.Hour() != 0 {
		t.Errorf("the first whole week starts %s, want a Monday midnight", w)
	}
}

func TestTrendEdgesRefuseAnUnknownResolutionAndTooManyBuckets(t *testing.T) {
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	if _, _, err := TrendEdges(now.Add(-time.Hour*24), now, "minute", time.UTC); !errors.Is(err, ErrUnknownResolution) {
		t.Errorf("minute: %v, want ErrUnknownResolution", err)
	}
	if _, _, err := TrendEdges(time.Date(1990, 1, 1, 0, 0, 0, 0, time.UTC), now, ResolutionHour, time.UTC); err == nil {
		t.Error("36 years in hours: no error")
	}
}
