package tsdb

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
)

var (
	se = Series{Company: 1, DevEUI: "0123456789abcdef", Key: "k"}
	t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
)

func series(values ...float64) []Point {
	pts := make([]Point, len(values))
	for i, v := range values {
		pts[i] = Number(se, t0.Add(time.Duration(i)*time.Minute), v)
	}
	return pts
}

func values(pts []Point) []float64 {
	out := make([]float64, len(pts))
	for i, p := range pts {
		out[i] = p.Value
	}
	return out
}

func TestLTTB(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []float64
		n    int
		want []float64
	}{
		{"fewer than n", []float64{1, 2, 3}, 5, []float64{1, 2, 3}},
		{"as many as n", []float64{1, 2, 3}, 3, []float64{1, 2, 3}},
		{"n 1 is the last", []float64{1, 2, 3}, 1, []float64{3}},
		{"n 2 is first and last", []float64{1, 2, 3}, 2, []float64{1, 3}},
		{"a peak in each bucket", []float64{0, 0, 9, 0, 0, 0, -9, 0, 0, 0}, 4, []float64{0, 9, -9, 0}},
		// In the second bucket plain LTTB prefers -4, which spans a larger
		// triangle; the overall maximum 1 must stay instead.
		{"the maximum wins its bucket", []float64{0, 0, -5, 0, 0, 0, 1, 0, -4, 0}, 4, []float64{0, -5, 1, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := values(LTTB(series(tc.in...), tc.n))
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("exactly n, in time order", func(t *testing.T) {
		in := make([]float64, 10_000)
		for i := range in {
			in[i] = float64(i % 97)
		}
		for _, n := range []int{3, 10, 999, 1000, 9999} {
			got := LTTB(series(in...), n)
			if len(got) != n {
				t.Fatalf("n %d: got %d points", n, len(got))
			}
			for i := 1; i < len(got); i++ {
				if !got[i].Time.After(got[i-1].Time) {
					t.Fatalf("n %d: point %d not after point %d", n, i, i-1)
				}
			}
		}
	})
}

func TestDedupe(t *testing.T) {
	other := Series{Company: 1, DevEUI: "0123456789abcdef", Key: "a"}
	in := []Point{
		Number(se, t0.Add(time.Minute), 1),
		Number(se, t0, 2),
		Number(other, t0, 3),
		Number(se, t0.Add(time.Minute+time.Nanosecond), 4), // the same microsecond as the first
	}
	got := Dedupe(in)
	want := []Point{Number(other, t0, 3), Number(se, t0, 2), Number(se, t0.Add(time.Minute), 4)}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range got {
		if got[i].Series != want[i].Series || !got[i].Time.Equal(want[i].Time) || got[i].Value != want[i].Value {
			t.Fatalf("point %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if in[0].Value != 1 || in[3].Time.Nanosecond() != 1 {
		t.Fatal("Dedupe changed its input")
	}
}

func TestValidatePoints(t *testing.T) {
	bad := Number(Series{Company: 1, DevEUI: "0123456789ABCDEF", Key: ""}, time.Time{}, 0)
	pts := []Point{Number(se, t0, 1)}
	for range 30 {
		pts = append(pts, bad)
	}
	err := ValidatePoints(pts)
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind != errs.Invalid {
		t.Fatalf("got %v, want an Invalid error", err)
	}
	// Three problems per bad point, the first 20 bad points reported.
	if len(e.Fields) != 60 || e.Fields[0].Field != "points[1].devEui" || e.Fields[1].Field != "points[1].key" ||
		e.Fields[2].Field != "points[1].time" {
		t.Fatalf("fields: %d, first %+v", len(e.Fields), e.Fields[:3])
	}
	if err := ValidatePoints(pts[:1]); err != nil {
		t.Fatal(err)
	}
}

func TestValidDevEUI(t *testing.T) {
	for s, want := range map[string]bool{
		"0123456789abcdef":  true,
		"0123456789ABCDEF":  false,
		"0123456789abcde":   false,
		"0123456789abcdef0": false,
		"0123456789abcdeg":  false,
		"":                  false,
	} {
		if ValidDevEUI(s) != want {
			t.Errorf("ValidDevEUI(%q) = %v", s, !want)
		}
	}
}

func TestGrid(t *testing.T) {
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	h, m := time.Hour, time.Minute
	for _, tc := range []struct {
		name             string
		from, to, origin time.Time
		width            time.Duration
		want             []time.Time
	}{
		{"on the clock", at(0), at(3 * h), at(0), h, []time.Time{at(0), at(h), at(2 * h), at(3 * h)}},
		{"off the clock at both ends", at(37 * m), at(2*h + 37*m), at(0), h,
			[]time.Time{at(37 * m), at(h), at(2 * h), at(2*h + 37*m)}},
		{"origin after the window", at(10 * m), at(100 * m), at(48 * h), 30 * m,
			[]time.Time{at(10 * m), at(30 * m), at(60 * m), at(90 * m), at(100 * m)}},
		{"origin before the window, off the hour", at(0), at(2 * h), at(-24*h - 30*m), h,
			[]time.Time{at(0), at(30 * m), at(90 * m), at(2 * h)}},
		{"inside one bucket", at(5 * m), at(55 * m), at(0), h, []time.Time{at(5 * m), at(55 * m)}},
		{"empty window", at(5 * m), at(5 * m), at(0), h, []time.Time{at(5 * m), at(5 * m)}},
		{"to microseconds", at(time.Nanosecond), at(h + 1500*time.Nanosecond), at(0), h,
			[]time.Time{at(0), at(h), at(h + time.Microsecond)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Grid(tc.from, tc.to, tc.origin, tc.width)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(got, tc.want, time.Time.Equal) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		name             string
		from, to, origin time.Time
		width            time.Duration
		field            string
	}{
		{"from after to", at(h), at(0), at(0), h, "from"},
		{"zero width", at(0), at(h), at(0), 0, "width"},
		{"width below a second", at(0), at(h), at(0), time.Millisecond, "width"},
		{"width not in microseconds", at(0), at(h), at(0), time.Second + time.Nanosecond, "width"},
		{"origin out of range", at(0), at(h), time.Time{}, h, "origin"},
		// MaxBuckets-1 whole seconds and two partial ones.
		{"too many buckets", at(500 * time.Millisecond), at(MaxBuckets*time.Second + 600*time.Millisecond), at(0), time.Second, "width"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Grid(tc.from, tc.to, tc.origin, tc.width)
			var e *errs.Error
			if !errors.As(err, &e) || e.Kind != errs.Invalid || len(e.Fields) == 0 || e.Fields[0].Field != tc.field {
				t.Fatalf("got %v, want an Invalid error on %s", err, tc.field)
			}
		})
	}
	// MaxBuckets buckets fit: MaxBuckets-2 whole seconds and two partial ones.
	if edges, err := Grid(at(500*time.Millisecond), at((MaxBuckets-1)*time.Second+600*time.Millisecond), at(0), time.Second); err != nil || len(edges) != MaxBuckets+1 {
		t.Fatalf("got %d edges, %v; want %d", len(edges), err, MaxBuckets+1)
	}
}
