// Command scripts measures the script engine through the API of a running
// portal: it builds the fieldhub binary, starts `fieldhub serve` on a fresh
// PostgreSQL database, makes a company with nodes and scripts through the
// API, and then measures:
//
//   - "trigger": the time from an uplink's commit (its POST answered) to
//     the end of the triggered dew point script's run that writes its
//     value (the run's start and duration from the run history), p50 and
//     p99, at -rate uplinks a second spread over -nodes nodes, each with
//     its own triggered script; the runs of the uplinks of the first
//     -warmup are not counted.
//   - "loop": -scripts looping scripts at a -interval interval, each reading
//     one range of a key and writing one value; the server's CPU share of
//     one core over -window.
//   - "ingest": the ingest's rate with -conns connections posting uplinks
//     of -ingest-nodes nodes, without triggered scripts and with -triggered
//     of them (on as many of those nodes), in the order without, with,
//     with, without, and the ratio of the means.
//
// Each measurement makes its own scripts and runs them switched on; after
// each, every script the benchmark made must still be on (a script that
// fails 5 runs in a row is switched off): the benchmark fails loudly
// otherwise, naming the script and its last error, since a measurement of
// scripts that stopped running measures nothing.
//
// Run it as:
//
//	go run ./bench/scripts                        # all three, as in docs/performance.md, "Scripts"
//	go run ./bench/scripts -only trigger -rate 1000
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fieldhub/fieldhub/bench/internal/loadkit"
)

// dewPoint is the triggered script: the dew point of the uplink's
// temperature and humidity, written to its node.
const dewPoint = `var t = trigger.values.temperature, h = trigger.values.humidity;
var g = Math.log(h / 100) + 17.62 * t / (243.12 + t);
write(trigger.tagId, {dew_point: Math.round(243.12 * g / (17.62 - g) * 100) / 100}, trigger.time);`

type options struct {
	only, bin, pg               string
	nodes, rate, scripts, conns int
	triggered, ingestNodes      int
	interval                    int
	keep                        bool
	duration, window, warmup    time.Duration
}

func main() {
	var o options
	flag.StringVar(&o.only, "only", "", `"trigger", "loop" or "ingest": run one of them`)
	flag.IntVar(&o.nodes, "nodes", 600, "nodes (each with a triggered script for trigger); each gets at most 50 uplinks, the history a script keeps")
	flag.IntVar(&o.rate, "rate", 1000, "uplinks a second for trigger")
	flag.DurationVar(&o.duration, "duration", 30*time.Second, "how long trigger and each ingest run post uplinks")
	flag.IntVar(&o.scripts, "scripts", 1000, "looping scripts for loop")
	flag.IntVar(&o.interval, "interval", 60, "the looping scripts' interval in seconds")
	flag.DurationVar(&o.window, "window", 3*time.Minute, "how long loop measures the server's CPU")
	flag.IntVar(&o.conns, "conns", 256, "connections for ingest")
	flag.IntVar(&o.triggered, "triggered", 100, "triggered scripts for the second ingest run")
	flag.IntVar(&o.ingestNodes, "ingest-nodes", 1000, "nodes the ingest runs post to (the first -triggered of them get a script)")
	flag.DurationVar(&o.warmup, "warmup", 5*time.Second, "warm-up of each ingest run, and of trigger: the runs of its first uplinks are not counted")
	flag.BoolVar(&o.keep, "keep", false, "keep the server's folder (its log) and database for a look")
	flag.StringVar(&o.bin, "bin", "", "a fieldhub binary to test (default: build one)")
	flag.StringVar(&o.pg, "pg", loadkit.DefaultPostgres(), "PostgreSQL admin URL, used to create and drop the benchmark database")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "scripts:", err)
		os.Exit(1)
	}
}

// portal is a started server with its company.
type portal struct {
	server  *loadkit.Server
	db      string // the database's URL
	company int64
	token   string // the CompanyAdmin's
	ingest  string // an integration token
	app     int64
	// made are the scripts the benchmark made, all switched on.
	made map[int64]bool
}

