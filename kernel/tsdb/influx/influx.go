// Package influx is the time-series store in InfluxDB, through the v1 HTTP
// API: line protocol to /write, InfluxQL to /query. That API is InfluxDB
// 1.x's own (the tests run against Debian's 1.6) and is also served by
// InfluxDB 2 and 3 for compatibility, so no client library is needed.
//
// # Configuration
//
// Open takes a URL such as http://user:password@127.0.0.1:8086/fieldhub:
// the database is the path, the credentials go in every request as HTTP
// basic authentication (InfluxDB 2 and 3 take a token as the password).
// Query parameters tune it:
//
//   - measurement: the measurement that holds the points (default tagdata).
//   - create=false: do not CREATE DATABASE at Open. InfluxDB 2 and 3 create
//     databases (buckets) their own way; 1.x needs it, and it is harmless
//     when the database exists.
//   - batch: points per /write request (default 5000).
//
// # Data layout
//
// Every point is one line of one measurement, tagged company, deveui and
// key, with a float field value or a string field text:
//
//	tagdata,company=1,deveui=70b3d57ed0000001,key=temperature value=21.5 1709251200000000
//
// Times are written and read in microseconds (precision=u, epoch=u), the
// resolution of every tsdb store. InfluxDB itself makes a rewrite of the
// same series and time an overwrite.
//
// # Reads
//
// Range counts the points first. Up to Options.RawLimit numbers it reads
// them all and downsamples in Go with tsdb.LTTB, as the SQL store does.
// Above that InfluxDB reduces them: per bucket of (to-from)/maxPoints the
// largest and the smallest number, with top(value,1) and bottom(value,1)
// (which keep the points' own times, unlike max and min under GROUP BY
// time), plus the first and last point; LTTB then picks maxPoints of those
// candidates. Aggregate is one GROUP BY time(bucket, offset) query with the
// offset that makes the buckets start at from.
//
// CopyNode reads a node's keys with SHOW TAG VALUES and its points a batch
// at a time, and writes them again with the other company's tag: a
// series' tags cannot be changed in place.
//
// DeleteNode and Prune use DROP SERIES and DELETE, which InfluxDB 1.x and
// 2.x serve; InfluxDB 3 has neither in InfluxQL, so there the retention of
// the database stands in for Prune.
package influx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// Defaults of the options.
const (
	DefaultMeasurement = "tagdata"
	DefaultBatch       = 5000
	DefaultRawLimit    = 5_000
)

// Options tune a Store beyond its URL; the zero value is the production
// setting.
type Options struct {
	// RawLimit is how many numbers Range reads raw before it asks
	// InfluxDB for per-bucket extremes; tests set it low.
	RawLimit int
	// HTTPClient sends the requests; nil means a client of its own with a
	// 30-second timeout per request.
	HTTPClient *http.Client
	// CopyBatch is how many points CopyNode reads and writes at a time
	// (DefaultBatch when zero); tests set it low.
	CopyBatch int
}

// Store is the InfluxDB time-series store. It implements tsdb.Store.
type Store struct {
	base        string // scheme://host:port, no trailing slash
	db          string
	user, pass  string
	auth        bool
	measurement string
	batch       int
	rawLimit    int
	copyBatch   int
	hc          *http.Client
	ownClient   bool
}

var _ tsdb.Store = (*Store)(nil)

// Open connects to the InfluxDB that rawURL names (see the package doc),
// checks that it answers /ping, and creates the database unless told not to.
func Open(ctx context.Context, rawURL string, opts Options) (*Store, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("influx url: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("influx url %q: want http(s)://[user:password@]host:port/database", redact(u))
	}
	s := &Store{
		base:        u.Scheme + "://" + u.Host,
		db:          strings.Trim(u.Path, "/"),
		measurement: DefaultMeasurement,
		batch:       DefaultBatch,
		rawLimit:    opts.RawLimit,
		copyBatch:   opts.CopyBatch,
		hc:          opts.HTTPClient,
	}
	if s.db == "" || strings.Contains(s.db, "/") {
		return nil, fmt.Errorf("influx url %q: the path must name one database, e.g. /fieldhub", redact(u))
	}
	if u.User != nil {
		s.auth = true
		s.user = u.User.Username()
		s.pass, _ = u.User.Password()
	}
	create := true
	for k, vs := range u.Query() {
		v := vs[len(vs)-1]
		switch k {
		case "measurement":
			if v == "" {
				return nil, fmt.Errorf("influx url: empty measurement")
			}
			s.measurement = v
		case "create":
			if create, err = strconv.ParseBool(v); err != nil {
				return nil, fmt.Errorf("influx url: create=%q: %w", v, err)
			}
		case "batch":
			if s.batch, err = strconv.Atoi(v); err != nil || s.batch <= 0 {
				return nil, fmt.Errorf("influx url: batch=%q: want a positive number", v)
			}
		default:
			return nil, fmt.Errorf("influx url: unknown parameter %q (known: measurement, create, batch)", k)
		}
	}
	if s.rawLimit <= 0 {
		s.rawLimit = DefaultRawLimit
	}
	if s.copyBatch <= 0 {
		s.copyBatch = DefaultBatch
	}
	if s.hc == nil {
		s.hc = &http.Client{Timeout: 30 * time.Second}
		s.ownClient = true
	}
	if err := s.ping(ctx); err != nil {
		return nil, err
	}
	if create {
		if _, err := s.query(ctx, http.MethodPost, "CREATE DATABASE "+ident(s.db)); err != nil {
			return nil, fmt.Errorf("create influx database %q: %w", s.db, err)
		}
	}
	return s, nil
}

