// Command loadgen measures authenticated GET /api/users/{userId} against a
// real fieldhub binary: it builds the binary, starts `fieldhub serve` on a free
// loopback port with a fresh SQLite data folder or a fresh PostgreSQL
// database, creates a SuperAdmin, logs in, and then keeps C keep-alive
// connections busy for a warm-up and a measured period. It reports
// requests per second, latency percentiles, errors, and how much CPU the
// server and the load generator each used, since on a small machine they
// share the same cores.
//
// Its HTTP/1.1 client writes one prebuilt request per round trip and parses
// only the status line, the headers it needs and the body length: a load
// generator built on net/http's client would spend more of the shared CPU
// than the server it measures.
//
//	go run ./bench/loadgen -db sqlite
//	go run ./bench/loadgen -db postgres -c 64 -d 15s
package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
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

	_ "github.com/jackc/pgx/v5/stdlib"
)

const (
	benchEmail    = "bench@example.com"
	benchPassword = "benchpass1"
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
	flag.StringVar(&o.pgAdmin, "pg", defaultPostgres(), "PostgreSQL admin URL, used to create and drop the benchmark database")
	flag.IntVar(&o.serverProcs, "server-gomaxprocs", 0, "GOMAXPROCS for the server (0: Go's default, all cores)")
	flag.IntVar(&o.clientProcs, "gomaxprocs", 0, "GOMAXPROCS for the load generator (0: Go's default, all cores)")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary folder (binary, data, server log) for a look afterwards")
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

func defaultPostgres() string {
	if u := os.Getenv("FIELDHUB_TEST_POSTGRES"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

func run(o options) (err error) {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "fieldhub-bench-")
	if err != nil {
		return err
	}
	defer func() {
		if o.keep {
			fmt.Fprintln(os.Stderr, "loadgen: kept", tmp)
			return
		}
		os.RemoveAll(tmp)
	}()

	bin := o.bin
	if bin == "" {
		bin = filepath.Join(tmp, "fieldhub")
		if err := buildBinary(bin); err != nil {
			return err
		}
	}

	env := cleanEnv()
	dataDir := filepath.Join(tmp, "data")
	env = append(env, "FIELDHUB_DATA="+dataDir, "FIELDHUB_ACCESS_LOG=false")
	if o.db == "postgres" {
		dbURL, drop, err := createPostgres(ctx, o.pgAdmin)
		if err != nil {
			return err
		}
		defer func() {
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

	addr, err := freeAddr()
	if err != nil {
		return err
	}
	logPath := filepath.Join(tmp, "server.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer logFile.Close()
	server := exec.Command(bin, "serve", "--addr", addr)
	server.Env = env
	server.Stdout, server.Stderr = logFile, logFile
	if err := server.Start(); err != nil {
		return fmt.Errorf("start fieldhub serve: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- server.Wait() }()
	defer stopServer(server, exited)
	fail := func(err error) error {
		return fmt.Errorf("%w\n--- server log (%s) ---\n%s", err, logPath, tail(logPath, 40))
	}

	base := "http://" + addr
	if err := waitHealthy(base, exited); err != nil {
		return fail(err)
	}
	token, userID, err := login(base)
	if err != nil {
		return fail(err)
	}
	path := "/api/users/" + strconv.FormatInt(userID, 10)
	if err := checkOnce(base+path, token); err != nil {
		return fail(err)
	}

	fmt.Printf("loadgen: GET %s on %s, %d connections, %s warm-up, %s measured, %d cores (server GOMAXPROCS %s, loadgen GOMAXPROCS %d)\n",
		path, o.db, o.conns, o.warmup, o.duration, runtime.NumCPU(), procsLabel(o.serverProcs), runtime.GOMAXPROCS(0))
	req := []byte("GET " + path + " HTTP/1.1\r\nHost: " + addr + "\r\nAuthorization: Bearer " + token + "\r\nAccept: application/json\r\n\r\n")
	res, err := hammer(addr, req, o, server.Process.Pid)
	if err != nil {
		return fail(err)
	}
	select {
	case werr := <-exited:
		exited <- werr
		return fail(fmt.Errorf("the server stopped during the run: %v", werr))
	default:
	}
	res.print(o.db, o.conns)
	return nil
}

func procsLabel(n int) string {
	if n == 0 {
		return "default"
	}
	return strconv.Itoa(n)
}

// buildBinary builds the module's main package, found from this source
// tree's go.mod, into out.
func buildBinary(out string) error {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return fmt.Errorf("go env GOMOD: %w", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	if root == "." || root == "" {
		return errors.New("run loadgen from inside the fieldhub module")
	}
	cmd := exec.Command("go", "build", "-o", out, ".")
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build: %w", err)
	}
	return nil
}

// cleanEnv is this process's environment without Fieldhub's options, so that
// a developer's settings do not change what is measured.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "FIELDHUB_"), strings.HasPrefix(name, "DATABASE_URL"),
			strings.HasPrefix(name, "SMTP_URL"), name == "GOMAXPROCS":
			continue
		}
		env = append(env, kv)
	}
	return env
}

// createPostgres makes an empty database on the admin URL's server and
// returns its URL and a function that drops it.
func createPostgres(ctx context.Context, adminURL string) (string, func() error, error) {
	admin, err := sql.Open("pgx", adminURL)
	if err != nil {
		return "", nil, err
	}
	if err := admin.PingContext(ctx); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("PostgreSQL at %s: %w (run scripts/ensure-services.sh)", adminURL, err)
	}
	name := fmt.Sprintf("fieldhub_bench_%d_%d", os.Getpid(), time.Now().Unix())
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("create database %s: %w", name, err)
	}
	u, err := url.Parse(adminURL)
	if err != nil {
		admin.Close()
		return "", nil, err
	}
	u.Path = "/" + name
	drop := func() error {
		defer admin.Close()
		if _, err := admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			return fmt.Errorf("drop database %s: %w", name, err)
		}
		return nil
	}
	return u.String(), drop, nil
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func waitHealthy(base string, exited chan error) error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			exited <- err
			return fmt.Errorf("fieldhub serve exited before it was ready: %v", err)
		default:
		}
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("fieldhub serve did not answer /healthz with 200 within 60 s")
}

