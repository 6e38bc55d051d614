package alarms_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestRules checks the rule calls of SPEC.md section 7: validation with
// SPEC's messages, list, read, update, copy, the status toggle, delete, and
// who may do what.
func TestRules(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		tag := e.ID(t, "{acmeNode}")
		refusals := []struct {
			name, field, message string
			change               map[string]any
		}{
			{"no name", "name", "This field must be filled in", map[string]any{"name": "  "}},
			{"a long name", "name", "Max characters is 255", map[string]any{"name": strings.Repeat("n", 256)}},
			{"no key", "tagDataKey", "This field must be filled in", map[string]any{"tagDataKey": ""}},
			{"a phone without country code", "alarmContacts", "Don't forget that the phone number must have country code (e.g. 4607xxxxxxxx)",
				map[string]any{"alarmContacts": []string{"070-123 45 67"}}},
			{"no contacts", "alarmContacts", "This field must be filled in", map[string]any{"alarmContacts": []string{}}},
			{"no limit", "limitHigh", "This field must be filled in", map[string]any{"limitHigh": nil}},
			{"limits the wrong way round", "limitLow", "The low limit must be below the high limit", map[string]any{"limitLow": 20.0}},
			{"a digital rule without a trigger", "triggerHigh", "Choose to trigger on high, on low, or both (on change)", map[string]any{"signalType": 1}},
			{"a priority of D", "priority", "Choose priority A, B or C", map[string]any{"priority": 3}},
			{"SMS only by e-mail", "contactType", "This priority sends nothing by this contact type", map[string]any{"priority": 1, "contactType": 1}},
			{"a day 7", "activeDays", "Days are 0 (Sunday) to 6 (Saturday)", map[string]any{"activeDays": []int{1, 7}}},
			{"another company's node", "tag", "Choose one of the company's nodes", map[string]any{"tag": e.ID(t, "{betaNode}")}},
			{"escalation without contacts", "escalationContacts", "This field must be filled in", map[string]any{"advanced": true, "escalateAfter": 5}},
		}
		for _, tc := range refusals {
			t.Run("refuses "+tc.name, func(t *testing.T) {
				body := rule("Refused", tc.change)
				body["tag"] = tag
				if v, ok := tc.change["tag"]; ok {
					body["tag"] = v
				}
				r := e.Call(t, "acmeAdmin", "POST", "/api/companies/{acme}/alarm", body, "Accept-Language", "en")
				if r.Status != http.StatusBadRequest || r.FieldError(tc.field) != tc.message {
					t.Errorf("%d %s; want 400 with %q on %s", r.Status, r.Body, tc.message, tc.field)
				}
			})
		}
		id := e.create(t, rule("Cold room", map[string]any{"alarmContacts": []string{"+46 70-111 22 33", "ops@acme.se"}}))
		path := fmt.Sprintf("/api/alarms/%d", id)
		got := e.Must(t, "acmeUser", "GET", path, nil, http.StatusOK).Obj()
		if got["name"] != "Cold room" || got["tagName"] != "Node acme" || got["active"] != true || got["triggered"] != false ||
			fmt.Sprint(got["alarmContacts"]) != "[46701112233 ops@acme.se]" || fmt.Sprint(got["activeDays"]) != "[0 1 2 3 4 5 6]" {
			t.Errorf("rule %v", got)
		}
		e.Must(t, "betaAdmin", "GET", path, nil, http.StatusNotFound)
		e.Must(t, "acmeUser", "POST", "/api/companies/{acme}/alarm", rule("By a User", map[string]any{"tag": tag}), http.StatusForbidden)
		e.Must(t, "acmeUser", "POST", fmt.Sprintf("/api/alarms/active/%d/status", id), nil, http.StatusForbidden)

		upd := rule("Cold room 2", map[string]any{"tag": tag, "limitHigh": nil, "limitLow": -18.0, "activeDays": []int{1, 2, 3}})
		r := e.Must(t, "acmeAdmin", "PUT", fmt.Sprintf("/api/companies/{acme}/alarm/%d", id), upd, http.StatusOK).Obj()
		if r["name"] != "Cold room 2" || r["limitHigh"] != nil || r["limitLow"] != -18.0 {
			t.Errorf("updated %v", r)
		}
		e.Must(t, "betaAdmin", "PUT", fmt.Sprintf("/api/companies/{beta}/alarm/%d", id), upd, http.StatusNotFound)

		if r := e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/alarms/active/%d/status", id), nil, http.StatusOK).Obj(); r["active"] != false {
			t.Errorf("toggled %v", r)
		}
		if r := e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/alarms/active/%d/status", id), map[string]any{"active": true}, http.StatusOK).Obj(); r["active"] != true {
			t.Errorf("set %v", r)
		}
		cp := e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/alarms/copy/%d", id), nil, http.StatusCreated).Obj()
		if cp["name"] != "Cold room 2 (copy)" || cp["active"] != false || cp["limitLow"] != -18.0 || cp["id"] == got["id"] {
			t.Errorf("copy %v", cp)
		}
		list := e.Must(t, "acmeUser", "GET", "/api/companies/{acme}/alarm", nil, http.StatusOK).List()
		if len(list) != 2 {
			t.Errorf("list %v", list)
		}
		if l := e.Must(t, "betaAdmin", "GET", "/api/companies/{beta}/alarm", nil, http.StatusOK).List(); len(l) != 0 {
			t.Errorf("beta sees %v", l)
		}
		e.Must(t, "betaAdmin", "GET", "/api/companies/{acme}/alarm", nil, http.StatusNotFound)
		e.Must(t, "acmeAdmin", "GET", "/api/alarms/active/all", nil, http.StatusForbidden)
		e.Must(t, "super", "GET", "/api/alarms/active/all", nil, http.StatusOK)
		e.Must(t, "acmeUser", "DELETE", path, nil, http.StatusForbidden)
		e.Must(t, "acmeAdmin", "DELETE", path, nil, http.StatusNoContent)
		e.Must(t, "acmeAdmin", "GET", path, nil, http.StatusNotFound)
	})
}

