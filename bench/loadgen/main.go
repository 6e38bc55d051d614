// Command loadgen measures authenticated GET /api/users/{userId} against a
// real fieldhub binary: it builds the binary, starts `fieldhub serve` on a free
// loopback port with a fresh SQLite data folder or a fresh PostgreSQL
// database, creates a SuperAdmin, logs in, and then keeps C keep-alive
// connections busy for a warm-up and a measured period. It reports
// requests per second, latency percentiles, errors, and how much CPU the
// server and the load generator each used, since on a small machine they
// share the same cores.
//
// The server start and the HTTP/1.1 client are bench/internal/loadkit's,
// shared with bench/ingest.
//
//	go run ./bench/loadgen -db sqlite
//	go run ./bench/loadgen -db postgres -c 64 -d 15s
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"time"

	"github.com/fieldhub/fieldhub/bench/internal/loadkit"
)

type options struct {
	db          string
	conns       int
	duration    time.Duration
	warmup      time.Duration
	bin         string
	pgAdmin     string
	serverProcs int
	clientProcs int
	keep        bool
}

func main() {
	var o options
	flag.StringVar(&o.db, "db", "sqlite", "database: sqlite or postgres")
	flag.IntVar(&o.conns, "c", 64, "concurrent keep-alive connections")
	flag.DurationVar(&o.duration, "d", 15*time.Second, "measured duration")
	flag.DurationVar(&o.warmup, "warmup", 3*time.Second, "warm-up before measuring (not counted)")
	flag.StringVar(&o.bin, "bin", "", "fieldhub binary to run (default: build it from the module into a temporary folder)")
	flag.StringVar(&o.pgAdmin, "pg", loadkit.DefaultPostgres(), "PostgreSQL admin URL, used to create and drop the benchmark database")
	flag.IntVar(&o.serverProcs, "server-gomaxprocs", 0, "GOMAXPROCS for the server (0: Go's default, all cores)")
	flag.IntVar(&o.clientProcs, "gomaxprocs", 0, "GOMAXPROCS for the load generator (0: Go's default, all cores)")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary folder (binary, data, server log) and the database for a look afterwards")
	flag.Parse()
	if o.db != "sqlite" && o.db != "postgres" {
		fatal(fmt.Errorf("-db: want sqlite or postgres, got %q", o.db))
	}
	if o.conns < 1 || o.duration <= 0 || o.warmup < 0 {
		fatal(errors.New("-c must be at least 1, -d positive and -warmup not negative"))
	}
	if o.clientProcs > 0 {
		runtime.GOMAXPROCS(o.clientProcs)
	}
	if err := run(o); err != nil {
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "loadgen:", err)
	os.Exit(1)
}

func run(o options) (err error) {
	ctx := context.Background()
	pgAdmin := ""
	if o.db == "postgres" {
		pgAdmin = o.pgAdmin
	}
	var env []string
	if o.serverProcs > 0 {
		env = append(env, "GOMAXPROCS="+strconv.Itoa(o.serverProcs))
	}
	portal, stop, err := loadkit.StartPortal(ctx, loadkit.PortalOptions{Name: "loadgen", Bin: o.bin, PGAdmin: pgAdmin, Env: env, Keep: o.keep})
	if err != nil {
		return err
	}
	defer func() {
		if serr := stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	server := portal.Server()

	token, userID := portal.RootToken, portal.RootID
	path := "/api/users/" + strconv.FormatInt(userID, 10)
	if err := checkOnce(server.Base+path, token); err != nil {
		return server.Fail(err)
	}

	fmt.Printf("loadgen: GET %s on %s, %d connections, %s warm-up, %s measured, %d cores (server GOMAXPROCS %s, loadgen GOMAXPROCS %d)\n",
		path, o.db, o.conns, o.warmup, o.duration, runtime.NumCPU(), procsLabel(o.serverProcs), runtime.GOMAXPROCS(0))
	req := []byte("GET " + path + " HTTP/1.1\r\nHost: " + server.Addr + "\r\nAuthorization: Bearer " + token + "\r\nAccept: application/json\r\n\r\n")
	res, err := loadkit.Run(loadkit.Load{
		Addr: server.Addr, Conns: o.conns, Warmup: o.warmup, Duration: o.duration, ServerPID: server.PID(),
		Request: func(_ int, buf []byte) []byte { return append(buf, req...) },
	})
	if err != nil {
		return server.Fail(err)
	}
	if werr, done := server.Exited(); done {
		return server.Fail(fmt.Errorf("the server stopped during the run: %v", werr))
	}
	res.Print("requests")
	fmt.Printf("  | %s | %d | %.0f | %s | %s | %s | %d | %.2f | %.2f | %.2f |\n", o.db, o.conns, res.Rate(),
		loadkit.Ms(res.Percentile(50)), loadkit.Ms(res.Percentile(90)), loadkit.Ms(res.Percentile(99)), res.Errors,
		res.Cores(res.ServerCPU), res.Cores(res.ClientCPU), res.Cores(res.MachineCPU))
	return nil
}

func procsLabel(n int) string {
	if n == 0 {
		return "default"
	}
	return strconv.Itoa(n)
}

func checkOnce(target, token string) error {
	req, _ := http.NewRequest(http.MethodGet, target, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !bytes.Contains(raw, []byte(loadkit.SuperAdminEmail)) {
		return fmt.Errorf("GET %s: want 200 with the user, got %s: %s", target, resp.Status, raw)
	}
	return nil
}
