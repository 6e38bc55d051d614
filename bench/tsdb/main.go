// Command tsdb benchmarks the time-series stores (kernel/tsdb): it loads one
// series of -rows points spread evenly over -days days into a fresh
// PostgreSQL database through sqlts (the path the portal uses), reports the
// load rate, then times Range over the whole window downsampled to
// -points points, Aggregate and AggregateEdges per hour and per day on and
// off the hour (see aggregates), -runs times each, and reports median and
// p99. It also writes -influx-rows points to a fresh InfluxDB
// database through the influx store and reports the write rate, and, with
// -sqlite-rows, the same load and reads on SQLite.
//
// Everything runs against servers on this machine (PostgreSQL on
// 127.0.0.1:5432 from scripts/ensure-services.sh, InfluxDB on
// 127.0.0.1:8086 from scripts/ensure-influxdb.sh); the databases it creates
// are dropped at the end unless -keep is given. Results and the command that
// made them go in docs/performance.md, "Time series".
//
//	go run ./bench/tsdb                 # 10 million rows, 30 days, as in docs/performance.md
//	go run ./bench/tsdb -rows 1000000   # a quick run
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // Europe/Stockholm wherever it runs

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/tsdb/influx"
	"github.com/fieldhub/fieldhub/kernel/tsdb/sqlts"
	"github.com/fieldhub/fieldhub/migrations"
)

type config struct {
	rows, sqliteRows, influxRows int
	days, points, runs, batch    int
	slowRuns                     int
	postgres, influxURL          string
	keep, rawCompare             bool
}

func main() {
	var c config
	flag.IntVar(&c.rows, "rows", 10_000_000, "points of the one series loaded into PostgreSQL")
	flag.IntVar(&c.days, "days", 30, "days the points are spread over (the Range window)")
	flag.IntVar(&c.points, "points", 1000, "maxPoints of Range")
	flag.IntVar(&c.runs, "runs", 50, "timed runs of each read")
	flag.IntVar(&c.batch, "batch", 50_000, "points per Write call when loading")
	flag.IntVar(&c.slowRuns, "slow-runs", 3, "timed runs of Aggregate per hour from a start off the hour, which reads every point (0: skip)")
	flag.IntVar(&c.influxRows, "influx-rows", 1_000_000, "points written to InfluxDB (0: skip)")
	flag.IntVar(&c.sqliteRows, "sqlite-rows", 1_000_000, "points loaded into SQLite (0: skip)")
	flag.StringVar(&c.postgres, "postgres", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "PostgreSQL admin URL")
	flag.StringVar(&c.influxURL, "influx", "http://127.0.0.1:8086", "InfluxDB base URL")
	flag.BoolVar(&c.keep, "keep", false, "keep the benchmark databases")
	flag.BoolVar(&c.rawCompare, "compare", true, "also time the alternatives (raw points + LTTB, SQL width_bucket) once each")
	flag.Parse()
	if err := run(context.Background(), c); err != nil {
		fmt.Fprintln(os.Stderr, "bench/tsdb:", err)
		os.Exit(1)
	}
}

var (
	series = tsdb.Series{Company: 1, DevEUI: "70b3d57ed0000001", Key: "temperature"}
	start  = time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
)

// generate returns points [i, j) of n spread over the window: a daily cycle,
// a random walk, and now and then a spike, so that downsampling has a shape
// to keep.
func generate(i, j, n int, window time.Duration, rng *rand.Rand, walk *float64) []tsdb.Point {
	step := float64(window) / float64(n)
	out := make([]tsdb.Point, 0, j-i)
	for k := i; k < j; k++ {
		at := start.Add(time.Duration(float64(k) * step))
		*walk += rng.NormFloat64() * 0.01
		v := 15 + 8*math.Sin(2*math.Pi*float64(at.Sub(start))/float64(24*time.Hour)) + *walk
		if rng.IntN(200_000) == 0 {
			v += 40 * (rng.Float64() - 0.5)
		}
		out = append(out, tsdb.Number(series, at, math.Round(v*100)/100))
	}
	return out
}

