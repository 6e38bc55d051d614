// Command soak runs two instances of a real fieldhub binary on one fresh
// PostgreSQL database for a long while under steady load, records each
// instance's memory, goroutines and open files and the load's latency over
// time, kills one instance in the middle of it, and checks at the end that
// no acknowledged uplink was lost: the reliability figures of
// docs/performance.md.
//
// What runs:
//
//   - instance A is `fieldhub serve --demo`, whose simulator posts the demo
//     company's uplinks through the generic route (about 1.4 a second), and
//     instance B is `fieldhub serve`, both on the same database (and MQTT
//     broker), built with -tags pprof so that their goroutines and heap can
//     be read;
//   - -rate generic uplinks a second (5 values each, each of its own node
//     and time) are posted over keep-alive connections, half to each
//     instance; a request that fails (no connection, an error answer) is
//     sent again to the other instance until it is answered 200, as a
//     network server behind a load balancer would. Latency is from the time
//     an uplink was due to its 200, retries included;
//   - -mqtt-rate ChirpStack uplinks a second are published with QoS 1 to a
//     Mosquitto of the soak's own (with the settings README.md recommends),
//     which the instances take through their shared MQTT sessions;
//   - at -kill-at instance B is killed (SIGKILL): its clients go over to A,
//     A takes over B's MQTT sessions and the events B held unacknowledged;
//     -restart-after later B starts again and takes its share back.
//
// Every -sample it prints a row: per instance the resident memory, the Go
// heap in use, goroutines, open files and CPU, and the load's uplinks/s,
// p50 and p99 latency, retries and MQTT events in hand. At the end it stops
// the load, waits for what is in flight, and reads the stored points back:
// every uplink answered 200 and every event the broker acknowledged must
// have its points. It then compares, for instance A (which runs
// throughout), the first and last third of the samples between the warm-up
// and the kill, and again from a warm-up after B is back to the end:
// memory, goroutines and open files must not grow.
//
//	go run ./bench/soak                                   # 30 minutes, kill at 15
//	go run ./bench/soak -d 4m -warmup 30s -kill-at 2m     # a short run
package main

import (
	"bufio"
	"bytes"
	"context"
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
	"syscall"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/fieldhub/fieldhub/bench/internal/loadkit"
)

const (
	soakEmail    = "soak@example.com"
	soakPassword = "soakpass12"
)

// brokerSettings are README.md's settings for a fleet, without
// persistence: nothing outlives the run.
var brokerSettings = []string{"max_queued_messages 100000", "max_queued_bytes 0", "persistence false"}

type options struct {
	duration, warmup, sample     time.Duration
	killAt, restartAfter         time.Duration
	rate, mqttRate, nodes, conns int
	bin, pgAdmin                 string
	keep                         bool
}

func main() {
	var o options
	flag.DurationVar(&o.duration, "d", 30*time.Minute, "duration of the load")
	flag.DurationVar(&o.warmup, "warmup", 2*time.Minute, "warm-up: samples before it are not compared for growth")
	flag.DurationVar(&o.sample, "sample", 30*time.Second, "time between two samples")
	flag.DurationVar(&o.killAt, "kill-at", -1, "kill instance B this long after the load began (default: half of -d; 0: never)")
	flag.DurationVar(&o.restartAfter, "restart-after", time.Minute, "start B again this long after the kill (0: not again)")
	flag.IntVar(&o.rate, "rate", 1000, "generic uplinks a second over HTTP, beside the demo's")
	flag.IntVar(&o.mqttRate, "mqtt-rate", 100, "ChirpStack uplinks a second over MQTT (0: no broker)")
	flag.IntVar(&o.nodes, "nodes", 1000, "nodes the HTTP uplinks go round (the MQTT ones have a tenth as many of their own)")
	flag.IntVar(&o.conns, "c", 64, "HTTP requests in flight at most (keep-alive connections)")
	flag.StringVar(&o.bin, "bin", "", "fieldhub binary built with -tags pprof (default: build it)")
	flag.StringVar(&o.pgAdmin, "pg", loadkit.DefaultPostgres(), "PostgreSQL admin URL, used to create and drop the database")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary folder and the database")
	flag.Parse()
	if o.killAt < 0 {
		o.killAt = o.duration / 2
	}
	if o.duration <= 0 || o.sample <= 0 || o.warmup < 0 || o.rate < 1 || o.mqttRate < 0 || o.nodes < 10 || o.conns < 1 || o.killAt >= o.duration {
		fatal(errors.New("-d and -sample must be positive, -rate and -c at least 1, -nodes at least 10, -kill-at within -d"))
	}
	if err := run(o); err != nil {
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "soak:", err)
	os.Exit(1)
}

