package main

import (
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
)

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
