package kernel_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// lines is a log destination the server's goroutines share.
type lines struct {
	mu   sync.Mutex
	text strings.Builder
}

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.text.Write(p)
}

// metricsAddr is the address of the "metrics listening" line, or "".
func (l *lines) metricsAddr() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range strings.Split(l.text.String(), "\n") {
		var entry struct{ Msg, Addr string }
		if json.Unmarshal([]byte(line), &entry) == nil && entry.Msg == "metrics listening" {
			return entry.Addr
		}
	}
	return ""
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// serve runs the portal as `fieldhub serve` does, on a loopback port, with
// env's options, until the test ends; it returns the portal's address and
// its log.
func serve(t *testing.T, env map[string]string) (string, *lines) {
	t.Helper()
	log := &lines{}
	a, err := app.Build(context.Background(), kerneltest.Config(t, db.SQLite, env), slog.New(slog.NewJSONHandler(log, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	base := "http://" + ln.Addr().String()
	kerneltest.WaitFor(t, 10*time.Second, func() bool {
		res, err := http.Get(base + "/healthz")
		if err == nil {
			res.Body.Close()
		}
		return err == nil && res.StatusCode == http.StatusOK
	}, func() string { return "the portal did not start" })
	return base, log
}

// TestMetricsApart checks that the Prometheus metrics are no route of the
// portal: by default they are served nowhere, and with
// FIELDHUB_METRICS_ADDR on their own listener only.
func TestMetricsApart(t *testing.T) {
	base, log := serve(t, nil)
	if status, _ := get(t, base+"/metrics"); status != http.StatusNotFound {
		t.Errorf("GET /metrics of the portal: %d", status)
	}
	if addr := log.metricsAddr(); addr != "" {
		t.Errorf("metrics served at %s without FIELDHUB_METRICS_ADDR", addr)
	}

	base, log = serve(t, map[string]string{"FIELDHUB_METRICS_ADDR": "127.0.0.1:0"})
	if status, _ := get(t, base+"/metrics"); status != http.StatusNotFound {
		t.Errorf("GET /metrics of the portal with a metrics address: %d", status)
	}
	addr := log.metricsAddr()
	if addr == "" {
		t.Fatal("no metrics listener")
	}
	status, body := get(t, "http://"+addr+"/metrics")
	if status != http.StatusOK || !strings.Contains(body, "fieldhub_http_request_duration_seconds") || !strings.Contains(body, "go_goroutines") {
		t.Errorf("GET /metrics of the metrics listener: %d %.200s", status, body)
	}
	// The metrics listener serves nothing else.
	for _, path := range []string{"/healthz", "/login", "/api/users"} {
		if status, _ := get(t, "http://"+addr+path); status != http.StatusNotFound {
			t.Errorf("GET %s of the metrics listener: %d", path, status)
		}
	}
}
