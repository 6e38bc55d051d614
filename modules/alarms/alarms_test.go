package alarms_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// env is a portal with two companies (acme, beta), each with a node, a
// CompanyAdmin and an integration token (acme also a User), and the test
// SMTP server's inbox. The sweep and the inactivity job run only when a
// test calls them, at the times it chooses.
type env struct {
	*kerneltest.Session
	p     *kerneltest.Portal[*app.App]
	inbox *kerneltest.Inbox
	eui   map[string]string
}

var quiet = map[string]string{
	"FIELDHUB_ALARM_SWEEP_INTERVAL": "24h",
	"FIELDHUB_INACTIVITY_INTERVAL":  "24h",
}

func newEnv(t *testing.T, d db.Dialect) *env {
	t.Helper()
	smtpURL, inbox := kerneltest.StartSMTP(t)
	vars := map[string]string{"SMTP_URL": smtpURL}
	for k, v := range quiet {
		vars[k] = v
	}
	p := kerneltest.Start(t, d, vars, app.Build)
	dev := kerneltest.NewDevices(t, p.Client, p.App, p.App.Series())
	return &env{Session: dev.Session, p: p, inbox: inbox, eui: dev.EUI}
}

// uplink posts values of company's node at time at through the generic
// route.
func (e *env) uplink(t *testing.T, company string, at time.Time, values map[string]any) {
	t.Helper()
	e.Must(t, company+"Ingest", "POST", "/api/ingest/generic", map[string]any{
		"devEui": e.eui[company+"Node"], "time": at.UTC().Format(time.RFC3339Nano), "values": values}, http.StatusOK)
}

// rule is the body of a HIGH alarm on acme's node's temperature above 10.
func rule(name string, more map[string]any) map[string]any {
	b := map[string]any{"name": name, "tag": "{acmeNode}", "tagDataKey": "temperature", "limitHigh": 10.0, "priority": 0,
		"contactType": 2, "alarmContacts": []string{"ops@acme.se", "+46 70-111 22 33"}, "alarmDelay": 2, "message": "{node}: {key} = {value}"}
	for k, v := range more {
		b[k] = v
	}
	return b
}

func (e *env) create(t *testing.T, body map[string]any) int64 {
	t.Helper()
	b := map[string]any{}
	for k, v := range body {
		if s, ok := v.(string); ok && k == "tag" {
			v = e.ID(t, s)
		}
		b[k] = v
	}
	return e.Must(t, "acmeAdmin", "POST", "/api/companies/{acme}/alarm", b, http.StatusCreated).Num("id")
}

// history waits until alarm id's history has n entries and returns them.
func (e *env) history(t *testing.T, id int64, n int) []map[string]any {
	t.Helper()
	var list []map[string]any
	kerneltest.WaitFor(t, 10*time.Second, func() bool {
		list = nil
		for _, x := range e.Must(t, "acmeUser", "GET", fmt.Sprintf("/api/companies/{acme}/alarm/history?alarmId=%d", id), nil, http.StatusOK).List() {
			list = append(list, x.(map[string]any))
		}
		return len(list) >= n
	}, func() string { return fmt.Sprintf("history of alarm %d: %v, want %d entries", id, list, n) })
	return list
}

// evaluated waits until alarm id has evaluated the value of time at (the
// uplinks are evaluated in the background, in order).
func (e *env) evaluated(t *testing.T, id int64, at time.Time) {
	t.Helper()
	kerneltest.WaitFor(t, 10*time.Second, func() bool {
		var got time.Time
		err := e.p.Host().DB.NewSelect().Table("alarms").Column("evaluated_at").Where("id = ?", id).Scan(context.Background(), &got)
		return err == nil && !got.Before(at.UTC().Truncate(time.Millisecond))
	}, func() string { return fmt.Sprintf("alarm %d never evaluated the value of %s", id, at) })
}