// instance is one `fieldhub serve`, started again after a kill.
type instance struct {
	name    string
	bin     string
	env     []string
	args    []string
	dir     string
	pprof   string
	metrics string // the address of its GET /metrics (FIELDHUB_METRICS_ADDR)

	mu      sync.Mutex
	server  *loadkit.Server
	base    atomic.Value // string
	killed  atomic.Bool
	lastCPU time.Duration
	starts  int
	// avoid is until when the load's clients send nothing here, after a
	// request failed (Unix nanoseconds), as a client that fails over does.
	avoid atomic.Int64
}

func (in *instance) start() error {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.starts++
	s, err := loadkit.StartServer(in.bin, append(slices.Clone(in.env), "PPROF_ADDR="+in.pprof),
		filepath.Join(in.dir, fmt.Sprintf("server-%s-%d.log", in.name, in.starts)), in.args...)
	if err != nil {
		return err
	}
	in.server, in.lastCPU = s, 0
	in.base.Store(s.Base)
	in.killed.Store(false)
	return nil
}

func (in *instance) url() string { s, _ := in.base.Load().(string); return s }

// kill ends the instance with SIGKILL. The load's clients find out by
// their requests failing.
func (in *instance) kill() {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.killed.Store(true)
	_ = in.server.Cmd.Process.Signal(syscall.SIGKILL)
	for range 100 {
		if _, done := in.server.Exited(); done {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	in.server.Stop()
}

func (in *instance) stop() {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.server != nil {
		in.server.Stop()
	}
}

func run(o options) (err error) {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "fieldhub-bench-soak-")
	if err != nil {
		return err
	}
	defer func() {
		if o.keep {
			fmt.Fprintln(os.Stderr, "soak: kept", tmp)
			return
		}
		os.RemoveAll(tmp)
	}()
	bin := o.bin
	if bin == "" {
		bin = filepath.Join(tmp, "fieldhub")
		if err := loadkit.BuildBinary(bin, "pprof"); err != nil {
			return err
		}
	}
	dbURL, drop, err := loadkit.CreatePostgres(ctx, o.pgAdmin, "fieldhub_bench_soak")
	if err != nil {
		return err
	}
	defer func() {
		if o.keep {
			fmt.Fprintln(os.Stderr, "soak: kept the database", dbURL)
			return
		}
		if derr := drop(); derr != nil && err == nil {
			err = derr
		}
	}()
	env := append(loadkit.CleanEnv(), "DATABASE_URL="+dbURL, "FIELDHUB_ACCESS_LOG=false")
	var broker *loadkit.Broker
	if o.mqttRate > 0 {
		if broker, err = loadkit.StartMosquitto(tmp, brokerSettings...); err != nil {
			return err
		}
		defer broker.Stop()
		env = append(env, "MQTT_URL="+broker.URL, fmt.Sprintf("MQTT_CLIENT_ID=fieldhub-soak-%d", os.Getpid()))
	}
	admin := exec.Command(bin, "admin", "create-superadmin", "--email", soakEmail, "--password", soakPassword)
	admin.Env = append(slices.Clone(env), "FIELDHUB_DATA="+filepath.Join(tmp, "a"))
	if out, err := admin.CombinedOutput(); err != nil {
		return fmt.Errorf("fieldhub admin create-superadmin: %v\n%s", err, out)
	}
	var instances []*instance
	for _, name := range []string{"A", "B"} {
		pprof, err := loadkit.FreeAddr()
		if err != nil {
			return err
		}
		metricsAddr, err := loadkit.FreeAddr()
		if err != nil {
			return err
		}
		in := &instance{name: name, bin: bin, dir: tmp, pprof: pprof, metrics: metricsAddr,
			env: append(slices.Clone(env), "FIELDHUB_DATA="+filepath.Join(tmp, strings.ToLower(name)), "FIELDHUB_METRICS_ADDR="+metricsAddr)}
		if name == "A" {
			in.args = []string{"--demo"}
		}
		if err := in.start(); err != nil {
			return err
		}
		defer in.stop()
		instances = append(instances, in)
	}
	a, b := instances[0], instances[1]

	csApp := uuid.NewString()
	f, err := setup(a.url(), o.nodes, max(o.nodes/10, 10), csApp)
	if err != nil {
		return a.server.Fail(err)
	}
	fmt.Printf("soak: two instances on PostgreSQL, A with the demo; %d uplinks/s over HTTP to %d nodes, %d/s over MQTT to %d; %s, warm-up %s, sample every %s, B killed at %s%s\n",
		o.rate, len(f.httpEUIs), o.mqttRate, len(f.mqttEUIs), o.duration, o.warmup, o.sample, o.killAt, restartNote(o))
	fmt.Printf("soak: %d cores, %s\n", runtime.NumCPU(), time.Now().UTC().Format("2006-01-02 15:04 UTC"))

	l := newLoad(o, f, instances)
	start := time.Now()
	l.start = start
	go l.dispatch()
	for range o.conns {
		l.workers.Go(l.work)
	}
	if broker != nil {
		l.workers.Go(func() {
			if err := l.publish(broker.Addr); err != nil {
				l.fail(fmt.Errorf("MQTT publisher: %w", err))
			}
		})
	}

	var samples []sample
	fmt.Println()
	fmt.Println("| t | A RSS MB | A heap MB | A goroutines | A open files | A CPU | B RSS MB | B heap MB | B goroutines | B open files | B CPU | uplinks/s | p50 | p99 | retries | MQTT in hand | note |")
	fmt.Println("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
	killed, restarted := o.killAt == 0, o.killAt == 0 || o.restartAfter == 0
	var killTime time.Time
	next := start.Add(o.sample)
	lastSample := start
	note := ""
	for time.Since(start) < o.duration {
		if err := l.failed(); err != nil {
			return err
		}
		now := time.Now()
		switch {
		case !killed && now.Sub(start) >= o.killAt:
			b.kill()
			killed, killTime = true, now
			note = strings.TrimPrefix(note+"; B killed", "; ")
		case killed && !restarted && !killTime.IsZero() && now.Sub(killTime) >= o.restartAfter:
			if err := b.start(); err != nil {
				return err
			}
			restarted = true
			note = strings.TrimPrefix(note+"; B started again", "; ")
		case now.Before(next):
			time.Sleep(min(time.Until(next), 100*time.Millisecond))
		default:
			s := l.sample(now.Sub(start), now.Sub(lastSample), a, b)
			s.note, note = note, ""
			samples = append(samples, s)
			fmt.Println(s.row())
			lastSample, next = now, next.Add(o.sample)
		}
	}
	fmt.Println()
	if err := l.finish(); err != nil {
		return err
	}
	if broker != nil {
		if err := awaitMQTT(ctx, dbURL, f, l.published.Load()); err != nil {
			return err
		}
	}
	for _, in := range instances {
		in.stop()
	}
	if broker != nil {
		broker.Stop()
	}
	return verify(ctx, dbURL, f, l, samples, o)
}

func restartNote(o options) string {
	if o.killAt == 0 || o.restartAfter == 0 {
		return ""
	}
	return ", started again " + o.restartAfter.String() + " later"
}

// fleet is what setup made: a company with a generic application of HTTP
// nodes, a ChirpStack application of MQTT nodes, and an integration token.
type fleet struct {
	company            int64
	token, csApp       string
	httpEUIs, mqttEUIs []string
}

func setup(base string, httpNodes, mqttNodes int, csApp string) (*fleet, error) {
	super, _, err := loadkit.Login(base, soakEmail, soakPassword)
	if err != nil {
		return nil, err
	}
	c, err := loadkit.NewCompany(base, super, loadkit.CompanyOptions{Name: "Soak AB", AdminEmail: "admin@soak.example", TokenLabel: "soak"})
	if err != nil {
		return nil, err
	}
	f := &fleet{company: c.ID, token: c.IntegrationToken, csApp: csApp}
	app := func(fields map[string]any, prefix string, n int) ([]string, error) {
		appID, err := loadkit.NewApplication(base, super, f.company, fields)
		if err != nil {
			return nil, err
		}
		euis := make([]string, n)
		var next atomic.Int64
		var firstErr atomic.Value
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				for i := int(next.Add(1) - 1); i < n && firstErr.Load() == nil; i = int(next.Add(1) - 1) {
					euis[i] = fmt.Sprintf("%s%06x", prefix, i)
					if err := loadkit.Call(base, "POST", fmt.Sprintf("/api/applications/%d/tag", appID), super,
						map[string]any{"name": "Soak node " + euis[i], "deveui": euis[i]}, 201, nil); err != nil {
						firstErr.Store(err)
					}
				}
			})
		}
		wg.Wait()
		if err, ok := firstErr.Load().(error); ok {
			return nil, err
		}
		return euis, nil
	}
	if f.httpEUIs, err = app(map[string]any{"name": "Soak field"}, "70b3d57ed2", httpNodes); err != nil {
		return nil, err
	}
	f.mqttEUIs, err = app(map[string]any{"name": "Soak barn", "networkServer": "chirpstack", "chirpstackApplicationId": csApp}, "70b3d57ed3", mqttNodes)
	return f, err
}

