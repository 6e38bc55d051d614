// Package tsdb is the time-series store of tag data: the values that nodes
// report under their keys (temperature, battery, a door state, a status text).
// One interface, Store, has two implementations: sqlts keeps the data in the
// SQL database (SQLite, the embedded default, or PostgreSQL), and influx keeps
// it in InfluxDB through its v1 HTTP API. Both pass the same conformance suite
// (tsdbtest).
//
// # Model
//
// A series is identified by a company, a node's DevEUI (16 lower-case
// hexadecimal digits) and a key. Its points hold either a number or a text;
// callers store booleans as the numbers 0 and 1. A series holds one point per
// instant: writing a point at a time the series already has replaces the
// point, so that a redelivered uplink changes nothing. Times are kept to the
// microsecond; finer parts are cut off. A series belongs to the company that
// wrote it: the same node and key written by another company is another
// series, so data never crosses companies, even when a node changes hands.
//
// Time windows are half-open: from is included, to is not.
//
// # Lifecycle
//
// The application (app.OpenSeries) opens one Store at start (sqlts.New on
// the kernel's database, or influx.Open when INFLUX_URL is set), hands it to
// the modules that need it, and closes it at shutdown, after them. A Store is safe for concurrent use by
// any number of goroutines and by several instances of the portal sharing one
// database. Retention is the caller's: a daily job calls Prune with the oldest
// time to keep.
//
// # Errors
//
// Invalid arguments (a bad DevEUI, an empty key or one with a control
// character or a backslash, from after to, maxPoints or bucket out of range,
// a NaN value) return an errs.Invalid error whose fields name the argument
// and whose IDs are the constants below, before anything is read or written. A backend that cannot be reached returns errs.Unavailable.
// Anything else (a failing database, a cancelled context) is returned wrapped,
// and counts as errs.Internal. A series that does not exist is not an error:
// it reads as empty.
package tsdb

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel/errs"
)

// Store keeps and reads the points of series. All methods take the caller's
// context first and are safe for concurrent use.
type Store interface {
	// Write stores points, of any number of series, in one batch. When it
	// returns nil the points are durable (the HTTP ingest answers only
	// after this). A point at a time its series already holds replaces it;
	// within one batch the last point for a time wins. A batch is written
	// all or nothing in the SQL store; InfluxDB may keep part of a batch that
	// fails midway, which a retry of the whole batch repairs.
	Write(ctx context.Context, points []Point) error

	// Range returns the points of s in [from, to), oldest first. When there
	// are more than maxPoints numbers it returns exactly maxPoints of them,
	// chosen by LTTB (largest triangle three buckets) so that the line keeps
	// its shape: the first and last points and the peaks stay. When the
	// window holds text points it returns the last maxPoints points instead.
	Range(ctx context.Context, s Series, from, to time.Time, maxPoints int) ([]Point, error)

	// Aggregate returns min, max, mean, last and count of the numbers of s
	// in [from, to) per bucket of the given width, the buckets starting at
	// from (so the caller aligns them, e.g. to local midnight), oldest first.
	// Buckets without numbers are left out; text points are not counted.
	// The last bucket ends at to. At most MaxBuckets buckets fit a window.
	// The SQL store keeps hourly summaries: it reads points only for the
	// UTC hours that a bucket's start or end cuts (the window's ends among
	// them), so buckets of whole hours that start on UTC hours cost the
	// same whatever the density, buckets whose starts fall only partly on
	// UTC hours (days in a zone half an hour off UTC) read the cut hours,
	// and buckets that cut every hour (shorter than an hour, or an hour
	// wide but off the hour) read every point.
	Aggregate(ctx context.Context, s Series, from, to time.Time, bucket time.Duration) ([]Bucket, error)

	// AggregateEdges is Aggregate over buckets the caller cuts: bucket i
	// holds the numbers of s in [edges[i], edges[i+1]) and starts at
	// edges[i]. Edges are compared to the microsecond and must not
	// decrease; two equal edges make an empty bucket, and fewer than two
	// edges no bucket. At most MaxBuckets buckets. Grid cuts a window into
	// buckets on a clock, e.g. "the last 30 days" into clock hours with a
	// partial first and last hour; calendar days, weeks or months in a
	// time zone, daylight-saving days of 23 and 25 hours among them, are
	// edges too. Edges on UTC hours are the fast case of the SQL store, as
	// in Aggregate.
	AggregateEdges(ctx context.Context, s Series, edges []time.Time) ([]Bucket, error)

	// Latest returns the most recent point of s, and false when s has none.
	Latest(ctx context.Context, s Series) (Point, bool, error)

	// Count returns how many points (numbers and texts) the series of a
	// company hold in [from, to), e.g. "data points per 24h". Records
	// (IsRecord) are not data points and are left out.
	Count(ctx context.Context, company int64, from, to time.Time) (int64, error)

	// CountByNode is Count per node, records left out too: how many points the series of each
	// node (by DevEUI) of a company hold in [from, to). Nodes without
	// points in the window are left out. One call answers "data points
	// per 24h" for every node of a list.
	CountByNode(ctx context.Context, company int64, from, to time.Time) (map[string]int64, error)

	// DeleteNode removes every series (and point) of one node of a company.
	DeleteNode(ctx context.Context, company int64, devEUI string) error

	// CopyNode copies every series of a node from one company to another:
	// the points of (from, devEUI, key) are written to (to, devEUI, key),
	// as Write writes them, so a point at a time the target already holds
	// is replaced and copying again changes nothing. It returns how many
	// points it copied. It is not one transaction: a copy that fails midway
	// may have copied part of the points, and calling it again completes
	// it. Moving a node to another company is CopyNode, then DeleteNode of
	// the source.
	CopyNode(ctx context.Context, from, to int64, devEUI string) (int64, error)

	// Prune removes every point older than before, of every company, and
	// returns how many it removed; the retention job calls it.
	Prune(ctx context.Context, before time.Time) (int64, error)

	// Close releases what the store holds. The SQL store leaves the
	// database it was given open: its owner closes it.
	Close() error
}

