package forwarding_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/forwarding"
)

// TestForwardingThroughput measures the ingest at a paced rate of generic
// uplinks on PostgreSQL, first without forwarding targets, then with a
// webhook target on a local server (docs/performance.md, "Forwarding"):
// the rate and latency of the ingest's answers in both runs, and for the
// second how long each uplink took from its POST to the webhook. It runs
// only when FIELDHUB_BENCH_FORWARD names the seconds of each run:
//
//	FIELDHUB_BENCH_FORWARD=30 FIELDHUB_BENCH_FORWARD_RATE=2000 go test -count=1 -run TestForwardingThroughput -v ./modules/forwarding/
//
// FIELDHUB_BENCH_FORWARD_RATE is the uplinks per second offered (2000 if
// unset), spread over 50 nodes.
func TestForwardingThroughput(t *testing.T) {
	secs, _ := strconv.Atoi(os.Getenv("FIELDHUB_BENCH_FORWARD"))
	if secs <= 0 {
		t.Skip("set FIELDHUB_BENCH_FORWARD to the seconds of each run")
	}
	rate, _ := strconv.Atoi(os.Getenv("FIELDHUB_BENCH_FORWARD_RATE"))
	if rate <= 0 {
		rate = 2000
	}
	base := benchRun(t, "without targets", secs, rate, false)
	fwd := benchRun(t, "with a webhook target", secs, rate, true)
	t.Logf("ingest answers with forwarding vs without: rate %.1f%%, p50 %+.1f%%, p99 %+.1f%%",
		100*fwd.rate/base.rate, 100*(fwd.p50.Seconds()/base.p50.Seconds()-1), 100*(fwd.p99.Seconds()/base.p99.Seconds()-1))
}

type benchResult struct {
	rate     float64 // acknowledged uplinks per second
	p50, p99 time.Duration
}

// benchRun offers rate uplinks a second for secs seconds to a fresh portal,
// with or without a webhook target, and logs what it measured.
func benchRun(t *testing.T, name string, secs, rate int, withTarget bool) benchResult {
	p := kerneltest.Start(t, db.Postgres, map[string]string{"FIELDHUB_OUTBOUND_PRIVATE": "true", "FIELDHUB_ACCESS_LOG": "false"}, app.Build)
	dev := kerneltest.NewDevices(t, p.Client, p.App, p.App.Series())
	const nodes = 50
	euis := make([]string, nodes)
	for i := range euis {
		euis[i] = fmt.Sprintf("70B3D57ED0AB%04X", i)
		dev.Must(t, "acmeAdmin", "POST", "/api/applications/{acmeApp}/tag", map[string]any{"name": "Bench " + strconv.Itoa(i), "deveui": euis[i]}, http.StatusCreated)
	}
	total := secs * rate
	// Each uplink's lag runs from when its POST was due (the pace).
	var startNs atomic.Int64
	due := func(n int) time.Time {
		return time.Unix(0, startNs.Load()).Add(time.Duration(n) * time.Second / time.Duration(rate))
	}
	var delivered atomic.Int64
	var lagMu sync.Mutex
	var lags []time.Duration
	if withTarget {
		hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var u forwarding.Uplink
			body, _ := io.ReadAll(r.Body)
			if json.Unmarshal(body, &u) == nil {
				if n, err := strconv.Atoi(fmt.Sprint(u.Data["n"])); err == nil && n < total {
					lagMu.Lock()
					lags = append(lags, time.Since(due(n)))
					lagMu.Unlock()
				}
			}
			delivered.Add(1)
		}))
		t.Cleanup(hook.Close)
		dev.Must(t, "acmeAdmin", "POST", "/api/applications/{acmeApp}/forwarding", map[string]any{"name": "Bench", "kind": "webhook",
			"url": hook.URL, "secret": "bench-secret"}, http.StatusCreated)
	}
	token := dev.Tokens["acmeIngest"]
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}, Timeout: 30 * time.Second}
	jobs := make(chan int, 1024)
	lat := make([]time.Duration, total)
	var failed atomic.Int64
	var wg sync.WaitGroup
	t0 := time.Now().UTC().Add(-time.Duration(total/nodes+10) * time.Second).Truncate(time.Second)
	for range 128 {
		wg.Go(func() {
			for n := range jobs {
				body := fmt.Sprintf(`{"devEui":%q,"time":%q,"values":{"n":%d,"level":%d}}`, euis[n%nodes],
					t0.Add(time.Duration(n/nodes)*time.Second).Format(time.RFC3339), n, n%1000)
				req, _ := http.NewRequest(http.MethodPost, p.URL+"/api/ingest/generic", strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+token)
				req.Header.Set("Content-Type", "application/json")
				start := time.Now()
				resp, err := client.Do(req)
				if err != nil || resp.StatusCode != http.StatusOK {
					failed.Add(1)
				}
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				lat[n] = time.Since(start)
			}
		})
	}
	start := time.Now()
	startNs.Store(start.UnixNano())
	for n := range total {
		if wait := time.Until(due(n)); wait > 0 {
			time.Sleep(wait)
		}
		jobs <- n
	}
	close(jobs)
	wg.Wait()
	took := time.Since(start)
	if f := failed.Load(); f > 0 {
		t.Errorf("%s: %d uplinks not acknowledged", name, f)
	}
	slices.Sort(lat)
	q := func(l []time.Duration, p float64) time.Duration {
		return l[min(len(l)-1, int(p*float64(len(l))))].Round(10 * time.Microsecond)
	}
	res := benchResult{rate: float64(total) / took.Seconds(), p50: q(lat, 0.5), p99: q(lat, 0.99)}
	t.Logf("%s: %d uplinks offered at %d/s, acknowledged at %.0f/s, answer p50 %s p99 %s", name, total, rate, res.rate, res.p50, res.p99)
	if withTarget {
		kerneltest.WaitFor(t, 5*time.Minute, func() bool { return delivered.Load() >= int64(total) },
			func() string { return fmt.Sprintf("%d of %d delivered", delivered.Load(), total) })
		drained := time.Since(start)
		lagMu.Lock()
		slices.Sort(lags)
		t.Logf("%s: all %d delivered %.1f s after the first POST; due POST to webhook p50 %s p99 %s", name, total, drained.Seconds(), q(lags, 0.5), q(lags, 0.99))
		lagMu.Unlock()
	}
	return res
}
