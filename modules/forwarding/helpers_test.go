package forwarding_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/forwarding"
)

// receiver is a webhook on a local server: it checks each request's
// signature with secret and keeps the bodies it took; while down is set it
// answers 500.
type receiver struct {
	t      testing.TB
	secret string
	srv    *httptest.Server
	down   atomic.Bool

	mu      sync.Mutex
	got     []forwarding.Uplink
	headers []http.Header
	bad     []string // what failed the checks
}

func newReceiver(t testing.TB, secret string) *receiver {
	r := &receiver{t: t, secret: secret}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	if r.down.Load() {
		http.Error(w, "down for maintenance", http.StatusInternalServerError)
		return
	}
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	ts, err := strconv.ParseInt(req.Header.Get(forwarding.HeaderTimestamp), 10, 64)
	if err != nil || req.Header.Get(forwarding.HeaderSignature) != forwarding.Sign(r.secret, ts, body) {
		r.bad = append(r.bad, "signature of "+string(body))
	}
	var u forwarding.Uplink
	if err := json.Unmarshal(body, &u); err != nil {
		r.bad = append(r.bad, "body "+string(body))
	}
	r.got = append(r.got, u)
	r.headers = append(r.headers, req.Header.Clone())
}

// uplinks are the bodies taken so far.
func (r *receiver) uplinks() []forwarding.Uplink {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]forwarding.Uplink(nil), r.got...)
}

// wait waits until n uplinks arrived and returns them.
func (r *receiver) wait(n int) []forwarding.Uplink {
	r.t.Helper()
	kerneltest.WaitFor(r.t, 60*time.Second, func() bool { return len(r.uplinks()) >= n },
		func() string {
			return "the webhook got " + strconv.Itoa(len(r.uplinks())) + " uplinks, want " + strconv.Itoa(n)
		})
	return r.uplinks()
}

// checks fails the test for what the receiver found wrong.
func (r *receiver) checks() {
	r.t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, b := range r.bad {
		r.t.Errorf("bad request: %s", b)
	}
}

// env is a portal with the devices fixture, allowed to send to 127.0.0.1.
type env struct {
	*kerneltest.Devices
	p *kerneltest.Portal[*app.App]
}

func newEnv(t *testing.T, d db.Dialect) *env {
	p := kerneltest.Start(t, d, map[string]string{"FIELDHUB_OUTBOUND_PRIVATE": "true"}, app.Build)
	return &env{Devices: kerneltest.NewDevices(t, p.Client, p.App, p.App.Series()), p: p}
}

// addWebhook adds a webhook target to acme's application and returns its
// id.
func (e *env) addWebhook(t *testing.T, url, secret string) int64 {
	t.Helper()
	return e.Must(t, "acmeAdmin", "POST", "/api/applications/{acmeApp}/forwarding", map[string]any{
		"name": "Warehouse", "kind": "webhook", "url": url, "secret": secret, "headers": map[string]string{"X-Tenant": "acme"},
	}, http.StatusCreated).Num("id")
}

// target reads a target's state from the list of acme's application.
func (e *env) target(t *testing.T, id int64) map[string]any {
	t.Helper()
	for _, v := range e.Must(t, "acmeAdmin", "GET", "/api/applications/{acmeApp}/forwarding", nil, http.StatusOK).List() {
		if m := v.(map[string]any); int64(m["id"].(float64)) == id {
			return m
		}
	}
	t.Fatalf("no target %d", id)
	return nil
}

// due makes the next attempts of every target due now, rather than after
// their backoff.
func (e *env) due(t *testing.T) {
	t.Helper()
	if _, err := e.p.Host().DB.NewUpdate().Table("forwarding_targets").Set("next_attempt_at = ?", time.Now().UTC().Add(-time.Second)).
		Where("1 = 1").Exec(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }
