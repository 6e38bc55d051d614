package events_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/events"
	"github.com/fieldhub/fieldhub/modules/logs"
)

// join posts a ChirpStack join of company's node to in.
func (e *env) join(t *testing.T, in *instance, company string) {
	t.Helper()
	body := `{"deviceInfo":{"devEui":"` + devEUI[company] + `"},"devAddr":"00189440"}`
	if r := in.c.Call(t, "POST", "/api/ingest/chirpstack?event=join", e.Token[company], body); r.Status != http.StatusNoContent {
		t.Fatalf("join of %s: %d %s", company, r.Status, r.Body)
	}
}

// nextEntry reads the feed until a log entry matches, and fails on any log
// entry on the way that is not of company (0: the installation's). Uplinks'
// events on the way are skipped.
func nextEntry(t *testing.T, conn *websocket.Conn, company int64, match func(logs.Entry) bool) logs.Entry {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	for {
		typ, raw, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		var env events.Envelope
		if typ != websocket.MessageText || json.Unmarshal(raw, &env) != nil {
			t.Fatalf("message %s", raw)
		}
		switch env.Type {
		case events.MessageBroadcastEvent:
			continue
		case events.MessageLogEntry:
		default:
			t.Fatalf("message of type %q: %s", env.Type, raw)
		}
		if env.Entry == nil || env.Event != nil {
			t.Fatalf("log entry message %s", raw)
		}
		if env.Entry.Company() != company {
			t.Fatalf("a connection of company %d received an entry of company %d: %s", company, env.Entry.Company(), raw)
		}
		if match(*env.Entry) {
			return *env.Entry
		}
	}
}

func joined(deveui string) func(logs.Entry) bool {
	return func(e logs.Entry) bool { return e.MessageID == "logs.entry.join" && e.DevEUI == deveui }
}

// TestLogEntries checks the live log list's messages: a log entry reaches
// the connections of its company, as GET /api/logs lists it, and no other
// company's; an entry of the installation reaches only SuperAdmins who have
// chosen no company.
func TestLogEntries(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, nil)
		acme := mustDial(t, e.instance, e.Admin["acme"], "")
		beta := mustDial(t, e.instance, e.Admin["beta"], "")
		superOfBeta := mustDial(t, e.instance, e.Super, fmt.Sprintf("companyId=%d", e.ID["beta"]))
		superAlone := mustDial(t, e.instance, e.Super, "")

		// Acme's first: an entry that leaked would reach Beta before its own.
		e.join(t, e.instance, "acme")
		e.join(t, e.instance, "beta")
		got := nextEntry(t, acme, e.ID["acme"], joined(devEUI["acme"]))
		if got.ID <= 0 || got.Type != logs.TypeApp || got.Message != "The device joined the network" || got.CreatedAt.IsZero() {
			t.Errorf("entry %+v", got)
		}
		listed := e.c.Must(t, "GET", "/api/logs?type=APP&deveui="+devEUI["acme"], e.Admin["acme"], nil, http.StatusOK).List()
		if len(listed) == 0 || listed[0].(map[string]any)["id"] != float64(got.ID) {
			t.Errorf("GET /api/logs lists %v first, the feed sent %d", listed, got.ID)
		}
		nextEntry(t, beta, e.ID["beta"], joined(devEUI["beta"]))
		nextEntry(t, superOfBeta, e.ID["beta"], joined(devEUI["beta"]))

		// A SuperAdmin's sign-in belongs to no company.
		e.c.Login(t, "super@fieldhub.test", "secret123")
		login := nextEntry(t, superAlone, 0, func(en logs.Entry) bool { return en.Type == logs.TypeLogin })
		if login.UserID == nil || login.CompanyID != nil {
			t.Errorf("SuperAdmin's LOGIN %+v", login)
		}
		// Acme's connection got nothing of it before its next entry.
		e.join(t, e.instance, "acme")
		nextEntry(t, acme, e.ID["acme"], joined(devEUI["acme"]))

		t.Run("an uplink's event is still a BroadcastEvent", func(t *testing.T) {
			e.uplink(t, e.instance, "acme", map[string]any{"n": 7})
			for {
				ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
				_, raw, err := acme.Read(ctx)
				cancel()
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasPrefix(string(raw), `{"type":"BroadcastEvent","event":{`) {
					if !strings.Contains(string(raw), `"data":{"n":7}`) {
						t.Errorf("event %s", raw)
					}
					break
				}
			}
		})
	})
}

// TestLogEntriesAcrossInstances checks the fan-out of log entries on
// PostgreSQL: an entry written by one instance reaches a client of the
// other.
func TestLogEntriesAcrossInstances(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.Postgres, nil)
	other := e.second(t)
	there := mustDial(t, other, e.Admin["acme"], "")
	foreign := mustDial(t, other, e.Admin["beta"], "")
	e.join(t, e.instance, "acme")
	e.join(t, e.instance, "beta")
	nextEntry(t, there, e.ID["acme"], joined(devEUI["acme"]))
	nextEntry(t, foreign, e.ID["beta"], joined(devEUI["beta"]))
}

// TestAuditEntries checks the audit trail on the feed: a company's audit
// entry reaches its administrators' connections and the SuperAdmin's who
// has chosen no company, never its Users'.
func TestAuditEntries(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, nil)
		admin := mustDial(t, e.instance, e.Admin["acme"], "")
		user := mustDial(t, e.instance, e.User["acme"], "")
		superAlone := mustDial(t, e.instance, e.Super, "")
		e.c.Must(t, "POST", fmt.Sprintf("/api/applications/%d", e.ID["acme"]), e.Admin["acme"], map[string]any{"name": "Audited"}, http.StatusCreated)
		audited := func(en logs.Entry) bool {
			return en.Type == logs.TypeUserEvent && en.MessageID == "audit.application.created"
		}
		nextEntry(t, admin, e.ID["acme"], audited)
		nextEntry(t, superAlone, e.ID["acme"], audited)
		// The User's connection gets the join that follows, and no audit
		// entry before it.
		e.join(t, e.instance, "acme")
		nextEntry(t, user, e.ID["acme"], func(en logs.Entry) bool {
			if en.Type == logs.TypeUserEvent {
				t.Fatalf("a User's connection received %+v", en)
			}
			return joined(devEUI["acme"])(en)
		})
	})
}
