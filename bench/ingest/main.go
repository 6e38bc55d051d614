// Command ingest measures sustained HTTP ingest against a real fieldhub
// binary: it builds the binary, starts `fieldhub serve` on a fresh
// PostgreSQL database (or SQLite folder), creates a company, an application,
// N nodes and an integration token through the API, and then keeps C
// keep-alive connections posting generic uplinks (README.md, "Generic ingest
// JSON") with 5 values each to POST /api/ingest/generic, for a warm-up and
// a measured period. Every uplink names its own node and time, so each one
// stores 5 new points; an answer counts only when it is 200, which the
// portal sends after the points are committed.
//
// In the same run, on the same database and with the server stopped, it
// then
//
//   - copies the very rows the ingest stored into a scratch table shaped
//     like tsdb_points (same columns, same primary key) with PostgreSQL's
//     binary COPY (pgx CopyFrom): the rate at which this machine's
//     PostgreSQL takes those rows with nothing else in the way. The ratio
//     of the two says how much of the database's raw insert rate the ingest
//     path achieves;
//   - writes more uplinks of the same nodes straight into the SQL
//     time-series store (sqlts.Store.Write, batches from two writers, as the
//     ingest's group commit does): the ceiling the store itself sets, with
//     its hourly summaries, without HTTP, JSON and the nodes' lookups.
//
// The server start and the HTTP/1.1 client are bench/internal/loadkit's,
// shared with bench/loadgen.
//
//	go run ./bench/ingest                     # PostgreSQL, 64 connections, 1,000 nodes, 15 s
//	go run ./bench/ingest -c 16 -d 30s -nodes 5000
//	go run ./bench/ingest -db sqlite
//	go run ./bench/ingest -pprof ingest.pprof  # and the server's CPU profile
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fieldhub/fieldhub/bench/internal/loadkit"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/tsdb/sqlts"
)

const (
	benchEmail    = "bench@example.com"
	benchPassword = "benchpass1"
	// valuesPerUplink is what every uplink carries under "values".
	valuesPerUplink = 5
)

type options struct {
	db          string
	conns       int
	duration    time.Duration
	warmup      time.Duration
	nodes       int
	interval    time.Duration
	copyRuns    int
	storeDur    time.Duration
	storeBatch  int
	storeProcs  int
	bin         string
	pgAdmin     string
	serverProcs int
	clientProcs int
	keep        bool
	pprof       string
}

func main() {
	var o options
	flag.StringVar(&o.db, "db", "postgres", "database: postgres or sqlite (no COPY comparison on sqlite)")
	flag.IntVar(&o.conns, "c", 64, "concurrent keep-alive connections")
	flag.DurationVar(&o.duration, "d", 15*time.Second, "measured duration")
	flag.DurationVar(&o.warmup, "warmup", 3*time.Second, "warm-up before measuring (not counted)")
	flag.IntVar(&o.nodes, "nodes", 1000, "nodes (tags) the uplinks are spread over, round robin")
	flag.DurationVar(&o.interval, "interval", time.Second, "time between two uplinks of one node, in the uplinks' own times (from now on: a run must stay within the hour ahead that the ingest accepts)")
	flag.IntVar(&o.copyRuns, "copy-runs", 3, "COPY runs of the same rows (the median is reported)")
	flag.DurationVar(&o.storeDur, "store-d", 5*time.Second, "then write uplinks straight into the SQL time-series store for this long (0: skip)")
	flag.IntVar(&o.storeBatch, "store-batch", 32, "uplinks per store write in the store run")
	flag.IntVar(&o.storeProcs, "store-writers", 2, "concurrent writers in the store run")
	flag.StringVar(&o.bin, "bin", "", "fieldhub binary to run (default: build it from the module into a temporary folder)")
	flag.StringVar(&o.pgAdmin, "pg", loadkit.DefaultPostgres(), "PostgreSQL admin URL, used to create and drop the benchmark database")
	flag.IntVar(&o.serverProcs, "server-gomaxprocs", 0, "GOMAXPROCS for the server (0: Go's default, all cores)")
	flag.IntVar(&o.clientProcs, "gomaxprocs", 0, "GOMAXPROCS for the load generator (0: Go's default, all cores)")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary folder and the database for a look afterwards")
	flag.StringVar(&o.pprof, "pprof", "", "write the server's CPU profile of the measured window to this file (builds with -tags pprof; not with -bin)")
	flag.Parse()
	if o.db != "sqlite" && o.db != "postgres" {
		fatal(fmt.Errorf("-db: want sqlite or postgres, got %q", o.db))
	}
	if o.conns < 1 || o.duration <= 0 || o.warmup < 0 || o.nodes < 1 || o.interval < time.Millisecond || o.copyRuns < 1 ||
		o.storeDur < 0 || o.storeBatch < 1 || o.storeProcs < 1 {
		fatal(errors.New("-c, -nodes, -copy-runs, -store-batch and -store-writers must be at least 1, -d positive, -interval at least 1ms, -warmup and -store-d not negative"))
	}
	if o.clientProcs > 0 {
		runtime.GOMAXPROCS(o.clientProcs)
	}
	if err := run(o); err != nil {
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "ingest:", err)
	os.Exit(1)
}

