package scripts_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/scripts"
)

// dewPoint is the virtual sensor of the tests: the dew point (Magnus) of
// the trigger's temperature and humidity, written to the same node.
const dewPoint = `var t = trigger.values.temperature, h = trigger.values.humidity;
var g = Math.log(h / 100) + 17.62 * t / (243.12 + t);
var dp = Math.round(243.12 * g / (17.62 - g) * 100) / 100;
write(trigger.tagId, {dew_point: dp}, trigger.time);
return dp;`

// wantDewPoint is dewPoint of 20 °C and 50 %.
const wantDewPoint = 9.26

// env is a portal with the Devices fixture: acme and beta, each with a
// CompanyAdmin, an integration token and a node.
type env struct {
	*kerneltest.Devices
	p *kerneltest.Portal[*app.App]
}

func newEnv(t *testing.T, d db.Dialect) *env {
	t.Helper()
	p := kerneltest.Start(t, d, nil, app.Build)
	return &env{Devices: kerneltest.NewDevices(t, p.Client, p.App, p.App.Series()), p: p}
}

// post sends values of company's node through the generic route.
func (e *env) post(t *testing.T, company string, at time.Time, values map[string]any) {
	t.Helper()
	e.Must(t, company+"Ingest", "POST", "/api/ingest/generic", map[string]any{"devEui": e.EUI[company+"Node"],
		"time": at.UTC().Format(time.RFC3339Nano), "values": values}, http.StatusOK)
}

func (e *env) create(t *testing.T, company string, body map[string]any) int64 {
	t.Helper()
	return e.Must(t, company+"Admin", "POST", "/api/script/{"+company+"}", body, http.StatusCreated).Num("id")
}

// TestScriptValidationAndTenancy: SPEC's messages for the fields, and
// another company's scripts are out of reach.
func TestScriptValidationAndTenancy(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		for _, c := range []struct {
			name, field, want string
			body              map[string]any
		}{
			{"no name", "name", "This field must be filled in", map[string]any{"type": 1, "content": "return 1"}},
			{"no interval", "interval", "This field must be filled", map[string]any{"name": "Loop", "type": 0}},
			{"negative interval", "interval", "The minimum value for the interval is 0", map[string]any{"name": "Loop", "type": 0, "interval": -1}},
			{"bad type", "type", "", map[string]any{"name": "X", "type": 7}},
			{"triggered without node", "boundTag", "", map[string]any{"name": "X", "type": 2}},
			{"triggered on another company's node", "boundTag", "", map[string]any{"name": "X", "type": 2, "boundTag": e.ID(t, "{betaNode}")}},
		} {
			r := e.Must(t, "acmeAdmin", "POST", "/api/script/{acme}", c.body, http.StatusBadRequest)
			if got := r.FieldError(c.field); got == "" || c.want != "" && got != c.want {
				t.Errorf("%s: %s = %q (%s)", c.name, c.field, got, r.Body)
			}
		}
		id := e.create(t, "acme", map[string]any{"name": "Count", "type": 1, "interval": 0, "content": "return 41 + 1;"})
		got := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/script/%d", id), nil, http.StatusOK).Obj()
		for _, f := range []string{"name", "type", "interval", "lastRun", "enabled", "boundTag", "content"} {
			if _, ok := got[f]; !ok {
				t.Errorf("field %s missing: %v", f, got)
			}
		}
		e.Must(t, "acmeAdmin", "PUT", fmt.Sprintf("/api/script/%d", id), map[string]any{"name": "Answer"}, http.StatusOK)
		if list := e.Must(t, "acmeAdmin", "GET", "/api/script/company/{acme}", nil, http.StatusOK).List(); len(list) != 1 || list[0].(map[string]any)["name"] != "Answer" {
			t.Errorf("list: %v", list)
		}
		path := fmt.Sprintf("/api/script/%d", id)
		for _, c := range []struct{ who, method, path string }{
			{"betaAdmin", "GET", path}, {"betaAdmin", "PUT", path}, {"betaAdmin", "DELETE", path},
			{"betaAdmin", "GET", fmt.Sprintf("/api/script/run/%d", id)}, {"betaAdmin", "GET", fmt.Sprintf("/api/script/history/%d", id)},
			{"betaAdmin", "GET", "/api/script/company/{acme}"}, {"betaAdmin", "POST", "/api/script/test/{acme}"},
		} {
			e.Must(t, c.who, c.method, c.path, map[string]any{"name": "Hijacked", "content": "return 1"}, http.StatusNotFound)
		}
		e.Must(t, "acmeUser", "GET", "/api/script/company/{acme}", nil, http.StatusForbidden)
		if got := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/script/run/%d", id), nil, http.StatusOK).Obj(); got["result"] != 42.0 || got["valid"] != true {
			t.Errorf("run: %v", got)
		}
		runs := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/script/history/%d", id), nil, http.StatusOK).List()
		if len(runs) != 1 || runs[0].(map[string]any)["result"] != "42" {
			t.Errorf("history: %v", runs)
		}
		if got := e.Must(t, "acmeAdmin", "GET", path, nil, http.StatusOK).Obj(); got["lastRun"] == nil || got["lastResult"] != "42" {
			t.Errorf("after the run: %v", got)
		}
		e.Must(t, "acmeAdmin", "DELETE", path, nil, http.StatusNoContent)
		e.Must(t, "acmeAdmin", "GET", path, nil, http.StatusNotFound)
	})
}

