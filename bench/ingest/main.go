// Command ingest measures sustained ingest against a real fieldhub binary:
// it builds the binary, starts `fieldhub serve` on a fresh PostgreSQL
// database (or SQLite folder), creates a company, an application, N nodes and
// an integration token through the API, and then sends uplinks, each naming
// its own node and time, so that each one stores new points, for a warm-up
// and a measured period. An uplink counts only once the portal says it is
// durable.
//
// -via picks the way in:
//
//   - http (the default): C keep-alive connections post generic uplinks
//     (README.md, "Generic ingest JSON") with 5 values each to POST
//     /api/ingest/generic; an answer counts when it is 200, which the portal
//     sends after the points are committed;
//   - mqtt: ChirpStack v4's own uplink JSON (5 values in its decoded
//     object, the gateway's rssi and snr, the payload) is published with QoS
//     1 to application/{id}/device/{devEui}/event/up on an MQTT broker, as
//     ChirpStack's MQTT integration does, by P publisher connections; an
//     uplink counts when the portal acknowledges it to the broker, which it
//     does after the points are committed
//     (fieldhub_mqtt_events_acknowledged_total). The publishers keep at most
//     -backlog uplinks published and not yet acknowledged by the portal;
//   - compare: the same ChirpStack uplinks, first posted by C connections to
//     POST /api/ingest/chirpstack?event=up (ChirpStack's HTTP integration),
//     then published over MQTT as above, on the same server and database:
//     MQTT ingest beside HTTP ingest in one run.
//
// Unless -broker names one, the MQTT runs start a Mosquitto of their own on
// a free loopback port, with the broker settings README.md recommends for a
// fleet ("ChirpStack over MQTT, and downlinks"). After an MQTT run the
// benchmark stops publishing and waits until the portal has every uplink.
//
// In the same run, on the same database and with the server stopped, it
// then checks that every counted uplink stored its points, and
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
// The server start, the HTTP/1.1 client and the MQTT publisher are
// bench/internal/loadkit's, shared with bench/loadgen and bench/soak.
//
//	go run ./bench/ingest                     # PostgreSQL, HTTP, 64 connections, 1,000 nodes, 15 s
//	go run ./bench/ingest -c 16 -d 30s -nodes 5000
//	go run ./bench/ingest -via mqtt           # MQTT alone
//	go run ./bench/ingest -via compare -c 256 # HTTP then MQTT, ChirpStack's JSON both times
//	go run ./bench/ingest -db sqlite
//	go run ./bench/ingest -pprof ingest.pprof  # and the server's CPU profile
package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/fieldhub/fieldhub/bench/internal/loadkit"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/tsdb/sqlts"
)

const (
	// valuesPerUplink is what every uplink carries under "values" (generic)
	// or in its decoded "object" (ChirpStack).
	valuesPerUplink = 5
	// chirpStackPoints is what a ChirpStack uplink stores: its values, the
	// gateway's rssi and snr, and the uplink as it came ($uplink).
	chirpStackPoints = valuesPerUplink + 3
)

type options struct {
	db          string
	via         string
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
	pubs        int
	window      int
	backlog     int
	broker      string
	alarmRules  int
	alarmFiring int
}

// brokerSettings are the lines of the benchmark's own Mosquitto beyond its
// listener: those README.md recommends for a fleet, without persistence
// (nothing outlives the run).
var brokerSettings = []string{
	"max_queued_messages 100000",
	"max_queued_bytes 0",
	"persistence false",
}

