package alarms_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// cluster is two portals on one database: the fixture is made through the
// first, and the second serves the same data.
type cluster struct {
	*env
	b *kerneltest.Portal[*app.App]
}

func newCluster(t *testing.T, d db.Dialect) *cluster {
	t.Helper()
	smtpURL, inbox := kerneltest.StartSMTP(t)
	vars := map[string]string{"SMTP_URL": smtpURL}
	for k, v := range quiet {
		vars[k] = v
	}
	cfg := kerneltest.Config(t, d, vars)
	a := kerneltest.StartConfig(t, cfg, app.Build)
	b := kerneltest.StartConfig(t, cfg, app.Build)
	dev := kerneltest.NewDevices(t, a.Client, a.App, a.App.Series())
	return &cluster{env: &env{Session: dev.Session, p: a, inbox: inbox, eui: dev.EUI}, b: b}
}

// both runs f on both instances at once.
func (c *cluster) both(t *testing.T, f func(p *kerneltest.Portal[*app.App]) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, p := range []*kerneltest.Portal[*app.App]{c.p, c.b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = f(p)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestTwoInstancesFireOnce checks that a rule fires once when its uplinks
// arrive at both instances and both sweep at once.
func TestTwoInstancesFireOnce(t *testing.T) {
	t.Parallel()
	c := newCluster(t, db.Postgres)
	id := c.create(t, rule("Shared", nil))
	t0 := recent(1)
	tok := c.Tokens["acmeIngest"]
	for i, p := range []*kerneltest.Portal[*app.App]{c.p, c.b, c.p, c.b} {
		p.Must(t, "POST", "/api/ingest/generic", tok, map[string]any{"devEui": c.eui["acmeNode"],
			"time": t0.Add(time.Duration(i) * 30 * time.Second).Format(time.RFC3339), "values": map[string]any{"temperature": 20.0}}, http.StatusOK)
	}
	c.evaluated(t, id, t0.Add(90*time.Second))
	for range 3 {
		c.both(t, func(p *kerneltest.Portal[*app.App]) error {
			return p.App.Alarms().Sweep(context.Background(), t0.Add(5*time.Minute))
		})
	}
	if n := c.count(t, "alarm_events", "alarm_id = ?", id); n != 1 {
		t.Errorf("%d firings, want 1", n)
	}
	if n := c.count(t, "mail_outbox", "subject = ?", "Alarm: Shared"); n != 1 {
		t.Errorf("%d mails, want 1", n)
	}
}

// TestInactivity checks the inactivity job: three silent nodes give three
// mails to the company's inactivity contact, once each with two instances
// (on one database of each kind) scanning at once and again later; a node
// that speaks and falls silent again gives one more.
func TestInactivity(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		inactivity(t, newCluster(t, d))
	})
}

func inactivity(t *testing.T, c *cluster) {
	c.Must(t, "acmeAdmin", "PUT", "/api/settings/company/{acme}", map[string]any{"INACTIVITY_EMAIL": "night@acme.se"}, http.StatusOK)
	euis := []string{c.eui["acmeNode"], "70B3D57ED00000A1", "70B3D57ED00000A2"}
	for i, eui := range euis[1:] {
		c.Must(t, "acmeAdmin", "POST", "/api/applications/{acmeApp}/tag", map[string]any{"name": "Silent " + string(rune('A'+i)), "deveui": eui}, http.StatusCreated)
	}
	now := time.Now().UTC()
	post := func(eui string, at time.Time) {
		c.Must(t, "acmeIngest", "POST", "/api/ingest/generic", map[string]any{"devEui": eui, "time": at.Format(time.RFC3339Nano),
			"values": map[string]any{"temperature": 1.0}}, http.StatusOK)
	}
	for _, eui := range euis {
		post(eui, now.Add(-time.Hour))
	}
	// beta's node, silent as well, has no inactivity contact: no mail.
	c.Must(t, "betaIngest", "POST", "/api/ingest/generic", map[string]any{"devEui": c.eui["betaNode"], "time": now.Add(-time.Hour).Format(time.RFC3339Nano),
		"values": map[string]any{"temperature": 1.0}}, http.StatusOK)
	mails := func() int64 { return c.count(t, "mail_outbox", "subject LIKE ?", "Inactive node: %") }
	scan := func(at time.Time) {
		t.Helper()
		c.both(t, func(p *kerneltest.Portal[*app.App]) error {
			return p.App.Alarms().ScanInactivity(context.Background(), at)
		})
	}
	scan(now.Add(4 * time.Hour))
	if n := mails(); n != 0 {
		t.Fatalf("%d mails after 5 silent hours", n)
	}
	scan(now.Add(5*time.Hour + time.Minute))
	scan(now.Add(6 * time.Hour))
	if n := mails(); n != 3 {
		t.Fatalf("%d mails, want 3", n)
	}
	c.inbox.Wait(t, "night@acme.se", 10*time.Second)
	post(euis[1], now)
	scan(now.Add(7 * time.Hour))
	scan(now.Add(8 * time.Hour))
	if n := mails(); n != 4 {
		t.Errorf("%d mails after one node spoke and fell silent again, want 4", n)
	}
}