// TestSettingTest checks POST /alarms/setting/test: the mail reaches the
// SMTP server, and the SMS says plainly that no provider is configured.
func TestSettingTest(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		r := e.Must(t, "acmeAdmin", "POST", "/api/alarms/setting/test", map[string]any{"name": "Trial", "priority": 0,
			"contactType": 2, "alarmContacts": []string{"trial@acme.se", "46701112233"}, "message": "{alarm} on {node}"}, http.StatusOK).Obj()
		mail, _ := r["email"].(map[string]any)
		sms, _ := r["sms"].(map[string]any)
		if mail["status"] != "sent" || sms["status"] != "failed" || sms["error"] != "alarms.test.noProvider" || r["message"] != "Test message: Trial on Test node" {
			t.Errorf("answer %v", r)
		}
		if m := e.inbox.Wait(t, "trial@acme.se", 10*time.Second); m.Subject != "Test: Trial" {
			t.Errorf("mail %+v", m)
		}
		r = e.Must(t, "acmeAdmin", "POST", "/api/alarms/setting/test", map[string]any{"priority": 2, "contactType": 2,
			"alarmContacts": []string{"46701112233"}}, http.StatusOK).Obj()
		if m, _ := r["email"].(map[string]any); m["status"] != "skipped" || m["error"] != "alarms.test.noContact" {
			t.Errorf("e-mail only without an address: %v", r)
		}
		if s, _ := r["sms"].(map[string]any); s["status"] != "skipped" || s["error"] != "alarms.test.notChannel" {
			t.Errorf("priority C and SMS: %v", r)
		}
		e.Must(t, "acmeUser", "POST", "/api/alarms/setting/test", map[string]any{"alarmContacts": []string{"x@acme.se"}}, http.StatusForbidden)
		e.Must(t, "acmeAdmin", "POST", "/api/alarms/setting/test", map[string]any{"alarmContacts": []string{}}, http.StatusBadRequest)
	})
}