func main() {
	var o options
	flag.StringVar(&o.db, "db", "postgres", "database: postgres or sqlite (no COPY comparison on sqlite)")
	flag.StringVar(&o.via, "via", "http", "way in: http (generic JSON over HTTP), mqtt (ChirpStack JSON over MQTT) or compare (ChirpStack JSON over HTTP, then over MQTT)")
	flag.IntVar(&o.conns, "c", 64, "concurrent keep-alive connections (HTTP)")
	flag.DurationVar(&o.duration, "d", 15*time.Second, "measured duration (of each way in)")
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
	flag.StringVar(&o.pprof, "pprof", "", "write the server's CPU profile of the (first) measured window to this file (builds with -tags pprof; not with -bin)")
	flag.IntVar(&o.pubs, "pubs", 4, "MQTT publisher connections")
	flag.IntVar(&o.window, "window", 500, "publishes each MQTT publisher keeps unacknowledged by the broker")
	flag.IntVar(&o.backlog, "backlog", 20000, "uplinks the MQTT publishers keep published and not yet acknowledged by the portal")
	flag.StringVar(&o.broker, "broker", "", "MQTT broker to use, mqtt://host:port (default: start a Mosquitto of the benchmark's own)")
	flag.IntVar(&o.alarmRules, "alarm-rules", 0, "alarm rules to create over the company's nodes and keys before the run (round robin), each evaluated on its node's uplinks")
	flag.IntVar(&o.alarmFiring, "alarm-firing", 0, "of the -alarm-rules, how many have a limit inside the values, so that they fire and clear again as the temperature drifts (the rest never fire)")
	flag.Parse()
	if o.alarmRules < 0 || o.alarmFiring < 0 || o.alarmFiring > o.alarmRules {
		fatal(errors.New("-alarm-rules and -alarm-firing must not be negative, -alarm-firing at most -alarm-rules"))
	}
	if o.db != "sqlite" && o.db != "postgres" {
		fatal(fmt.Errorf("-db: want sqlite or postgres, got %q", o.db))
	}
	if o.via != "http" && o.via != "mqtt" && o.via != "compare" {
		fatal(fmt.Errorf("-via: want http, mqtt or compare, got %q", o.via))
	}
	if o.conns < 1 || o.duration <= 0 || o.warmup < 0 || o.nodes < 1 || o.interval < time.Millisecond || o.copyRuns < 1 ||
		o.storeDur < 0 || o.storeBatch < 1 || o.storeProcs < 1 || o.pubs < 1 || o.window < 1 || o.backlog < 1 {
		fatal(errors.New("-c, -nodes, -copy-runs, -store-batch, -store-writers, -pubs, -window and -backlog must be at least 1, -d positive, -interval at least 1ms, -warmup and -store-d not negative"))
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
	var tags []string
	if o.pprof != "" {
		if o.bin != "" {
			return errors.New("-pprof builds its own binary: leave out -bin")
		}
		tags = append(tags, "pprof")
	}
	metricsAddr, err := loadkit.FreeAddr() // the group commit figures below
	if err != nil {
		return err
	}
	env := []string{"FIELDHUB_METRICS_ADDR=" + metricsAddr}
	metricsURL := "http://" + metricsAddr
	pprofAddr := ""
	if o.pprof != "" {
		if pprofAddr, err = loadkit.FreeAddr(); err != nil {
			return err
		}
		env = append(env, "PPROF_ADDR="+pprofAddr)
	}
	pgAdmin := ""
	if o.db == "postgres" {
		pgAdmin = o.pgAdmin
	}
	if o.serverProcs > 0 {
		env = append(env, "GOMAXPROCS="+strconv.Itoa(o.serverProcs))
	}
	var broker *loadkit.Broker
	if o.via != "http" {
		brokerURL := o.broker
		if brokerURL == "" {
			// The broker starts before the portal, so it has a folder of its own.
			brokerDir, err := os.MkdirTemp("", "fieldhub-bench-ingest-mqtt-")
			if err != nil {
				return err
			}
			defer func() {
				if o.keep {
					fmt.Fprintln(os.Stderr, "ingest: kept", brokerDir)
					return
				}
				os.RemoveAll(brokerDir)
			}()
			if broker, err = loadkit.StartMosquitto(brokerDir, brokerSettings...); err != nil {
				return err
			}
			defer broker.Stop()
			brokerURL = broker.URL
		}
		env = append(env, "MQTT_URL="+brokerURL, fmt.Sprintf("MQTT_CLIENT_ID=fieldhub-bench-%d", os.Getpid()))
	}
	portal, stop, err := loadkit.StartPortal(ctx, loadkit.PortalOptions{Name: "ingest", Bin: o.bin, Tags: tags, PGAdmin: pgAdmin, Env: env, Keep: o.keep})
	if err != nil {
		return err
	}
	defer func() {
		if serr := stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	server, dbURL := portal.Server(), portal.DatabaseURL

	setupStart := time.Now()
	csApp := ""
	if o.via != "http" {
		csApp = uuid.NewString()
	}
	company, token, euis, tagIDs, err := setup(server.Base, portal.RootToken, o.nodes, csApp)
	if err != nil {
		return server.Fail(err)
	}
	fmt.Printf("ingest: set up a company with %d nodes and an integration token in %.1f s\n", o.nodes, time.Since(setupStart).Seconds())
	if o.alarmRules > 0 {
		rulesStart := time.Now()
		if err := createAlarmRules(server.Base, portal.RootToken, company, tagIDs, o.alarmRules, o.alarmFiring); err != nil {
			return server.Fail(err)
		}
		fmt.Printf("ingest: created %d alarm rules (%d of them firing) over the nodes' keys in %.1f s\n", o.alarmRules, o.alarmFiring, time.Since(rulesStart).Seconds())
	}

	kind := generic
	if o.via != "http" {
		kind = chirpStack
	}
	gen := newGenerator(server.Addr, token, csApp, euis, o.interval, kind)
	// One uplink through net/http first: the route answers 200 and stores.
	if err := loadkit.Call(server.Base, "POST", gen.path, token, json.RawMessage(gen.body(nil, gen.next())), 200, nil); err != nil {
		return server.Fail(err)
	}
	var points atomic.Int64 // the points of every counted uplink, warm-up included
	points.Add(int64(gen.points))

	profiled := make(chan error, 1)
	if o.pprof != "" {
		go func() {
			time.Sleep(o.warmup)
			profiled <- saveProfile(pprofAddr, o.duration, o.pprof)
		}()
	}
	var rows []string
	var rates []float64
	if o.via != "mqtt" {
		row, rate, err := runHTTP(server, gen, o, &points)
		if err != nil {
			return err
		}
		rows, rates = append(rows, row), append(rates, rate)
	}
	if o.via != "http" {
		brokerPID := 0
		if broker != nil {
			brokerPID = broker.PID()
		}
		row, rate, err := runMQTT(server, metricsURL, brokerURLOf(o, broker), brokerPID, gen, o, &points)
		if err != nil {
			return server.Fail(err)
		}
		rows, rates = append(rows, row), append(rates, rate)
	}
	if o.pprof != "" {
		if err := <-profiled; err != nil {
			return err
		}
		fmt.Printf("  profile:     %s (go tool pprof -top %s)\n", o.pprof, o.pprof)
	}
	if m, err := scrape(metricsURL); err == nil && m["fieldhub_ingest_batch_uplinks_count"] > 0 {
		n := m["fieldhub_ingest_batch_uplinks_count"]
		fmt.Printf("  batches:     %.0f group commits, %.1f uplinks and %.1f ms each on average (whole run)\n",
			n, m["fieldhub_ingest_batch_uplinks_sum"]/n, 1000*m["fieldhub_ingest_batch_seconds_sum"]/n)
	}

	server.Stop() // what follows runs alone on the machine
	if broker != nil {
		broker.Stop()
	}
	last := len(rows) - 1
	if o.db == "postgres" && o.alarmRules > 0 {
		if err := reportFirings(ctx, dbURL); err != nil {
			return err
		}
	}
	if o.db == "postgres" {
		cp, err := measureCopy(ctx, dbURL, points.Load(), o.copyRuns)
		if err != nil {
			return err
		}
		copyUplinks := cp / float64(gen.points)
		fmt.Printf("  COPY:        %.0f rows/s, the same rows into a scratch table like tsdb_points (median of %d), that is %.0f uplinks/s of %d points\n",
			cp, o.copyRuns, copyUplinks, gen.points)
		for i := range rows {
			ratio := rates[i] / copyUplinks
			if i == last {
				fmt.Printf("  ratio:       ingest / COPY = %.3f (1 : %.1f)\n", ratio, 1/ratio)
			}
			rows[i] += fmt.Sprintf(" %.0f | %.3f |", cp, ratio)
		}
	} else {
		for i := range rows {
			rows[i] += " | |"
		}
		dbURL = filepath.Join(portal.Dir, "data", "fieldhub.db")
	}
	if o.storeDur > 0 {
		rate, err := measureStore(ctx, dbURL, company, gen, o)
		if err != nil {
			return err
		}
		fmt.Printf("  store:       %.0f uplinks/s written straight into the SQL time-series store (%d writers, %d uplinks a write, %s)\n",
			rate, o.storeProcs, o.storeBatch, o.storeDur)
		for i := range rows {
			rows[i] += fmt.Sprintf(" %.0f |", rate)
		}
	}
	for _, r := range rows {
		fmt.Println("  " + r)
	}
	return nil
}

func brokerURLOf(o options, b *loadkit.Broker) string {
	if b != nil {
		return b.URL
	}
	return o.broker
}

// runHTTP posts the generator's uplinks over C keep-alive connections and
// returns the run's table row: | db | way | c | nodes | uplinks/s | p50 |
// p90 | p99 | errors | server CPU | loadgen CPU | PostgreSQL CPU | machine
// CPU |.
func runHTTP(server *loadkit.Server, gen *generator, o options, points *atomic.Int64) (string, float64, error) {
	fmt.Printf("ingest: POST %s on %s, %d points an uplink, %d nodes, %d connections, %s warm-up, %s measured, %d cores (server GOMAXPROCS %s, loadgen GOMAXPROCS %d)\n",
		gen.path, o.db, gen.points, o.nodes, o.conns, o.warmup, o.duration, runtime.NumCPU(), procsLabel(o.serverProcs), runtime.GOMAXPROCS(0))
	res, err := loadkit.Run(loadkit.Load{
		Addr: server.Addr, Conns: o.conns, Warmup: o.warmup, Duration: o.duration, ServerPID: server.PID(),
		Request: func(_ int, buf []byte) []byte { return gen.request(buf) },
		OK: func(status int) bool {
			if status == 200 {
				points.Add(int64(gen.points))
				return true
			}
			return false
		},
	})
	if err != nil {
		return "", 0, server.Fail(err)
	}
	if werr, done := server.Exited(); done {
		return "", 0, server.Fail(fmt.Errorf("the server stopped during the run: %v", werr))
	}
	res.Print("uplinks")
	fmt.Printf("  values:      %.0f values/s stored (%d a uplink)\n", res.Rate()*valuesPerUplink, valuesPerUplink)
	way := "http"
	if gen.kind == chirpStack {
		way = "http (ChirpStack)"
	}
	if o.via == "http" {
		// The row bench/ingest-compare.sh reads: | db | c | nodes | uplinks/s | ...
		return fmt.Sprintf("| %s | %d | %d | %.0f | %s | %s | %s | %d | %.2f | %.2f | %.2f | %.2f |", o.db, o.conns, o.nodes, res.Rate(),
			loadkit.Ms(res.Percentile(50)), loadkit.Ms(res.Percentile(90)), loadkit.Ms(res.Percentile(99)), res.Errors,
			res.Cores(res.ServerCPU), res.Cores(res.ClientCPU), res.Cores(res.DBCPU), res.Cores(res.MachineCPU)), res.Rate(), nil
	}
	return fmt.Sprintf("| %s | %s | %d connections | %d | %.0f | %s | %s | %s | %d | %.2f | %.2f | %.2f | – | %.2f |", o.db, way, o.conns, o.nodes, res.Rate(),
		loadkit.Ms(res.Percentile(50)), loadkit.Ms(res.Percentile(90)), loadkit.Ms(res.Percentile(99)), res.Errors,
		res.Cores(res.ServerCPU), res.Cores(res.ClientCPU), res.Cores(res.DBCPU), res.Cores(res.MachineCPU)), res.Rate(), nil
}

// runMQTT publishes the generator's uplinks as ChirpStack's MQTT integration
// does, keeping at most o.backlog of them published and not yet
// acknowledged by the portal, and measures the rate at which the portal
// acknowledges them (each once its points are committed). Then it stops
// publishing and waits until the portal has acknowledged every one. It
// returns the run's table row, as runHTTP's with the publishers instead of
// the connections, no latencies (the portal's acknowledgement goes to the
// broker) and the broker's CPU.
func runMQTT(server *loadkit.Server, metricsURL, brokerURL string, brokerPID int, gen *generator, o options, points *atomic.Int64) (string, float64, error) {
	addr := strings.TrimPrefix(brokerURL, "mqtt://")
	fmt.Printf("ingest: MQTT QoS 1 to %s, ChirpStack uplink JSON, %d points an uplink, %d nodes, %d publishers, backlog %d, %s warm-up, %s measured, %d cores (server GOMAXPROCS %s, loadgen GOMAXPROCS %d)\n",
		brokerURL, gen.points, o.nodes, o.pubs, o.backlog, o.warmup, o.duration, runtime.NumCPU(), procsLabel(o.serverProcs), runtime.GOMAXPROCS(0))
	acked := func() (float64, error) {
		m, err := scrape(metricsURL)
		if err != nil {
			return 0, err
		}
		v, ok := m["fieldhub_mqtt_events_acknowledged_total"]
		if !ok {
			return 0, errors.New("the server has no fieldhub_mqtt_events_acknowledged_total metric")
		}
		return v, nil
	}
	// The portal's subscription is in place once a probe comes through.
	base, err := acked()
	if err != nil {
		return "", 0, err
	}
	probe, err := loadkit.DialMQTT(addr, fmt.Sprintf("bench-probe-%d", os.Getpid()), 1)
	if err != nil {
		return "", 0, err
	}
	for {
		n := gen.next()
		if err := probe.Publish(gen.topic(n), gen.body(nil, n)); err != nil {
			return "", 0, err
		}
		if err := probe.Drain(10 * time.Second); err != nil {
			return "", 0, err
		}
		time.Sleep(200 * time.Millisecond)
		if v, err := acked(); err != nil {
			return "", 0, err
		} else if v > base {
			points.Add(int64(v-base) * int64(gen.points))
			base = v
			break
		}
	}
	probe.Close()

	var published, portal atomic.Int64 // since base
	stop := make(chan struct{})
	var pubErr atomic.Value
	var wg sync.WaitGroup
	pubs := make([]*loadkit.Publisher, o.pubs)
	for i := range pubs {
		p, err := loadkit.DialMQTT(addr, fmt.Sprintf("bench-pub-%d-%d", os.Getpid(), i), o.window)
		if err != nil {
			return "", 0, err
		}
		pubs[i] = p
		wg.Go(func() {
			var buf []byte
			for {
				select {
				case <-stop:
					if err := p.Drain(time.Minute); err != nil {
						pubErr.Store(err)
					}
					return
				default:
				}
				if published.Load()-portal.Load() >= int64(o.backlog) {
					if err := p.Flush(); err != nil {
						pubErr.Store(err)
						return
					}
					time.Sleep(2 * time.Millisecond)
					continue
				}
				n := gen.next()
				buf = gen.body(buf[:0], n)
				published.Add(1)
				if err := p.Publish(gen.topic(n), buf); err != nil {
					pubErr.Store(err)
					return
				}
			}
		})
	}
	// The portal's count, polled: the publishers' brake, and the samples.
	pollDone := make(chan struct{})
	var pollErr atomic.Value
	go func() {
		defer close(pollDone)
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			v, err := acked()
			if err != nil {
				pollErr.Store(err)
				return
			}
			portal.Store(int64(v - base))
		}
	}()
	type mark struct {
		at                          time.Time
		acked                       float64
		server, client, db, machine time.Duration
		broker                      time.Duration
	}
	markNow := func() (mark, error) {
		v, err := acked()
		if err != nil {
			return mark{}, err
		}
		m := mark{at: time.Now(), acked: v, client: loadkit.SelfCPU(), db: loadkit.CommandCPU("postgres")}
		m.server, _ = loadkit.ProcessCPU(server.PID())
		m.machine, _ = loadkit.MachineCPU()
		if brokerPID != 0 {
			m.broker, _ = loadkit.ProcessCPU(brokerPID)
		} else {
			m.broker = loadkit.CommandCPU("mosquitto")
		}
		return m, nil
	}
	time.Sleep(o.warmup)
	m0, err := markNow()
	if err != nil {
		return "", 0, err
	}
	time.Sleep(o.duration)
	m1, err := markNow()
	if err != nil {
		return "", 0, err
	}
	close(stop)
	wg.Wait()
	<-pollDone
	if err, ok := pubErr.Load().(error); ok {
		return "", 0, fmt.Errorf("publisher: %w", err)
	}
	if err, ok := pollErr.Load().(error); ok {
		return "", 0, fmt.Errorf("metrics: %w", err)
	}
	for _, p := range pubs {
		p.Close()
	}
	total := published.Load()
	backlog := total - int64(m1.acked-base)
	// Every published uplink must come through: wait for the rest.
	drainStart := time.Now()
	for {
		v, err := acked()
		if err != nil {
			return "", 0, err
		}
		if int64(v-base) >= total {
			break
		}
		if time.Since(drainStart) > 3*time.Minute {
			return "", 0, fmt.Errorf("the portal acknowledged %d of %d published uplinks in 3 minutes after the publishers stopped", int64(v-base), total)
		}
		time.Sleep(100 * time.Millisecond)
	}
	points.Add(total * int64(gen.points))
	if werr, done := server.Exited(); done {
		return "", 0, fmt.Errorf("the server stopped during the run: %v", werr)
	}
	secs := m1.at.Sub(m0.at).Seconds()
	rate := (m1.acked - m0.acked) / secs
	cores := func(a, b time.Duration) float64 { return (b - a).Seconds() / secs }
	fmt.Printf("  uplinks:     %d published, %.0f acknowledged by the portal in the %.2f s measured; %d published and not yet acknowledged at its end; the rest came through in %.1f s\n",
		total, m1.acked-m0.acked, secs, backlog, time.Since(drainStart).Seconds())
	fmt.Printf("  throughput:  %.0f uplinks/s stored (acknowledged by the portal)\n", rate)
	fmt.Printf("  CPU:         server %.2f cores, loadgen %.2f cores, PostgreSQL %.2f cores, broker %.2f cores, whole machine %.2f cores busy (of %d)\n",
		cores(m0.server, m1.server), cores(m0.client, m1.client), cores(m0.db, m1.db), cores(m0.broker, m1.broker), cores(m0.machine, m1.machine), runtime.NumCPU())
	fmt.Printf("  values:      %.0f values/s stored (%d a uplink)\n", rate*valuesPerUplink, valuesPerUplink)
	return fmt.Sprintf("| %s | mqtt | %d publishers | %d | %.0f | – | – | – | 0 | %.2f | %.2f | %.2f | %.2f | %.2f |", o.db, o.pubs, o.nodes, rate,
		cores(m0.server, m1.server), cores(m0.client, m1.client), cores(m0.db, m1.db), cores(m0.broker, m1.broker), cores(m0.machine, m1.machine)), rate, nil
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

// setup creates, as the SuperAdmin (super), a company with an application
// of n nodes and an integration token, and returns the token and the nodes'
// DevEUIs. With csApp the application is of ChirpStack, under that
// ChirpStack application id.
func setup(base, super string, n int, csApp string) (int64, string, []string, []int64, error) {
	fields := map[string]any{"name": "Bench field"}
	if csApp != "" {
		fields["networkServer"], fields["chirpstackApplicationId"] = "chirpstack", csApp
	}
	c, err := loadkit.NewCompany(base, super, loadkit.CompanyOptions{Application: fields, TokenLabel: "bench"})
	if err != nil {
		return 0, "", nil, nil, err
	}
	euis := make([]string, n)
	ids := make([]int64, n)
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
				var tag struct {
					ID int64 `json:"id"`
				}
				err := loadkit.Call(base, "POST", fmt.Sprintf("/api/applications/%d/tag", c.App), super,
					map[string]any{"name": fmt.Sprintf("Bench node %d", i), "deveui": euis[i]}, 201, &tag)
				ids[i] = tag.ID
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
	return c.ID, c.IntegrationToken, euis, ids, firstErr
}

// reportFirings prints how often the alarm rules fired during the run
// (their history) and how many mails those firings queued.
func reportFirings(ctx context.Context, dbURL string) error {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return fmt.Errorf("firings: connect: %w", err)
	}
	defer conn.Close(ctx)
	var events, mails int64
	if err := conn.QueryRow(ctx, `SELECT (SELECT count(*) FROM alarm_events), (SELECT count(*) FROM mail_outbox)`).Scan(&events, &mails); err != nil {
		return fmt.Errorf("firings: %w", err)
	}
	fmt.Printf("  alarms:      %d firings in the alarms' history, %d mails queued\n", events, mails)
	return nil
}

// createAlarmRules creates n alarm rules as the SuperAdmin (super), round robin
// over the nodes and their keys (rule i on node i mod N, key i div N mod 5),
// so that every uplink of a node is evaluated against the rules on it. The
// first firing of them are HIGH rules on the temperature at 20, the middle
// of its drift (17 to 23): they fire and clear again as it drifts, and
// each firing queues an e-mail (priority C, e-mail contact; no SMTP server,
// so the outbox keeps retrying it, as with an unreachable one). The rest
// have limits outside every value the generator sends and never fire.
func createAlarmRules(base, super string, company int64, tagIDs []int64, n, firing int) error {
	next := atomic.Int64{}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					errs <- nil
					return
				}
				node := i % len(tagIDs)
				key := valueKeys[(i/len(tagIDs))%valuesPerUplink]
				rule := map[string]any{"name": fmt.Sprintf("Bench rule %d", i), "tag": tagIDs[node], "tagDataKey": key,
					"limitHigh": 1e6, "limitLow": -1e6, "priority": 2, "contactType": 1,
					"alarmContacts": []string{"alarms@bench.example"}, "alarmDelay": 0, "message": "{node}: {key} = {value}"}
				if i < firing {
					rule["tagDataKey"], rule["limitHigh"] = "temperature", 20.0
					delete(rule, "limitLow")
				}
				if err := loadkit.Call(base, "POST", fmt.Sprintf("/api/companies/%d/alarm", company), super, rule, 201, nil); err != nil {
					errs <- fmt.Errorf("alarm rule %d: %w", i, err)
					return
				}
			}
		}()
	}
	var first error
	for range 8 {
		first = cmpOr(first, <-errs)
	}
	return first
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// generator makes the uplinks: the n-th names node n mod N at the time
// start + (n div N) * interval, so no two uplinks of a node share a time and
// every one stores new points. Its bodies are generic JSON or ChirpStack's
// uplink event.
type generator struct {
	kind     bodyKind
	path     string // the HTTP route
	points   int    // points an uplink stores
	head     []byte // request line and headers up to Content-Length
	csApp    string // ChirpStack application id
	euis     []string
	interval time.Duration
	start    time.Time
	seq      atomic.Int64
}

