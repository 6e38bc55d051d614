// Command noisy measures what one company's looping decoder does to another
// company's ingest: the noisy-neighbour benchmark of docs/performance.md.
// It builds the fieldhub binary, starts `fieldhub serve` on a fresh
// PostgreSQL database (or SQLite folder), and makes two companies through
// the API: Quiet, whose nodes use a built-in decoder (elsys by default),
// and Noisy, whose CompanyAdmin uploaded `function decodeUplink(i) {
// while (true) {} }` and set it on its nodes. Then, in phases of equal
// length:
//
//   - without: Quiet posts its uplinks (POST /api/ingest/generic with a
//     payload to decode) at a steady rate, open loop: each client sends on
//     a fixed schedule and a late answer counts from when the uplink was
//     due, so waiting shows in the latency;
//   - with: the same, while Noisy's clients (16 by default) post uplinks
//     of its looping nodes as fast as they are answered;
//
// and the phases repeat (-rounds) so that drift on a shared machine shows.
// It prints Quiet's latency percentiles in each phase, the ratio of its p99
// with the looping codec to its p99 without, Noisy's uplinks a second and
// the server's CPU. The target: Quiet's p99 with the looping codec
// within 20 % of its p99 without.
//
// By default the looping decoder is never switched off
// (FIELDHUB_DECODER_SWITCH_OFF_AFTER=0), so that what is measured is the
// decode budget alone, the worst case; -switch-off 10 measures the
// installation's default, where the decoder is switched off after its
// tenth decode in a row past the time limit and Noisy's uplinks are then
// stored raw (and answered at once: cap Noisy's rate with -noisy-rate, or
// its clients become a flood of valid uplinks, another kind of neighbour).
//
//	go run ./bench/noisy                       # PostgreSQL, 200 uplinks/s of Quiet, 16 Noisy clients, 2 rounds of 10 s phases
//	go run ./bench/noisy -db sqlite -rate 100 -d 20s
//	go run ./bench/noisy -switch-off 10 -noisy-rate 50
package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fieldhub/fieldhub/bench/internal/loadkit"
)

const (
	loopingCodec = "function decodeUplink(i) { while (true) {} }"
)

type options struct {
	db           string
	rate         int
	quietConns   int
	noisyConns   int
	noisyRate    int
	duration     time.Duration
	warmup       time.Duration
	rounds       int
	nodes        int
	quietDecoder string
	payload      string
	fPort        int
	switchOff    int
	concurrency  int
	noisyCodec   string
	timePerSec   string
	bin          string
	pgAdmin      string
	serverProcs  int
	keep         bool
}