func run(o options) (err error) {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "fieldhub-bench-ingest-")
	if err != nil {
		return err
	}
	defer func() {
		if o.keep {
			fmt.Fprintln(os.Stderr, "ingest: kept", tmp)
			return
		}
		os.RemoveAll(tmp)
	}()

	bin := o.bin
	var tags []string
	if o.pprof != "" {
		if bin != "" {
			return errors.New("-pprof builds its own binary: leave out -bin")
		}
		tags = append(tags, "pprof")
	}
	if bin == "" {
		bin = filepath.Join(tmp, "fieldhub")
		if err := loadkit.BuildBinary(bin, tags...); err != nil {
			return err
		}
	}
	env := append(loadkit.CleanEnv(), "FIELDHUB_DATA="+filepath.Join(tmp, "data"), "FIELDHUB_ACCESS_LOG=false")
	metricsAddr, err := loadkit.FreeAddr() // the group commit figures below
	if err != nil {
		return err
	}
	env = append(env, "FIELDHUB_METRICS_ADDR="+metricsAddr)
	pprofAddr := ""
	if o.pprof != "" {
		if pprofAddr, err = loadkit.FreeAddr(); err != nil {
			return err
		}
		env = append(env, "PPROF_ADDR="+pprofAddr)
	}
	dbURL := ""
	if o.db == "postgres" {
		var drop func() error
		dbURL, drop, err = loadkit.CreatePostgres(ctx, o.pgAdmin, "fieldhub_bench_ingest")
		if err != nil {
			return err
		}
		defer func() {
			if o.keep {
				fmt.Fprintln(os.Stderr, "ingest: kept the database", dbURL)
				return
			}
			if derr := drop(); derr != nil && err == nil {
				err = derr
			}
		}()
		env = append(env, "DATABASE_URL="+dbURL)
	}
	if o.serverProcs > 0 {
		env = append(env, "GOMAXPROCS="+strconv.Itoa(o.serverProcs))
	}
	admin := exec.Command(bin, "admin", "create-superadmin", "--email", benchEmail, "--password", benchPassword)
	admin.Env = env
	if out, err := admin.CombinedOutput(); err != nil {
		return fmt.Errorf("fieldhub admin create-superadmin: %v\n%s", err, out)
	}
	server, err := loadkit.StartServer(bin, env, filepath.Join(tmp, "server.log"))
	if err != nil {
		return err
	}
	defer server.Stop()

	setupStart := time.Now()
	company, token, euis, err := setup(server.Base, o.nodes)
	if err != nil {
		return server.Fail(err)
	}
	fmt.Printf("ingest: set up a company with %d nodes and an integration token in %.1f s\n", o.nodes, time.Since(setupStart).Seconds())

	gen := newGenerator(server.Addr, token, euis, o.interval)
	// One uplink through net/http first: the route answers 200 and stores.
	if err := loadkit.Call(server.Base, "POST", "/api/ingest/generic", token, json.RawMessage(gen.body(nil, gen.next())), 200, nil); err != nil {
		return server.Fail(err)
	}
	var acked atomic.Int64 // every 200, warm-up included
	acked.Add(1)

	fmt.Printf("ingest: POST /api/ingest/generic on %s, %d values an uplink, %d nodes, %d connections, %s warm-up, %s measured, %d cores (server GOMAXPROCS %s, loadgen GOMAXPROCS %d)\n",
		o.db, valuesPerUplink, o.nodes, o.conns, o.warmup, o.duration, runtime.NumCPU(), procsLabel(o.serverProcs), runtime.GOMAXPROCS(0))
	profiled := make(chan error, 1)
	if o.pprof != "" {
		go func() {
			time.Sleep(o.warmup)
			profiled <- saveProfile(pprofAddr, o.duration, o.pprof)
		}()
	}
	res, err := loadkit.Run(loadkit.Load{
		Addr: server.Addr, Conns: o.conns, Warmup: o.warmup, Duration: o.duration, ServerPID: server.PID(),
		Request: func(_ int, buf []byte) []byte { return gen.request(buf) },
		OK: func(status int) bool {
			if status == 200 {
				acked.Add(1)
				return true
			}
			return false
		},
	})
	if err != nil {
		return server.Fail(err)
	}
	if werr, done := server.Exited(); done {
		return server.Fail(fmt.Errorf("the server stopped during the run: %v", werr))
	}
	res.Print("uplinks")
	if o.pprof != "" {
		if err := <-profiled; err != nil {
			return err
		}
		fmt.Printf("  profile:     %s (go tool pprof -top %s)\n", o.pprof, o.pprof)
	}
	fmt.Printf("  values:      %.0f values/s stored (%d a uplink)\n", res.Rate()*valuesPerUplink, valuesPerUplink)
	if m, err := scrape("http://" + metricsAddr); err == nil && m["fieldhub_ingest_batch_uplinks_count"] > 0 {
		n := m["fieldhub_ingest_batch_uplinks_count"]
		fmt.Printf("  batches:     %.0f group commits, %.1f uplinks and %.1f ms each on average (whole run)\n",
			n, m["fieldhub_ingest_batch_uplinks_sum"]/n, 1000*m["fieldhub_ingest_batch_seconds_sum"]/n)
	}

	server.Stop() // what follows runs alone on the machine
	row := fmt.Sprintf("| %s | %d | %d | %.0f | %s | %s | %s | %d | %.2f | %.2f | %.2f | %.2f |", o.db, o.conns, o.nodes, res.Rate(),
		loadkit.Ms(res.Percentile(50)), loadkit.Ms(res.Percentile(90)), loadkit.Ms(res.Percentile(99)), res.Errors,
		res.Cores(res.ServerCPU), res.Cores(res.ClientCPU), res.Cores(res.DBCPU), res.Cores(res.MachineCPU))
	if o.db == "postgres" {
		cp, err := measureCopy(ctx, dbURL, acked.Load()*valuesPerUplink, o.copyRuns)
		if err != nil {
			return err
		}
		copyUplinks := cp / valuesPerUplink
		ratio := res.Rate() / copyUplinks
		fmt.Printf("  COPY:        %.0f rows/s, the same rows into a scratch table like tsdb_points (median of %d), that is %.0f uplinks/s of %d values\n",
			cp, o.copyRuns, copyUplinks, valuesPerUplink)
		fmt.Printf("  ratio:       ingest / COPY = %.3f (1 : %.1f)\n", ratio, 1/ratio)
		row += fmt.Sprintf(" %.0f | %.3f |", cp, ratio)
	} else {
		row += " | |"
		dbURL = filepath.Join(tmp, "data", "fieldhub.db")
	}
	if o.storeDur > 0 {
		rate, err := measureStore(ctx, dbURL, company, gen, o)
		if err != nil {
			return err
		}
		fmt.Printf("  store:       %.0f uplinks/s written straight into the SQL time-series store (%d writers, %d uplinks a write, %s)\n",
			rate, o.storeProcs, o.storeBatch, o.storeDur)
		row += fmt.Sprintf(" %.0f |", rate)
	}
	fmt.Println("  " + row)
	return nil
}

