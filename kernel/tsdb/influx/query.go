package influx

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// result is one statement's answer of /query.
type result struct {
	Series []struct {
		Name    string              `json:"name"`
		Tags    map[string]string   `json:"tags"`
		Columns []string            `json:"columns"`
		Values  [][]json.RawMessage `json:"values"`
	} `json:"series"`
	Error string `json:"error"`
}

// rows returns the values of all series of a result (a query without GROUP
// BY tags has at most one).
func (r result) rows() [][]json.RawMessage {
	var out [][]json.RawMessage
	for _, s := range r.Series {
		out = append(out, s.Values...)
	}
	return out
}

// query runs one or more InfluxQL statements (separated by semicolons)
// and returns one result per statement. Reads go by GET, anything that
// changes data by POST, as InfluxDB 1.x requires.
func (s *Store) query(ctx context.Context, method, q string) ([]result, error) {
	params := url.Values{"q": {q}, "epoch": {"u"}}
	if !strings.HasPrefix(q, "CREATE DATABASE") {
		params.Set("db", s.db)
	}
	var req *http.Request
	var err error
	if method == http.MethodGet {
		req, err = http.NewRequestWithContext(ctx, method, s.base+"/query?"+params.Encode(), nil)
	} else {
		req, err = http.NewRequestWithContext(ctx, method, s.base+"/query", strings.NewReader(params.Encode()))
		if req != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
	}
	if err != nil {
		return nil, err
	}
	resp, err := s.do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, httpError(resp)
	}
	var body struct {
		Results []result `json:"results"`
		Error   string   `json:"error"`
	}
	dec := json.NewDecoder(resp.Body)
	if err := dec.Decode(&body); err != nil {
		return nil, fmt.Errorf("read influx answer: %w", err)
	}
	if body.Error != "" {
		return nil, fmt.Errorf("influx: %s", body.Error)
	}
	for _, r := range body.Results {
		if r.Error != "" {
			return nil, fmt.Errorf("influx: %s", r.Error)
		}
	}
	return body.Results, nil
}

// selectOne runs a read and returns the rows of its one statement.
func (s *Store) selectOne(ctx context.Context, q string) ([][]json.RawMessage, error) {
	res, err := s.query(ctx, http.MethodGet, q)
	if err != nil {
		return nil, err
	}
	if len(res) != 1 {
		return nil, fmt.Errorf("influx: %d results for one statement", len(res))
	}
	return res[0].rows(), nil
}

// where is the condition of one series in [f, t).
func (s *Store) where(se tsdb.Series, f, t int64) string {
	return s.tags(se) + " AND time >= " + micros(f) + " AND time < " + micros(t)
}

func (s *Store) tags(se tsdb.Series) string {
	return `"company" = ` + literal(strconv.FormatInt(se.Company, 10)) + ` AND "deveui" = ` + literal(se.DevEUI) +
		` AND "key" = ` + literal(se.Key)
}

func (s *Store) from() string { return " FROM " + ident(s.measurement) + " WHERE " }

func jsonInt(m json.RawMessage) (int64, error) {
	if string(m) == "null" {
		return 0, nil
	}
	return strconv.ParseInt(string(m), 10, 64)
}

func jsonFloat(m json.RawMessage) (float64, bool, error) {
	if string(m) == "null" {
		return 0, false, nil
	}
	v, err := strconv.ParseFloat(string(m), 64)
	return v, err == nil, err
}

// point parses a row of time, value, text.
func point(se tsdb.Series, row []json.RawMessage) (tsdb.Point, error) {
	if len(row) < 3 {
		return tsdb.Point{}, fmt.Errorf("influx: row %s has %d columns, want 3", row, len(row))
	}
	ts, err := jsonInt(row[0])
	if err != nil {
		return tsdb.Point{}, fmt.Errorf("influx: time %s: %w", row[0], err)
	}
	if string(row[2]) != "null" {
		var text string
		if err := json.Unmarshal(row[2], &text); err != nil {
			return tsdb.Point{}, fmt.Errorf("influx: text %s: %w", row[2], err)
		}
		return tsdb.Text(se, tsdb.FromMicros(ts), text), nil
	}
	v, _, err := jsonFloat(row[1])
	if err != nil {
		return tsdb.Point{}, fmt.Errorf("influx: value %s: %w", row[1], err)
	}
	return tsdb.Number(se, tsdb.FromMicros(ts), v), nil
}

