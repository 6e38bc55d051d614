package kerneltest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/config"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/migrations"
	"github.com/fieldhub/fieldhub/webapp/locales"
)

// Config returns a configuration for a test on a fresh database of dialect
// d, with env's values over the defaults (env names as in the README).
// Tests post the published examples of the network servers, with their
// times of years ago, so the ingest takes messages up to a hundred years
// back here (FIELDHUB_INGEST_MAX_AGE_DAYS; a month in production): a test
// of the window sets its own. The portal runs under TestTerms, a license
// without a company limit (see License).
func Config(tb testing.TB, d db.Dialect, env map[string]string) *config.Config {
	tb.Helper()
	vars := map[string]string{
		"DATABASE_URL":                 DatabaseURL(tb, d),
		"FIELDHUB_DATA":                tb.TempDir(),
		"FIELDHUB_ADDR":                "127.0.0.1:0",
		"FIELDHUB_ACCESS_LOG":          "false",
		"FIELDHUB_INGEST_MAX_AGE_DAYS": "36500",
	}
	if _, ok := env["FIELDHUB_LICENSE_FILE"]; !ok {
		// Tests make as many companies as they need: their license sets no
		// limit. A test of the free license sets FIELDHUB_LICENSE_FILE to "".
		for k, v := range License(tb, TestTerms) {
			vars[k] = v
		}
	}
	for k, v := range env {
		vars[k] = v
	}
	cfg, err := config.Load(func(k string) string { return vars[k] }, nil, nil)
	if err != nil {
		tb.Fatalf("test config: %v", err)
	}
	return cfg
}

// New builds a kernel on cfg. The caller adds modules, then calls Serve.
func New(tb testing.TB, cfg *config.Config) *kernel.Kernel {
	tb.Helper()
	k, err := kernel.New(context.Background(), cfg, Logger(tb), kernel.Sources{
		Locales: locales.FS, Migrations: migrations.FS, MigrationOrder: migrations.Order,
	})
	if err != nil {
		tb.Fatalf("kernel: %v", err)
	}
	tb.Cleanup(func() { k.Close() })
	return k
}

// Serve starts the kernel's modules and an HTTP server for them, both
// stopped when the test ends, and returns the server's base URL.
func Serve(tb testing.TB, k *kernel.Kernel) string {
	tb.Helper()
	url, _ := serve(tb, k)
	return url
}

// serve is Serve that also returns the function that stops the server,
// then the modules, as a shutdown does; the test's cleanup calls it too,
// and only the first call stops anything.
func serve(tb testing.TB, k *kernel.Kernel) (url string, stop func()) {
	tb.Helper()
	stopModules, err := k.Start(context.Background())
	if err != nil {
		tb.Fatalf("start kernel: %v", err)
	}
	srv := httptest.NewUnstartedServer(k.Handler())
	srv.Config.Protocols = kernel.ServerProtocols() // HTTP/2 without TLS too, as the portal serves it
	srv.Start()
	stop = sync.OnceFunc(func() { srv.Close(); stopModules() })
	tb.Cleanup(stop)
	return srv.URL, stop
}

// Logger returns a logger that writes nothing, unless FIELDHUB_TEST_LOG is
// set, when it writes to standard error for debugging. (The test's own log
// cannot be used: background loops may still log after a test has ended.)
func Logger(tb testing.TB) *slog.Logger {
	if os.Getenv("FIELDHUB_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

func randomSuffix() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Metrics returns what the kernel's Prometheus metrics handler answers (the
// portal serves it apart, on FIELDHUB_METRICS_ADDR).
func Metrics(tb testing.TB, k *kernel.Kernel) string {
	tb.Helper()
	rec := httptest.NewRecorder()
	k.Metrics().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		tb.Fatalf("metrics: %d %s", rec.Code, rec.Body)
	}
	return rec.Body.String()
}