func (e *env) count(t *testing.T, table, where string, args ...any) int64 {
	t.Helper()
	n, err := e.p.Host().DB.NewSelect().Table(table).Where(where, args...).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// lastWeekday is a time at 12:00 UTC some days ago, well inside the
// ingest's window.
func recent(daysAgo int) time.Time {
	return time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -daysAgo).Add(12 * time.Hour)
}

// TestFiring checks a HIGH rule: it fires once when the value has been
// above the limit for its delay (in uplink time), mails its contacts,
// queues the SMS in the same transaction, marks the node's activeAlarm,
// and is acknowledged by a User, whom the history names.
func TestFiring(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		id := e.create(t, rule("Freezer", nil))
		t0 := recent(2)
		e.uplink(t, "acme", t0, map[string]any{"temperature": 12.0})
		e.uplink(t, "acme", t0.Add(90*time.Second), map[string]any{"temperature": 13.0})
		e.evaluated(t, id, t0.Add(90*time.Second))
		if n := e.count(t, "alarm_events", "alarm_id = ?", id); n != 0 {
			t.Fatalf("fired before its delay: %d", n)
		}
		e.uplink(t, "acme", t0.Add(2*time.Minute), map[string]any{"temperature": 14.5})
		e.uplink(t, "acme", t0.Add(3*time.Minute), map[string]any{"temperature": 15.0})
		e.evaluated(t, id, t0.Add(3*time.Minute))
		h := e.history(t, id, 1)
		if len(h) != 1 || h[0]["value"] != 14.5 || h[0]["messageSent"] != "Node acme: temperature = 14.5" || h[0]["reset"] != nil {
			t.Fatalf("history %v", h)
		}
		m := e.inbox.Wait(t, "ops@acme.se", 10*time.Second)
		if m.Subject != "Alarm: Freezer" || !strings.Contains(m.Body, "temperature = 14.5") {
			t.Errorf("mail %+v", m)
		}
		if n := e.count(t, "sms_outbox", "recipients LIKE ?", "%46701112233%"); n != 1 {
			t.Errorf("%d SMS queued, want 1", n)
		}
		// The company's users are told through the bell, with a link to the
		// open alarms.
		me := int64(e.Must(t, "acmeUser", "GET", "/api/users", nil, http.StatusOK).Obj()["userId"].(float64))
		var notes []any
		kerneltest.WaitFor(t, 10*time.Second, func() bool {
			notes = e.Must(t, "acmeUser", "GET", fmt.Sprintf("/api/notification/%d", me), nil, http.StatusOK).List()
			return len(notes) == 1
		}, func() string { return fmt.Sprintf("the user's notifications: %v", notes) })
		if n := notes[0].(map[string]any); !strings.Contains(n["label"].(string), "Freezer") || !strings.HasPrefix(n["route"].(string), "/alarm") {
			t.Errorf("notification %v", n)
		}
		tag := e.Must(t, "acmeUser", "GET", "/api/tag/{acmeNode}", nil, http.StatusOK)
		if tag.Obj()["activeAlarm"] != true {
			t.Errorf("node's activeAlarm %v", tag.Obj()["activeAlarm"])
		}
		active := e.Must(t, "acmeUser", "GET", "/api/companies/{acme}/alarm/active", nil, http.StatusOK).List()
		if len(active) != 1 {
			t.Fatalf("active %v", active)
		}
		ev := int64(h[0]["id"].(float64))
		e.Must(t, "betaAdmin", "POST", fmt.Sprintf("/api/alarms/history/%d/reset", ev), nil, http.StatusNotFound)
		r := e.Must(t, "acmeUser", "POST", fmt.Sprintf("/api/alarms/history/%d/reset", ev), nil, http.StatusOK)
		if r.Obj()["resetBy"] != "U S" || r.Obj()["reset"] == nil {
			t.Errorf("reset %v", r.Obj())
		}
		e.Must(t, "acmeUser", "POST", fmt.Sprintf("/api/alarms/history/%d/reset", ev), nil, http.StatusConflict)
		if tag := e.Must(t, "acmeUser", "GET", "/api/tag/{acmeNode}", nil, http.StatusOK); tag.Obj()["activeAlarm"] != false {
			t.Errorf("activeAlarm after the reset %v", tag.Obj()["activeAlarm"])
		}
		// Still above the limit after the acknowledgement: no new firing
		// until the value has been normal.
		e.uplink(t, "acme", t0.Add(10*time.Minute), map[string]any{"temperature": 16.0})
		e.uplink(t, "acme", t0.Add(20*time.Minute), map[string]any{"temperature": 17.0})
		e.evaluated(t, id, t0.Add(20*time.Minute))
		if n := e.count(t, "alarm_events", "alarm_id = ?", id); n != 1 {
			t.Errorf("%d firings, want 1", n)
		}
		e.uplink(t, "acme", t0.Add(30*time.Minute), map[string]any{"temperature": 5.0})
		e.uplink(t, "acme", t0.Add(40*time.Minute), map[string]any{"temperature": 11.0})
		e.uplink(t, "acme", t0.Add(45*time.Minute), map[string]any{"temperature": 11.0})
		e.history(t, id, 2)
	})
}