// measureStore writes the generator's next uplinks straight into the SQL
// time-series store, in batches from several writers as the group commit
// does, for o.storeDur, and returns uplinks per second: the ceiling the
// store sets for the ingest on this machine.
func measureStore(ctx context.Context, dbURL string, company int64, gen *generator, o options) (float64, error) {
	bdb, err := db.Open(ctx, dbURL)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	defer bdb.Close()
	store := sqlts.New(bdb, sqlts.Options{})
	var written atomic.Int64
	errc := make(chan error, o.storeProcs)
	start := time.Now()
	end := start.Add(o.storeDur)
	for range o.storeProcs {
		go func() {
			points := make([]tsdb.Point, 0, o.storeBatch*valuesPerUplink)
			for time.Now().Before(end) {
				points = points[:0]
				for range o.storeBatch {
					eui, t, values := gen.uplink(gen.next())
					for i, k := range valueKeys {
						points = append(points, tsdb.Number(tsdb.Series{Company: company, DevEUI: eui, Key: k}, t, values[i]))
					}
				}
				if err := store.Write(ctx, points); err != nil {
					errc <- err
					return
				}
				written.Add(int64(o.storeBatch))
			}
			errc <- nil
		}()
	}
	for range o.storeProcs {
		if err := <-errc; err != nil {
			return 0, fmt.Errorf("store: %w", err)
		}
	}
	return float64(written.Load()) / time.Since(start).Seconds(), nil
}