// TestScriptTestHasNoSideEffects: the test call runs against the real
// data and answers the writes and sends without doing them; a script that
// does not parse or throws is invalid with the engine's message and line.
func TestScriptTestHasNoSideEffects(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		// An uplink's time to the microsecond, as network servers give it.
		at := time.Now().UTC().Add(-time.Minute).Truncate(time.Second).Add(123456 * time.Microsecond)
		e.post(t, "acme", at, map[string]any{"temperature": 20, "humidity": 50})
		content := dewPoint + "\n" // the return is the last line: sends after it would not run
		content = strings.Replace(content, "return dp;", `mail("ops@acme.example", "Dew point", "dp " + dp);
sms("46701234567", "dp " + dp);
notify("Dew point " + dp);
downlink(trigger.tagId, {port: 2, payload: "01"});
var last = latest(trigger.tagId, "temperature");
console.log("temperature", last.value);
return dp;`, 1)
		got := e.Must(t, "acmeAdmin", "POST", "/api/script/test/{acme}", map[string]any{"content": content, "boundTag": e.ID(t, "{acmeNode}")}, http.StatusOK).Obj()
		if got["valid"] != true || got["result"] != wantDewPoint {
			t.Fatalf("test: %v", got)
		}
		var kinds []string
		for _, a := range got["actions"].([]any) {
			kinds = append(kinds, a.(map[string]any)["kind"].(string))
		}
		if strings.Join(kinds, ",") != "write,mail,sms,notify,downlink" {
			t.Errorf("recorded actions: %v", kinds)
		}
		if log := fmt.Sprint(got["log"]); !strings.Contains(log, "temperature 20") {
			t.Errorf("log: %s", log)
		}
		if _, ok := e.Latest(t, "acme", "dew_point"); ok {
			t.Error("the test wrote dew_point")
		}
		if dl := e.Must(t, "acmeAdmin", "GET", "/api/downlink/tag/{acmeNode}", nil, http.StatusOK).List(); len(dl) != 0 {
			t.Errorf("the test queued downlinks: %v", dl)
		}

		for _, c := range []struct {
			content string
			line    float64
			part    string
		}{
			{"var a = 1;\nreturn a +;", 2, "SyntaxError"},
			{"\n\nthrow new Error('broken sensor');", 3, "broken sensor"},
			{"return latest(999999, 'x');", 0, "not found"},
		} {
			got := e.Must(t, "acmeAdmin", "POST", "/api/script/test/{acme}", map[string]any{"content": c.content}, http.StatusOK).Obj()
			if got["valid"] != false || got["line"] != nil && got["line"] != c.line || c.line != 0 && got["line"] != c.line || !strings.Contains(fmt.Sprint(got["error"]), c.part) {
				t.Errorf("%q: %v", c.content, got)
			}
		}
		// Another company's node is not reachable.
		got = e.Must(t, "acmeAdmin", "POST", "/api/script/test/{acme}", map[string]any{"content": fmt.Sprintf("return latest(%d, 'temperature');", e.ID(t, "{betaNode}"))}, http.StatusOK).Obj()
		if got["valid"] != false {
			t.Errorf("read another company's node: %v", got)
		}
	})
}