type bodyKind int

const (
	generic bodyKind = iota
	chirpStack
)

func newGenerator(addr, token, csApp string, euis []string, interval time.Duration, kind bodyKind) *generator {
	// Now, as a network server stamps what it receives: live data, whose
	// hours the store summarises once they have ended (sqlts, seal.go).
	// A run must stay within the ingest's hour ahead of the clock
	// (-interval).
	start := time.Now().UTC().Truncate(time.Second)
	g := &generator{kind: kind, path: "/api/ingest/generic", points: valuesPerUplink, csApp: csApp, euis: euis, interval: interval, start: start}
	if kind == chirpStack {
		g.path, g.points = "/api/ingest/chirpstack?event=up", chirpStackPoints
	}
	g.head = []byte("POST " + g.path + " HTTP/1.1\r\nHost: " + addr + "\r\nAuthorization: Bearer " + token +
		"\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ")
	return g
}

func (g *generator) next() int64 { return g.seq.Add(1) - 1 }

// request appends the next uplink's whole HTTP request to buf.
func (g *generator) request(buf []byte) []byte {
	n := g.next()
	buf = append(buf, g.head...)
	lenAt := len(buf)
	buf = append(buf, "0000\r\n\r\n"...) // room for the length, filled in below
	bodyAt := len(buf)
	buf = g.body(buf, n)
	size := len(buf) - bodyAt
	if size > 9999 {
		panic("uplink body over 9999 bytes")
	}
	copy(buf[lenAt:], fmt.Sprintf("%04d", size))
	return buf
}

