package forwarding_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/forwarding"
)

// TestTargetsRefuseBadInput: the API refuses what cannot be a target, with
// the catalog's message on the field, and lets only those who manage the
// company in.
func TestTargetsRefuseBadInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite)
	webhook := func(change map[string]any) map[string]any {
		b := map[string]any{"name": "Hook", "kind": "webhook", "url": "https://hooks.example.com/in", "secret": "0123456789"}
		for k, v := range change {
			b[k] = v
		}
		return b
	}
	mqtt := map[string]any{"name": "Broker", "kind": "mqtt", "url": "mqtt://broker.example.com", "topic": "up/{devEui}"}
	for _, tc := range []struct {
		name, field, message string
		body                 map[string]any
	}{
		{"no name", "name", "Enter a name of at most 255 characters", webhook(map[string]any{"name": " "})},
		{"a kind of its own", "kind", "Choose a webhook or MQTT", webhook(map[string]any{"kind": "ftp"})},
		{"an MQTT URL for a webhook", "url", "Enter an address such as https://example.com/hook (webhook) or mqtts://broker.example.com:8883 (MQTT)",
			webhook(map[string]any{"url": "mqtt://broker.example.com"})},
		{"no secret", "secret", "Enter a secret of 8 to 255 characters to sign the requests", webhook(map[string]any{"secret": ""})},
		{"a short secret", "secret", "Enter a secret of 8 to 255 characters to sign the requests", webhook(map[string]any{"secret": "short"})},
		{"the signature's header", "headers", "Headers need a valid name (not Content-Type, Host or the X-Fieldhub headers) and a value of at most 1024 characters; at most 20 headers",
			webhook(map[string]any{"headers": map[string]string{"X-Fieldhub-Signature": "forged"}})},
		{"a wildcard topic", "topic", "Enter a topic without + or #; devEui, applicationId, companyId, tagId and name in braces are filled in",
			map[string]any{"name": "Broker", "kind": "mqtt", "url": "mqtt://broker.example.com", "topic": "up/#"}},
	} {
		r := e.Call(t, "acmeAdmin", "POST", "/api/applications/{acmeApp}/forwarding", tc.body, "Accept-Language", "en")
		if r.Status != http.StatusBadRequest || r.FieldError(tc.field) != tc.message {
			t.Errorf("%s: %d %s; want 400 with %q on %s", tc.name, r.Status, r.Body, tc.message, tc.field)
		}
	}
	id := e.Must(t, "acmeAdmin", "POST", "/api/applications/{acmeApp}/forwarding", mqtt, http.StatusCreated).Num("id")
	if r := e.Call(t, "acmeUser", "GET", "/api/applications/{acmeApp}/forwarding", nil); r.Status != http.StatusForbidden {
		t.Errorf("a User lists targets: %d %s", r.Status, r.Body)
	}
	if r := e.Call(t, "betaAdmin", "DELETE", fmt.Sprintf("/api/forwarding/%d", id), nil); r.Status != http.StatusNotFound {
		t.Errorf("another company deletes a target: %d %s", r.Status, r.Body)
	}
	got := e.Must(t, "acmeAdmin", "PUT", fmt.Sprintf("/api/forwarding/%d", id), map[string]any{"password": "pw", "enabled": false}, http.StatusOK).Obj()
	if got["hasPassword"] != true || got["enabled"] != false || strings.Contains(fmt.Sprint(got), "pw ") {
		t.Errorf("changed %v", got)
	}
	e.Must(t, "acmeAdmin", "DELETE", fmt.Sprintf("/api/forwarding/%d", id), nil, http.StatusNoContent)
	if list := e.Must(t, "acmeAdmin", "GET", "/api/applications/{acmeApp}/forwarding", nil, http.StatusOK).List(); len(list) != 0 {
		t.Errorf("after delete %v", list)
	}
	// The audit trail has the three changes, the password masked.
	kerneltest.WaitFor(t, 30*time.Second, func() bool {
		var rows []struct {
			MessageID string `bun:"message_id"`
			Data      string `bun:"data"`
		}
		err := e.p.Host().DB.NewSelect().Table("log_entries").Column("message_id", "data").Where("company_id = ? AND message_id LIKE 'audit.forwarding.%'", e.ID(t, "{acme}")).
			Order("id").Scan(t.Context(), &rows)
		return err == nil && len(rows) == 3 && rows[0].MessageID == forwarding.IDAuditCreated && rows[1].MessageID == forwarding.IDAuditEdited &&
			strings.Contains(rows[1].Data, "••••••") && !strings.Contains(rows[1].Data, `"pw"`) && rows[2].MessageID == forwarding.IDAuditDeleted
	}, func() string { return "the audit trail lacks the target's changes" })
}