func login(base string) (string, int64, error) {
	body, _ := json.Marshal(map[string]string{"email": benchEmail, "password": benchPassword})
	resp, err := http.Post(base+"/api/users/authenticate", "application/json", bytes.NewReader(body))
	if err != nil {
		return "", 0, fmt.Errorf("authenticate: %w", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return "", 0, fmt.Errorf("authenticate: %s: %s", resp.Status, raw)
	}
	var ans struct {
		Token  string `json:"token"`
		UserID int64  `json:"userId"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil || ans.Token == "" || ans.UserID == 0 {
		return "", 0, fmt.Errorf("authenticate: want token and userId, got %s", raw)
	}
	return ans.Token, ans.UserID, nil
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
	if resp.StatusCode != http.StatusOK || !bytes.Contains(raw, []byte(benchEmail)) {
		return fmt.Errorf("GET %s: want 200 with the user, got %s: %s", target, resp.Status, raw)
	}
	return nil
}

func stopServer(cmd *exec.Cmd, exited chan error) {
	select {
	case <-exited:
		return
	default:
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
	}
}

func tail(path string, lines int) string {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	all := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	if len(all) > lines {
		all = all[len(all)-lines:]
	}
	return strings.Join(all, "\n")
}

// result is what one measured run saw.
type result struct {
	requests   int
	errors     int
	firstError string
	reconnects int64
	elapsed    time.Duration
	latencies  []time.Duration
	serverCPU  time.Duration
	clientCPU  time.Duration
	machineCPU time.Duration // every process, the database server's included
}

// worker owns one connection and records the requests it started inside the
// measured window.
type worker struct {
	addr       string
	req        []byte
	conn       net.Conn
	rd         *bufio.Reader
	lat        []time.Duration
	errors     int
	firstError string
	reconnects *atomic.Int64
}

func hammer(addr string, req []byte, o options, serverPid int) (*result, error) {
	workers := make([]*worker, o.conns)
	var reconnects atomic.Int64
	for i := range workers {
		w := &worker{addr: addr, req: req, reconnects: &reconnects, lat: make([]time.Duration, 0, 1<<14)}
		if err := w.dial(); err != nil {
			return nil, fmt.Errorf("connect: %w", err)
		}
		workers[i] = w
	}
	start := time.Now()
	measureFrom := start.Add(o.warmup)
	end := measureFrom.Add(o.duration)
	var serverCPU0, clientCPU0, machineCPU0 time.Duration
	var cpuOnce sync.Once
	markCPU := func() {
		serverCPU0, _ = processCPU(serverPid)
		clientCPU0 = selfCPU()
		machineCPU0, _ = machineCPU()
	}
	if o.warmup == 0 {
		cpuOnce.Do(markCPU)
	} else {
		timer := time.AfterFunc(o.warmup, func() { cpuOnce.Do(markCPU) })
		defer timer.Stop()
	}
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.loop(measureFrom, end)
		}()
	}
	wg.Wait()
	stopped := time.Now()
	cpuOnce.Do(markCPU)
	serverCPU1, err := processCPU(serverPid)
	if err != nil {
		return nil, err
	}
	clientCPU1 := selfCPU()
	machineCPU1, err := machineCPU()
	if err != nil {
		return nil, err
	}
	res := &result{
		reconnects: reconnects.Load(),
		elapsed:    stopped.Sub(measureFrom),
		serverCPU:  serverCPU1 - serverCPU0,
		clientCPU:  clientCPU1 - clientCPU0,
		machineCPU: machineCPU1 - machineCPU0,
	}
	for _, w := range workers {
		w.conn.Close()
		res.latencies = append(res.latencies, w.lat...)
		res.errors += w.errors
		if res.firstError == "" {
			res.firstError = w.firstError
		}
	}
	res.requests = len(res.latencies) + res.errors
	slices.Sort(res.latencies)
	return res, nil
}

func (w *worker) dial() error {
	if w.conn != nil {
		w.conn.Close()
	}
	c, err := net.Dial("tcp", w.addr)
	if err != nil {
		return err
	}
	w.conn = c
	if w.rd == nil {
		w.rd = bufio.NewReaderSize(c, 16<<10)
	} else {
		w.rd.Reset(c)
	}
	return nil
}

func (w *worker) loop(measureFrom, end time.Time) {
	for {
		t0 := time.Now()
		if !t0.Before(end) {
			return
		}
		status, keepAlive, err := w.roundTrip()
		d := time.Since(t0)
		counted := !t0.Before(measureFrom)
		if err != nil {
			keepAlive = false // the connection's state is unknown
		} else if status != http.StatusOK {
			err = fmt.Errorf("status %d", status)
		}
		if err != nil {
			if counted {
				w.errors++
				if w.firstError == "" {
					w.firstError = err.Error()
				}
			}
		} else if counted {
			w.lat = append(w.lat, d)
		}
		if !keepAlive {
			w.reconnects.Add(1)
			if derr := w.dial(); derr != nil {
				if counted && w.firstError == "" {
					w.firstError = derr.Error()
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
	}
}

// roundTrip writes the request and reads one response: status line,
// headers, and a body given by Content-Length or chunked encoding.
func (w *worker) roundTrip() (status int, keepAlive bool, err error) {
	if _, err := w.conn.Write(w.req); err != nil {
		return 0, false, err
	}
	line, err := w.rd.ReadSlice('\n')
	if err != nil {
		return 0, false, err
	}
	// "HTTP/1.1 200 OK\r\n"
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return 0, false, fmt.Errorf("bad status line %q", line)
	}
	status, err = strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, false, fmt.Errorf("bad status line %q", line)
	}
	length, chunked := -1, false
	keepAlive = true
	for {
		h, err := w.rd.ReadSlice('\n')
		if err != nil {
			return status, false, err
		}
		h = bytes.TrimRight(h, "\r\n")
		if len(h) == 0 {
			break
		}
		name, value, ok := bytes.Cut(h, []byte(":"))
		if !ok {
			continue
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil {
				return status, false, fmt.Errorf("bad Content-Length %q", value)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(value, []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")):
			keepAlive = !bytes.EqualFold(value, []byte("close"))
		}
	}
	switch {
	case chunked:
		err = w.skipChunked()
	case length >= 0:
		_, err = w.rd.Discard(length)
	default:
		return status, false, errors.New("response without Content-Length or chunked encoding")
	}
	if err != nil {
		return status, false, err
	}
	return status, keepAlive, nil
}

func (w *worker) skipChunked() error {
	for {
		line, err := w.rd.ReadSlice('\n')
		if err != nil {
			return err
		}
		sizeText, _, _ := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte(";"))
		size, err := strconv.ParseInt(string(bytes.TrimSpace(sizeText)), 16, 64)
		if err != nil {
			return fmt.Errorf("bad chunk size %q", line)
		}
		if size == 0 {
			for { // trailers, then the empty line
				t, err := w.rd.ReadSlice('\n')
				if err != nil {
					return err
				}
				if len(bytes.TrimRight(t, "\r\n")) == 0 {
					return nil
				}
			}
		}
		if _, err := w.rd.Discard(int(size) + 2); err != nil {
			return err
		}
	}
}

// processCPU is the user and system CPU time a process has used so far,
// from /proc/<pid>/stat.
func processCPU(pid int) (time.Duration, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which is in parentheses and may hold spaces.
	i := bytes.LastIndexByte(raw, ')')
	if i < 0 {
		return 0, errors.New("unreadable /proc stat")
	}
	f := strings.Fields(string(raw[i+1:]))
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	const ticksPerSecond = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / ticksPerSecond, nil
}

// machineCPU is the busy (not idle, not iowait) CPU time of all cores so far,
// from /proc/stat.
func machineCPU() (time.Duration, error) {
	raw, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, err
	}
	line, _, _ := bytes.Cut(raw, []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) < 8 || f[0] != "cpu" {
		return 0, errors.New("unreadable /proc/stat")
	}
	var busy int64
	for i, v := range f[1:8] { // user nice system idle iowait irq softirq
		if i == 3 || i == 4 {
			continue
		}
		n, _ := strconv.ParseInt(v, 10, 64)
		busy += n
	}
	const ticksPerSecond = 100 // USER_HZ on Linux
	return time.Duration(busy) * time.Second / ticksPerSecond, nil
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func (r *result) percentile(p float64) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	i := int(float64(len(r.latencies))*p/100+0.5) - 1
	i = max(0, min(i, len(r.latencies)-1))
	return r.latencies[i]
}

func (r *result) print(db string, conns int) {
	secs := r.elapsed.Seconds()
	rps := float64(len(r.latencies)) / secs
	fmt.Printf("  requests:    %d in %.2f s (%d ok, %d errors, %d reconnects)\n", r.requests, secs, len(r.latencies), r.errors, r.reconnects)
	fmt.Printf("  throughput:  %.0f requests/s\n", rps)
	fmt.Printf("  latency:     p50 %s  p90 %s  p99 %s  max %s\n",
		ms(r.percentile(50)), ms(r.percentile(90)), ms(r.percentile(99)), ms(r.percentile(100)))
	fmt.Printf("  CPU:         server %.2f cores, loadgen %.2f cores, whole machine %.2f cores busy (of %d)\n",
		r.serverCPU.Seconds()/secs, r.clientCPU.Seconds()/secs, r.machineCPU.Seconds()/secs, runtime.NumCPU())
	if r.firstError != "" {
		fmt.Printf("  first error: %s\n", r.firstError)
	}
	fmt.Printf("  | %s | %d | %.0f | %s | %s | %s | %d | %.2f | %.2f | %.2f |\n", db, conns, rps,
		ms(r.percentile(50)), ms(r.percentile(90)), ms(r.percentile(99)), r.errors,
		r.serverCPU.Seconds()/secs, r.clientCPU.Seconds()/secs, r.machineCPU.Seconds()/secs)
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 2, 64) + " ms"
}
