package sqlts

import (
	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// summary is one row of tsdb_hours, or the same fold over any set of
// points. The fold does not depend on the order of the points: ties of
// minimum and maximum go to the earliest time.
type summary struct {
	seriesID, hour  int64
	points, numbers int64
	sum             float64
	minV, maxV      float64
	minTS, maxTS    int64
	firstV, lastV   float64
	firstTS, lastTS int64
}

// add folds one point in; num is false for a text point.
func (h *summary) add(ts int64, v float64, num bool) {
	h.points++
	if !num {
		return
	}
	if h.numbers == 0 {
		h.numbers, h.sum = 1, v
		h.minV, h.maxV, h.firstV, h.lastV = v, v, v, v
		h.minTS, h.maxTS, h.firstTS, h.lastTS = ts, ts, ts, ts
		return
	}
	h.numbers++
	h.sum += v
	if v < h.minV || v == h.minV && ts < h.minTS {
		h.minV, h.minTS = v, ts
	}
	if v > h.maxV || v == h.maxV && ts < h.maxTS {
		h.maxV, h.maxTS = v, ts
	}
	if ts < h.firstTS {
		h.firstV, h.firstTS = v, ts
	}
	if ts > h.lastTS {
		h.lastV, h.lastTS = v, ts
	}
}

// candidates appends the summary's first, minimum, maximum and last number
// as points, in time order and without repeats.
func (h *summary) candidates(out []tsdb.Point, se tsdb.Series) []tsdb.Point {
	if h.numbers == 0 {
		return out
	}
	ts := []int64{h.firstTS, h.minTS, h.maxTS, h.lastTS}
	vs := []float64{h.firstV, h.minV, h.maxV, h.lastV}
	// Order the two middle ones by time; first and last bound them.
	if ts[1] > ts[2] {
		ts[1], ts[2] = ts[2], ts[1]
		vs[1], vs[2] = vs[2], vs[1]
	}
	for i := range ts {
		if len(out) > 0 && tsdb.Micros(out[len(out)-1].Time) >= ts[i] {
			continue
		}
		out = append(out, tsdb.Number(se, tsdb.FromMicros(ts[i]), vs[i]))
	}
	return out
}
