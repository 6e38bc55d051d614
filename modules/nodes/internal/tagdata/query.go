package tagdata

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// dataQuery reads the parameters of a tag data query, collecting what is wrong
// in v.
type dataQuery struct {
	v   errs.Validation
	q   url.Values
	now time.Time
}

func newQuery(r *http.Request) *dataQuery {
	return &dataQuery{q: r.URL.Query(), now: time.Now().UTC()}
}

// time reads an RFC 3339 time; ok is false when it is absent or invalid.
func (q *dataQuery) time(name string) (time.Time, bool) {
	raw := q.q.Get(name)
	if raw == "" {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, raw)
	if err != nil || t.Before(tsdb.MinTime) || !t.Before(tsdb.MaxTime) {
		q.v.Add(name, nodes.IDTagDataTime)
		return time.Time{}, false
	}
	return t.UTC(), true
}

// window reads from and to: to defaults to now, from to the default window
// before to.
func (q *dataQuery) window() (from, to time.Time) {
	to, ok := q.time("to")
	if !ok {
		to = q.now
	}
	from, ok = q.time("from")
	if !ok {
		from = to.Add(-defaultWindow)
	}
	if !q.v.Has("from") && !q.v.Has("to") && from.After(to) {
		q.v.Add("from", nodes.IDTagDataRange)
	}
	return from, to
}

// max reads the number of points, 1 to maxPointsLimit.
func (q *dataQuery) max() int {
	raw := q.q.Get("max")
	if raw == "" {
		return defaultMax
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > maxPointsLimit {
		q.v.AddArgs("max", nodes.IDTagDataMax, map[string]any{"max": maxPointsLimit})
		return defaultMax
	}
	return n
}

// id reads a positive integer id; ok is false when it is absent or bad.
func (q *dataQuery) id(name string) (int64, bool) {
	raw := q.q.Get(name)
	if raw == "" {
		return 0, false
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		q.v.AddArgs(name, errs.IDBadID, map[string]any{"id": raw})
		return 0, false
	}
	return id, true
}

// key reads an optional key; "" means the tag's default key.
func (q *dataQuery) key() string {
	k := q.q.Get("key")
	if k != "" {
		q.checkKey(k)
	}
	return k
}

// checkKey accepts any key the time series can hold, registered or not: it
// validates a series of that key (the company and DevEUI are placeholders).
func (q *dataQuery) checkKey(k string) {
	s := tsdb.Series{Company: 1, DevEUI: "0000000000000000", Key: k}
	var e *errs.Error
	if err := s.Validate(); errors.As(err, &e) {
		for _, f := range e.Fields {
			q.v.AddArgs(f.Field, f.ID, f.Args)
		}
	}
}
