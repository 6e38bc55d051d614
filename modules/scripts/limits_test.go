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
	"github.com/fieldhub/fieldhub/modules/scripts"
)

// minuteNow is the minute of the clock the per-minute limits count in.
func minuteNow() int64 { return time.Now().Unix() / 60 }

// withinOneMinute runs try, which counts against the per-minute limits,
// until one attempt started and ended in the same minute of the clock (a
// new minute starts the counts over), and fails the test with the
// problems that attempt found. try stops at its first problem.
func withinOneMinute(t *testing.T, try func(attempt int) error) {
	t.Helper()
	for attempt := range 3 {
		start := minuteNow()
		err := try(attempt)
		if minuteNow() == start {
			if err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Logf("attempt %d crossed a minute, so its counts started over; again", attempt)
	}
	t.Fatal("three attempts crossed a minute")
}

// TestFloodingScriptSwitchedOffOthersGoOn: a script that writes as much
// as it can is refused past its own limit a minute and switched off, while
// another script of the company keeps writing and the ingest goes on.
func TestFloodingScriptSwitchedOffOthersGoOn(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		node := e.ID(t, "{acmeNode}")
		steady := e.create(t, "acme", map[string]any{"name": "Steady", "type": scripts.TypeInvoked, "enabled": true,
			"content": fmt.Sprintf("write(%d, {steady: 7}); return 7;", node)})
		withinOneMinute(t, func(attempt int) error {
			flood := e.create(t, "acme", map[string]any{"name": fmt.Sprintf("Flood %d", attempt), "type": scripts.TypeInvoked, "enabled": true,
				"content": fmt.Sprintf("for (var i = 0; i < %d; i++) write(%d, {flood: i}); return 1;", scripts.MaxWritesPerRun, node)})
			path := fmt.Sprintf("/api/script/%d", flood)
			runs := scripts.MaxScriptWritesPerMinute/scripts.MaxWritesPerRun + scripts.FailuresToSwitchOff
			var last map[string]any
			for i := range runs {
				last = e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/script/run/%d", flood), nil, http.StatusOK).Obj()
				if wantValid := i < scripts.MaxScriptWritesPerMinute/scripts.MaxWritesPerRun; last["valid"] != wantValid {
					return fmt.Errorf("run %d of the flood: %v", i+1, last)
				}
			}
			if !strings.Contains(fmt.Sprint(last["error"]), "the most one script may") {
				return fmt.Errorf("the flood's refusal: %v", last)
			}
			if got := e.Must(t, "acmeAdmin", "GET", path, nil, http.StatusOK).Obj(); got["enabled"] != false {
				return fmt.Errorf("the flood is still on after %d runs: %v", runs, got)
			}
			// The other script of the company writes on.
			got := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/script/run/%d", steady), nil, http.StatusOK).Obj()
			if got["valid"] != true || got["result"] != 7.0 {
				return fmt.Errorf("the steady script beside the flood: %v", got)
			}
			return nil
		})
		if p, ok := e.Latest(t, "acme", "steady"); !ok || p.Value != 7 {
			t.Errorf("steady = %v %v", p, ok)
		}
		if got := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/script/%d", steady), nil, http.StatusOK).Obj(); got["enabled"] != true || got["failures"] != 0.0 {
			t.Errorf("the steady script: %v", got)
		}
		at := time.Now().UTC().Add(-time.Minute).Truncate(time.Second)
		e.post(t, "acme", at, map[string]any{"temperature": 3})
		if p, ok := e.Latest(t, "acme", "temperature"); !ok || p.Value != 3 {
			t.Errorf("ingest after the flood: %v %v", p, ok)
		}
	})
}

// TestSendLimitSharedAcrossInstances: two instances on one PostgreSQL
// count the company's sends together (MaxCompanySendsPerMinute in all,
// not per instance). A send past the company's ceiling is refused without
// being held against the script; one past the script's own limit is the
// script's failure.
func TestSendLimitSharedAcrossInstances(t *testing.T) {
	t.Parallel()
	cfg := kerneltest.Config(t, db.Postgres, nil)
	a := kerneltest.StartConfig(t, cfg, app.Build)
	b := kerneltest.StartConfig(t, cfg, app.Build)
	e := &env{Devices: kerneltest.NewDevices(t, a.Client, a.App, a.App.Series()), p: a}
	token := e.Tokens["acmeAdmin"]
	instances := []*kerneltest.Client{a.Client, b.Client}
	content := fmt.Sprintf("for (var i = 0; i < %d; i++) notify('Level ' + i); return 1;", scripts.MaxSendsPerRun)
	// Each script sends its own limit, half on each instance, until the
	// company's ceiling is reached.
	perScript := scripts.MaxScriptSendsPerMinute / scripts.MaxSendsPerRun
	senders := scripts.MaxCompanySendsPerMinute / scripts.MaxScriptSendsPerMinute
	run := func(c *kerneltest.Client, id int64) map[string]any {
		return c.Must(t, "GET", fmt.Sprintf("/api/script/run/%d", id), token, nil, http.StatusOK).Obj()
	}
	withinOneMinute(t, func(attempt int) error {
		var ids []int64
		for i := range senders + 1 {
			ids = append(ids, e.create(t, "acme", map[string]any{"name": fmt.Sprintf("Sender %d.%d", attempt, i), "type": scripts.TypeInvoked,
				"enabled": true, "content": content}))
		}
		for _, id := range ids[:senders] {
			for k := range perScript {
				if got := run(instances[k%2], id); got["valid"] != true {
					return fmt.Errorf("send %d of script %d, within the limits: %v", k+1, id, got)
				}
			}
		}
		// The company's ceiling: on either instance, not the script's fault.
		last := ids[senders]
		for _, c := range instances {
			got := run(c, last)
			if got["valid"] != false || !strings.Contains(fmt.Sprint(got["error"]), "not the script's fault") {
				return fmt.Errorf("a send past the company's ceiling: %v", got)
			}
		}
		if got := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/script/%d", last), nil, http.StatusOK).Obj(); got["failures"] != 0.0 || got["enabled"] != true {
			return fmt.Errorf("the script refused by the company's ceiling: %v", got)
		}
		// The script's own limit: its failure.
		got := run(b.Client, ids[0])
		if got["valid"] != false || !strings.Contains(fmt.Sprint(got["error"]), "the most one script may") {
			return fmt.Errorf("a send past the script's own limit: %v", got)
		}
		if got := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/script/%d", ids[0]), nil, http.StatusOK).Obj(); got["failures"] != 1.0 {
			return fmt.Errorf("the script past its own limit: %v", got)
		}
		return nil
	})
	kerneltest.WaitFor(t, 10*time.Second, func() bool {
		for _, x := range e.Must(t, "acmeAdmin", "GET", "/api/logs?companyId={acme}", nil, http.StatusOK).List() {
			if x.(map[string]any)["messageId"] == scripts.IDCompanySends {
				return true
			}
		}
		return false
	}, func() string { return "no log entry of the company's ceiling" })
}