func main() {
	var o options
	flag.StringVar(&o.db, "db", "postgres", "database: postgres or sqlite")
	flag.IntVar(&o.rate, "rate", 200, "Quiet's uplinks a second, sent on a fixed schedule")
	flag.IntVar(&o.quietConns, "quiet-c", 8, "Quiet's clients (keep-alive connections), which share its rate")
	flag.IntVar(&o.noisyConns, "noisy-c", 16, "Noisy's clients, each posting its next uplink when the last is answered")
	flag.IntVar(&o.noisyRate, "noisy-rate", 0, "at most this many of Noisy's uplinks a second (0: as fast as they are answered); once its decoder is switched off they are answered at once")
	flag.DurationVar(&o.duration, "d", 10*time.Second, "measured length of each phase")
	flag.DurationVar(&o.warmup, "warmup", 2*time.Second, "warm-up before each phase (not counted)")
	flag.IntVar(&o.rounds, "rounds", 2, "rounds of the two phases (without, with)")
	flag.IntVar(&o.nodes, "nodes", 50, "nodes of each company")
	flag.StringVar(&o.quietDecoder, "quiet-decoder", "elsys", "decoder of Quiet's nodes (a built-in key)")
	flag.StringVar(&o.payload, "payload", "0100e202290400270506", "Quiet's payload in hex (an Elsys ERS reading)")
	flag.IntVar(&o.fPort, "fport", 5, "Quiet's fPort")
	flag.IntVar(&o.switchOff, "switch-off", 0, "FIELDHUB_DECODER_SWITCH_OFF_AFTER of the server (0: never switch the looping decoder off, the budget alone)")
	flag.StringVar(&o.noisyCodec, "noisy-codec", loopingCodec, "Noisy's decoder (JavaScript): the looping one, or for comparison one that works hard and ends")
	flag.IntVar(&o.concurrency, "concurrency", 0, "FIELDHUB_DECODE_CONCURRENCY of the server (0: its default)")
	flag.StringVar(&o.timePerSec, "time-per-second", "0", "FIELDHUB_DECODE_TIME_PER_SECOND of the server (0: its default)")
	flag.StringVar(&o.bin, "bin", "", "fieldhub binary to run (default: build it from the module into a temporary folder)")
	flag.StringVar(&o.pgAdmin, "pg", loadkit.DefaultPostgres(), "PostgreSQL admin URL, used to create and drop the benchmark database")
	flag.IntVar(&o.serverProcs, "server-gomaxprocs", 0, "GOMAXPROCS for the server (0: Go's default, all cores)")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary folder and the database for a look afterwards")
	flag.Parse()
	if o.db != "sqlite" && o.db != "postgres" {
		fatal(fmt.Errorf("-db: want sqlite or postgres, got %q", o.db))
	}
	if o.rate < 1 || o.quietConns < 1 || o.noisyConns < 1 || o.duration <= 0 || o.warmup < 0 || o.rounds < 1 || o.nodes < 1 || o.switchOff < 0 || o.noisyRate < 0 {
		fatal(errors.New("-rate, -quiet-c, -noisy-c, -rounds and -nodes must be at least 1, -d positive, -warmup, -switch-off and -noisy-rate not negative"))
	}
	if err := run(o); err != nil {
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "noisy:", err)
	os.Exit(1)
}