// TestPrivateAddressesNeedTheInstallationsConsent: without
// FIELDHUB_OUTBOUND_PRIVATE a loopback or private target is refused, as
// The Things Stack's downlink URLs are.
func TestPrivateAddressesNeedTheInstallationsConsent(t *testing.T) {
	t.Parallel()
	p := kerneltest.Start(t, db.SQLite, nil, app.Build)
	dev := kerneltest.NewDevices(t, p.Client, p.App, p.App.Series())
	for _, u := range []string{"http://127.0.0.1:8080/in", "https://10.1.2.3/in", "http://localhost/in", "mqtt://[::1]:1883", "mqtt://169.254.169.254"} {
		kind := "webhook"
		if strings.HasPrefix(u, "mqtt") {
			kind = "mqtt"
		}
		r := dev.Call(t, "acmeAdmin", "POST", "/api/applications/{acmeApp}/forwarding", map[string]any{"name": "Inside", "kind": kind, "url": u,
			"secret": "0123456789", "topic": "t"}, "Accept-Language", "en")
		if r.Status != http.StatusBadRequest || r.FieldError("url") != "This address is in a private, loopback or link-local network, which the portal does not send to" {
			t.Errorf("%s: %d %s", u, r.Status, r.Body)
		}
	}
}

// TestTargetSwitchedOffAfterFailures: forwarding.MaxFailures failures in
// a row switch the target off and notify the company's administrators;
// the queue is kept, and switching the target on again delivers it.
func TestTargetSwitchedOffAfterFailures(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		hook := newReceiver(t, "failing-secret")
		hook.down.Store(true)
		id := e.addWebhook(t, hook.srv.URL, "failing-secret")
		e.Uplink(t, "acme", time.Now().Add(-time.Minute), 1, []byte{1})
		for n := 1; n <= forwarding.MaxFailures; n++ {
			kerneltest.WaitFor(t, 30*time.Second, func() bool { return e.target(t, id)["failures"].(float64) >= float64(n) },
				func() string { return fmt.Sprintf("failure %d did not come: %v", n, e.target(t, id)) })
			e.due(t)
		}
		s := e.target(t, id)
		if s["enabled"] != false || s["disabledReason"] != forwarding.DisabledFailures || s["queued"].(float64) != 1 || len(s["lastErrors"].([]any)) != forwarding.LastErrors {
			t.Fatalf("after %d failures: %v", forwarding.MaxFailures, s)
		}
		var labels []string
		if err := e.p.Host().DB.NewSelect().Table("notifications").Column("label").Where("company_id = ?", e.ID(t, "{acme}")).
			Scan(t.Context(), &labels); err != nil {
			t.Fatal(err)
		}
		if len(labels) == 0 || labels[0] != "Forwarding to Warehouse switched off" {
			t.Errorf("notifications %v", labels)
		}
		// The company's log has an error entry of it.
		kerneltest.WaitFor(t, 30*time.Second, func() bool {
			n, err := e.p.Host().DB.NewSelect().Table("log_entries").Where("company_id = ? AND message_id = ? AND type = ?",
				e.ID(t, "{acme}"), "logs.entry.forwarding.off", "ERROR").Count(t.Context())
			return err == nil && n == 1
		}, func() string { return "no log entry of the switch-off" })
		hook.down.Store(false)
		e.Must(t, "acmeAdmin", "PUT", fmt.Sprintf("/api/forwarding/%d", id), map[string]any{"enabled": true}, http.StatusOK)
		hook.wait(1)
		kerneltest.WaitFor(t, 30*time.Second, func() bool {
			s := e.target(t, id)
			return s["delivered"].(float64) == 1 && s["failures"].(float64) == 0
		},
			func() string { return fmt.Sprint(e.target(t, id)) })
	})
}