// TestTriggeredDewPoint: a triggered script bound to a node writes
// dew_point from each uplink's temperature and humidity; the value is
// stored, is the node's latest data and reaches alarms and the live feed as
// an uplink's do (the ingest's UplinkReceived).
func TestTriggeredDewPoint(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		rec := kerneltest.Record(e.p.Host().Bus, ingest.UplinkReceived{}.Topic())
		id := e.create(t, "acme", map[string]any{"name": "Dew point", "type": scripts.TypeTriggered, "interval": 0,
			"boundTag": e.ID(t, "{acmeNode}"), "enabled": true, "content": dewPoint})
		// An uplink's time to the microsecond, as network servers give it.
		at := time.Now().UTC().Add(-time.Minute).Truncate(time.Second).Add(123456 * time.Microsecond)
		e.post(t, "acme", at, map[string]any{"temperature": 20, "humidity": 50})
		kerneltest.WaitFor(t, 10*time.Second, func() bool {
			p, ok := e.Latest(t, "acme", "dew_point")
			return ok && p.Value == wantDewPoint && p.Time.Equal(at)
		}, func() string {
			return fmt.Sprint(e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/script/%d", id), nil, http.StatusOK).Obj())
		})
		// The live feed and the alarms hear of it as of an uplink.
		kerneltest.WaitFor(t, 5*time.Second, func() bool {
			for _, ev := range rec.Events() {
				if u := ev.(ingest.UplinkReceived); u.Source == ingest.SourceScript && u.Data["dew_point"] == wantDewPoint {
					return true
				}
			}
			return false
		}, func() string { return fmt.Sprintf("events: %v", rec.Events()) })
		// Written at the uplink's very time, the value joins the node's
		// latest data (a Date in the script keeps milliseconds only, so the
		// trigger's time must reach the write as it is).
		node := fmt.Sprintf("/api/tag/%d", e.ID(t, "{acmeNode}"))
		kerneltest.WaitFor(t, 5*time.Second, func() bool {
			data, _ := e.Must(t, "acmeAdmin", "GET", node, nil, http.StatusOK).Obj()["data"].(map[string]any)
			return data["dew_point"] == wantDewPoint
		}, func() string { return fmt.Sprint(e.Must(t, "acmeAdmin", "GET", node, nil, http.StatusOK).Obj()) })
		// The key is registered in the step after the point's commit.
		kerneltest.WaitFor(t, 5*time.Second, func() bool {
			return e.Client.TagData(t, e.Tokens["acmeAdmin"], e.ID(t, "{acmeNode}"))["dew_point"] != nil
		}, func() string { return "dew_point is not a key of the node" })
		// The written value does not trigger the script again: one run.
		time.Sleep(200 * time.Millisecond)
		if runs := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/script/history/%d", id), nil, http.StatusOK).List(); len(runs) != 1 {
			t.Errorf("%d runs for one uplink", len(runs))
		}
		// A switched-off script runs no more.
		e.Must(t, "acmeAdmin", "PUT", fmt.Sprintf("/api/script/%d", id), map[string]any{"enabled": false}, http.StatusOK)
		e.post(t, "acme", at.Add(time.Second), map[string]any{"temperature": 10, "humidity": 50})
		time.Sleep(300 * time.Millisecond)
		if p, _ := e.Latest(t, "acme", "dew_point"); !p.Time.Equal(at) {
			t.Errorf("a disabled script wrote %v", p)
		}
	})
}