// RecordPrefix starts the keys of records: what a caller keeps beside a
// node's values (the ingest keeps each uplink as it came under "$uplink").
// They are stored and read as any series, but they are not data points:
// Count and CountByNode leave them out.
const RecordPrefix = "$"

// IsRecord reports whether key names a record (RecordPrefix).
func IsRecord(key string) bool { return strings.HasPrefix(key, RecordPrefix) }

// Series names one series: a key of a node of a company.
type Series struct {
	Company int64
	DevEUI  string
	Key     string
}

// String returns the series as company/deveui/key, for logs and errors.
func (s Series) String() string { return fmt.Sprintf("%d/%s/%s", s.Company, s.DevEUI, s.Key) }

// Point is one value of a series at one time: a number, or a text when
// IsText is set (then Value is 0).
type Point struct {
	Series
	Time   time.Time
	Value  float64
	Text   string
	IsText bool
}

// Number returns a point holding a number.
func Number(s Series, t time.Time, v float64) Point { return Point{Series: s, Time: t, Value: v} }

// Text returns a point holding a text.
func Text(s Series, t time.Time, text string) Point {
	return Point{Series: s, Time: t, Text: text, IsText: true}
}

// Bucket holds the aggregates of the numbers in [Start, Start+width).
type Bucket struct {
	Start time.Time
	Min   float64
	Max   float64
	Mean  float64
	Last  float64 // the value of the bucket's most recent point
	Count int64
}

// Limits of the arguments; larger requests are invalid, to keep one call's
// memory and time bounded.
const (
	MaxKeyLength = 255        // characters of a key
	MaxTextBytes = 64<<10 - 1 // bytes of a text value (InfluxDB's limit for a string field)
	MaxPoints    = 100_000    // maxPoints of one Range call
	MaxBuckets   = 50_000     // buckets of one Aggregate call
	MinBucket    = time.Second
)

// The times a store can hold: InfluxDB's range of nanosecond timestamps,
// rounded inward to whole days.
var (
	MinTime = time.Date(1677, 9, 22, 0, 0, 0, 0, time.UTC)
	MaxTime = time.Date(2262, 4, 11, 0, 0, 0, 0, time.UTC)
)

// Message IDs of the validation errors (locale catalog keys).
const (
	IDCompanyInvalid   = "tsdb.company.invalid"
	IDDevEUIInvalid    = "tsdb.devEui.invalid"
	IDKeyInvalid       = "tsdb.key.invalid"
	IDTimeInvalid      = "tsdb.time.invalid"
	IDValueInvalid     = "tsdb.value.invalid"
	IDTextInvalid      = "tsdb.text.invalid"
	IDRangeInvalid     = "tsdb.range.invalid"
	IDMaxPointsInvalid = "tsdb.maxPoints.invalid"
	IDBucketInvalid    = "tsdb.bucket.invalid"
)