func run(ctx context.Context, c config) error {
	window := time.Duration(c.days) * 24 * time.Hour
	fmt.Printf("machine: %d cores, %s, %s, %s/%s\n", runtime.NumCPU(), cpuModel(), memTotal(), runtime.GOOS, runtime.GOARCH)
	fmt.Printf("go: %s\n\n", runtime.Version())

	name := fmt.Sprintf("fieldhub_bench_tsdb_%d", os.Getpid())
	admin, err := sql.Open("pgx", c.postgres)
	if err != nil {
		return err
	}
	defer admin.Close()
	var version string
	if err := admin.QueryRowContext(ctx, "SHOW server_version").Scan(&version); err != nil {
		return fmt.Errorf("PostgreSQL at %s: %w", c.postgres, err)
	}
	fmt.Printf("PostgreSQL %s\n", version)
	if _, err := admin.ExecContext(ctx, fmt.Sprintf(`CREATE DATABASE %q`, name)); err != nil {
		return err
	}
	if !c.keep {
		defer admin.ExecContext(context.Background(), fmt.Sprintf(`DROP DATABASE IF EXISTS %q WITH (FORCE)`, name))
	}
	u, _ := url.Parse(c.postgres)
	u.Path = "/" + name
	pg, err := db.Open(ctx, u.String())
	if err != nil {
		return err
	}
	defer pg.Close()
	if _, err := db.Migrate(ctx, pg, migrations.FS, migrations.Order); err != nil {
		return err
	}
	if err := benchSQL(ctx, c, "PostgreSQL", pg, c.rows, window); err != nil {
		return err
	}
	if c.rawCompare {
		if err := compare(ctx, c, pg, window); err != nil {
			return err
		}
	}

	if c.sqliteRows > 0 {
		dir, err := os.MkdirTemp("", "fieldhub-bench-tsdb-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		lite, err := db.Open(ctx, dir+"/bench.db")
		if err != nil {
			return err
		}
		defer lite.Close()
		if _, err := db.Migrate(ctx, lite, migrations.FS, migrations.Order); err != nil {
			return err
		}
		if err := benchSQL(ctx, c, "SQLite", lite, c.sqliteRows, window); err != nil {
			return err
		}
	}

	if c.influxRows > 0 {
		if err := benchInflux(ctx, c, window); err != nil {
			return err
		}
	}
	return nil
}

// load writes n points through st in batches and prints the rate.
func load(ctx context.Context, c config, label string, st tsdb.Store, n int, window time.Duration) error {
	rng := rand.New(rand.NewPCG(1, 2))
	walk := 0.0
	began := time.Now()
	for i := 0; i < n; i += c.batch {
		pts := generate(i, min(i+c.batch, n), n, window, rng, &walk)
		if err := st.Write(ctx, pts); err != nil {
			return fmt.Errorf("load %s: %w", label, err)
		}
	}
	took := time.Since(began)
	fmt.Printf("%s load: %d points in %s: %.0f points/s (Write calls of %d points)\n",
		label, n, took.Round(time.Millisecond), float64(n)/took.Seconds(), c.batch)
	return nil
}

func benchSQL(ctx context.Context, c config, label string, bdb *bun.DB, n int, window time.Duration) error {
	st := sqlts.New(bdb, sqlts.Options{})
	if err := load(ctx, c, label, st, n, window); err != nil {
		return err
	}
	if db.DialectOf(bdb) == db.Postgres {
		// What autovacuum does after a load: it sets the visibility map
		// that index-only scans need, and gathers statistics.
		began := time.Now()
		for _, table := range []string{"tsdb_points", "tsdb_hours", "tsdb_series"} {
			if _, err := bdb.ExecContext(ctx, "VACUUM ANALYZE "+table); err != nil {
				return err
			}
		}
		fmt.Printf("%s VACUUM ANALYZE after the load: %s\n", label, time.Since(began).Round(time.Millisecond))
		var size string
		if err := bdb.QueryRowContext(ctx, `SELECT pg_size_pretty(pg_total_relation_size('tsdb_points')) || ' points, ' ||
			pg_size_pretty(pg_total_relation_size('tsdb_hours')) || ' hours'`).Scan(&size); err != nil {
			return err
		}
		fmt.Printf("%s size: %s\n", label, size)
	} else {
		if _, err := bdb.ExecContext(ctx, "ANALYZE"); err != nil {
			return err
		}
	}
	if err := reads(ctx, c, label, st, window); err != nil {
		return err
	}
	return uplinks(ctx, c, label, st, window)
}

// uplinks times Write calls as the HTTP ingest makes them: one uplink of one
// node, five keys, each call after the last, into the loaded store.
func uplinks(ctx context.Context, c config, label string, st tsdb.Store, window time.Duration) error {
	node := series.DevEUI
	keys := []string{"temperature", "humidity", "battery", "rssi", "door"}
	at := start.Add(window) // after the loaded data, as live data is
	i := 0
	return timeIt(label+" Write(one uplink: 5 keys of one node)", max(c.runs, 200), func() error {
		i++
		pts := make([]tsdb.Point, len(keys))
		for k, key := range keys {
			se := tsdb.Series{Company: series.Company, DevEUI: node, Key: key}
			if key == "door" {
				pts[k] = tsdb.Text(se, at.Add(time.Duration(i)*time.Minute), "closed")
			} else {
				pts[k] = tsdb.Number(se, at.Add(time.Duration(i)*time.Minute), float64(i%50))
			}
		}
		return st.Write(ctx, pts)
	})
}

// reads times Range and Aggregate over the whole window and over one that
// starts and ends inside an hour, as "the last 30 days" does.
func reads(ctx context.Context, c config, label string, st tsdb.Store, window time.Duration) error {
	from, to := start, start.Add(window)
	off := 37*time.Minute + 13*time.Second
	var got []tsdb.Point
	if err := timeIt(label+" Range(whole window, "+fmt.Sprint(c.points)+" points)", c.runs, func() (err error) {
		got, err = st.Range(ctx, series, from, to, c.points)
		return err
	}); err != nil {
		return err
	}
	fmt.Printf("    returned %d points\n", len(got))
	if err := timeIt(label+" Range(window off the hour, "+fmt.Sprint(c.points)+" points)", c.runs, func() (err error) {
		got, err = st.Range(ctx, series, from.Add(off), to.Add(off), c.points)
		return err
	}); err != nil {
		return err
	}
	fmt.Printf("    returned %d points\n", len(got))
	if err := aggregates(ctx, c, label, st, window, off); err != nil {
		return err
	}
	var n int64
	if err := timeIt(label+" Count(company, last 24 h)", c.runs, func() (err error) {
		n, err = st.Count(ctx, series.Company, to.Add(-24*time.Hour-off), to.Add(-off))
		return err
	}); err != nil {
		return err
	}
	fmt.Printf("    counted %d points\n", n)
	var byNode map[string]int64
	if err := timeIt(label+" CountByNode(company, last 24 h)", c.runs, func() (err error) {
		byNode, err = st.CountByNode(ctx, series.Company, to.Add(-24*time.Hour-off), to.Add(-off))
		return err
	}); err != nil {
		return err
	}
	fmt.Printf("    counted %d points of %d nodes\n", byNode[series.DevEUI], len(byNode))
	return nil
}

// aggregates times Aggregate and AggregateEdges: per hour on the hour; per
// clock hour over the window off the hour, as a chart of "the last 30 days"
// asks for it; per day at midnight in a zone half an hour off UTC, and in
// one with a daylight-saving change (a day of 25 hours); and, -slow-runs
// times, per hour from the start of the window off the hour, which cuts
// every hour and so reads every point.
func aggregates(ctx context.Context, c config, label string, st tsdb.Store, window, off time.Duration) error {
	from, to := start, start.Add(window)
	var buckets []tsdb.Bucket
	run := func(what string, runs int, f func() ([]tsdb.Bucket, error)) error {
		if runs <= 0 {
			return nil
		}
		if err := timeIt(label+" "+what, runs, func() (err error) {
			buckets, err = f()
			return err
		}); err != nil {
			return err
		}
		fmt.Printf("    returned %d buckets\n", len(buckets))
		return nil
	}
	if err := run("Aggregate(window on the hour, 1h)", c.runs, func() ([]tsdb.Bucket, error) {
		return st.Aggregate(ctx, series, from, to, time.Hour)
	}); err != nil {
		return err
	}
	clock, err := tsdb.Grid(from.Add(off), to.Add(off), from, time.Hour)
	if err != nil {
		return err
	}
	if err := run("AggregateEdges(window off the hour, clock hours)", c.runs, func() ([]tsdb.Bucket, error) {
		return st.AggregateEdges(ctx, series, clock)
	}); err != nil {
		return err
	}
	// Midnight in UTC+05:30 is 18:30 UTC: each day starts inside an hour.
	kolkata := from.Add(18*time.Hour + 30*time.Minute)
	if err := run("Aggregate(days at midnight in UTC+05:30, 24h)", c.runs, func() ([]tsdb.Bucket, error) {
		return st.Aggregate(ctx, series, kolkata, kolkata.Add(window-24*time.Hour), 24*time.Hour)
	}); err != nil {
		return err
	}
	days, err := localDays(from, to, "Europe/Stockholm")
	if err != nil {
		return err
	}
	if err := run("AggregateEdges(days in Europe/Stockholm, one of 25 h)", c.runs, func() ([]tsdb.Bucket, error) {
		return st.AggregateEdges(ctx, series, days)
	}); err != nil {
		return err
	}
	return run("Aggregate(window off the hour, 1h from its start: every hour cut)", c.slowRuns, func() ([]tsdb.Bucket, error) {
		return st.Aggregate(ctx, series, from.Add(off), to.Add(off), time.Hour)
	})
}

// localDays returns the edges of the calendar days of a time zone that
// begin in [from, to), and to.
func localDays(from, to time.Time, zone string) ([]time.Time, error) {
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return nil, err
	}
	l := from.In(loc)
	day := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, loc)
	if day.Before(from) {
		day = day.AddDate(0, 0, 1)
	}
	var edges []time.Time
	for ; day.Before(to); day = day.AddDate(0, 0, 1) {
		edges = append(edges, day)
	}
	return append(edges, to), nil
}