func run(o options) (err error) {
	ctx := context.Background()
	started, stop, err := loadkit.StartPortal(ctx, loadkit.PortalOptions{Name: "scripts", Bin: o.bin, PGAdmin: o.pg, Keep: o.keep})
	if err != nil {
		return err
	}
	defer func() {
		if serr := stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	server := started.Server()
	p, err := setUp(server, started.RootToken)
	if err != nil {
		return server.Fail(err)
	}
	p.db = started.DatabaseURL
	steps := []struct {
		name string
		fn   func(*portal, options) error
	}{{"ingest", benchIngest}, {"trigger", benchTrigger}, {"loop", benchLoop}}
	for _, s := range steps {
		if o.only == "" || o.only == s.name {
			if err := s.fn(p, o); err != nil {
				return server.Fail(fmt.Errorf("%s: %w", s.name, err))
			}
			if err := p.stillOn(); err != nil {
				return server.Fail(fmt.Errorf("after %s: %w", s.name, err))
			}
		}
	}
	return nil
}

// setUp makes a company with an application and an integration token.
func setUp(server *loadkit.Server, root string) (*portal, error) {
	c, err := loadkit.NewCompany(server.Base, root, loadkit.CompanyOptions{Application: map[string]any{"name": "Bench"}, TokenLabel: "bench"})
	if err != nil {
		return nil, err
	}
	return &portal{server: server, company: c.ID, token: c.AdminToken, ingest: c.IntegrationToken, app: c.App, made: map[int64]bool{}}, nil
}

// node is a node of the benchmark.
type node struct {
	id  int64
	eui string
}

// nodes makes n nodes whose DevEUIs start at first.
func (p *portal) nodes(n, first int) ([]node, error) {
	out := make([]node, 0, n)
	for i := range n {
		eui := fmt.Sprintf("70B3D57ED0%06X", first+i)
		var t struct {
			ID int64 `json:"id"`
		}
		if err := loadkit.Call(p.server.Base, "POST", fmt.Sprintf("/api/applications/%d/tag", p.app), p.token,
			map[string]any{"name": "Meter " + eui, "deveui": eui}, http.StatusCreated, &t); err != nil {
			return nil, err
		}
		out = append(out, node{id: t.ID, eui: eui})
	}
	return out, nil
}

// script makes a script and returns its id.
func (p *portal) script(body map[string]any) (int64, error) {
	var s struct {
		ID int64 `json:"id"`
	}
	err := loadkit.Call(p.server.Base, "POST", fmt.Sprintf("/api/script/%d", p.company), p.token, body, http.StatusCreated, &s)
	if err == nil {
		p.made[s.ID] = true
	}
	return s.ID, err
}

// listed is a script as the company's list answers it.
type listed struct {
	ID        int64      `json:"id"`
	Name      string     `json:"name"`
	Enabled   bool       `json:"enabled"`
	LastRun   *time.Time `json:"lastRun"`
	LastError string     `json:"lastError"`
	Failures  int        `json:"failures"`
}

// list lists the company's scripts.
func (p *portal) list() ([]listed, error) {
	var out []listed
	err := loadkit.Call(p.server.Base, "GET", fmt.Sprintf("/api/script/company/%d", p.company), p.token, nil, http.StatusOK, &out)
	return out, err
}

// stillOn fails when a script the benchmark made was switched off; it
// names those whose last run failed.
func (p *portal) stillOn() error {
	list, err := p.list()
	if err != nil {
		return err
	}
	var off []string
	failing := 0
	for _, s := range list {
		if !p.made[s.ID] {
			continue
		}
		if !s.Enabled {
			off = append(off, fmt.Sprintf("%s (%s)", s.Name, s.LastError))
		} else if s.LastError != "" {
			failing++
			if failing == 1 {
				fmt.Printf("  script %s: last run failed: %s\n", s.Name, s.LastError)
			}
		}
	}
	if failing > 1 {
		fmt.Printf("  ... and %d more scripts whose last run failed\n", failing-1)
	}
	if len(off) > 0 {
		return fmt.Errorf("%d scripts were switched off, e.g. %s", len(off), off[0])
	}
	return nil
}

// uplink is the generic body of an uplink of n at.
func uplink(n node, at time.Time, i int) map[string]any {
	return map[string]any{"devEui": n.eui, "time": at.UTC().Format(time.RFC3339Nano),
		"values": map[string]any{"temperature": 15 + float64(i%100)/10, "humidity": 40 + i%50}}
}

// benchTrigger measures uplink commit to the triggered script's written
// value.
func benchTrigger(p *portal, o options) error {
	list, err := p.nodes(o.nodes, 0x100000)
	if err != nil {
		return err
	}
	scripts := map[int64]int64{} // node id → script id
	for _, n := range list {
		id, err := p.script(map[string]any{"name": "Dew point " + n.eui, "type": 2, "boundTag": n.id, "enabled": true, "content": dewPoint})
		if err != nil {
			return err
		}
		scripts[n.id] = id
	}
	// As each ingest run, the posting starts from a vacuumed database and a
	// checkpoint, not with one due from what the measurements before it
	// wrote.
	if err := loadkit.Settle(context.Background(), p.db); err != nil {
		return err
	}
	// Each script's history keeps its last 50 runs: the run posts at most
	// that many uplinks per node.
	total := min(int(o.duration.Seconds())*o.rate, 50*len(list))
	committed := make([]time.Time, total)
	var next atomic.Int64
	var wg sync.WaitGroup
	tick := time.Second / time.Duration(max(o.rate, 1))
	start := time.Now()
	errc := make(chan error, 64)
	for range min(64, total) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= total {
					return
				}
				time.Sleep(time.Until(start.Add(time.Duration(i) * tick)))
				n := list[i%len(list)]
				at := start.Add(time.Duration(i) * time.Millisecond)
				if err := loadkit.Call(p.server.Base, "POST", "/api/ingest/generic", p.ingest, uplink(n, at, i), http.StatusOK, nil); err != nil {
					errc <- err
					return
				}
				committed[i] = time.Now()
			}
		})
	}
	wg.Wait()
	close(errc)
	if err := <-errc; err != nil {
		return err
	}
	posted := time.Now()
	// lat is commit to written value; wait (commit to the run's start) and
	// took (the run) are its two parts, printed to show which one grows.
	var lat, wait, took []time.Duration
	var through time.Duration // the last uplink's commit to all its runs recorded
	failed := 0
	for i, n := range list {
		// The node's uplinks were i, i+len(list), ...: its history has a
		// run of each once the runs queued behind the load are through
		// and recorded.
		want := (total - i + len(list) - 1) / len(list)
		var runs []struct {
			StartedAt  time.Time `json:"startedAt"`
			DurationMS int64     `json:"durationMs"`
			Error      string    `json:"error"`
		}
		for {
			if err := loadkit.Call(p.server.Base, "GET", fmt.Sprintf("/api/script/history/%d", scripts[n.id]), p.token, nil, http.StatusOK, &runs); err != nil {
				return err
			}
			if len(runs) >= want {
				break
			}
			if time.Since(posted) > time.Minute {
				return fmt.Errorf("script %d has %d of its %d runs a minute after the last uplink", scripts[n.id], len(runs), want)
			}
			time.Sleep(100 * time.Millisecond)
		}
		through = time.Since(posted)
		// Runs are newest first; the node's uplinks were i, i+len(list), ...
		slices.Reverse(runs)
		for k, r := range runs {
			j := i + k*len(list)
			if j >= total || time.Duration(j)*tick < o.warmup {
				continue
			}
			if r.Error != "" {
				if failed == 0 {
					fmt.Printf("  a triggered run failed: %s\n", r.Error)
				}
				failed++
				continue
			}
			d := time.Duration(r.DurationMS) * time.Millisecond
			lat = append(lat, r.StartedAt.Add(d).Sub(committed[j]))
			wait = append(wait, r.StartedAt.Sub(committed[j]))
			took = append(took, d)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of the triggered runs failed", failed)
	}
	if len(lat) == 0 {
		return fmt.Errorf("no runs recorded")
	}
	pct := func(d []time.Duration, p float64) string {
		slices.Sort(d)
		return loadkit.Ms(d[min(len(d)-1, int(p*float64(len(d))))])
	}
	fmt.Printf("trigger: %d uplinks at %d/s over %d nodes: commit to written value p50 %s, p99 %s (%d runs after the %s warm-up)\n",
		total, o.rate, len(list), pct(lat, 0.5), pct(lat, 0.99), len(lat), o.warmup)
	fmt.Printf("  of which commit to the run's start p50 %s, p99 %s; the run p50 %s, p99 %s; every run recorded %s after the last commit\n",
		pct(wait, 0.5), pct(wait, 0.99), pct(took, 0.5), pct(took, 0.99), loadkit.Ms(through))
	return nil
}