// topic is the MQTT topic ChirpStack publishes uplink n on.
func (g *generator) topic(n int64) string {
	return "application/" + g.csApp + "/device/" + g.euis[n%int64(len(g.euis))] + "/event/up"
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
	if g.kind == chirpStack {
		return g.chirpStackBody(buf, n)
	}
	eui, t, values := g.uplink(n)
	buf = append(buf, `{"devEui":"`...)
	buf = append(buf, eui...)
	buf = append(buf, `","time":"`...)
	buf = t.AppendFormat(buf, time.RFC3339Nano)
	buf = append(buf, `","values":{`...)
	buf = appendValues(buf, values)
	buf = append(buf, `}}`...)
	return buf
}

func appendValues(buf []byte, values [valuesPerUplink]float64) []byte {
	for i, k := range valueKeys {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '"')
		buf = append(buf, k...)
		buf = append(buf, `":`...)
		buf = strconv.AppendFloat(buf, values[i], 'f', -1, 64)
	}
	return buf
}

// chirpStackBody appends uplink n as ChirpStack v4 sends an uplink event
// with the JSON encoding (the fields of its testdata fixture): the device,
// the payload, the codec's decoded object (the nodes' decoder is "raw", so
// the portal stores the object), one gateway's reception and the radio.
func (g *generator) chirpStackBody(buf []byte, n int64) []byte {
	eui, t, values := g.uplink(n)
	round := n / int64(len(g.euis))
	buf = append(buf, `{"deduplicationId":"`...)
	buf = fmt.Appendf(buf, "%08x-4401-4b8d-9386-%012x", uint32(n>>16), n)
	buf = append(buf, `","time":"`...)
	buf = t.AppendFormat(buf, time.RFC3339Nano)
	buf = append(buf, `","deviceInfo":{"tenantId":"52f14cd4-c6f1-4fbd-8f87-4025e1d49242","tenantName":"ChirpStack","applicationId":"`...)
	buf = append(buf, g.csApp...)
	buf = append(buf, `","applicationName":"Bench field","deviceProfileId":"14855bf7-d10d-4aee-b618-ebfcb64dc7ad","deviceProfileName":"Bench sensor","deviceName":"Bench node","devEui":"`...)
	buf = append(buf, eui...)
	buf = append(buf, `","tags":{}},"devAddr":"00189440","adr":true,"dr":5,"fCnt":`...)
	buf = strconv.AppendInt(buf, round, 10)
	buf = append(buf, `,"fPort":2,"confirmed":false,"data":"`...)
	var payload [10]byte
	for i, v := range values {
		x := uint16(int64(v*10) & 0xffff)
		payload[2*i], payload[2*i+1] = byte(x>>8), byte(x)
	}
	buf = base64.StdEncoding.AppendEncode(buf, payload[:])
	buf = append(buf, `","object":{`...)
	buf = appendValues(buf, values)
	buf = append(buf, `},"rxInfo":[{"gatewayId":"0016c001f153a14c","uplinkId":`...)
	buf = strconv.AppendInt(buf, n&0xffffffff, 10)
	buf = append(buf, `,"rssi":-`...)
	buf = strconv.AppendInt(buf, 60+n%40, 10)
	buf = append(buf, `,"snr":7.5,"channel":2,"location":{},"context":"E3OWOQ==","metadata":{"region_common_name":"EU868","region_config_id":"eu868"},"crcStatus":"CRC_OK"}],`...)
	buf = append(buf, `"txInfo":{"frequency":867500000,"modulation":{"lora":{"bandwidth":125000,"spreadingFactor":7,"codeRate":"CR_4_5"}}}}`...)
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
	fmt.Printf("  stored:      %d points in tsdb_points, %d for the acknowledged uplinks\n", len(data), want)
	if int64(len(data)) < want {
		return 0, fmt.Errorf("only %d points stored, %d for the acknowledged uplinks", len(data), want)
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