func run(o options) (err error) {
	ctx := context.Background()
	payload, err := hex.DecodeString(o.payload)
	if err != nil {
		return fmt.Errorf("-payload: %w", err)
	}
	pgAdmin := ""
	if o.db == "postgres" {
		pgAdmin = o.pgAdmin
	}
	env := []string{"FIELDHUB_DECODER_SWITCH_OFF_AFTER=" + strconv.Itoa(o.switchOff), "FIELDHUB_DECODE_CONCURRENCY=" + strconv.Itoa(o.concurrency),
		"FIELDHUB_DECODE_TIME_PER_SECOND=" + o.timePerSec}
	if o.serverProcs > 0 {
		env = append(env, "GOMAXPROCS="+strconv.Itoa(o.serverProcs))
	}
	portal, stop, err := loadkit.StartPortal(ctx, loadkit.PortalOptions{Name: "noisy", Bin: o.bin, PGAdmin: pgAdmin, Env: env, Keep: o.keep})
	if err != nil {
		return err
	}
	defer func() {
		if serr := stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	server := portal.Server()

	quiet, err := setup(server.Base, portal.RootToken, "Quiet", o.nodes, o.quietDecoder, "")
	if err != nil {
		return server.Fail(err)
	}
	noisy, err := setup(server.Base, portal.RootToken, "Noisy", o.nodes, "", o.noisyCodec)
	if err != nil {
		return server.Fail(err)
	}
	fmt.Printf("noisy: %s, %d cores (server GOMAXPROCS %s); Quiet: %d uplinks/s over %d clients, decoder %s; Noisy: %d clients%s, a looping decoder, switch-off after %s\n",
		o.db, runtime.NumCPU(), procsLabel(o.serverProcs), o.rate, o.quietConns, o.quietDecoder, o.noisyConns, rateLabel(o.noisyRate), switchLabel(o.switchOff))

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.quietConns + o.noisyConns + 4}}
	var seq atomic.Int64 // uplink times: distinct for every uplink of the run
	base := time.Now().UTC().Add(-time.Minute)
	post := func(c *company, i int, data []byte, fPort int) (time.Duration, error) {
		n := seq.Add(1)
		body := fmt.Sprintf(`{"devEui":%q,"time":%q,"fPort":%d,"data":%q}`, c.euis[i%len(c.euis)],
			base.Add(time.Duration(n)*time.Millisecond).Format(time.RFC3339Nano), fPort, base64.StdEncoding.EncodeToString(data))
		req, err := http.NewRequest("POST", server.Base+"/api/ingest/generic", bytes.NewReader([]byte(body)))
		if err != nil {
			return 0, err
		}
		req.Header.Set("Authorization", "Bearer "+c.token)
		req.Header.Set("Content-Type", "application/json")
		t0 := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return 0, fmt.Errorf("%s: %s", resp.Status, raw)
		}
		return time.Since(t0), nil
	}
	if _, err := post(quiet, 0, payload, o.fPort); err != nil {
		return server.Fail(fmt.Errorf("a first uplink of Quiet: %w", err))
	}

	type phase struct {
		name  string
		quiet *result
		noisy int64
		cpu   float64
	}
	var phases []phase
	for round := 1; round <= o.rounds; round++ {
		for _, withNoise := range []bool{false, true} {
			stop := make(chan struct{})
			var noisyDone atomic.Int64
			var noisyErr atomic.Value
			var wg sync.WaitGroup
			if withNoise {
				gap := time.Duration(0)
				if o.noisyRate > 0 {
					gap = time.Duration(float64(time.Second) * float64(o.noisyConns) / float64(o.noisyRate))
				}
				for k := range o.noisyConns {
					wg.Go(func() {
						next := time.Now()
						for i := k; ; i += o.noisyConns {
							if wait := time.Until(next); wait > 0 {
								time.Sleep(wait)
							}
							next = time.Now().Add(gap)
							select {
							case <-stop:
								return
							default:
							}
							if _, err := post(noisy, i, []byte{1, 2, 3}, 1); err != nil {
								noisyErr.CompareAndSwap(nil, err.Error())
								time.Sleep(10 * time.Millisecond)
								continue
							}
							noisyDone.Add(1)
						}
					})
				}
			}
			time.Sleep(o.warmup)
			done0 := noisyDone.Load()
			cpu0, _ := loadkit.ProcessCPU(server.PID())
			t0 := time.Now()
			res := steady(o, func(i int) (time.Duration, error) { return post(quiet, i, payload, o.fPort) })
			elapsed := time.Since(t0)
			cpu1, _ := loadkit.ProcessCPU(server.PID())
			p := phase{name: fmt.Sprintf("round %d, without", round), quiet: res, cpu: (cpu1 - cpu0).Seconds() / elapsed.Seconds()}
			if withNoise {
				p.name = fmt.Sprintf("round %d, with", round)
				p.noisy = noisyDone.Load() - done0
			}
			close(stop)
			wg.Wait()
			if e := noisyErr.Load(); e != nil {
				fmt.Printf("  (Noisy's first error: %s)\n", e)
			}
			if werr, done := server.Exited(); done {
				return server.Fail(fmt.Errorf("the server stopped during the run: %v", werr))
			}
			fmt.Printf("  %-16s Quiet: %5d ok, %d errors, p50 %s  p90 %s  p99 %s  max %s;  Noisy: %5.1f uplinks/s;  server %.2f cores\n",
				p.name+":", len(res.lat), res.errors, loadkit.Ms(res.pct(50)), loadkit.Ms(res.pct(90)), loadkit.Ms(res.pct(99)), loadkit.Ms(res.pct(100)),
				float64(p.noisy)/elapsed.Seconds(), p.cpu)
			if res.firstError != "" {
				fmt.Printf("  (Quiet's first error: %s)\n", res.firstError)
			}
			phases = append(phases, p)
		}
	}
	var without, with []time.Duration
	for i, p := range phases {
		if i%2 == 0 {
			without = append(without, p.quiet.lat...)
		} else {
			with = append(with, p.quiet.lat...)
		}
	}
	slices.Sort(without)
	slices.Sort(with)
	p99a, p99b := pct(without, 99), pct(with, 99)
	fmt.Printf("  Quiet's p99 over all rounds: %s without the looping codec, %s with it: %.2f times (target: at most 1.20)\n",
		loadkit.Ms(p99a), loadkit.Ms(p99b), float64(p99b)/float64(p99a))
	fmt.Printf("  | %s | %d | %d | %s | %s | %s | %.2f |\n", o.db, o.rate, o.noisyConns, switchLabel(o.switchOff), loadkit.Ms(p99a), loadkit.Ms(p99b), float64(p99b)/float64(p99a))
	return nil
}