// benchLoop measures the server's CPU with many looping scripts.
func benchLoop(p *portal, o options) error {
	list, err := p.nodes(1, 0x200000)
	if err != nil {
		return err
	}
	n := list[0]
	content := fmt.Sprintf(`var r = range(%d, "level", new Date(Date.now() - 3600e3), new Date(), 60);
write(%d, {avg: r.length});
return r.length;`, n.id, n.id)
	loops := map[int64]bool{}
	for i := range o.scripts {
		id, err := p.script(map[string]any{"name": "Loop " + strconv.Itoa(i), "type": 0, "interval": o.interval, "enabled": true, "content": content})
		if err != nil {
			return err
		}
		loops[id] = true
	}
	time.Sleep(time.Duration(o.interval) * time.Second) // the first round, which starts them all at once
	cpu0, _ := loadkit.ProcessCPU(p.server.PID())
	pg0 := loadkit.CommandCPU("postgres")
	start := time.Now()
	time.Sleep(o.window)
	cpu1, _ := loadkit.ProcessCPU(p.server.PID())
	pg1 := loadkit.CommandCPU("postgres")
	elapsed := time.Since(start)
	// The measurement is of scripts that ran: each must have run since the
	// first round.
	ran, err := p.list()
	if err != nil {
		return err
	}
	idle := 0
	for _, s := range ran {
		if loops[s.ID] && (s.LastRun == nil || s.LastRun.Before(start)) {
			idle++
		}
	}
	if idle > 0 && o.window >= time.Duration(o.interval)*time.Second {
		return fmt.Errorf("%d of the looping scripts did not run within the window", idle)
	}
	fmt.Printf("loop: %d looping scripts every %d s, each reading a range and writing a value: server %.1f %% of a core, PostgreSQL %.1f %%\n",
		o.scripts, o.interval, 100*(cpu1-cpu0).Seconds()/elapsed.Seconds(), 100*(pg1-pg0).Seconds()/elapsed.Seconds())
	return nil
}