// TestHostileScripts: an endless loop, a memory bomb and a flood of writes
// are stopped within their limits, fail the run with the engine's message,
// and the ingest goes on; a script that keeps failing is switched off.
func TestHostileScripts(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		for _, c := range []struct{ name, content, part string }{
			{"endless loop", "for (;;) {}", "time limit"},
			{"memory bomb", "var a = []; for (;;) a.push(new Array(100000).fill(1));", "limit"},
			{"flood of writes", fmt.Sprintf("for (var i = 0; ; i++) write(%d, {n: i});", e.ID(t, "{acmeNode}")), "too many writes"},
			{"flood of mails", "for (;;) mail('a@acme.example', 's', 't');", "too many sends"},
		} {
			id := e.create(t, "acme", map[string]any{"name": c.name, "type": scripts.TypeInvoked, "enabled": true, "content": c.content})
			got := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/script/run/%d", id), nil, http.StatusOK).Obj()
			if got["valid"] != false || !strings.Contains(fmt.Sprint(got["error"]), c.part) {
				t.Errorf("%s: %v", c.name, got)
			}
		}
		if _, ok := e.Latest(t, "acme", "n"); ok {
			t.Error("the flood wrote values")
		}
		at := time.Now().UTC().Add(-time.Minute).Truncate(time.Second)
		e.post(t, "acme", at, map[string]any{"temperature": 1})
		if p, ok := e.Latest(t, "acme", "temperature"); !ok || p.Value != 1 {
			t.Errorf("ingest after the hostile scripts: %v %v", p, ok)
		}

		// Failing again and again switches a script off, with a log entry
		// and a notification to the company's administrators.
		id := e.create(t, "acme", map[string]any{"name": "Broken", "type": scripts.TypeInvoked, "enabled": true, "content": "throw new Error('no');"})
		for range scripts.FailuresToSwitchOff {
			e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/script/run/%d", id), nil, http.StatusOK)
		}
		got := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/script/%d", id), nil, http.StatusOK).Obj()
		if got["enabled"] != false || !strings.Contains(fmt.Sprint(got["lastError"]), "no") {
			t.Errorf("after %d failures: %v", scripts.FailuresToSwitchOff, got)
		}
		kerneltest.WaitFor(t, 10*time.Second, func() bool {
			entries := e.Must(t, "acmeAdmin", "GET", "/api/logs?companyId={acme}", nil, http.StatusOK).List()
			for _, x := range entries {
				if x.(map[string]any)["messageId"] == scripts.IDSwitchedOff {
					return true
				}
			}
			return false
		}, func() string { return "no log entry of the switch-off" })
		notes := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/notification/%d", userID(t, e, "acmeAdmin")), nil, http.StatusOK).List()
		if len(notes) == 0 || !strings.Contains(fmt.Sprint(notes), "Broken") {
			t.Errorf("notifications: %v", notes)
		}
	})
}

// userID is the id of a caller of the session.
func userID(t *testing.T, e *env, who string) int64 {
	t.Helper()
	return e.Must(t, who, "GET", "/api/users", nil, http.StatusOK).Num("userId")
}

// TestLoopingOnceAcrossInstances: a looping script runs once per interval
// with two instances on one PostgreSQL database.
func TestLoopingOnceAcrossInstances(t *testing.T) {
	t.Parallel()
	cfg := kerneltest.Config(t, db.Postgres, nil)
	a := kerneltest.StartConfig(t, cfg, app.Build)
	kerneltest.StartConfig(t, cfg, app.Build)
	e := &env{Devices: kerneltest.NewDevices(t, a.Client, a.App, a.App.Series()), p: a}
	const interval = 2
	id := e.create(t, "acme", map[string]any{"name": "Tick", "type": scripts.TypeLooping, "interval": interval, "enabled": true,
		"content": fmt.Sprintf("write(%d, {tick: 1}); return 1;", e.ID(t, "{acmeNode}"))})
	var runs []any
	kerneltest.WaitFor(t, 30*time.Second, func() bool {
		runs = e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/script/history/%d", id), nil, http.StatusOK).List()
		return len(runs) >= 3
	}, func() string { return fmt.Sprintf("runs: %v", runs) })
	for i := 1; i < len(runs); i++ {
		newer, _ := time.Parse(time.RFC3339Nano, runs[i-1].(map[string]any)["startedAt"].(string))
		older, _ := time.Parse(time.RFC3339Nano, runs[i].(map[string]any)["startedAt"].(string))
		if gap := newer.Sub(older); gap < interval*time.Second/2 {
			t.Errorf("two runs %v apart, interval %d s: %v", gap, interval, runs)
		}
		if runs[i].(map[string]any)["error"] != "" {
			t.Errorf("run failed: %v", runs[i])
		}
	}
}