// TestDelayWithoutUplink checks that the sweep fires a rule whose
// condition has held for its delay when no later uplink came, once even
// when two sweeps run.
func TestDelayWithoutUplink(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		id := e.create(t, rule("Sweep", nil))
		t0 := recent(1)
		e.uplink(t, "acme", t0, map[string]any{"temperature": 20.0})
		e.evaluated(t, id, t0)
		ctx := context.Background()
		if err := e.p.App.Alarms().Sweep(ctx, t0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if n := e.count(t, "alarm_events", "alarm_id = ?", id); n != 0 {
			t.Fatalf("fired a minute in: %d", n)
		}
		for range 2 {
			if err := e.p.App.Alarms().Sweep(ctx, t0.Add(2*time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
		if n := e.count(t, "alarm_events", "alarm_id = ?", id); n != 1 {
			t.Fatalf("%d firings, want 1", n)
		}
	})
}

// TestHysteresis checks that a rule with a band re-arms only when the
// value is back past the limit by the band, and that the band is only in
// effect with advanced on.
func TestHysteresis(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		id := e.create(t, rule("Band", map[string]any{"alarmDelay": 0, "advanced": true, "hysteresis": 2.0}))
		t0 := recent(3)
		at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
		e.uplink(t, "acme", at(0), map[string]any{"temperature": 11.0}) // fires
		ev := int64(e.history(t, id, 1)[0]["id"].(float64))
		e.Must(t, "acmeUser", "POST", fmt.Sprintf("/api/alarms/history/%d/reset", ev), nil, http.StatusOK)
		e.uplink(t, "acme", at(1), map[string]any{"temperature": 9.0})  // within the band: stays disarmed
		e.uplink(t, "acme", at(2), map[string]any{"temperature": 11.0}) // no new firing
		e.evaluated(t, id, at(2))
		if n := e.count(t, "alarm_events", "alarm_id = ?", id); n != 1 {
			t.Fatalf("%d firings within the band, want 1", n)
		}
		e.uplink(t, "acme", at(3), map[string]any{"temperature": 7.5})  // past the band: re-armed
		e.uplink(t, "acme", at(4), map[string]any{"temperature": 10.5}) // fires again
		e.history(t, id, 2)
	})
}