// benchIngest compares the ingest's rate without and with triggered
// scripts.
func benchIngest(p *portal, o options) error {
	// The runs post over a fleet larger than the scripted nodes, so that a
	// node sends at most some ten uplinks a second, as the trigger
	// measurement's do: a node at the ingest's full rate over 100 nodes
	// (about 100 a second) would write past a script's own limit a minute
	// and rightly be switched off.
	list, err := p.nodes(max(o.ingestNodes, o.triggered), 0x300000)
	if err != nil {
		return err
	}
	measure := func(what string) (float64, error) {
		if err := loadkit.Settle(context.Background(), p.db); err != nil {
			return 0, err
		}
		var seq atomic.Int64
		res, err := loadkit.Run(loadkit.Load{
			Addr: p.server.Addr, Conns: o.conns, Warmup: o.warmup, Duration: o.duration, ServerPID: p.server.PID(),
			Request: func(_ int, buf []byte) []byte {
				i := int(seq.Add(1))
				body, _ := json.Marshal(uplink(list[i%len(list)], time.Now(), i))
				buf = fmt.Appendf(buf, "POST /api/ingest/generic HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n",
					p.server.Addr, p.ingest, len(body))
				return append(buf, body...)
			},
		})
		if err != nil {
			return 0, err
		}
		per := func(cpu time.Duration) float64 { return float64(cpu.Microseconds()) / float64(max(1, res.OKs())) }
		fmt.Printf("  %s: %.0f uplinks/s; CPU per uplink: server %.0f µs, PostgreSQL %.0f µs, load generator %.0f µs, machine %.0f µs\n",
			what, res.Rate(), per(res.ServerCPU), per(res.DBCPU), per(res.ClientCPU), per(res.MachineCPU))
		return res.Rate(), nil
	}
	// Without, with, with, without: whatever drifts through the runs (the
	// tables grow, autovacuum comes round) weighs on both sides alike,
	// where one run of each put the drift on the second, the scripts'.
	without1, err := measure("without scripts")
	if err != nil {
		return err
	}
	var ids []int64
	for i := range min(o.triggered, len(list)) {
		id, err := p.script(map[string]any{"name": "Dew point " + strconv.Itoa(i), "type": 2, "boundTag": list[i].id, "enabled": true, "content": dewPoint})
		if err != nil {
			return err
		}
		ids = append(ids, id)
	}
	time.Sleep(3 * time.Second) // the instance read the triggered scripts again (at once, and every 2 s)
	var with [2]float64
	for i := range with {
		if with[i], err = measure("with scripts"); err != nil {
			return err
		}
	}
	time.Sleep(2 * time.Second) // the queued runs finish before the scripts are checked
	if err := p.stillOn(); err != nil {
		return err
	}
	for _, id := range ids {
		if err := loadkit.Call(p.server.Base, "DELETE", fmt.Sprintf("/api/script/%d", id), p.token, nil, http.StatusNoContent, nil); err != nil {
			return err
		}
		delete(p.made, id)
	}
	without2, err := measure("without scripts")
	if err != nil {
		return err
	}
	a, b := (without1+without2)/2, (with[0]+with[1])/2
	fmt.Printf("ingest: %d connections, %d nodes: %.0f and %.0f uplinks/s without scripts, %.0f and %.0f with %d triggered scripts (%.0f %%)\n",
		o.conns, len(list), without1, without2, with[0], with[1], o.triggered, 100*b/a)
	return nil
}