// load sends the uplinks and keeps what the samples and the final check
// need.
type load struct {
	o         options
	f         *fleet
	instances []*instance
	start     time.Time
	client    *http.Client
	jobs      chan int64
	stopping  atomic.Bool
	workers   sync.WaitGroup
	dispatchd chan struct{}

	mu        sync.Mutex
	window    []time.Duration // latencies of the uplinks answered since the last sample
	answered  int64           // in the window
	retries   int64           // in the window
	acked     []bool          // by uplink number
	retried   int64           // in all
	published atomic.Int64    // MQTT uplinks the broker acknowledged
	err       error
}

func newLoad(o options, f *fleet, instances []*instance) *load {
	tr := &http.Transport{MaxIdleConnsPerHost: o.conns, MaxConnsPerHost: o.conns, IdleConnTimeout: time.Minute}
	return &load{o: o, f: f, instances: instances, client: &http.Client{Transport: tr, Timeout: 30 * time.Second},
		jobs: make(chan int64, o.rate*60), dispatchd: make(chan struct{})}
}

func (l *load) fail(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		l.err = err
	}
}

func (l *load) failed() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// due is when uplink n is due: uplinks go out evenly at the rate.
func (l *load) due(n int64) time.Time {
	return l.start.Add(time.Duration(n) * time.Second / time.Duration(l.o.rate))
}