// result is what Quiet's steady load saw in a phase: the latencies of its
// answered uplinks, each counted from when it was due.
type result struct {
	lat        []time.Duration
	errors     int
	firstError string
}

func (r *result) pct(p float64) time.Duration { return pct(r.lat, p) }

func pct(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p/100+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// steady sends o.rate uplinks a second for o.duration over o.quietConns
// clients, each on its own fixed schedule; an uplink sent late (its
// client still waited for the one before) counts from when it was due.
func steady(o options, send func(i int) (time.Duration, error)) *result {
	var mu sync.Mutex
	res := &result{}
	interval := time.Duration(float64(time.Second) * float64(o.quietConns) / float64(o.rate))
	start := time.Now()
	end := start.Add(o.duration)
	var wg sync.WaitGroup
	for k := range o.quietConns {
		wg.Go(func() {
			due := start.Add(time.Duration(k) * interval / time.Duration(o.quietConns))
			for i := k; due.Before(end); i += o.quietConns {
				if wait := time.Until(due); wait > 0 {
					time.Sleep(wait)
				}
				_, err := send(i)
				lat := time.Since(due)
				mu.Lock()
				if err != nil {
					res.errors++
					if res.firstError == "" {
						res.firstError = err.Error()
					}
				} else {
					res.lat = append(res.lat, lat)
				}
				mu.Unlock()
				due = due.Add(interval)
			}
		})
	}
	wg.Wait()
	slices.Sort(res.lat)
	return res
}

// company is one company of the benchmark: its integration token and its
// nodes' DevEUIs.
type company struct {
	token string
	euis  []string
}

// setup makes a company with a CompanyAdmin, an integration token, an
// application and nodes through the API, and gives the nodes a built-in
// decoder (decoder) or a decoder of the company's own whose source is
// source.
func setup(base, root, name string, nodes int, decoder, source string) (*company, error) {
	co, err := loadkit.NewCompany(base, root, loadkit.CompanyOptions{Name: name, AdminEmail: "admin@" + name + ".example",
		Application: map[string]any{"name": name + " field"}, TokenLabel: "network server"})
	if err != nil {
		return nil, err
	}
	id, token := co.ID, co.AdminToken
	if source != "" {
		var d struct {
			Key string `json:"key"`
		}
		if err := loadkit.Call(base, "POST", fmt.Sprintf("/api/companies/%d/decoders", id), token,
			map[string]any{"name": name + " decoder", "source": source}, http.StatusCreated, &d); err != nil {
			return nil, err
		}
		decoder = d.Key
	}
	c := &company{token: co.IntegrationToken}
	for i := range nodes {
		eui := fmt.Sprintf("70B3D57ED%03X%04X", id&0xfff, i)
		if err := loadkit.Call(base, "POST", fmt.Sprintf("/api/applications/%d/tag", co.App), token,
			map[string]any{"name": fmt.Sprintf("%s %d", name, i), "deveui": eui, "decoder": decoder}, http.StatusCreated, nil); err != nil {
			return nil, err
		}
		c.euis = append(c.euis, eui)
	}
	return c, nil
}

func procsLabel(n int) string {
	if n <= 0 {
		return "default"
	}
	return strconv.Itoa(n)
}

func switchLabel(n int) string {
	if n == 0 {
		return "never"
	}
	return strconv.Itoa(n) + " in a row"
}

func rateLabel(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" at most %d uplinks/s", n)
}
