package events_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/fieldhub/fieldhub/kernel/db"
	kevents "github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/events"
)

// userID is the id of the account of email.
func (e *env) userID(t *testing.T, email string) int64 {
	t.Helper()
	var id int64
	if err := e.p.Host().DB.NewRaw("SELECT id FROM users WHERE email = ?", email).Scan(context.Background(), &id); err != nil {
		t.Fatalf("user %s: %v", email, err)
	}
	return id
}

// nextRaw reads the next message of the feed; with skipCompany, the
// company's uplinks and log entries on the way are skipped.
func nextRaw(t *testing.T, conn *websocket.Conn, skipCompany bool) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		_, raw, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		var env events.Envelope
		if skipCompany && json.Unmarshal(raw, &env) == nil && (env.Type == events.MessageLogEntry || env.Type == events.MessageBroadcastEvent) {
			continue
		}
		return string(raw)
	}
}

// TestToUsers checks the messages other modules address to users
// (kernel events.ToUsers, the notifications' "your notifications
// changed"): they reach every connection of those users and no one
// else's, a ?only=user connection receives nothing else, and on
// PostgreSQL they reach the users' connections on another instance.
func TestToUsers(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, nil)
		user, admin := e.userID(t, "user@acme.se"), e.userID(t, "admin@acme.se")
		bus := e.p.Host().Bus
		ctx := context.Background()
		only := mustDial(t, e.instance, e.User["acme"], "only=user")
		full := mustDial(t, e.instance, e.User["acme"], "")
		adminOnly := mustDial(t, e.instance, e.Admin["acme"], "only=user")

		e.uplink(t, e.instance, "acme", map[string]any{"n": 1})
		wantEvent(t, full, "acme", 1)
		// Too large, then not JSON: neither is sent.
		bus.Publish(ctx, kevents.ToUsers{UserIDs: []int64{user}, Message: json.RawMessage(`{"type":"Big","pad":"` + strings.Repeat("x", kevents.MaxUserMessage) + `"}`)})
		bus.Publish(ctx, kevents.ToUsers{UserIDs: []int64{user}, Message: json.RawMessage(`{"type":`)})
		bus.Publish(ctx, kevents.ToUsers{UserIDs: []int64{user, 999999}, Message: json.RawMessage(`{"type":"Notification"}`)})
		// The user-only connection's first message is this one: not the
		// uplink before it, not the refused ones.
		if got := nextRaw(t, only, false); got != `{"type":"Notification"}` {
			t.Errorf("user-only connection: %s", got)
		}
		if got := nextRaw(t, full, true); got != `{"type":"Notification"}` {
			t.Errorf("full connection: %s", got)
		}
		bus.Publish(ctx, kevents.ToUsers{UserIDs: []int64{admin}, Message: json.RawMessage(`{"type":"Second"}`)})
		if got := nextRaw(t, adminOnly, false); got != `{"type":"Second"}` {
			t.Errorf("the admin's connection got %s first, want only its own", got)
		}

		t.Run("refuses an unknown only", func(t *testing.T) {
			r := e.c.Call(t, "GET", "/api/events?only=company", e.User["acme"], nil)
			if r.Status != http.StatusBadRequest || r.FieldError("only") == "" {
				t.Errorf("%d %s", r.Status, r.Body)
			}
		})

		if d != db.Postgres {
			return
		}
		t.Run("reaches the user on another instance", func(t *testing.T) {
			other := e.second(t)
			there := mustDial(t, other, e.User["acme"], "only=user")
			many := []int64{user}
			for i := range 450 { // several notifications between the instances
				many = append(many, int64(1_000_000+i))
			}
			bus.Publish(ctx, kevents.ToUsers{UserIDs: many, Message: json.RawMessage(`{"type":"Notification"}`)})
			if got := nextRaw(t, there, false); got != `{"type":"Notification"}` {
				t.Errorf("other instance: %s", got)
			}
			if got := nextRaw(t, only, false); got != `{"type":"Notification"}` {
				t.Errorf("this instance: %s", got)
			}
			// Once: the next message there is the next one sent.
			other.p.Host().Bus.Publish(ctx, kevents.ToUsers{UserIDs: []int64{user}, Message: json.RawMessage(`{"type":"Third"}`)})
			if got := nextRaw(t, there, false); got != `{"type":"Third"}` {
				t.Errorf("other instance, then: %s", got)
			}
			if got := nextRaw(t, only, false); got != `{"type":"Third"}` {
				t.Errorf("this instance, then: %s", got)
			}
		})
	})
}
