package forwarding_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestWebhookDeliversEachUplinkOnceInOrder: a webhook target on a local
// server receives each stored uplink once, signed, with the company's
// header; while it answers 500 the uplinks queue (the target's state says
// so, with the error) and after it comes back they arrive, in order.
func TestWebhookDeliversEachUplinkOnceInOrder(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		hook := newReceiver(t, "s3cret-signing-key")
		id := e.addWebhook(t, hook.srv.URL+"/in", "s3cret-signing-key")
		start := time.Now().UTC().Truncate(time.Second).Add(-time.Hour)
		for i := range 5 {
			e.Uplink(t, "acme", start.Add(time.Duration(i)*time.Minute), 1, []byte{byte(i)})
		}
		got := hook.wait(5)

		hook.down.Store(true)
		for i := 5; i < 10; i++ {
			e.Uplink(t, "acme", start.Add(time.Duration(i)*time.Minute), 1, []byte{byte(i)})
		}
		kerneltest.WaitFor(t, 60*time.Second, func() bool {
			s := e.target(t, id)
			return s["failures"].(float64) >= 1 && s["queued"].(float64) == 5
		}, func() string { return "the target did not record a failure with 5 queued" })
		s := e.target(t, id)
		if errs := s["lastErrors"].([]any); len(errs) == 0 || errs[0].(map[string]any)["message"] != "HTTP 500: down for maintenance" {
			t.Errorf("last errors %v", s["lastErrors"])
		}
		hook.down.Store(false)
		e.due(t)
		got = hook.wait(10)
		time.Sleep(300 * time.Millisecond) // a duplicate would come now
		got = hook.uplinks()
		hook.checks()
		if len(got) != 10 {
			t.Fatalf("the webhook got %d uplinks, want 10", len(got))
		}
		for i, u := range got {
			if want := start.Add(time.Duration(i) * time.Minute); !u.Time.Equal(want) || u.DevEUI != e.EUI["acmeNode"] || u.Payload != []string{"00", "01", "02", "03", "04", "05", "06", "07", "08", "09"}[i] {
				t.Errorf("uplink %d: %+v, want time %s", i, u, want)
			}
			if u.ApplicationID != e.ID(t, "{acmeApp}") || u.CompanyID != e.ID(t, "{acme}") || u.Data["rssi"] != -80.0 {
				t.Errorf("uplink %d: %+v", i, u)
			}
		}
		if h := hook.headers[0]; h.Get("X-Tenant") != "acme" || h.Get("Content-Type") != "application/json" {
			t.Errorf("headers %v", h)
		}
		s = e.target(t, id)
		if s["delivered"].(float64) != 10 || s["queued"].(float64) != 0 || s["failures"].(float64) != 0 || s["lastSuccess"] == nil {
			t.Errorf("state %v", s)
		}
	})
}

// TestSendTest: the test call delivers a sample now and answers the
// outcome, also of a target that fails.
func TestSendTest(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite)
	hook := newReceiver(t, "another-secret")
	id := e.addWebhook(t, hook.srv.URL, "another-secret")
	r := e.Must(t, "acmeAdmin", "POST", "/api/forwarding/"+itoa(id)+"/test", nil, http.StatusOK).Obj()
	if r["ok"] != true || len(hook.uplinks()) != 1 || !hook.uplinks()[0].Test {
		t.Errorf("test %v, got %v", r, hook.uplinks())
	}
	hook.checks()
	hook.down.Store(true)
	r = e.Must(t, "acmeAdmin", "POST", "/api/forwarding/"+itoa(id)+"/test", nil, http.StatusOK).Obj()
	if r["ok"] != false || r["message"] != "HTTP 500: down for maintenance" || r["status"] != 500.0 {
		t.Errorf("failed test %v", r)
	}
}