func points(se tsdb.Series, rows [][]json.RawMessage) ([]tsdb.Point, error) {
	out := make([]tsdb.Point, 0, len(rows))
	for _, row := range rows {
		p, err := point(se, row)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// counts returns count(value) and count(text) of a condition.
func (s *Store) counts(ctx context.Context, cond string) (numbers, texts int64, err error) {
	rows, err := s.selectOne(ctx, `SELECT count("value"), count("text")`+s.from()+cond)
	if err != nil || len(rows) == 0 {
		return 0, 0, err
	}
	if len(rows[0]) < 3 {
		return 0, 0, fmt.Errorf("influx: count row %s", rows[0])
	}
	if numbers, err = jsonInt(rows[0][1]); err == nil {
		texts, err = jsonInt(rows[0][2])
	}
	if err != nil {
		return 0, 0, fmt.Errorf("influx: count row %s: %w", rows[0], err)
	}
	return numbers, texts, nil
}

// Range returns the points of a series; see tsdb.Store and the package doc.
func (s *Store) Range(ctx context.Context, se tsdb.Series, from, to time.Time, maxPoints int) ([]tsdb.Point, error) {
	if err := tsdb.ValidateRange(se, from, to, maxPoints); err != nil {
		return nil, err
	}
	f, t := tsdb.Micros(from), tsdb.Micros(to)
	if f >= t {
		return nil, nil
	}
	cond := s.where(se, f, t)
	numbers, texts, err := s.counts(ctx, cond)
	if err != nil {
		return nil, fmt.Errorf("range %s: %w", se, err)
	}
	raw := `SELECT "value", "text"` + s.from() + cond
	switch {
	case numbers+texts == 0:
		return nil, nil
	case texts > 0 && numbers+texts > int64(maxPoints):
		rows, err := s.selectOne(ctx, raw+" ORDER BY time DESC LIMIT "+strconv.Itoa(maxPoints))
		if err != nil {
			return nil, fmt.Errorf("range %s: %w", se, err)
		}
		pts, err := points(se, rows)
		slices.Reverse(pts)
		return pts, err
	case numbers > int64(max(s.rawLimit, maxPoints)):
		cand, err := s.extremes(ctx, se, f, t, maxPoints)
		if err != nil {
			return nil, fmt.Errorf("range %s: %w", se, err)
		}
		if len(cand) >= maxPoints {
			return tsdb.LTTB(cand, maxPoints), nil
		}
		// Points bunched in few buckets: only raw points can fill maxPoints.
	}
	rows, err := s.selectOne(ctx, raw)
	if err != nil {
		return nil, fmt.Errorf("range %s: %w", se, err)
	}
	pts, err := points(se, rows)
	if err != nil {
		return nil, err
	}
	return tsdb.LTTB(pts, maxPoints), nil
}

// extremes asks InfluxDB for the largest and smallest number of each of
// maxPoints buckets of [f, t), and the first and last number, and returns
// them as points in time order without repeats.
func (s *Store) extremes(ctx context.Context, se tsdb.Series, f, t int64, maxPoints int) ([]tsdb.Point, error) {
	w := max((t-f+int64(maxPoints)-1)/int64(maxPoints), 1)
	cond := s.where(se, f, t)
	group := " GROUP BY time(" + micros(w) + ", " + micros(floorMod(f, w)) + ")"
	q := strings.Join([]string{
		`SELECT top("value", 1)` + s.from() + cond + group,
		`SELECT bottom("value", 1)` + s.from() + cond + group,
		`SELECT "value"` + s.from() + cond + ` ORDER BY time ASC LIMIT 1`,
		`SELECT "value"` + s.from() + cond + ` ORDER BY time DESC LIMIT 1`,
	}, "; ")
	res, err := s.query(ctx, http.MethodGet, q)
	if err != nil {
		return nil, err
	}
	byTime := map[int64]float64{}
	for _, r := range res {
		for _, row := range r.rows() {
			if len(row) < 2 {
				return nil, fmt.Errorf("influx: row %s", row)
			}
			ts, err := jsonInt(row[0])
			if err != nil {
				return nil, fmt.Errorf("influx: time %s: %w", row[0], err)
			}
			v, ok, err := jsonFloat(row[1])
			if err != nil {
				return nil, fmt.Errorf("influx: value %s: %w", row[1], err)
			}
			if ok {
				byTime[ts] = v
			}
		}
	}
	times := make([]int64, 0, len(byTime))
	for ts := range byTime {
		times = append(times, ts)
	}
	slices.Sort(times)
	out := make([]tsdb.Point, len(times))
	for i, ts := range times {
		out[i] = tsdb.Number(se, tsdb.FromMicros(ts), byTime[ts])
	}
	return out, nil
}

func floorMod(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}

// Aggregate returns per-bucket aggregates; see tsdb.Store.
func (s *Store) Aggregate(ctx context.Context, se tsdb.Series, from, to time.Time, bucket time.Duration) ([]tsdb.Bucket, error) {
	if err := tsdb.ValidateAggregate(se, from, to, bucket); err != nil {
		return nil, err
	}
	f, t, w := tsdb.Micros(from), tsdb.Micros(to), bucket.Microseconds()
	if f >= t {
		return nil, nil
	}
	rows, err := s.selectOne(ctx, `SELECT min("value"), max("value"), mean("value"), last("value"), count("value")`+
		s.from()+s.where(se, f, t)+" GROUP BY time("+micros(w)+", "+micros(floorMod(f, w))+") fill(none)")
	if err != nil {
		return nil, fmt.Errorf("aggregate %s: %w", se, err)
	}
	out := make([]tsdb.Bucket, 0, len(rows))
	for _, row := range rows {
		if len(row) < 6 {
			return nil, fmt.Errorf("aggregate %s: influx row %s", se, row)
		}
		var b tsdb.Bucket
		ts, err := jsonInt(row[0])
		if err == nil {
			b.Count, err = jsonInt(row[5])
		}
		for i, dst := range []*float64{&b.Min, &b.Max, &b.Mean, &b.Last} {
			if err == nil {
				*dst, _, err = jsonFloat(row[1+i])
			}
		}
		if err != nil {
			return nil, fmt.Errorf("aggregate %s: influx row %s: %w", se, row, err)
		}
		if b.Count == 0 {
			continue
		}
		b.Start = tsdb.FromMicros(ts)
		out = append(out, b)
	}
	return out, nil
}

// AggregateEdges returns the aggregates of buckets between edges; see
// tsdb.Store. InfluxQL groups by fixed widths only, so the buckets are
// asked as those of the coarsest grid that holds every inner edge (GROUP
// BY time(g, offset) with g the greatest common divisor of the inner
// edges' distances: an hour for days across daylight-saving changes, a day
// for months) and merged; a grid finer than maxGrid buckets is asked as one
// statement a bucket instead.
func (s *Store) AggregateEdges(ctx context.Context, se tsdb.Series, edges []time.Time) ([]tsdb.Bucket, error) {
	if err := tsdb.ValidateEdges(se, edges); err != nil {
		return nil, err
	}
	e := make([]int64, 0, len(edges))
	for _, t := range edges {
		if us := tsdb.Micros(t); len(e) == 0 || us > e[len(e)-1] {
			e = append(e, us)
		}
	}
	if len(e) < 2 {
		return nil, nil
	}
	n := len(e) - 1
	f, t := e[0], e[n]
	sel := `SELECT min("value"), max("value"), sum("value"), last("value"), count("value")` + s.from()
	// Statements of one bucket each name it; the rows of the grid find
	// theirs by time.
	type statement struct {
		q      string
		bucket int
	}
	var stmts []statement
	if n == 1 {
		stmts = []statement{{sel + s.where(se, f, t), 0}}
	} else {
		g := t - f // one inner edge: a grid of two buckets
		if n > 2 {
			g = 0
			for i := 2; i < n; i++ {
				g = gcd(g, e[i]-e[i-1])
			}
		}
		if (t-f)/g+2 <= max(maxGrid, 16*int64(n)) {
			stmts = []statement{{sel + s.where(se, f, t) + " GROUP BY time(" + micros(g) + ", " +
				micros(floorMod(e[1], g)) + ") fill(none)", -1}}
		} else {
			for i := range n {
				stmts = append(stmts, statement{sel + s.where(se, e[i], e[i+1]), i})
			}
		}
	}
	accs := make([]tsdb.Bucket, n)
	sums := make([]float64, n)
	i := 0 // the bucket of the rows, which come in time order
	for batch := range slices.Chunk(stmts, statementsPerQuery) {
		qs := make([]string, len(batch))
		for k, st := range batch {
			qs[k] = st.q
		}
		// POST: many statements do not fit a URL.
		res, err := s.query(ctx, http.MethodPost, strings.Join(qs, "; "))
		if err != nil {
			return nil, fmt.Errorf("aggregate %s: %w", se, err)
		}
		if len(res) != len(batch) {
			return nil, fmt.Errorf("aggregate %s: influx: %d results for %d statements", se, len(res), len(batch))
		}
		for k, r := range res {
			for _, row := range r.rows() {
				if len(row) < 6 {
					return nil, fmt.Errorf("aggregate %s: influx row %s", se, row)
				}
				var b tsdb.Bucket
				var sum float64
				ts, err := jsonInt(row[0])
				if err == nil {
					b.Count, err = jsonInt(row[5])
				}
				for k, dst := range []*float64{&b.Min, &b.Max, &sum, &b.Last} {
					if err == nil {
						*dst, _, err = jsonFloat(row[1+k])
					}
				}
				if err != nil {
					return nil, fmt.Errorf("aggregate %s: influx row %s: %w", se, row, err)
				}
				if b.Count == 0 {
					continue
				}
				if batch[k].bucket >= 0 {
					i = batch[k].bucket
				} else {
					// A grid bucket may start before f.
					for i+1 < n && e[i+1] <= max(ts, f) {
						i++
					}
				}
				a := &accs[i]
				if a.Count == 0 || b.Min < a.Min {
					a.Min = b.Min
				}
				if a.Count == 0 || b.Max > a.Max {
					a.Max = b.Max
				}
				a.Last = b.Last // rows come in time order
				a.Count += b.Count
				sums[i] += sum
			}
		}
	}
	var out []tsdb.Bucket
	for i := range accs {
		if a := accs[i]; a.Count > 0 {
			a.Start = tsdb.FromMicros(e[i])
			a.Mean = sums[i] / float64(a.Count)
			out = append(out, a)
		}
	}
	return out, nil
}

const (
	// maxGrid is how many grid buckets AggregateEdges asks InfluxDB for
	// at least before it asks bucket by bucket.
	maxGrid = int64(tsdb.MaxBuckets)
	// statementsPerQuery is how many statements one request carries.
	statementsPerQuery = 500
)

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Latest returns the most recent point of a series; see tsdb.Store.
func (s *Store) Latest(ctx context.Context, se tsdb.Series) (tsdb.Point, bool, error) {
	if err := se.Validate(); err != nil {
		return tsdb.Point{}, false, err
	}
	rows, err := s.selectOne(ctx, `SELECT "value", "text"`+s.from()+s.tags(se)+" ORDER BY time DESC LIMIT 1")
	if err != nil {
		return tsdb.Point{}, false, fmt.Errorf("latest point of %s: %w", se, err)
	}
	if len(rows) == 0 {
		return tsdb.Point{}, false, nil
	}
	p, err := point(se, rows[0])
	return p, err == nil, err
}

// Count returns how many points a company's series hold; see tsdb.Store.
func (s *Store) Count(ctx context.Context, company int64, from, to time.Time) (int64, error) {
	if err := tsdb.ValidateCount(company, from, to); err != nil {
		return 0, err
	}
	f, t := tsdb.Micros(from), tsdb.Micros(to)
	if f >= t {
		return 0, nil
	}
	numbers, texts, err := s.counts(ctx, `"company" = `+literal(strconv.FormatInt(company, 10))+
		notRecord+" AND time >= "+micros(f)+" AND time < "+micros(t))
	if err != nil {
		return 0, fmt.Errorf("count points of company %d: %w", company, err)
	}
	return numbers + texts, nil
}

// notRecord leaves the records (tsdb.IsRecord) out of a count.
const notRecord = ` AND "key" !~ /^\$/`

// CountByNode returns how many points each node of a company holds; see
// tsdb.Store.
func (s *Store) CountByNode(ctx context.Context, company int64, from, to time.Time) (map[string]int64, error) {
	if err := tsdb.ValidateCount(company, from, to); err != nil {
		return nil, err
	}
	out := map[string]int64{}
	f, t := tsdb.Micros(from), tsdb.Micros(to)
	if f >= t {
		return out, nil
	}
	res, err := s.query(ctx, http.MethodGet, `SELECT count("value"), count("text")`+s.from()+
		`"company" = `+literal(strconv.FormatInt(company, 10))+notRecord+" AND time >= "+micros(f)+" AND time < "+micros(t)+
		` GROUP BY "deveui"`)
	if err != nil {
		return nil, fmt.Errorf("count points of the nodes of company %d: %w", company, err)
	}
	for _, r := range res {
		for _, se := range r.Series {
			for _, row := range se.Values {
				if len(row) < 3 {
					return nil, fmt.Errorf("count points of the nodes of company %d: influx row %s", company, row)
				}
				numbers, err := jsonInt(row[1])
				var texts int64
				if err == nil {
					texts, err = jsonInt(row[2])
				}
				if err != nil {
					return nil, fmt.Errorf("count points of the nodes of company %d: influx row %s: %w", company, row, err)
				}
				if n := numbers + texts; n > 0 {
					out[se.Tags["deveui"]] += n
				}
			}
		}
	}
	return out, nil
}

// DeleteNode removes every series of a node of a company; see tsdb.Store.
func (s *Store) DeleteNode(ctx context.Context, company int64, devEUI string) error {
	if err := tsdb.ValidateNode(company, devEUI); err != nil {
		return err
	}
	_, err := s.query(ctx, http.MethodPost, "DROP SERIES FROM "+ident(s.measurement)+
		` WHERE "company" = `+literal(strconv.FormatInt(company, 10))+` AND "deveui" = `+literal(devEUI))
	if err != nil {
		return fmt.Errorf("delete node %s: %w", devEUI, err)
	}
	return nil
}

// Prune removes the points older than before and returns how many there
// were, counted just before the delete; see tsdb.Store.
func (s *Store) Prune(ctx context.Context, before time.Time) (int64, error) {
	if err := tsdb.ValidatePrune(before); err != nil {
		return 0, err
	}
	cond := "time < " + micros(tsdb.Micros(before))
	numbers, texts, err := s.counts(ctx, cond)
	if err != nil {
		return 0, fmt.Errorf("prune: %w", err)
	}
	if numbers+texts == 0 {
		return 0, nil
	}
	if _, err := s.query(ctx, http.MethodPost, "DELETE FROM "+ident(s.measurement)+" WHERE "+cond); err != nil {
		return 0, fmt.Errorf("prune: %w", err)
	}
	return numbers + texts, nil
}

// dropDatabase removes the store's database; tests use it.
func (s *Store) dropDatabase(ctx context.Context) error {
	_, err := s.query(ctx, http.MethodPost, "DROP DATABASE "+ident(s.db))
	return err
}

// CopyNode copies the series of a node to another company; see tsdb.Store
// and the package doc.
func (s *Store) CopyNode(ctx context.Context, from, to int64, devEUI string) (int64, error) {
	if err := tsdb.ValidateCopy(from, to, devEUI); err != nil {
		return 0, err
	}
	node := `"company" = ` + literal(strconv.FormatInt(from, 10)) + ` AND "deveui" = ` + literal(devEUI)
	rows, err := s.selectOne(ctx, `SHOW TAG VALUES FROM `+ident(s.measurement)+` WITH KEY = "key" WHERE `+node)
	if err != nil {
		return 0, fmt.Errorf("copy node %s: keys: %w", devEUI, err)
	}
	var copied int64
	for _, row := range rows {
		var key string
		if len(row) < 2 || json.Unmarshal(row[1], &key) != nil {
			return copied, fmt.Errorf("copy node %s: influx key row %s", devEUI, row)
		}
		src := tsdb.Series{Company: from, DevEUI: devEUI, Key: key}
		target := tsdb.Series{Company: to, DevEUI: devEUI, Key: key}
		cond := "time >= " + micros(tsdb.Micros(tsdb.MinTime))
		for {
			page, err := s.selectOne(ctx, `SELECT "value", "text"`+s.from()+s.tags(src)+" AND "+cond+
				" ORDER BY time ASC LIMIT "+strconv.Itoa(s.copyBatch))
			if err != nil {
				return copied, fmt.Errorf("copy node %s: read %s: %w", devEUI, src, err)
			}
			pts, err := points(target, page)
			if err != nil {
				return copied, fmt.Errorf("copy node %s: %w", devEUI, err)
			}
			if len(pts) == 0 {
				break
			}
			if err := s.Write(ctx, pts); err != nil {
				return copied, fmt.Errorf("copy node %s: %w", devEUI, err)
			}
			copied += int64(len(pts))
			if len(pts) < s.copyBatch {
				break
			}
			cond = "time > " + micros(tsdb.Micros(pts[len(pts)-1].Time))
		}
	}
	return copied, nil
}