// ValidDevEUI reports whether s is 16 lower-case hexadecimal digits.
func ValidDevEUI(s string) bool {
	if len(s) != 16 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// validate checks a series; field prefixes the names of the fields in the
// error (e.g. "points[3].").
func (s Series) validate(v *errs.Validation, field string) bool {
	ok := true
	if s.Company <= 0 {
		v.Add(field+"company", IDCompanyInvalid)
		ok = false
	}
	if !ValidDevEUI(s.DevEUI) {
		v.Add(field+"devEui", IDDevEUIInvalid)
		ok = false
	}
	switch {
	case s.Key == "":
		v.Add(field+"key", errs.IDRequired)
		ok = false
	case utf8.RuneCountInString(s.Key) > MaxKeyLength:
		v.Add(field+"key", errs.IDMaxChars255)
		ok = false
	case !validKey(s.Key):
		v.Add(field+"key", IDKeyInvalid)
		ok = false
	}
	return ok
}

// validKey refuses what not every store can keep in a key: invalid UTF-8,
// control characters and backslashes. InfluxDB 1.x line protocol has no
// escape for a newline in a tag value, and none for a backslash before a
// space, comma or equals sign or at the end of one.
func validKey(k string) bool {
	if !utf8.ValidString(k) {
		return false
	}
	for _, r := range k {
		if unicode.IsControl(r) || r == '\\' {
			return false
		}
	}
	return true
}

func validTime(t time.Time) bool { return !t.Before(MinTime) && t.Before(MaxTime) }

// Validate returns an errs.Invalid error when s cannot name a series.
func (s Series) Validate() error {
	var v errs.Validation
	s.validate(&v, "")
	return v.Err()
}

// ValidatePoints checks a batch for Write. It reports the first 20 invalid
// points, which is enough to see what is wrong with a batch.
func ValidatePoints(points []Point) error {
	var v errs.Validation
	bad := 0
	for i, p := range points {
		// A valid point adds nothing, so it is checked without the field
		// prefix, which would cost a formatted string a point.
		var probe errs.Validation
		if p.validate(&probe, "") {
			continue
		}
		p.validate(&v, fmt.Sprintf("points[%d].", i))
		if bad++; bad == 20 {
			break
		}
	}
	return v.Err()
}

// validate adds the problems of p to v and reports whether it had none.
func (p Point) validate(v *errs.Validation, field string) bool {
	ok := p.Series.validate(v, field)
	if !validTime(p.Time) {
		v.Add(field+"time", IDTimeInvalid)
		ok = false
	}
	if p.IsText {
		switch {
		case len(p.Text) > MaxTextBytes:
			v.Add(field+"text", errs.IDTooLong)
			ok = false
		case !utf8.ValidString(p.Text) || containsNUL(p.Text):
			// PostgreSQL refuses both in a text column.
			v.Add(field+"text", IDTextInvalid)
			ok = false
		}
	} else if math.IsNaN(p.Value) || math.IsInf(p.Value, 0) {
		v.Add(field+"value", IDValueInvalid)
		ok = false
	}
	return ok
}

func containsNUL(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return true
		}
	}
	return false
}

// ValidateWindow checks the window of a read.
func ValidateWindow(v *errs.Validation, from, to time.Time) {
	switch {
	case !validTime(from):
		v.Add("from", IDTimeInvalid)
	case !validTime(to):
		v.Add("to", IDTimeInvalid)
	case from.After(to):
		v.Add("from", IDRangeInvalid)
	}
}

// ValidateRange checks the arguments of Range.
func ValidateRange(s Series, from, to time.Time, maxPoints int) error {
	var v errs.Validation
	s.validate(&v, "")
	ValidateWindow(&v, from, to)
	if maxPoints <= 0 || maxPoints > MaxPoints {
		v.AddArgs("maxPoints", IDMaxPointsInvalid, map[string]any{"max": MaxPoints})
	}
	return v.Err()
}

// ValidateAggregate checks the arguments of Aggregate.
func ValidateAggregate(s Series, from, to time.Time, bucket time.Duration) error {
	var v errs.Validation
	s.validate(&v, "")
	ValidateWindow(&v, from, to)
	switch {
	case bucket < MinBucket || bucket%time.Microsecond != 0:
		v.AddArgs("bucket", IDBucketInvalid, map[string]any{"min": MinBucket.String(), "maxBuckets": MaxBuckets})
	case !v.Has("from") && !v.Has("to") && int64(to.Sub(from)/bucket) >= MaxBuckets:
		v.AddArgs("bucket", IDBucketInvalid, map[string]any{"min": MinBucket.String(), "maxBuckets": MaxBuckets})
	}
	return v.Err()
}