// scrape reads the server's Prometheus metrics without labels.
func scrape(base string) (map[string]float64, error) {
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for _, line := range strings.Split(string(raw), "\n") {
		name, value, ok := strings.Cut(line, " ")
		if !ok || strings.HasPrefix(name, "#") || strings.Contains(name, "{") {
			continue
		}
		if v, err := strconv.ParseFloat(value, 64); err == nil {
			out[name] = v
		}
	}
	return out, nil
}

// saveProfile fetches the server's CPU profile over d into path.
func saveProfile(addr string, d time.Duration, path string) error {
	resp, err := http.Get(fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", addr, int(d.Seconds())))
	if err != nil {
		return fmt.Errorf("pprof: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("pprof: %s", resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func procsLabel(n int) string {
	if n == 0 {
		return "default"
	}
	return strconv.Itoa(n)
}

// setup creates, as the SuperAdmin, a company with an application of n
// nodes and an integration token, and returns the token and the nodes'
// DevEUIs.
func setup(base string, n int) (int64, string, []string, error) {
	super, _, err := loadkit.Login(base, benchEmail, benchPassword)
	if err != nil {
		return 0, "", nil, err
	}
	var created struct {
		Company struct {
			ID int64 `json:"companyId"`
		} `json:"company"`
	}
	err = loadkit.Call(base, "POST", "/api/users/create/company", super, map[string]any{
		"company": map[string]any{"name": "Bench AB", "orgNumber": "556677-8899", "invoiceAdress": "billing@bench.example", "country": "SE"},
		"user": map[string]any{"firstName": "Bench", "lastName": "Admin", "email": "admin@bench.example",
			"phoneNumber": "46701234567", "password": benchPassword},
	}, 201, &created)
	if err != nil {
		return 0, "", nil, err
	}
	company := created.Company.ID
	var app struct {
		ID int64 `json:"id"`
	}
	if err := loadkit.Call(base, "POST", fmt.Sprintf("/api/applications/%d", company), super, map[string]any{"name": "Bench field"}, 201, &app); err != nil {
		return 0, "", nil, err
	}
	var tok struct {
		Token string `json:"token"`
	}
	if err := loadkit.Call(base, "POST", fmt.Sprintf("/api/integration/tokens/%d", company), super,
		map[string]any{"label": "bench", "isCompany": true}, 201, &tok); err != nil {
		return 0, "", nil, err
	}
	euis := make([]string, n)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	next := atomic.Int64{}
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				euis[i] = fmt.Sprintf("70b3d57ed1%06x", i)
				err := loadkit.Call(base, "POST", fmt.Sprintf("/api/applications/%d/tag", app.ID), super,
					map[string]any{"name": fmt.Sprintf("Bench node %d", i), "deveui": euis[i]}, 201, nil)
				if err != nil {
					mu.Lock()
					firstErr = cmpOr(firstErr, err)
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return company, tok.Token, euis, firstErr
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// generator makes the uplinks: the n-th names node n mod N at the time
// start + (n div N) * interval, so no two uplinks of a node share a time and
// every one stores new points.
type generator struct {
	head     []byte // request line and headers up to Content-Length
	euis     []string
	interval time.Duration
	start    time.Time
	seq      atomic.Int64
}

func newGenerator(addr, token string, euis []string, interval time.Duration) *generator {
	// Now, as a network server stamps what it receives: live data, whose
	// hours the store summarises once they have ended (sqlts, seal.go).
	// A run must stay within the ingest's hour ahead of the clock
	// (-interval).
	start := time.Now().UTC().Truncate(time.Second)
	head := "POST /api/ingest/generic HTTP/1.1\r\nHost: " + addr + "\r\nAuthorization: Bearer " + token +
		"\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: "
	return &generator{head: []byte(head), euis: euis, interval: interval, start: start}
}

func (g *generator) next() int64 { return g.seq.Add(1) - 1 }

// request appends the next uplink's whole HTTP request to buf.
func (g *generator) request(buf []byte) []byte {
	n := g.next()
	buf = append(buf, g.head...)
	lenAt := len(buf)
	buf = append(buf, "000\r\n\r\n"...) // room for the length, filled in below
	bodyAt := len(buf)
	buf = g.body(buf, n)
	size := len(buf) - bodyAt
	if size > 999 {
		panic("uplink body over 999 bytes")
	}
	copy(buf[lenAt:], fmt.Sprintf("%03d", size))
	return buf
}

// uplink returns uplink n: its node, time and five values that drift
// slowly with the node and its uplink count, as sensors' do.
func (g *generator) uplink(n int64) (eui string, t time.Time, values [valuesPerUplink]float64) {
	node := n % int64(len(g.euis))
	round := n / int64(len(g.euis))
	t = g.start.Add(time.Duration(round) * g.interval)
	phase := float64(round)/60 + float64(node)
	values = [valuesPerUplink]float64{
		round2(20 + 3*math.Sin(phase)),
		round2(45 + 10*math.Cos(phase/2)),
		float64(600 + int(200*math.Sin(phase/3))),
		round2(1013 + 5*math.Sin(phase/7)),
		round2(3.6 - float64(round)*1e-5),
	}
	return g.euis[node], t, values
}

// valueKeys name the values of every uplink, in order.
var valueKeys = [valuesPerUplink]string{"temperature", "humidity", "co2", "pressure", "battery"}

// body appends uplink n's JSON to buf.
func (g *generator) body(buf []byte, n int64) []byte {
	eui, t, values := g.uplink(n)
	buf = append(buf, `{"devEui":"`...)
	buf = append(buf, eui...)
	buf = append(buf, `","time":"`...)
	buf = t.AppendFormat(buf, time.RFC3339Nano)
	buf = append(buf, `","values":{`...)
	for i, k := range valueKeys {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '"')
		buf = append(buf, k...)
		buf = append(buf, `":`...)
		buf = strconv.AppendFloat(buf, values[i], 'f', -1, 64)
	}
	buf = append(buf, `}}`...)
	return buf
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// measureCopy reads the points the ingest stored and copies them into a
// scratch table shaped like tsdb_points, runs times, and returns the
// median rate in rows per second. want is how many rows the acknowledged
// uplinks stored; fewer is an error.
func measureCopy(ctx context.Context, dbURL string, want int64, runs int) (float64, error) {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return 0, fmt.Errorf("COPY: connect: %w", err)
	}
	defer conn.Close(ctx)
	// In the order they went in (the heap's), as the ingest wrote them.
	rows, err := conn.Query(ctx, `SELECT series_id, ts, value, text_value FROM tsdb_points`)
	if err != nil {
		return 0, fmt.Errorf("COPY: read points: %w", err)
	}
	var data [][]any
	for rows.Next() {
		var sid, ts int64
		var v *float64
		var text *string
		if err := rows.Scan(&sid, &ts, &v, &text); err != nil {
			return 0, err
		}
		data = append(data, []any{sid, ts, v, text})
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("COPY: read points: %w", err)
	}
	fmt.Printf("  stored:      %d points in tsdb_points, %d for the %d acknowledged uplinks\n", len(data), want, want/valuesPerUplink)
	if int64(len(data)) < want {
		return 0, fmt.Errorf("only %d points stored for %d acknowledged uplinks of %d values", len(data), want/valuesPerUplink, valuesPerUplink)
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE bench_copy_points (LIKE tsdb_points INCLUDING ALL)`); err != nil {
		return 0, fmt.Errorf("COPY: scratch table: %w", err)
	}
	defer conn.Exec(context.Background(), `DROP TABLE IF EXISTS bench_copy_points`)
	var rates []float64
	for range runs {
		if _, err := conn.Exec(ctx, `TRUNCATE bench_copy_points`); err != nil {
			return 0, err
		}
		t0 := time.Now()
		n, err := conn.CopyFrom(ctx, pgx.Identifier{"bench_copy_points"}, []string{"series_id", "ts", "value", "text_value"}, pgx.CopyFromRows(data))
		d := time.Since(t0)
		if err != nil {
			return 0, fmt.Errorf("COPY: %w", err)
		}
		rates = append(rates, float64(n)/d.Seconds())
		fmt.Printf("  COPY run:    %d rows in %.3f s, %.0f rows/s\n", n, d.Seconds(), float64(n)/d.Seconds())
	}
	slices.Sort(rates)
	return rates[len(rates)/2], nil
}
