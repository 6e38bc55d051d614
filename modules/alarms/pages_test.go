package alarms_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestPages walks the alarm screens: the rule form refuses with SPEC's
// messages and saves, the list toggles and copies, the open alarm is
// acknowledged on /alarm/active, and the history names who did it.
func TestPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite)
	c := e.p.Client
	for _, who := range []string{"acmeAdmin", "acmeUser"} {
		e.Must(t, who, "POST", "/api/settings", map[string]any{"language": "en"}, http.StatusOK)
	}
	admin, user := e.Tokens["acmeAdmin"], e.Tokens["acmeUser"]
	tag := fmt.Sprint(e.ID(t, "{acmeNode}"))

	if p := c.Page(t, "GET", "/alarm", user, nil); p.Status != http.StatusOK || !strings.Contains(kerneltest.Main(p.Body), "No alarms yet.") {
		t.Fatalf("empty list: %d %s", p.Status, p.Body)
	}
	if p := c.Page(t, "GET", "/alarm/create", user, nil); p.Status == http.StatusOK {
		t.Errorf("a User may open the form")
	}
	form := url.Values{"name": {""}, "tag": {tag}, "tagDataKey": {"temperature"}, "signalType": {"0"}, "limitHigh": {"10"},
		"priority": {"2"}, "contactType": {"2"}, "alarmContacts": {"0701234567"}, "alarmDelay": {"0"}, "active": {"true"},
		"activeDays": {"1", "2", "3", "4", "5", "6", "0"}, "message": {"{node} {value}"}}
	p := c.Page(t, "POST", "/alarm/create", admin, form, kerneltest.HTMX...)
	kerneltest.Contains(t, p.Body, []string{"This field must be filled in",
		"Don't forget that the phone number must have country code (e.g. 4607xxxxxxxx)"}, nil)
	form.Set("name", "Warm room")
	form.Set("alarmContacts", "room@acme.se")
	if p := c.Page(t, "POST", "/alarm/create", admin, form, kerneltest.HTMX...); p.Redirect() != "/alarm" {
		t.Fatalf("save: %d %s", p.Status, p.Body)
	}
	list := kerneltest.Main(c.Page(t, "GET", "/alarm", admin, nil).Body)
	kerneltest.Contains(t, list, []string{"Warm room", "Node acme", "> 10", `aria-checked="true"`}, nil)
	id := e.Must(t, "acmeUser", "GET", "/api/companies/{acme}/alarm", nil, http.StatusOK).List()[0].(map[string]any)["id"].(float64)
	p = c.Page(t, "POST", fmt.Sprintf("/alarm/%d/status", int64(id)), admin, url.Values{}, kerneltest.HTMX...)
	kerneltest.Contains(t, p.Body, []string{`aria-checked="false"`}, []string{"<!doctype html>"})
	c.Page(t, "POST", fmt.Sprintf("/alarm/%d/status", int64(id)), admin, url.Values{}, kerneltest.HTMX...)
	if p := c.Page(t, "POST", fmt.Sprintf("/alarm/%d/copy", int64(id)), admin, url.Values{}, kerneltest.HTMX...); !strings.HasPrefix(p.Redirect(), "/alarm/") {
		t.Errorf("copy: %d %s", p.Status, p.Redirect())
	}
	edit := kerneltest.Main(c.Page(t, "GET", fmt.Sprintf("/alarm/%d", int64(id)), admin, nil).Body)
	kerneltest.Contains(t, edit, []string{`data-island="alarm-preview"`, ">room@acme.se</textarea>", "Delete alarm"}, nil)

	details := kerneltest.Main(c.Page(t, "GET", "/tagdetails/"+e.eui["acmeNode"], admin, nil).Body)
	kerneltest.Contains(t, details, []string{"Warm room", "/alarm/create?tag=" + tag}, nil)

	e.uplink(t, "acme", recent(1), map[string]any{"temperature": 12.5})
	e.history(t, int64(id), 1)
	active := kerneltest.Main(c.Page(t, "GET", "/alarm/active", user, nil).Body)
	kerneltest.Contains(t, active, []string{"Warm room", "Node acme 12.5", "Acknowledge"}, nil)
	ev := e.history(t, int64(id), 1)[0]["id"].(float64)
	p = c.Page(t, "POST", fmt.Sprintf("/alarm/active/%d/reset", int64(ev)), user, url.Values{}, kerneltest.HTMX...)
	kerneltest.Contains(t, p.Body, []string{"Acknowledged by U S"}, nil)
	hist := kerneltest.Main(c.Page(t, "GET", fmt.Sprintf("/alarm/%d/history", int64(id)), user, nil).Body)
	kerneltest.Contains(t, hist, []string{"History of Warm room", "U S", "Node acme 12.5"}, nil)
	if p := c.Page(t, "GET", fmt.Sprintf("/alarm/%d/history", int64(id)), e.Tokens["betaAdmin"], nil); p.Status != http.StatusNotFound {
		t.Errorf("beta sees acme's history: %d", p.Status)
	}
	p = c.Page(t, "POST", "/alarm/test", admin, url.Values{"name": {"Trial"}, "priority": {"0"}, "contactType": {"2"},
		"alarmContacts": {"trial@acme.se\n46701112233"}}, kerneltest.HTMX...)
	kerneltest.Contains(t, p.Body, []string{"E-mail:</strong>", "sent", "No SMS provider is configured"}, nil)
	e.inbox.Wait(t, "trial@acme.se", 10*time.Second)
}