// ValidateEdges checks the arguments of AggregateEdges; it names the first
// edge that is wrong only.
func ValidateEdges(s Series, edges []time.Time) error {
	var v errs.Validation
	s.validate(&v, "")
	for i, e := range edges {
		field := fmt.Sprintf("edges[%d]", i)
		if !validTime(e) {
			v.Add(field, IDTimeInvalid)
			break
		}
		if i > 0 && Micros(e) < Micros(edges[i-1]) {
			v.Add(field, IDRangeInvalid)
			break
		}
	}
	if len(edges)-1 > MaxBuckets {
		v.AddArgs("edges", IDBucketInvalid, map[string]any{"min": MinBucket.String(), "maxBuckets": MaxBuckets})
	}
	return v.Err()
}

// Grid returns the edges (for AggregateEdges) of the window [from, to) cut
// into buckets of the given width on the clock of origin: from, every
// origin + k*width (k any integer) after from and before to, and to. With
// origin on a UTC hour and a width of whole hours, every edge but from and
// to lies on a UTC hour. The width and the window are checked as for
// Aggregate (from == to gives [from, to]: no bucket); times are taken to the
// microsecond.
func Grid(from, to, origin time.Time, width time.Duration) ([]time.Time, error) {
	var v errs.Validation
	ValidateWindow(&v, from, to)
	if !validTime(origin) {
		v.Add("origin", IDTimeInvalid)
	}
	badWidth := func() {
		v.AddArgs("width", IDBucketInvalid, map[string]any{"min": MinBucket.String(), "maxBuckets": MaxBuckets})
	}
	if width < MinBucket || width%time.Microsecond != 0 {
		badWidth()
	}
	if v.Err() != nil {
		return nil, v.Err()
	}
	f, t, o, w := Micros(from), Micros(to), Micros(origin), width.Microseconds()
	// The first edge of the clock after f, and how many lie before t.
	k := (f - o) / w
	if o+k*w > f {
		k--
	}
	first, inner := o+(k+1)*w, int64(0)
	if first < t {
		inner = (t-1-first)/w + 1
	}
	if inner+1 > MaxBuckets {
		badWidth()
		return nil, v.Err()
	}
	edges := make([]time.Time, 0, inner+2)
	edges = append(edges, FromMicros(f))
	for e := first; e < t; e += w {
		edges = append(edges, FromMicros(e))
	}
	return append(edges, FromMicros(t)), nil
}

// ValidateCount checks the arguments of Count.
func ValidateCount(company int64, from, to time.Time) error {
	var v errs.Validation
	if company <= 0 {
		v.Add("company", IDCompanyInvalid)
	}
	ValidateWindow(&v, from, to)
	return v.Err()
}

// ValidateNode checks the arguments of DeleteNode.
func ValidateNode(company int64, devEUI string) error {
	var v errs.Validation
	if company <= 0 {
		v.Add("company", IDCompanyInvalid)
	}
	if !ValidDevEUI(devEUI) {
		v.Add("devEui", IDDevEUIInvalid)
	}
	return v.Err()
}

// ValidateCopy checks the arguments of CopyNode: two companies, not the
// same, and a DevEUI.
func ValidateCopy(from, to int64, devEUI string) error {
	var v errs.Validation
	if from <= 0 {
		v.Add("from", IDCompanyInvalid)
	}
	if to <= 0 || to == from {
		v.Add("to", IDCompanyInvalid)
	}
	if !ValidDevEUI(devEUI) {
		v.Add("devEui", IDDevEUIInvalid)
	}
	return v.Err()
}

// ValidatePrune checks the argument of Prune.
func ValidatePrune(before time.Time) error {
	if !validTime(before) {
		var v errs.Validation
		v.Add("before", IDTimeInvalid)
		return v.Err()
	}
	return nil
}

// Micros returns t as microseconds since the Unix epoch, the resolution of
// every store.
func Micros(t time.Time) int64 { return t.UnixMicro() }

// FromMicros is the inverse of Micros, in UTC.
func FromMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }

// Dedupe returns the points sorted by series and time with one point per
// series and time, the last one given winning, as Write's contract says. It
// sorts a copy; points is left as it was.
func Dedupe(points []Point) []Point {
	out := make([]Point, len(points))
	copy(out, points)
	for i := range out {
		out[i].Time = FromMicros(Micros(out[i].Time))
	}
	slices.SortStableFunc(out, func(a, b Point) int {
		if c := cmp.Compare(a.Company, b.Company); c != 0 {
			return c
		}
		if c := cmp.Compare(a.DevEUI, b.DevEUI); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Key, b.Key); c != 0 {
			return c
		}
		return a.Time.Compare(b.Time)
	})
	// After a stable sort equal keys keep their input order: keep the last.
	w := 0
	for i := range out {
		if i+1 < len(out) && out[i+1].Series == out[i].Series && out[i+1].Time.Equal(out[i].Time) {
			continue
		}
		out[w] = out[i]
		w++
	}
	return out[:w]
}