// Close releases the idle connections of the store's own HTTP client.
func (s *Store) Close() error {
	if s.ownClient {
		s.hc.CloseIdleConnections()
	}
	return nil
}

func redact(u *url.URL) string { return u.Redacted() }

func (s *Store) ping(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/ping", nil)
	if err != nil {
		return fmt.Errorf("ping influx: %w", err)
	}
	resp, err := s.do(req)
	if err != nil {
		return fmt.Errorf("ping influx at %s: %w", s.base, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusNoContent && resp.StatusCode != http.StatusOK {
		return fmt.Errorf("ping influx at %s: %s", s.base, resp.Status)
	}
	return nil
}

// do sends a request with the store's credentials. A server that cannot be
// reached is errs.Unavailable.
func (s *Store) do(req *http.Request) (*http.Response, error) {
	if s.auth {
		req.SetBasicAuth(s.user, s.pass)
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		var netErr net.Error
		if errors.As(err, &netErr) && req.Context().Err() == nil {
			return nil, errs.New(errs.Unavailable, errs.IDUnavailable).Wrap(err)
		}
		return nil, err
	}
	return resp, nil
}

// httpError turns an unsuccessful answer into an error with InfluxDB's
// message; 5xx answers are errs.Unavailable.
func httpError(resp *http.Response) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	msg := strings.TrimSpace(string(body))
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		msg = e.Error
	}
	err := fmt.Errorf("influx answered %s: %s", resp.Status, msg)
	if resp.StatusCode >= 500 {
		return errs.New(errs.Unavailable, errs.IDUnavailable).Wrap(err)
	}
	return err
}

// Write stores points in batches of the configured size; see tsdb.Store.
func (s *Store) Write(ctx context.Context, points []tsdb.Point) error {
	if len(points) == 0 {
		return nil
	}
	if err := tsdb.ValidatePoints(points); err != nil {
		return err
	}
	pts := tsdb.Dedupe(points)
	var body bytes.Buffer
	for start := 0; start < len(pts); start += s.batch {
		body.Reset()
		for _, p := range pts[start:min(start+s.batch, len(pts))] {
			appendLine(&body, s.measurement, p)
		}
		if err := s.post(ctx, &body); err != nil {
			return fmt.Errorf("write %d points to influx: %w", len(pts), err)
		}
	}
	return nil
}

func (s *Store) post(ctx context.Context, body *bytes.Buffer) error {
	q := url.Values{"db": {s.db}, "precision": {"u"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.base+"/write?"+q.Encode(), bytes.NewReader(body.Bytes()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	resp, err := s.do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent && resp.StatusCode != http.StatusOK {
		return httpError(resp)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return nil
}

// appendLine writes p as one line of line protocol.
func appendLine(b *bytes.Buffer, measurement string, p tsdb.Point) {
	escape(b, measurement, ", ")
	b.WriteString(",company=")
	b.WriteString(strconv.FormatInt(p.Company, 10))
	b.WriteString(",deveui=")
	b.WriteString(p.DevEUI)
	b.WriteString(",key=")
	escape(b, p.Key, ", =")
	if p.IsText {
		b.WriteString(` text="`)
		escape(b, p.Text, `"\`)
		b.WriteByte('"')
	} else {
		b.WriteString(" value=")
		b.WriteString(strconv.FormatFloat(p.Value, 'g', -1, 64))
	}
	b.WriteByte(' ')
	b.WriteString(strconv.FormatInt(tsdb.Micros(p.Time), 10))
	b.WriteByte('\n')
}

// escape writes s with a backslash before each byte of special.
func escape(b *bytes.Buffer, s, special string) {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(special, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
}

// ident quotes an InfluxQL identifier.
func ident(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

// literal quotes an InfluxQL string literal.
func literal(s string) string {
	return `'` + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`).Replace(s) + `'`
}

// micros writes a time as an InfluxQL duration literal since the epoch.
func micros(us int64) string { return strconv.FormatInt(us, 10) + "u" }