// dispatch hands the uplinks to the workers as they fall due.
func (l *load) dispatch() {
	defer close(l.dispatchd)
	defer close(l.jobs)
	var n int64
	for !l.stopping.Load() {
		for ; !l.due(n).After(time.Now()); n++ {
			select {
			case l.jobs <- n:
			default:
				l.fail(errors.New("the portal fell a minute behind the load"))
				return
			}
		}
		time.Sleep(time.Millisecond)
	}
}

// uplink returns uplink n's body: node n mod N at the second n div N after
// the start (uplink times follow the clock at -rate = -nodes), five values.
func (l *load) uplink(n int64, euis []string, buf []byte) []byte {
	node := n % int64(len(euis))
	round := n / int64(len(euis))
	t := l.start.UTC().Truncate(time.Second).Add(time.Duration(round) * time.Second)
	phase := float64(round)/60 + float64(node)
	buf = append(buf, `{"devEui":"`...)
	buf = append(buf, euis[node]...)
	buf = append(buf, `","time":"`...)
	buf = t.AppendFormat(buf, time.RFC3339)
	buf = fmt.Appendf(buf, `","values":{"temperature":%.2f,"humidity":%.2f,"co2":%d,"pressure":%.2f,"battery":%.3f}}`,
		20+3*math.Sin(phase), 45+10*math.Cos(phase/2), 600+int(200*math.Sin(phase/3)), 1013+5*math.Sin(phase/7), 3.6-float64(round)*1e-5)
	return buf
}

