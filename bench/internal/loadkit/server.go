// Package loadkit holds what the load benchmarks under bench/ share: building
// the fieldhub binary, starting `fieldhub serve` on a fresh SQLite folder or
// a fresh PostgreSQL database, and a small HTTP/1.1 client that keeps many
// keep-alive connections busy in a closed loop while it measures latency
// and the CPU time of the server, itself and the whole machine.
//
// The client writes one prebuilt request per round trip and parses only the
// status line, the headers it needs and the body length: a load generator
// built on net/http's client would spend more of the shared CPU than the
// server it measures.
package loadkit

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// DefaultPostgres is the PostgreSQL admin URL the benchmarks create their
// databases with: FIELDHUB_TEST_POSTGRES, or the local server.
func DefaultPostgres() string {
	if u := os.Getenv("FIELDHUB_TEST_POSTGRES"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

// BuildBinary builds the module's main package, found from this source
// tree's go.mod, into out, with the given build tags.
func BuildBinary(out string, tags ...string) error {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return fmt.Errorf("go env GOMOD: %w", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	if root == "." || root == "" {
		return errors.New("run the benchmark from inside the fieldhub module")
	}
	args := []string{"build", "-o", out}
	if len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build: %w", err)
	}
	return nil
}

// CleanEnv is this process's environment without Fieldhub's options, so that
// a developer's settings do not change what is measured.
func CleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "FIELDHUB_"), strings.HasPrefix(name, "DATABASE_URL"),
			strings.HasPrefix(name, "SMTP_URL"), strings.HasPrefix(name, "INFLUX_URL"), name == "GOMAXPROCS":
			continue
		}
		env = append(env, kv)
	}
	return env
}

// CreatePostgres makes an empty database named prefix_<pid>_<time> on the
// admin URL's server and returns its URL and a function that drops it.
func CreatePostgres(ctx context.Context, adminURL, prefix string) (string, func() error, error) {
	admin, err := sql.Open("pgx", adminURL)
	if err != nil {
		return "", nil, err
	}
	if err := admin.PingContext(ctx); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("PostgreSQL at %s: %w (run scripts/ensure-services.sh)", adminURL, err)
	}
	name := fmt.Sprintf("%s_%d_%d", prefix, os.Getpid(), time.Now().Unix())
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

// Settle vacuums the database at dbURL and then checkpoints, so that a
// measurement starts with what autovacuum would have cleaned up
// (this machine's PostgreSQL runs with autovacuum off: the tags, rewritten
// by every uplink, bloat from one measurement to the next otherwise) and
// with no checkpoint due from what the ones before wrote.
func Settle(ctx context.Context, dbURL string) error {
	bench, err := sql.Open("pgx", dbURL)
	if err != nil {
		return err
	}
	defer bench.Close()
	if _, err := bench.ExecContext(ctx, "VACUUM (ANALYZE)"); err != nil {
		return fmt.Errorf("vacuum: %w", err)
	}
	if _, err := bench.ExecContext(ctx, "CHECKPOINT"); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}

// FreeAddr returns a loopback address with a port that was free a moment ago.
func FreeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// Server is a running `fieldhub serve`.
type Server struct {
	Cmd     *exec.Cmd
	Addr    string // host:port
	Base    string // http://host:port
	LogPath string
	done    chan struct{} // closed when the process has exited
	err     error         // its exit error, set before done is closed
	log     *os.File
}

// StartServer runs `bin serve --addr <free port> args...` with env, its
// output going to logPath, and waits until /healthz answers 200.
func StartServer(bin string, env []string, logPath string, args ...string) (*Server, error) {
	addr, err := FreeAddr()
	if err != nil {
		return nil, err
	}
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, append([]string{"serve", "--addr", addr}, args...)...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start fieldhub serve: %w", err)
	}
	s := &Server{Cmd: cmd, Addr: addr, Base: "http://" + addr, LogPath: logPath, done: make(chan struct{}), log: logFile}
	go func() {
		s.err = cmd.Wait()
		close(s.done)
	}()
	if err := s.waitHealthy(); err != nil {
		s.Stop()
		return nil, s.Fail(err)
	}
	return s, nil
}

// PID is the server's process id.
func (s *Server) PID() int { return s.Cmd.Process.Pid }

// Exited returns the server's exit error and true once it has stopped.
func (s *Server) Exited() (error, bool) {
	select {
	case <-s.done:
		return s.err, true
	default:
		return nil, false
	}
}

func (s *Server) waitHealthy() error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if err, done := s.Exited(); done {
			return fmt.Errorf("fieldhub serve exited before it was ready: %v", err)
		}
		resp, err := http.Get(s.Base + "/healthz")
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

// Stop ends the server with SIGTERM, and SIGKILL after 10 s. Calling it
// again does nothing.
func (s *Server) Stop() {
	if _, done := s.Exited(); !done {
		_ = s.Cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			_ = s.Cmd.Process.Kill()
			<-s.done
		}
	}
	s.log.Close()
}

// Fail adds the end of the server's log to err.
func (s *Server) Fail(err error) error {
	return fmt.Errorf("%w\n--- server log (%s) ---\n%s", err, s.LogPath, Tail(s.LogPath, 40))
}

// Tail returns the last lines of a file.
func Tail(path string, lines int) string {
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

// Login authenticates with e-mail and password and returns the access token
// and the user's id.
func Login(base, email, password string) (string, int64, error) {
	var ans struct {
		Token  string `json:"token"`
		UserID int64  `json:"userId"`
	}
	if err := Call(base, http.MethodPost, "/api/users/authenticate", "", map[string]string{"email": email, "password": password}, http.StatusOK, &ans); err != nil {
		return "", 0, err
	}
	if ans.Token == "" || ans.UserID == 0 {
		return "", 0, errors.New("authenticate: no token or userId in the answer")
	}
	return ans.Token, ans.UserID, nil
}

// callClient is Call's: it keeps up to 64 idle connections to the portal
// where net/http's default keeps 2, so that a benchmark that paces its
// requests through Call from many goroutines (bench/scripts posts its
// trigger's uplinks so) reuses its connections, as a network server's
// integration does, instead of opening one for almost every request and
// spending the shared CPU on connections.
var callClient = func() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	return &http.Client{Transport: t}
}()

// Call sends one JSON API request with net/http (for set-up and paced
// posting, not for a closed-loop load) and decodes the answer into out when
// out is not nil. An answer other than want is an error.
func Call(base, method, path, token string, body any, want int, out any) error {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := callClient.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: want %d, got %s: %s", method, path, want, resp.Status, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return fmt.Errorf("%s %s: %w: %s", method, path, err, raw)
		}
	}
	return nil
}