// compare times, once each, the designs the hourly summaries replaced.
func compare(ctx context.Context, c config, pg *bun.DB, window time.Duration) error {
	from, to := start, start.Add(window)
	raw := sqlts.New(pg, sqlts.Options{RawLimit: math.MaxInt32})
	if err := timeIt("alternative: Range from raw points + LTTB in Go", 3, func() error {
		_, err := raw.Range(ctx, series, from, to, c.points)
		return err
	}); err != nil {
		return err
	}
	f, t := tsdb.Micros(from), tsdb.Micros(to)
	return timeIt("alternative: min/max per width_bucket in SQL", 3, func() error {
		rows, err := pg.DB.QueryContext(ctx, `SELECT width_bucket(p.ts, $1, $2, $3) AS b, min(p.value), max(p.value)
			FROM tsdb_points p JOIN tsdb_series s ON s.id = p.series_id
			WHERE s.company_id = $4 AND s.deveui = $5 AND s.tag_key = $6 AND p.ts >= $1 AND p.ts < $2
			GROUP BY b`, f, t, c.points/2, series.Company, series.DevEUI, series.Key)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
		}
		return rows.Err()
	})
}

func benchInflux(ctx context.Context, c config, window time.Duration) error {
	name := fmt.Sprintf("fieldhub_bench_tsdb_%d", os.Getpid())
	st, err := influx.Open(ctx, strings.TrimRight(c.influxURL, "/")+"/"+name, influx.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	if !c.keep {
		defer dropInflux(c.influxURL, name)
	}
	fmt.Println()
	if err := load(ctx, c, "InfluxDB", st, c.influxRows, window); err != nil {
		return err
	}
	if err := reads(ctx, config{points: c.points, runs: min(c.runs, 10), slowRuns: min(c.slowRuns, 3)}, "InfluxDB", st, window); err != nil {
		return err
	}
	return uplinks(ctx, c, "InfluxDB", st, window)
}

func dropInflux(base, name string) {
	form := url.Values{"q": {fmt.Sprintf(`DROP DATABASE %q`, name)}}
	resp, err := httpPostForm(strings.TrimRight(base, "/")+"/query", form)
	if err == nil {
		resp.Body.Close()
	}
}

// timeIt runs f once to warm up and then n times, and prints median, p99
// and max.
func timeIt(label string, n int, f func() error) error {
	if err := f(); err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	took := make([]time.Duration, n)
	for i := range took {
		began := time.Now()
		if err := f(); err != nil {
			return fmt.Errorf("%s: %w", label, err)
		}
		took[i] = time.Since(began)
	}
	slices.Sort(took)
	p := func(q float64) time.Duration { return took[min(len(took)-1, int(math.Ceil(q*float64(len(took))))-1)] }
	fmt.Printf("%s: median %s, p99 %s, max %s (%d runs)\n", label, ms(p(0.5)), ms(p(0.99)), ms(took[len(took)-1]), n)
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

func memTotal() string {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return "unknown memory"
	}
	var kb int64
	for _, line := range strings.Split(string(b), "\n") {
		if _, err := fmt.Sscanf(line, "MemTotal: %d kB", &kb); err == nil {
			return fmt.Sprintf("%.0f GiB memory", float64(kb)/(1<<20))
		}
	}
	return "unknown memory"
}

func httpPostForm(u string, form url.Values) (*http.Response, error) {
	return http.PostForm(u, form)
}
