package alarms_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
)

// TestDashboardAlarmState checks what a dashboard module naming an alarm
// (its alarm_id) reads of it, signed in and through a public link: the
// rule's status and its open firing's value and time until a user
// acknowledges it, nothing else of the rule; another company's alarm is
// refused when saved and not shown when read.
func TestDashboardAlarmState(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite)
	id := e.create(t, rule("Freezer", nil))
	foreign := e.Must(t, "betaAdmin", "POST", "/api/companies/{beta}/alarm", merge(rule("Theirs", nil), map[string]any{"tag": e.ID(t, "{betaNode}")}),
		http.StatusCreated).Num("id")

	board := e.Must(t, "acmeAdmin", "POST", "/api/dashboards", map[string]any{"name": "Cold room"}, http.StatusCreated).Num("dashboardId")
	module := func(alarmID int64) map[string]any {
		return map[string]any{"type": 8, "tag": e.eui["acmeNode"], "attributes": map[string]any{"tagkey": "temperature", "alarm_id": fmt.Sprint(alarmID)}}
	}
	r := e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/dashboards/%d/modules", board), module(foreign), http.StatusBadRequest)
	if r.FieldError("attributes.alarm_id") == "" {
		t.Errorf("another company's alarm refused without naming the field: %s", r.Body)
	}
	mod := e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/dashboards/%d/modules", board), module(id), http.StatusCreated).Num("dashboardModuleId")
	link := e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/dashboards/public/{acme}/%d/%s", board, time.Now().Add(time.Hour).UTC().Format(time.RFC3339)),
		nil, http.StatusCreated).Str("token")

	state := func(who, path string) map[string]any {
		t.Helper()
		a, _ := e.Must(t, who, "GET", path, nil, http.StatusOK).Obj()["alarm"].(map[string]any)
		return a
	}
	signedIn := fmt.Sprintf("/api/dashboards/modules/%d/alarm", mod)
	public := fmt.Sprintf("/api/dashboards/public/%s/modules/%d/alarm", link, mod)
	if a := state("acmeUser", signedIn); a["active"] != true || a["firing"] != false || a["value"] != nil {
		t.Errorf("before a firing: %v", a)
	}

	t0 := recent(1)
	e.uplink(t, "acme", t0, map[string]any{"temperature": 12.0})
	e.uplink(t, "acme", t0.Add(3*time.Minute), map[string]any{"temperature": 13.0})
	ev := int64(e.history(t, id, 1)[0]["id"].(float64))
	for _, path := range []string{signedIn, public} {
		a := state("acmeUser", path)
		if a["firing"] != true || a["value"] != 13.0 || a["triggered"] == nil {
			t.Errorf("%s while firing: %v", path, a)
		}
		// Nothing of the rule beyond its state.
		for k := range a {
			if k != "alarmId" && k != "active" && k != "firing" && k != "value" && k != "triggered" {
				t.Errorf("%s shows %q of the rule", path, k)
			}
		}
	}
	e.Must(t, "acmeUser", "POST", fmt.Sprintf("/api/alarms/history/%d/reset", ev), nil, http.StatusOK)
	e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/alarms/active/%d/status", id), nil, http.StatusOK)
	if a := state("", public); a["active"] != false || a["firing"] != false {
		t.Errorf("after the acknowledgement and the toggle: %v", a)
	}

	// A module whose alarm_id names another company's alarm (written
	// before the check, or the alarm moved) shows no state.
	attrs := fmt.Sprintf(`{"tagkey":"temperature","alarm_id":"%d"}`, foreign)
	if _, err := e.p.Host().DB.NewUpdate().Table("dashboard_modules").Set("attributes = ?", attrs).Where("id = ?", mod).Exec(t.Context()); err != nil {
		t.Fatal(err)
	}
	if a := state("acmeUser", signedIn); a != nil {
		t.Errorf("another company's alarm shown: %v", a)
	}
}
