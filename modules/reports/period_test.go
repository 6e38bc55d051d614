package reports

import (
	"testing"
	"time"
)

func TestLatestDue(t *testing.T) {
	sthlm, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time {
		v, err := time.ParseInLocation("2006-01-02 15:04", s, sthlm)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct {
		tempo    int
		now      string
		from, to string
		hours    float64
	}{
		{TempoDaily, "2026-03-30 03:00", "2026-03-29 00:00", "2026-03-30 00:00", 23},
		{TempoDaily, "2026-03-30 02:59", "2026-03-28 00:00", "2026-03-29 00:00", 24},
		{TempoDaily, "2026-10-26 03:10", "2026-10-25 00:00", "2026-10-26 00:00", 25},
		{TempoWeekly, "2026-03-30 03:00", "2026-03-23 00:00", "2026-03-30 00:00", 7*24 - 1},
		{TempoWeekly, "2026-03-30 01:00", "2026-03-16 00:00", "2026-03-23 00:00", 7 * 24},
		{TempoWeekly, "2026-04-02 12:00", "2026-03-23 00:00", "2026-03-30 00:00", 7*24 - 1},
		{TempoMonthly, "2026-04-01 03:00", "2026-03-01 00:00", "2026-04-01 00:00", 31*24 - 1},
		{TempoMonthly, "2026-03-01 02:00", "2026-01-01 00:00", "2026-02-01 00:00", 31 * 24},
		{TempoMonthly, "2026-11-15 12:00", "2026-10-01 00:00", "2026-11-01 00:00", 31*24 + 1},
	}
	for _, c := range cases {
		p := LatestDue(c.tempo, at(c.now), sthlm)
		if !p.From.Equal(at(c.from)) || !p.To.Equal(at(c.to)) || p.To.Sub(p.From).Hours() != c.hours {
			t.Errorf("tempo %d at %s: got %s - %s (%v h), want %s - %s (%v h)", c.tempo, c.now, p.From, p.To, p.To.Sub(p.From).Hours(), c.from, c.to, c.hours)
		}
	}
	if p := LastFinished(TempoMonthly, at("2026-04-01 01:00"), sthlm); !p.From.Equal(at("2026-03-01 00:00")) {
		t.Errorf("send now at 01:00 on the 1st: %s", p.From)
	}
}

func TestFileName(t *testing.T) {
	d := time.Date(2026, 3, 29, 0, 0, 0, 0, time.UTC)
	if got := FileName("Kylrum / vecka", d, FormatXLSX); got != "Kylrum-vecka-2026-03-29.xlsx" {
		t.Errorf("got %q", got)
	}
	if got := FileName("  ", d, FormatCSV); got != "report-2026-03-29.csv" {
		t.Errorf("got %q", got)
	}
}