// TestInactivitySummary checks that a company with more than 10 newly
// silent nodes gets one mail listing them, once, with two instances
// scanning (docs/decisions.md, "Inactivity mails").
func TestInactivitySummary(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		c := newCluster(t, d)
		c.Must(t, "acmeAdmin", "PUT", "/api/settings/company/{acme}", map[string]any{"INACTIVITY_EMAIL": "night@acme.se"}, http.StatusOK)
		euis := []string{c.eui["acmeNode"]}
		for i := range 11 {
			eui := fmt.Sprintf("70B3D57ED00000B%X", i)
			c.Must(t, "acmeAdmin", "POST", "/api/applications/{acmeApp}/tag", map[string]any{"name": fmt.Sprintf("Field %d", i), "deveui": eui}, http.StatusCreated)
			euis = append(euis, eui)
		}
		now := time.Now().UTC()
		for _, eui := range euis {
			c.Must(t, "acmeIngest", "POST", "/api/ingest/generic", map[string]any{"devEui": eui, "time": now.Add(-time.Hour).Format(time.RFC3339Nano),
				"values": map[string]any{"temperature": 1.0}}, http.StatusOK)
		}
		for range 2 {
			c.both(t, func(p *kerneltest.Portal[*app.App]) error {
				return p.App.Alarms().ScanInactivity(context.Background(), now.Add(6*time.Hour))
			})
		}
		if n := c.count(t, "mail_outbox", "subject LIKE ?", "Inactive node%"); n != 1 {
			t.Fatalf("%d inactivity mails for 12 silent nodes, want one listing them", n)
		}
		if n := c.count(t, "mail_outbox", "subject = ?", "Inactive nodes: 12"); n != 1 {
			t.Errorf("the mail is not the summary of 12 nodes")
		}
		c.inbox.Wait(t, "night@acme.se", 10*time.Second)
	})
}

// TestCatchUpAfterRestart checks that an uplink stored just before a crash,
// whose announcement never reached the evaluation, is evaluated when the
// portal starts again: from the node's stored state.
func TestCatchUpAfterRestart(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		smtpURL, inbox := kerneltest.StartSMTP(t)
		vars := map[string]string{"SMTP_URL": smtpURL}
		for k, v := range quiet {
			vars[k] = v
		}
		cfg := kerneltest.Config(t, d, vars)
		a := kerneltest.StartConfig(t, cfg, app.Build)
		dev := kerneltest.NewDevices(t, a.Client, a.App, a.App.Series())
		e := &env{Session: dev.Session, p: a, inbox: inbox, eui: dev.EUI}
		id := e.create(t, rule("Restart", map[string]any{"alarmDelay": 0}))
		t0 := time.Now().UTC().Add(-time.Minute).Truncate(time.Second)
		e.uplink(t, "acme", t0, map[string]any{"temperature": 20.0})
		e.history(t, id, 1)
		// As if the portal had stored the uplink and died before the
		// evaluation: no firing, the rule's state from before the uplink.
		ctx := context.Background()
		bdb := a.Host().DB
		if _, err := bdb.NewRaw("UPDATE alarms SET open_event_id = NULL, evaluated_at = NULL, pending_since = NULL, armed = ?, last_value = NULL, updated_at = ? WHERE id = ?",
			true, t0.Add(-time.Hour), id).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := bdb.NewRaw("DELETE FROM alarm_events WHERE alarm_id = ?", id).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		a.Stop()
		b := kerneltest.StartConfig(t, cfg, app.Build)
		e.p = b
		kerneltest.WaitFor(t, 10*time.Second, func() bool { return e.count(t, "alarm_events", "alarm_id = ?", id) == 1 },
			func() string { return "the stored uplink was not evaluated after the restart" })
	})
}
