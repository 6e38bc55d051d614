package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/tsdb/sqlts"
	"github.com/fieldhub/fieldhub/modules/demo"
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
	return startCommand(t, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
}

// startCommand runs `fieldhub <args>` until the test ends and returns, once
// it says where it listens, its address and console output.
func startCommand(t *testing.T, args ...string) (string, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, out, &syncBuffer{}) }()
	deadline := time.Now().Add(20 * time.Second)
	for !listening.MatchString(out.String()) {
		select {
		case err := <-done:
			cancel()
			t.Fatalf("%v ended early: %v\n%s", args, err, out.String())
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("%v did not start:\n%s", args, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("%v stopped with %v", args, err)
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
	demoLogin := regexp.MustCompile(`CompanyAdmin\s+(\S+)\s+(\S+)`).FindStringSubmatch(out.String())
	if demoLogin == nil {
		t.Fatalf("no demo login printed:\n%s", out.String())
	}
	c.Login(t, demoLogin[1], demoLogin[2])
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

// TestNotifyCommand checks fieldhub notify: a notification for the user of
// an address, which their list then holds, and the refusals it explains.
func TestNotifyCommand(t *testing.T) {
	t.Setenv("FIELDHUB_DATA", t.TempDir())
	t.Setenv("FIELDHUB_ACCESS_LOG", "false")
	ctx := context.Background()
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"admin", "create-superadmin", "--email", "ops@example.com", "--password", "long enough"}, &out, &errOut); err != nil {
		t.Fatalf("create: %v", err)
	}
	refusals := []struct {
		args []string
		want string
	}{
		{[]string{"--label", "L", "--message", "M"}, "--user is required"},
		{[]string{"--user", "nobody@example.com", "--label", "L", "--message", "M"}, "notify nobody@example.com: The requested item was not found"},
		{[]string{"--user", "ops@example.com", "--message", "M", "--route", "https://evil.example"}, "label: This field must be filled in; route: Give a path of the portal"},
	}
	for _, r := range refusals {
		if err := run(ctx, append([]string{"notify"}, r.args...), &out, &errOut); err == nil || !strings.Contains(err.Error(), r.want) {
			t.Errorf("notify %v: %v, want %q", r.args, err, r.want)
		}
	}
	out.Reset()
	if err := run(ctx, []string{"notify", "--user", " OPS@example.com", "--label", "Backup", "--message", "The nightly backup failed", "--route", "/superadmin"}, &out, &errOut); err != nil {
		t.Fatalf("notify: %v", err)
	}
	if !strings.Contains(out.String(), "OPS@example.com is notified") {
		t.Errorf("output %q", out.String())
	}
	base, _ := startServe(t)
	c := kerneltest.NewClient(base)
	auth := c.Must(t, "POST", "/api/users/authenticate", "", map[string]string{"email": "ops@example.com", "password": "long enough"}, http.StatusOK)
	list := c.Must(t, "GET", fmt.Sprintf("/api/notification/%d", auth.Num("userId")), auth.Str("token"), nil, http.StatusOK).List()
	if len(list) != 1 || list[0].(map[string]any)["label"] != "Backup" || list[0].(map[string]any)["route"] != "/superadmin" {
		t.Errorf("list %v", list)
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

// The `fieldhub demo` command: the demo company, its simulated nodes and
// their data.

// TestDemoShowsDataWithinSeconds starts `fieldhub demo`: the demo company's
// admin sees the demo application with its dozen nodes, and tag data of a
// node arrives through the ingest within a few seconds. A second start on
// the same data folder (`serve --demo`) makes no duplicates and the data
// keeps coming.
func TestDemoShowsDataWithinSeconds(t *testing.T) {
	data := t.TempDir()
	t.Setenv("FIELDHUB_ACCESS_LOG", "false")
	t.Setenv("FIELDHUB_DATA", data)
	var email, password string
	var latest time.Time
	t.Run("first start", func(t *testing.T) {
		base, out := startCommand(t, "demo", "--addr", "127.0.0.1:0")
		m := regexp.MustCompile(`CompanyAdmin\s+(\S+)\s+(\S+)`).FindStringSubmatch(out.String())
		if m == nil {
			t.Fatalf("no demo login printed:\n%s", out.String())
		}
		email, password = m[1], m[2]
		if !strings.Contains(out.String(), "simulated nodes") {
			t.Errorf("the simulator is not mentioned:\n%s", out.String())
		}
		latest = waitForDemoData(t, base, email, password, time.Time{})
	})
	t.Run("second start", func(t *testing.T) {
		base, out := startCommand(t, "serve", "--demo", "--addr", "127.0.0.1:0")
		if regexp.MustCompile(`CompanyAdmin\s+\S+@`).MatchString(out.String()) {
			t.Errorf("passwords printed again:\n%s", out.String())
		}
		waitForDemoData(t, base, email, password, latest)
	})
}

// waitForDemoData logs in as the demo admin, checks the demo's application
// and nodes, and waits until the tag data of the demo's first node (a room
// climate sensor) is newer than after, then returns its time.
func waitForDemoData(t *testing.T, base, email, password string, after time.Time) time.Time {
	t.Helper()
	c := kerneltest.NewClient(base)
	token := c.Login(t, email, password)
	me := c.Call(t, "POST", "/api/users/authenticate", "", map[string]string{"email": email, "password": password})
	company := me.Num("companyId")
	var apps []string
	for _, a := range c.Call(t, "GET", fmt.Sprintf("/api/companies/%d/applications", company), token, nil).List() {
		apps = append(apps, a.(map[string]any)["name"].(string))
	}
	if len(apps) != 1 || apps[0] != demo.ApplicationName {
		t.Errorf("applications %v, want only %q", apps, demo.ApplicationName)
	}
	want := demo.Nodes()
	tagID := int64(0)
	deadline := time.Now().Add(10 * time.Second)
	for {
		tags := c.Call(t, "GET", fmt.Sprintf("/api/companies/%d/tags", company), token, nil).List()
		for _, tg := range tags {
			if tg.(map[string]any)["deveui"] == want[0].DevEUI {
				tagID = int64(tg.(map[string]any)["id"].(float64))
			}
		}
		if len(tags) == len(want) && tagID != 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d demo nodes (want %d), first node's tag %d", len(tags), len(want), tagID)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for {
		got := map[string]bool{}
		var at time.Time
		for _, e := range c.Call(t, "GET", fmt.Sprintf("/api/tag/meta/%d/tagdata", tagID), token, nil).List() {
			entry := e.(map[string]any)
			if v, ok := entry["value"].(float64); ok && v > 0 {
				got[entry["key"].(string)] = true
				if s, ok := entry["time"].(string); ok {
					at, _ = time.Parse(time.RFC3339Nano, s)
				}
			}
		}
		if got["temperature"] && got["humidity"] && got["batteryVoltage"] && at.After(after) {
			checkDemoDashboard(t, c, token, company)
			return at
		}
		if time.Now().After(deadline) {
			t.Fatalf("no new tag data for %s after 10 s: %v at %v", want[0].Name, got, at)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// checkDemoDashboard finds the demo's dashboard, made once (the simulator
// starts after it), with its chart, gauge, latest value, fill level and map.
func checkDemoDashboard(t *testing.T, c *kerneltest.Client, token string, company int64) {
	t.Helper()
	var ids []int64
	for _, d := range c.Call(t, "GET", fmt.Sprintf("/api/companies/%d/dashboards", company), token, nil).List() {
		if d.(map[string]any)["name"] == demo.DashboardName {
			ids = append(ids, int64(d.(map[string]any)["dashboardId"].(float64)))
		}
	}
	if len(ids) != 1 {
		t.Fatalf("%d dashboards named %q, want 1", len(ids), demo.DashboardName)
	}
	var types []float64
	for _, m := range c.Call(t, "GET", fmt.Sprintf("/api/dashboards/%d/modules", ids[0]), token, nil).List() {
		types = append(types, m.(map[string]any)["type"].(float64))
	}
	if fmt.Sprint(types) != "[0 1 8 17 4]" {
		t.Errorf("demo dashboard module types %v, want chart, gauge, latest value, fill level, map", types)
	}
}

func TestDemoCommandIsServeDemo(t *testing.T) {
	var out strings.Builder
	if err := run(context.Background(), []string{"help"}, &out, &out); err != nil || !strings.Contains(out.String(), "demo [--addr") {
		t.Errorf("usage does not list demo: %v\n%s", err, out.String())
	}
	// A flag serve does not know is refused in the demo command too.
	if err := run(context.Background(), []string{"demo", "--frobnicate"}, &strings.Builder{}, &strings.Builder{}); err == nil ||
		!strings.Contains(err.Error(), "frobnicate") {
		t.Errorf("got %v", err)
	}
}

// The binary under SIGKILL: what the ingest acknowledged survives.

var (
	binaryOnce sync.Once
	binaryPath string
	binaryErr  error
	binaryOut  []byte
)

// fieldhubBinary builds the binary once per test run, into a folder that is
// removed when the run ends.
func fieldhubBinary(t *testing.T) string {
	t.Helper()
	binaryOnce.Do(func() {
		dir, err := os.MkdirTemp("", "fieldhub-bin-")
		if err != nil {
			binaryErr = err
			return
		}
		binaryPath = filepath.Join(dir, "fieldhub")
		binaryOut, binaryErr = exec.Command("go", "build", "-o", binaryPath, ".").CombinedOutput()
	})
	if binaryErr != nil {
		t.Fatalf("go build: %v\n%s", binaryErr, binaryOut)
	}
	return binaryPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binaryPath != "" {
		os.RemoveAll(filepath.Dir(binaryPath))
	}
	os.Exit(code)
}

// process is a running `fieldhub serve` binary.
type process struct {
	cmd  *exec.Cmd
	base string
	out  *syncBuffer
	done chan struct{}
}

// startBinary runs `fieldhub serve` with env until the test ends (or it is
// killed) and waits for the address it prints.
func startBinary(t *testing.T, bin string, env []string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(bin, "serve"), out: &syncBuffer{}, done: make(chan struct{})}
	p.cmd.Env = env
	p.cmd.Stdout = p.out
	p.cmd.Stderr = p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { p.kill() })
	deadline := time.Now().Add(30 * time.Second)
	for !listening.MatchString(p.out.String()) {
		select {
		case <-p.done:
			t.Fatalf("fieldhub serve ended early:\n%s", p.out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("fieldhub serve did not start:\n%s", p.out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.base = listening.FindStringSubmatch(p.out.String())[1]
	return p
}

// kill ends the process with SIGKILL, as a power cut or the OOM killer
// would, and waits until it is gone.
func (p *process) kill() {
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.cmd.Process.Kill()
	<-p.done
}

// binaryEnv is this process's environment without Fieldhub's options, plus
// the given ones.
func binaryEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "FIELDHUB_") || strings.HasPrefix(name, "DATABASE_URL") ||
			strings.HasPrefix(name, "INFLUX_URL") || strings.HasPrefix(name, "SMTP_URL") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// ack is an uplink the portal answered 2xx.
type ack struct {
	devEUI string
	at     time.Time
	value  float64
}

// TestKillDuringIngestLosesNoAcknowledgedUplink runs the real binary, keeps
// several posters sending generic uplinks with unique times, kills the
// process with SIGKILL in the middle of the stream, restarts it on the same
// database and checks that every uplink that was answered 2xx is in the
// time-series store, on SQLite and on PostgreSQL.
func TestKillDuringIngestLosesNoAcknowledgedUplink(t *testing.T) {
	bin := fieldhubBinary(t)
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		dbURL := kerneltest.DatabaseURL(t, d)
		env := binaryEnv("DATABASE_URL="+dbURL, "FIELDHUB_ADDR=127.0.0.1:0", "FIELDHUB_DATA="+t.TempDir(), "FIELDHUB_ACCESS_LOG=false")
		p := startBinary(t, bin, env)
		m := regexp.MustCompile(`e-mail:\s+(\S+)\s+password:\s+(\S+)`).FindStringSubmatch(p.out.String())
		if m == nil {
			t.Fatalf("no SuperAdmin printed:\n%s", p.out.String())
		}
		c := kerneltest.NewClient(p.base)
		super := c.Login(t, m[1], m[2])
		must := func(method, path string, body any, status int) kerneltest.Response {
			t.Helper()
			r := c.Call(t, method, path, super, body)
			if r.Status != status {
				t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Body)
			}
			return r
		}
		company := int64(must("POST", "/api/users/create/company", map[string]any{
			"company": map[string]any{"name": "Kill AB", "orgNumber": "556677-8899", "invoiceAdress": "billing@kill.test", "country": "SE"},
			"user":    map[string]any{"firstName": "K", "lastName": "Ill", "email": "admin@kill.test", "phoneNumber": "46701234567", "password": "secret123"},
		}, http.StatusCreated).Obj()["company"].(map[string]any)["companyId"].(float64))
		app := must("POST", fmt.Sprintf("/api/applications/%d", company), map[string]any{"name": "Field"}, http.StatusCreated).Num("id")
		token := must("POST", fmt.Sprintf("/api/integration/tokens/%d", company), map[string]any{"label": "kill test", "isCompany": true}, http.StatusCreated).Str("token")

		const posters = 8
		euis := make([]string, posters)
		for i := range euis {
			euis[i] = fmt.Sprintf("70b3d57ed0ff00%02x", i)
			must("POST", fmt.Sprintf("/api/applications/%d/tag", app), map[string]any{"name": fmt.Sprintf("Node %d", i), "deveui": euis[i]}, http.StatusCreated)
		}

		// Each poster sends uplinks of its own node, one second apart in
		// the uplinks' times, until the first failure after the kill.
		var killed atomic.Bool
		var mu sync.Mutex
		var acked []ack
		var unexpected []string
		var wg sync.WaitGroup
		start := time.Now().UTC().Add(-48 * time.Hour).Truncate(time.Hour)
		for i := range posters {
			wg.Add(1)
			go func() {
				defer wg.Done()
				client := &http.Client{Timeout: 10 * time.Second}
				for n := 0; ; n++ {
					at := start.Add(time.Duration(n) * time.Second)
					value := float64(i*1_000_000 + n)
					body := fmt.Sprintf(`{"devEui":%q,"time":%q,"values":{"level":%g,"flow":%g}}`, euis[i], at.Format(time.RFC3339), value, value/2)
					req, _ := http.NewRequest("POST", p.base+"/api/ingest/generic", strings.NewReader(body))
					req.Header.Set("Authorization", "Bearer "+token)
					req.Header.Set("Content-Type", "application/json")
					resp, err := client.Do(req)
					if err == nil {
						resp.Body.Close()
					}
					mu.Lock()
					switch {
					case err == nil && resp.StatusCode >= 200 && resp.StatusCode < 300:
						acked = append(acked, ack{euis[i], at, value})
					case killed.Load():
						mu.Unlock()
						return
					case err != nil:
						unexpected = append(unexpected, err.Error())
					default:
						unexpected = append(unexpected, fmt.Sprintf("%s: %d", at, resp.StatusCode))
					}
					stop := len(unexpected) > 0
					mu.Unlock()
					if stop {
						return
					}
				}
			}()
		}
		time.Sleep(2 * time.Second)
		mu.Lock()
		before := len(acked)
		mu.Unlock()
		killed.Store(true)
		p.kill()
		wg.Wait()
		if len(unexpected) > 0 {
			t.Fatalf("before the kill: %v", unexpected)
		}
		if before < 50 {
			t.Fatalf("only %d uplinks acknowledged in 2 s of load", before)
		}
		t.Logf("%s: %d uplinks acknowledged before SIGKILL", d, len(acked))

		// The portal starts again on the same database, and every
		// acknowledged uplink is there.
		again := startBinary(t, bin, env)
		if r := kerneltest.NewClient(again.base).Call(t, "GET", "/healthz", "", nil); r.Status != http.StatusOK {
			t.Fatalf("after restart: /healthz %d %s", r.Status, r.Body)
		}
		bdb, err := db.Open(context.Background(), dbURL)
		if err != nil {
			t.Fatal(err)
		}
		defer bdb.Close()
		store := sqlts.New(bdb, sqlts.Options{})
		stored := map[string]map[int64]float64{} // series "eui/key" to time (µs) to value
		for _, eui := range euis {
			for _, key := range []string{"level", "flow"} {
				points, err := store.Range(context.Background(), tsdb.Series{Company: company, DevEUI: eui, Key: key}, start, start.Add(24*time.Hour), tsdb.MaxPoints)
				if err != nil {
					t.Fatal(err)
				}
				m := map[int64]float64{}
				for _, pt := range points {
					m[pt.Time.UnixMicro()] = pt.Value
				}
				stored[eui+"/"+key] = m
			}
		}
		lost := 0
		for _, a := range acked {
			level, ok1 := stored[a.devEUI+"/level"][a.at.UnixMicro()]
			flow, ok2 := stored[a.devEUI+"/flow"][a.at.UnixMicro()]
			if !ok1 || !ok2 || level != a.value || flow != a.value/2 {
				if lost++; lost <= 10 {
					t.Errorf("acknowledged uplink of %s at %s: stored level %v (%v), flow %v (%v)", a.devEUI, a.at.Format(time.RFC3339), level, ok1, flow, ok2)
				}
			}
		}
		if lost > 0 {
			t.Errorf("%d of %d acknowledged uplinks are missing after SIGKILL and restart", lost, len(acked))
		}
	})
}