// TestRenotifyAndEscalation checks that an unacknowledged firing is
// notified again every renotifyInterval, escalated once after
// escalateAfter, and neither once acknowledged.
func TestRenotifyAndEscalation(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		id := e.create(t, rule("Escalating", map[string]any{"alarmDelay": 0, "priority": 2, "advanced": true,
			"renotifyInterval": 10, "escalateAfter": 30, "escalationContacts": []string{"boss@acme.se"}}))
		t0 := recent(4)
		e.uplink(t, "acme", t0, map[string]any{"temperature": 30.0})
		ev := int64(e.history(t, id, 1)[0]["id"].(float64))
		ctx := context.Background()
		sweep := func(m int) {
			t.Helper()
			if err := e.p.App.Alarms().Sweep(ctx, t0.Add(time.Duration(m)*time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
		mails := func(subject string) int64 {
			return e.count(t, "mail_outbox", "subject = ?", subject)
		}
		sweep(5)
		if n := mails("Reminder: Escalating"); n != 0 {
			t.Errorf("%d reminders after 5 minutes", n)
		}
		sweep(10)
		sweep(10)
		if n := mails("Reminder: Escalating"); n != 1 {
			t.Errorf("%d reminders after 10 minutes, want 1", n)
		}
		sweep(29)
		if n := mails("Escalated: Escalating"); n != 0 {
			t.Errorf("escalated after 29 minutes")
		}
		sweep(30)
		sweep(31)
		if n := mails("Escalated: Escalating"); n != 1 {
			t.Errorf("%d escalations, want 1", n)
		}
		e.inbox.Wait(t, "boss@acme.se", 10*time.Second)
		e.Must(t, "acmeUser", "POST", fmt.Sprintf("/api/alarms/history/%d/reset", ev), nil, http.StatusOK)
		sweep(120)
		if n := mails("Reminder: Escalating"); n != 2 {
			// the 30-minute sweep re-notified once more before the reset
			t.Errorf("%d reminders after the reset, want 2", n)
		}
	})
}

// TestActiveDays checks that a rule fires only on its days in the
// company's time zone: 23:30 UTC on a Friday is Saturday in Stockholm.
func TestActiveDays(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		friday := recent(7)
		for friday.Weekday() != time.Friday {
			friday = friday.AddDate(0, 0, -1)
		}
		night := friday.Truncate(24 * time.Hour).Add(23*time.Hour + 30*time.Minute) // Saturday 00:30 or 01:30 in Stockholm
		onFriday := e.create(t, rule("Fridays", map[string]any{"alarmDelay": 0, "activeDays": []int{5}}))
		onSaturday := e.create(t, rule("Saturdays", map[string]any{"alarmDelay": 0, "activeDays": []int{6}}))
		e.uplink(t, "acme", night, map[string]any{"temperature": 40.0})
		e.evaluated(t, onFriday, night)
		e.history(t, onSaturday, 1)
		if n := e.count(t, "alarm_events", "alarm_id = ?", onFriday); n != 0 {
			t.Errorf("the Friday rule fired on a Stockholm Saturday")
		}
	})
}

// TestDigital checks the digital rules: on high, and on change.
func TestDigital(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		base := map[string]any{"tagDataKey": "door", "signalType": 1, "alarmDelay": 0, "limitHigh": nil}
		high := e.create(t, rule("Door open", merge(base, map[string]any{"triggerHigh": true})))
		change := e.create(t, rule("Door moved", merge(base, map[string]any{"triggerHigh": true, "triggerLow": true})))
		t0 := recent(5)
		for i, v := range []float64{0, 0, 1, 1, 0} {
			e.uplink(t, "acme", t0.Add(time.Duration(i)*time.Minute), map[string]any{"door": v})
		}
		e.evaluated(t, change, t0.Add(4*time.Minute))
		e.evaluated(t, high, t0.Add(4*time.Minute))
		if n := e.count(t, "alarm_events", "alarm_id = ?", high); n != 1 {
			t.Errorf("on high: %d firings, want 1", n)
		}
		if n := e.count(t, "alarm_events", "alarm_id = ?", change); n != 1 {
			// the change back to 0 happens while the first firing is open
			t.Errorf("on change: %d firings, want 1", n)
		}
	})
}

func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