// work posts uplinks until the jobs end. Each goes to instance n mod 2 and,
// should that fail, to the other, until it is answered 200.
func (l *load) work() {
	var buf []byte
	for n := range l.jobs {
		buf = l.uplink(n, l.f.httpEUIs, buf[:0])
		for attempt := 0; ; attempt++ {
			in := l.pick(int(n) + attempt)
			ok := l.post(in.url(), buf)
			if !ok {
				in.avoid.Store(time.Now().Add(time.Second).UnixNano())
			}
			if ok {
				lat := time.Since(l.due(n))
				l.mu.Lock()
				l.window = append(l.window, lat)
				l.answered++
				for int64(len(l.acked)) <= n {
					l.acked = append(l.acked, false)
				}
				l.acked[n] = true
				l.mu.Unlock()
				break
			}
			l.mu.Lock()
			l.retries++
			l.retried++
			l.mu.Unlock()
			if attempt > 200 {
				l.fail(fmt.Errorf("uplink %d not stored after %d attempts", n, attempt))
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// pick returns instance i mod 2, or the other one while i's is avoided.
func (l *load) pick(i int) *instance {
	now := time.Now().UnixNano()
	for k := range l.instances {
		if in := l.instances[(i+k)%len(l.instances)]; in.avoid.Load() < now {
			return in
		}
	}
	return l.instances[i%len(l.instances)]
}

func (l *load) post(base string, body []byte) bool {
	req, err := http.NewRequest(http.MethodPost, base+"/api/ingest/generic", bytes.NewReader(body))
	if err != nil {
		return false
	}
	req.Header.Set("Authorization", "Bearer "+l.f.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := l.client.Do(req)
	if err != nil {
		return false
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// publish publishes the MQTT uplinks at their rate until the load stops,
// then waits for the broker's acknowledgements. Each is ChirpStack's uplink
// event with a decoded object of one value (and no payload or radio, so
// that it stores one point).
func (l *load) publish(addr string) error {
	p, err := loadkit.DialMQTT(addr, fmt.Sprintf("soak-pub-%d", os.Getpid()), 100)
	if err != nil {
		return err
	}
	defer p.Close()
	var n int64
	var buf []byte
	for !l.stopping.Load() {
		for ; !l.start.Add(time.Duration(n) * time.Second / time.Duration(l.o.mqttRate)).After(time.Now()); n++ {
			eui := l.f.mqttEUIs[n%int64(len(l.f.mqttEUIs))]
			t := l.mqttTime(n)
			buf = append(buf[:0], `{"time":"`...)
			buf = t.AppendFormat(buf, time.RFC3339Nano)
			buf = fmt.Appendf(buf, `","deviceInfo":{"devEui":"%s","applicationId":"%s"},"fPort":1,"object":{"temperature":%d}}`, eui, l.f.csApp, n)
			if err := p.Publish("application/"+l.f.csApp+"/device/"+eui+"/event/up", buf); err != nil {
				return err
			}
		}
		if err := p.Flush(); err != nil {
			return err
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := p.Drain(time.Minute); err != nil {
		return err
	}
	l.published.Store(p.Acked())
	return nil
}

// mqttTime is MQTT uplink n's time: its node's round after the start, in
// milliseconds apart so that they stay near the clock at any rate.
func (l *load) mqttTime(n int64) time.Time {
	round := n / int64(len(l.f.mqttEUIs))
	return l.start.UTC().Truncate(time.Second).Add(time.Duration(round) * time.Second * time.Duration(len(l.f.mqttEUIs)) / time.Duration(l.o.mqttRate))
}

// finish stops the load and waits for the uplinks in flight.
func (l *load) finish() error {
	l.stopping.Store(true)
	<-l.dispatchd
	l.workers.Wait()
	return l.failed()
}

// sample is one row of the table.
type sample struct {
	at                        time.Duration
	proc                      [2]procSample
	rate                      float64
	p50, p99                  time.Duration
	answered, retries, inHand int64
	note                      string
}

type procSample struct {
	up                    bool
	rssMB, heapMB, cpu    float64
	goroutines, openFiles int
}

func (l *load) sample(at, window time.Duration, a, b *instance) sample {
	s := sample{at: at}
	var inHand float64
	for i, in := range []*instance{a, b} {
		ps, hand := readProc(in, window)
		s.proc[i] = ps
		inHand += hand
	}
	s.inHand = int64(inHand)
	l.mu.Lock()
	lat := l.window
	l.window = nil
	s.answered, s.retries = l.answered, l.retries
	l.answered, l.retries = 0, 0
	l.mu.Unlock()
	slices.Sort(lat)
	s.rate = float64(s.answered) / window.Seconds()
	s.p50, s.p99 = percentile(lat, 50), percentile(lat, 99)
	return s
}

func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p/100+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// readProc reads an instance's resident memory, open files and CPU from
// /proc, its goroutines and heap from pprof, and its MQTT events in hand
// from its metrics.
func readProc(in *instance, window time.Duration) (procSample, float64) {
	in.mu.Lock()
	defer in.mu.Unlock()
	var ps procSample
	if in.killed.Load() || in.server == nil {
		return ps, 0
	}
	pid := in.server.PID()
	ps.up = true
	if raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
		for _, line := range strings.Split(string(raw), "\n") {
			if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
				ps.rssMB = kb / 1024
			}
		}
	}
	if fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid)); err == nil {
		ps.openFiles = len(fds)
	}
	if cpu, err := loadkit.ProcessCPU(pid); err == nil {
		if in.lastCPU > 0 {
			ps.cpu = (cpu - in.lastCPU).Seconds() / window.Seconds()
		}
		in.lastCPU = cpu
	}
	if first, err := getFirstLine("http://" + in.pprof + "/debug/pprof/goroutine?debug=1"); err == nil {
		ps.goroutines, _ = strconv.Atoi(strings.TrimPrefix(first, "goroutine profile: total "))
	}
	if v, err := heapInuse("http://" + in.pprof + "/debug/pprof/heap?debug=1"); err == nil {
		ps.heapMB = v / (1 << 20)
	}
	hand := 0.0
	if m, err := metrics("http://" + in.metrics); err == nil {
		hand = m["fieldhub_mqtt_events_in_hand"]
	}
	return ps, hand
}

func getFirstLine(url string) (string, error) {
	resp, err := http.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	return strings.TrimSpace(line), err
}

func heapInuse(url string) (float64, error) {
	resp, err := http.Get(url)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "# HeapInuse = "); ok {
			return strconv.ParseFloat(v, 64)
		}
	}
	return 0, errors.New("no HeapInuse in the heap profile")
}

func metrics(base string) (map[string]float64, error) {
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok || strings.HasPrefix(name, "#") || strings.Contains(name, "{") {
			continue
		}
		if v, err := strconv.ParseFloat(value, 64); err == nil {
			out[name] = v
		}
	}
	return out, sc.Err()
}

func (s sample) row() string {
	cols := []string{fmt.Sprintf("%d s", int(s.at.Round(time.Second).Seconds()))}
	for _, p := range s.proc {
		if !p.up {
			cols = append(cols, "–", "–", "–", "–", "–")
			continue
		}
		cpu := "–" // no earlier reading of this process
		if p.cpu > 0 {
			cpu = fmt.Sprintf("%.2f", p.cpu)
		}
		cols = append(cols, fmt.Sprintf("%.0f", p.rssMB), fmt.Sprintf("%.1f", p.heapMB), strconv.Itoa(p.goroutines),
			strconv.Itoa(p.openFiles), cpu)
	}
	cols = append(cols, fmt.Sprintf("%.0f", s.rate), loadkit.Ms(s.p50), loadkit.Ms(s.p99), strconv.FormatInt(s.retries, 10),
		strconv.FormatInt(s.inHand, 10), s.note)
	return "| " + strings.Join(cols, " | ") + " |"
}

// growth prints instance A's medians in the first and last third of the
// samples taken from from to to.
func growth(phase string, samples []sample, from, to time.Duration) {
	var list []sample
	for _, s := range samples {
		if s.at >= from && s.at <= to && s.proc[0].up {
			list = append(list, s)
		}
	}
	if len(list) < 6 {
		fmt.Printf("  growth %s: too few samples (%d) to compare\n", phase, len(list))
		return
	}
	third := len(list) / 3
	med := func(part []sample, f func(sample) float64) float64 {
		v := make([]float64, len(part))
		for i, s := range part {
			v[i] = f(s)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	first, last := list[:third], list[len(list)-third:]
	fmt.Printf("  growth %s (%s to %s, A's medians, first third against last third):\n", phase, from, to)
	for _, m := range []struct {
		name string
		f    func(sample) float64
	}{
		{"RSS MB", func(s sample) float64 { return s.proc[0].rssMB }},
		{"heap MB", func(s sample) float64 { return s.proc[0].heapMB }},
		{"goroutines", func(s sample) float64 { return float64(s.proc[0].goroutines) }},
		{"open files", func(s sample) float64 { return float64(s.proc[0].openFiles) }},
		{"p99 ms", func(s sample) float64 { return float64(s.p99) / float64(time.Millisecond) }},
	} {
		a, b := med(first, m.f), med(last, m.f)
		fmt.Printf("    %-11s %.1f, then %.1f (%+.0f %%)\n", m.name+":", a, b, 100*(b-a)/math.Max(a, 1e-9))
	}
}

// awaitMQTT waits until the MQTT uplinks the broker acknowledged are all
// stored, or two minutes have passed (verify then names the missing).
func awaitMQTT(ctx context.Context, dbURL string, f *fleet, published int64) error {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		var n int64
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM tsdb_points p JOIN tsdb_series s ON s.id = p.series_id
			WHERE s.company_id = $1 AND s.tag_key = 'temperature' AND s.deveui = ANY($2)`, f.company, f.mqttEUIs).Scan(&n); err != nil {
			return err
		}
		if n >= published {
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}

// verify reads the stored points back: every uplink answered 200 and every
// MQTT uplink the broker acknowledged must have its points. Then it checks
// instance A's samples after the warm-up for growth.
func verify(ctx context.Context, dbURL string, f *fleet, l *load, samples []sample, o options) error {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	stored := func(euis []string) (map[string]map[int64]bool, error) {
		rows, err := conn.Query(ctx, `SELECT s.deveui, p.ts FROM tsdb_points p JOIN tsdb_series s ON s.id = p.series_id
			WHERE s.company_id = $1 AND s.tag_key = 'temperature' AND s.deveui = ANY($2)`, f.company, euis)
		if err != nil {
			return nil, err
		}
		out := map[string]map[int64]bool{}
		for rows.Next() {
			var eui string
			var ts int64
			if err := rows.Scan(&eui, &ts); err != nil {
				return nil, err
			}
			if out[eui] == nil {
				out[eui] = map[int64]bool{}
			}
			out[eui][ts] = true
		}
		return out, rows.Err()
	}
	httpPoints, err := stored(f.httpEUIs)
	if err != nil {
		return err
	}
	var acked, lost int64
	for n, ok := range l.acked {
		if !ok {
			continue
		}
		acked++
		node := int64(n) % int64(len(f.httpEUIs))
		t := l.start.UTC().Truncate(time.Second).Add(time.Duration(int64(n)/int64(len(f.httpEUIs))) * time.Second)
		if !httpPoints[f.httpEUIs[node]][t.UnixMicro()] {
			lost++
		}
	}
	fmt.Printf("  HTTP:        %d uplinks answered 200 (%d requests sent again after a failure), %d of them not stored\n", acked, l.retried, lost)
	var mqttLost, published int64
	if o.mqttRate > 0 {
		published = l.published.Load()
		mqttPoints, err := stored(f.mqttEUIs)
		if err != nil {
			return err
		}
		for n := range published {
			eui := f.mqttEUIs[n%int64(len(f.mqttEUIs))]
			if !mqttPoints[eui][l.mqttTime(n).UnixMicro()] {
				mqttLost++
			}
		}
		fmt.Printf("  MQTT:        %d uplinks acknowledged by the broker, %d of them not stored\n", published, mqttLost)
	}
	// Growth: instance A's samples, first third against last third
	// (medians), before the kill (after the warm-up) and after it (once B
	// is back and a warm-up more has passed): the kill moves clients and
	// MQTT sessions to A and back, which shows as a step, not as growth.
	end := o.duration
	if o.killAt > 0 {
		end = o.killAt
	}
	growth("before the kill", samples, o.warmup, end)
	if o.killAt > 0 && o.restartAfter > 0 {
		growth("after B is back", samples, o.killAt+o.restartAfter+o.warmup, o.duration)
	}
	if lost > 0 || mqttLost > 0 {
		return fmt.Errorf("%d acknowledged HTTP uplinks and %d MQTT uplinks were not stored", lost, mqttLost)
	}
	return nil
}
