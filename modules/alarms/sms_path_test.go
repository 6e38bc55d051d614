package alarms_test

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/kerneltest/smsfake"
	"github.com/fieldhub/fieldhub/sdk/sms/smstest"
)

// TestAlarmThroughTheSMSPlugin is issue 17's "Done when" path with the
// delay shortened by configuration (FIELDHUB_ALARM_DELAY_UNIT=1s): a
// company with 46elks in its own settings, a priority A HIGH alarm with a
// 2-unit delay; uplinks above the limit fire it once; the SMS reaches the
// 46elks test double through the real plugin process (built from
// plugins/sms-46elks) with the alarm's message, the e-mail the SMTP
// server; the company's User has the notification; acknowledging closes
// the firing, and the history says who.
// Not parallel: the plugin reads SMS_46ELKS_URL from the environment.
func TestAlarmThroughTheSMSPlugin(t *testing.T) {
	plugin := smstest.Build(t, "../../plugins/sms-46elks")
	elks := smsfake.NewElks(t, "u0a1b2", "elks-secret")
	t.Setenv("SMS_46ELKS_URL", elks.URL()) // the plugin inherits the portal's environment

	smtpURL, inbox := kerneltest.StartSMTP(t)
	vars := map[string]string{"SMTP_URL": smtpURL, "FIELDHUB_PLUGIN_DIR": filepath.Dir(plugin), "FIELDHUB_ALARM_DELAY_UNIT": "1s"}
	for k, v := range quiet {
		vars[k] = v
	}
	p := kerneltest.Start(t, db.SQLite, vars, app.Build)
	dev := kerneltest.NewDevices(t, p.Client, p.App, p.App.Series())
	e := &env{Session: dev.Session, p: p, inbox: inbox, eui: dev.EUI}

	e.Must(t, "acmeAdmin", "PUT", "/api/settings/company/{acme}", map[string]any{
		"SMS_PROVIDER": "46elks", "ELKS_USERNAME": "u0a1b2", "ELKS_PASSWORD": "elks-secret", "ELKS_SENDER": "AcmeAlarm"}, http.StatusOK)
	id := e.create(t, rule("Freezer", map[string]any{"priority": 0, "alarmDelay": 2}))

	// Above the limit for two units (seconds) of the uplinks' own time.
	t0 := time.Now().Add(-time.Minute)
	for i, v := range []float64{12, 13, 14.5, 15} {
		e.uplink(t, "acme", t0.Add(time.Duration(i)*time.Second), map[string]any{"temperature": v})
	}
	e.evaluated(t, id, t0.Add(3*time.Second))
	h := e.history(t, id, 1)
	if len(h) != 1 || h[0]["value"] != 14.5 {
		t.Fatalf("history %v, want one firing at 14.5", h)
	}

	got := elks.WaitAccepted(1, 30*time.Second)
	if len(got) != 1 || got[0].To != "+46701112233" || got[0].From != "AcmeAlarm" || got[0].Text != "Node acme: temperature = 14.5" {
		t.Fatalf("46elks got %+v", elks.Requests())
	}
	m := e.inbox.Wait(t, "ops@acme.se", 15*time.Second)
	if m.Subject != "Alarm: Freezer" || !strings.Contains(m.Body, "temperature = 14.5") {
		t.Errorf("mail %+v", m)
	}

	me := int64(e.Must(t, "acmeUser", "GET", "/api/users", nil, http.StatusOK).Obj()["userId"].(float64))
	var notes []any
	kerneltest.WaitFor(t, 10*time.Second, func() bool {
		notes = e.Must(t, "acmeUser", "GET", fmt.Sprintf("/api/notification/%d", me), nil, http.StatusOK).List()
		return len(notes) == 1
	}, func() string { return fmt.Sprintf("the user's notifications: %v", notes) })
	if n := notes[0].(map[string]any); !strings.Contains(n["label"].(string), "Freezer") {
		t.Errorf("notification %v", n)
	}

	ev := int64(h[0]["id"].(float64))
	e.Must(t, "acmeUser", "POST", fmt.Sprintf("/api/alarms/history/%d/reset", ev), nil, http.StatusOK)
	if open := e.Must(t, "acmeUser", "GET", "/api/companies/{acme}/alarm/active", nil, http.StatusOK).List(); len(open) != 0 {
		t.Errorf("open after the acknowledgement: %v", open)
	}
	h = e.history(t, id, 1)
	if h[0]["resetBy"] != "U S" || h[0]["reset"] == nil {
		t.Errorf("history after the acknowledgement %v", h[0])
	}
	// Fired once: one SMS, one firing, whatever the uplinks above the limit.
	if n := len(elks.Requests()); n != 1 {
		t.Errorf("%d requests to 46elks, want 1", n)
	}
	if n := e.count(t, "alarm_events", "alarm_id = ?", id); n != 1 {
		t.Errorf("%d firings, want 1", n)
	}
}
