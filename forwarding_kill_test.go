package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/forwarding"
)

// TestKillDuringForwardingLosesNoAcknowledgedUplink runs the real binary
// with a webhook target on a local server, keeps posters sending uplinks,
// SIGKILLs the portal in the middle of the stream and starts it again on
// the same database: every uplink that was answered 2xx reaches the
// webhook, each node's in order (an uplink sent but not yet recorded as
// sent when the process died may come twice), on SQLite and PostgreSQL.
func TestKillDuringForwardingLosesNoAcknowledgedUplink(t *testing.T) {
	bin := fieldhubBinary(t)
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		var mu sync.Mutex
		received := map[string][]time.Time{} // by DevEUI, in arrival order
		hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var u forwarding.Uplink
			body, _ := io.ReadAll(r.Body)
			if err := json.Unmarshal(body, &u); err != nil {
				http.Error(w, "bad body", http.StatusBadRequest)
				return
			}
			mu.Lock()
			received[strings.ToLower(u.DevEUI)] = append(received[strings.ToLower(u.DevEUI)], u.Time)
			mu.Unlock()
		}))
		defer hook.Close()

		dbURL := kerneltest.DatabaseURL(t, d)
		env := binaryEnv("DATABASE_URL="+dbURL, "FIELDHUB_ADDR=127.0.0.1:0", "FIELDHUB_DATA="+t.TempDir(), "FIELDHUB_ACCESS_LOG=false",
			"FIELDHUB_OUTBOUND_PRIVATE=true")
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
		must("POST", fmt.Sprintf("/api/applications/%d/forwarding", app), map[string]any{"name": "Hook", "kind": "webhook",
			"url": hook.URL, "secret": "kill-test-secret"}, http.StatusCreated)

		const posters = 4
		euis := make([]string, posters)
		for i := range euis {
			euis[i] = fmt.Sprintf("70b3d57ed0fe00%02x", i)
			must("POST", fmt.Sprintf("/api/applications/%d/tag", app), map[string]any{"name": fmt.Sprintf("Node %d", i), "deveui": euis[i]}, http.StatusCreated)
		}
		var killed atomic.Bool
		var acked []ack
		var unexpected []string
		var wg sync.WaitGroup
		start := time.Now().UTC().Add(-48 * time.Hour).Truncate(time.Hour)
		for i := range posters {
			wg.Go(func() {
				client := &http.Client{Timeout: 10 * time.Second}
				for n := 0; ; n++ {
					at := start.Add(time.Duration(n) * time.Second)
					body := fmt.Sprintf(`{"devEui":%q,"time":%q,"values":{"level":%d}}`, euis[i], at.Format(time.RFC3339), n)
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
						acked = append(acked, ack{devEUI: euis[i], at: at})
					case killed.Load():
						mu.Unlock()
						return
					default:
						unexpected = append(unexpected, fmt.Sprint(at, err, resp))
					}
					stop := len(unexpected) > 0
					mu.Unlock()
					if stop {
						return
					}
				}
			})
		}
		time.Sleep(2 * time.Second)
		killed.Store(true)
		p.kill()
		wg.Wait()
		if len(unexpected) > 0 {
			t.Fatalf("before the kill: %v", unexpected)
		}
		mu.Lock()
		t.Logf("%s: %d uplinks acknowledged, %d delivered before SIGKILL", d, len(acked), countAll(received))
		mu.Unlock()

		// The dead instance's lease on the target lapses (30 s): moved to
		// the past here rather than waited for.
		bdb, err := db.Open(context.Background(), dbURL)
		if err != nil {
			t.Fatal(err)
		}
		defer bdb.Close()
		if _, err := bdb.NewUpdate().Table("forwarding_targets").Set("lease_until = NULL").Where("1 = 1").Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		again := startBinary(t, bin, env)
		missing := func() []ack {
			mu.Lock()
			defer mu.Unlock()
			got := map[string]bool{}
			for eui, times := range received {
				for _, at := range times {
					got[eui+at.Format(time.RFC3339)] = true
				}
			}
			var out []ack
			for _, a := range acked {
				if !got[a.devEUI+a.at.Format(time.RFC3339)] {
					out = append(out, a)
				}
			}
			return out
		}
		kerneltest.WaitFor(t, 90*time.Second, func() bool { return len(missing()) == 0 },
			func() string {
				return fmt.Sprintf("%d acknowledged uplinks not delivered:\n%s", len(missing()), again.out.String())
			})
		mu.Lock()
		defer mu.Unlock()
		for eui, times := range received {
			var last time.Time
			for _, at := range times {
				if at.Before(last) && !seen(times, at, last) {
					t.Errorf("%s: %s arrived after %s", eui, at, last)
				}
				if at.After(last) {
					last = at
				}
			}
		}
	})
}

func countAll(m map[string][]time.Time) int {
	n := 0
	for _, v := range m {
		n += len(v)
	}
	return n
}

// seen reports whether at, arriving after last, is a repeat of an uplink
// that arrived before (the redelivery after the kill), not one out of
// order.
func seen(times []time.Time, at, last time.Time) bool {
	for _, t := range times {
		if t.Equal(at) {
			return true
		}
		if t.Equal(last) {
			return false
		}
	}
	return false
}
