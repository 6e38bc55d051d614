package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// syncBuffer is a buffer a server goroutine writes while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

var listening = regexp.MustCompile(`running at (http://127\.0\.0\.1:\d+)`)

// startServe runs `fieldhub serve` with args until the test ends and returns
// its address and console output.
func startServe(t *testing.T, args ...string) (string, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), out, &syncBuffer{})
	}()
	deadline := time.Now().Add(20 * time.Second)
	for !listening.MatchString(out.String()) {
		select {
		case err := <-done:
			cancel()
			t.Fatalf("serve ended early: %v\n%s", err, out.String())
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("serve did not start:\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve stopped with %v", err)
		}
	})
	return listening.FindStringSubmatch(out.String())[1], out
}

// TestServePrintsFirstSuperAdminOnce starts the binary's serve command twice
// on one data folder: the first start prints a working SuperAdmin login, the
// second does not print it again.
func TestServePrintsFirstSuperAdminOnce(t *testing.T) {
	data := t.TempDir()
	t.Setenv("FIELDHUB_ACCESS_LOG", "false")
	t.Setenv("FIELDHUB_DATA", data)
	base, out := startServe(t, "--demo")
	if r := kerneltest.NewClient(base).Call(t, "GET", "/healthz", "", nil); r.Status != http.StatusOK || r.Str("status") != "ok" {
		t.Fatalf("/healthz: %d %s", r.Status, r.Body)
	}
	m := regexp.MustCompile(`e-mail:\s+(\S+)\s+password:\s+(\S+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no SuperAdmin printed:\n%s", out.String())
	}
	c := kerneltest.NewClient(base)
	token := c.Login(t, m[1], m[2])
	if r := c.Call(t, "GET", "/api/companies/all", token, nil); len(r.List()) != 1 || r.List()[0].(map[string]any)["name"] != "Demo AB" {
		t.Errorf("demo company: %s", r.Body)
	}
	demo := regexp.MustCompile(`CompanyAdmin\s+(\S+)\s+(\S+)`).FindStringSubmatch(out.String())
	if demo == nil {
		t.Fatalf("no demo login printed:\n%s", out.String())
	}
	c.Login(t, demo[1], demo[2])
}

func TestServeSecondStartIsQuiet(t *testing.T) {
	data := t.TempDir()
	t.Setenv("FIELDHUB_ACCESS_LOG", "false")
	t.Setenv("FIELDHUB_DATA", data)
	var first, second string
	func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var out bytes.Buffer
		if err := run(ctx, []string{"migrate"}, &out, &bytes.Buffer{}); err != nil {
			t.Fatalf("migrate: %v", err)
		}
		if err := run(ctx, []string{"migrate"}, &out, &bytes.Buffer{}); err != nil {
			t.Fatalf("migrate again: %v", err)
		}
	}()
	t.Run("first", func(t *testing.T) { _, out := startServe(t); first = out.String() })
	t.Run("second", func(t *testing.T) { _, out := startServe(t); second = out.String() })
	if !strings.Contains(first, "password:") || strings.Contains(second, "password:") {
		t.Errorf("first start:\n%s\nsecond start:\n%s", first, second)
	}
}

func TestAdminCreateSuperAdmin(t *testing.T) {
	t.Setenv("FIELDHUB_DATA", t.TempDir())
	ctx := context.Background()
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"admin", "create-superadmin", "--email", "ops@example.com", "--password", "short"}, &out, &errOut); err == nil ||
		!strings.Contains(err.Error(), "password: The password must be at least 8 characters") {
		t.Errorf("short password: %v", err)
	}
	if err := run(ctx, []string{"admin", "create-superadmin", "--email", "ops@example.com", "--password", "long enough"}, &out, &errOut); err != nil {
		t.Fatalf("create: %v", err)
	}
	base, _ := startServe(t)
	c := kerneltest.NewClient(base)
	r := c.Call(t, "POST", "/api/users/authenticate", "", map[string]string{"email": "ops@example.com", "password": "long enough"})
	if r.Str("role") != "SuperAdmin" {
		t.Errorf("login: %s", r.Body)
	}
}

func TestBadConfigurationStopsStartup(t *testing.T) {
	t.Setenv("FIELDHUB_LOG_LEVEL", "chatty")
	err := run(context.Background(), []string{"serve"}, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "FIELDHUB_LOG_LEVEL") {
		t.Errorf("got %v", err)
	}
}

func TestVersionAndUnknownCommand(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"version"}, &out, &bytes.Buffer{}); err != nil || !strings.HasPrefix(out.String(), "fieldhub ") {
		t.Errorf("version: %v %q", err, out.String())
	}
	if err := run(context.Background(), []string{"frobnicate"}, &out, &bytes.Buffer{}); err == nil {
		t.Errorf("unknown command accepted")
	}
}

// TestREADMEListsEveryOption keeps the README's configuration table in step
// with the options the binary accepts.
func TestREADMEListsEveryOption(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var table bytes.Buffer
	if err := run(context.Background(), []string{"config"}, &table, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(table.String()), "\n")[2:] {
		if !strings.Contains(string(readme), line) {
			t.Errorf("README.md lacks the line %q (paste the output of `fieldhub config`)", line)
		}
	}
}
