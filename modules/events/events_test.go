package events_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/events"
)

// The DevEUIs of the two companies' nodes, as the tags store them.
var devEUI = map[string]string{"acme": "70B3D57ED0000001", "beta": "70B3D57ED0000002"}

// instance is one running portal.
type instance struct {
	p    *kerneltest.Portal[*app.App]
	c    *kerneltest.Client
	base string
	// stop shuts the portal down (once; the test's cleanup calls it too).
	stop func()
}

// env is a portal (or two on one database) with the companies Acme and
// Beta, each with a CompanyAdmin, a User, a node and an integration token.
type env struct {
	*instance
	*kerneltest.Tenants
	dbURL  string
	dialct db.Dialect
	vars   map[string]string // the options of the first portal, for a second
}

// start runs a whole portal: its sign-ins and device events become log
// entries, which the feed forwards beside the uplinks.
func start(t *testing.T, d db.Dialect, env map[string]string) *instance {
	t.Helper()
	p := kerneltest.Start(t, d, env, app.Build)
	return &instance{p: p, c: p.Client, base: p.URL, stop: p.Stop}
}

func newEnv(t *testing.T, d db.Dialect, vars map[string]string) *env {
	t.Helper()
	first := start(t, d, vars)
	var specs []kerneltest.CompanySpec
	for _, key := range []string{"acme", "beta"} {
		specs = append(specs, kerneltest.CompanySpec{Key: key, Ingest: true, User: true, App: "Field",
			Nodes: []kerneltest.NodeSpec{{Key: key + "Node", Name: "Node of " + key, DevEUI: devEUI[key]}}})
	}
	return &env{instance: first, Tenants: kerneltest.Companies(t, first.c, first.p.App, specs...).Tenants(t),
		dbURL: first.p.Host().Config.DatabaseURL, dialct: d, vars: vars}
}

// second starts another portal on the same database, as a second instance
// behind a load balancer.
func (e *env) second(t *testing.T) *instance {
	t.Helper()
	vars := map[string]string{"DATABASE_URL": e.dbURL}
	for k, v := range e.vars {
		vars[k] = v
	}
	return start(t, e.dialct, vars)
}

// uplink posts an uplink of company's node through the generic ingest of
// in, with the company's integration token.
func (e *env) uplink(t *testing.T, in *instance, company string, values map[string]any) {
	t.Helper()
	r := in.c.Call(t, "POST", "/api/ingest/generic", e.Token[company], map[string]any{"devEui": devEUI[company], "values": values})
	if r.Status != http.StatusOK {
		t.Fatalf("uplink of %s: %d %s", company, r.Status, r.Body)
	}
}

// dial opens the feed of in; query is added to the address, headers are
// name, value pairs.
func dial(t *testing.T, in *instance, token, query string, headers ...string) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	u := "ws" + strings.TrimPrefix(in.base, "http") + "/api/events"
	if query != "" {
		u += "?" + query
	}
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		h.Set(headers[i], headers[i+1])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, res, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h})
	if conn != nil {
		conn.SetReadLimit(1 << 20)
		t.Cleanup(func() { conn.CloseNow() })
	}
	return conn, res, err
}

func mustDial(t *testing.T, in *instance, token, query string, headers ...string) *websocket.Conn {
	t.Helper()
	conn, res, err := dial(t, in, token, query, headers...)
	if err != nil {
		status := 0
		if res != nil {
			status = res.StatusCode
		}
		t.Fatalf("dial: %d %v", status, err)
	}
	return conn
}

// next reads the next uplink's event of the feed. Log entries on the way
// (the portal logs sign-ins and device events) are skipped.
func next(t *testing.T, conn *websocket.Conn) events.Envelope {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
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
		if env.Type == events.MessageLogEntry && env.Entry != nil {
			continue
		}
		if env.Type != events.MessageBroadcastEvent || env.Event == nil {
			t.Fatalf("message %s", raw)
		}
		return env
	}
}

// closed reads the feed until the server ends the connection and returns
// the error that reports how. Log entries on the way are skipped; any other
// message fails the test.
func closed(t *testing.T, conn *websocket.Conn) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		_, raw, err := conn.Read(ctx)
		if err != nil {
			return err
		}
		var env events.Envelope
		if json.Unmarshal(raw, &env) != nil || env.Type != events.MessageLogEntry || env.Entry == nil {
			t.Fatalf("message before the close: %s", raw)
		}
	}
}

// wantEvent checks that the next message is company's uplink with value n
// of key "n".
func wantEvent(t *testing.T, conn *websocket.Conn, company string, n float64) events.Event {
	t.Helper()
	ev := *next(t, conn).Event
	if ev.Tag.DevEUI != devEUI[company] || ev.Tag.Name != "Node of "+company || ev.Data["n"] != n {
		t.Fatalf("event %+v, want %s's uplink n=%v", ev, company, n)
	}
	if ev.ID == "" || ev.Date.IsZero() || time.Since(ev.Date) > time.Minute {
		t.Fatalf("event %+v: id or date", ev)
	}
	return ev
}

func TestFeed(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, nil)

		t.Run("a company's user receives its uplinks and no other company's", func(t *testing.T) {
			acme := mustDial(t, e.instance, e.Admin["acme"], "")
			beta := mustDial(t, e.instance, e.Admin["beta"], "")
			// One instance delivers in order: a foreign event that leaked
			// would arrive before the company's own next one.
			e.uplink(t, e.instance, "beta", map[string]any{"n": 1})
			e.uplink(t, e.instance, "acme", map[string]any{"n": 2})
			e.uplink(t, e.instance, "beta", map[string]any{"n": 3})
			ev := wantEvent(t, acme, "acme", 2)
			if ev.Data["rssi"] != nil || len(ev.Data) != 1 {
				t.Errorf("data %v", ev.Data)
			}
			wantEvent(t, beta, "beta", 1)
			wantEvent(t, beta, "beta", 3)
		})

		t.Run("the access token may come as ?token=", func(t *testing.T) {
			conn := mustDial(t, e.instance, "", "token="+url.QueryEscape(e.Admin["acme"]))
			e.uplink(t, e.instance, "acme", map[string]any{"n": 4})
			wantEvent(t, conn, "acme", 4)
		})

		t.Run("a SuperAdmin follows ?companyId=, else the company switcher's cookie", func(t *testing.T) {
			byParam := mustDial(t, e.instance, e.Super, fmt.Sprintf("companyId=%d", e.ID["beta"]))
			byCookie := mustDial(t, e.instance, e.Super, "", "Cookie", fmt.Sprintf("%s=%d", accounts.CompanyCookie, e.ID["acme"]))
			e.uplink(t, e.instance, "acme", map[string]any{"n": 5})
			e.uplink(t, e.instance, "beta", map[string]any{"n": 6})
			wantEvent(t, byParam, "beta", 6)
			wantEvent(t, byCookie, "acme", 5)
		})

		refusals := []struct {
			name    string
			token   string
			query   string
			headers []string
			status  int
		}{
			{"no credentials", "", "", nil, http.StatusUnauthorized},
			{"a forged token", "", "token=abc.def", nil, http.StatusUnauthorized},
			{"another company's id", e.Admin["acme"], fmt.Sprintf("companyId=%d", e.ID["beta"]), nil, http.StatusNotFound},
			{"a malformed company id", e.Admin["acme"], "companyId=x", nil, http.StatusBadRequest},
			{"a page of another origin", e.Admin["acme"], "", []string{"Origin", "https://evil.example"}, http.StatusForbidden},
		}
		for _, tc := range refusals {
			t.Run("refuses "+tc.name, func(t *testing.T) {
				_, res, err := dial(t, e.instance, tc.token, tc.query, tc.headers...)
				if err == nil || res == nil || res.StatusCode != tc.status {
					t.Fatalf("err %v, response %+v; want %d", err, res, tc.status)
				}
			})
		}

		t.Run("a request without an upgrade is a 400, and 401 without a session", func(t *testing.T) {
			if r := e.c.Call(t, "GET", "/api/events", e.Admin["acme"], nil); r.Status != http.StatusBadRequest || r.Str("id") != "events.websocketOnly" {
				t.Errorf("%d %s", r.Status, r.Body)
			}
			if r := e.c.Call(t, "GET", "/api/events", "", nil); r.Status != http.StatusUnauthorized {
				t.Errorf("%d %s", r.Status, r.Body)
			}
		})
	})
}

// TestSessionExpiry checks that a connection ends with 4001 when the access
// token that opened it lapses.
func TestSessionExpiry(t *testing.T) {
	t.Parallel()
	in := start(t, db.SQLite, map[string]string{"FIELDHUB_ACCESS_TOKEN_TTL": "2s"})
	if err := in.p.App.CreateSuperAdmin(context.Background(), "super@fieldhub.test", "secret123"); err != nil {
		t.Fatal(err)
	}
	conn := mustDial(t, in, in.c.Login(t, "super@fieldhub.test", "secret123"), "")
	err := closed(t, conn)
	if code := websocket.CloseStatus(err); code != events.CloseSessionExpired {
		t.Fatalf("closed with %v (%v), want %d", code, err, events.CloseSessionExpired)
	}
}

// TestInstances checks the fan-out on PostgreSQL: two portals on one
// database, an uplink stored by one reaching a client of the other, once,
// whether it fits a notification or not.
func TestInstances(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.Postgres, nil)
	other := e.second(t)
	there := mustDial(t, other, e.Admin["acme"], "")
	here := mustDial(t, e.instance, e.Admin["acme"], "")
	foreign := mustDial(t, other, e.Admin["beta"], "")

	e.uplink(t, e.instance, "acme", map[string]any{"n": 1})
	// 200 values of 60 characters make an event of about 16 KB, over the
	// 8000 bytes a notification may carry.
	large := map[string]any{"n": 2}
	for i := range 200 {
		large[fmt.Sprintf("text%03d", i)] = strings.Repeat(string(rune('a'+i%26)), 60)
	}
	e.uplink(t, e.instance, "acme", large)
	e.uplink(t, e.instance, "beta", map[string]any{"n": 3})
	e.uplink(t, e.instance, "acme", map[string]any{"n": 4})

	for _, conn := range []*websocket.Conn{there, here} {
		wantEvent(t, conn, "acme", 1)
		big := *next(t, conn).Event
		if big.Data["n"] != 2.0 || len(big.Data) != 201 || big.Data["text199"] != strings.Repeat("r", 60) {
			t.Fatalf("large event: %d values", len(big.Data))
		}
		// Not the large one again (the origin does not deliver its own
		// notifications a second time), and not Beta's.
		wantEvent(t, conn, "acme", 4)
	}
	wantEvent(t, foreign, "beta", 3)

	// And the other way round.
	e.uplink(t, other, "acme", map[string]any{"n": 5})
	wantEvent(t, here, "acme", 5)
	wantEvent(t, there, "acme", 5)
}

// TestShutdown checks that a stopping server tells its clients it is going
// away, so that they reconnect (to another instance).
func TestShutdown(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite, nil)
	conn := mustDial(t, e.instance, e.Admin["acme"], "")
	e.stop()
	err := closed(t, conn)
	if code := websocket.CloseStatus(err); code != websocket.StatusGoingAway {
		t.Fatalf("closed with %v (%v), want going away", code, err)
	}
}

// open reports how many feed connections in holds open, as its gauge
// counts them; a connection's place is free before it stops counting.
func open(t *testing.T, in *instance) string {
	t.Helper()
	for _, line := range strings.Split(kerneltest.Metrics(t, in.p.App.Kernel()), "\n") {
		if n, ok := strings.CutPrefix(line, "fieldhub_events_connections "); ok {
			return n
		}
	}
	return ""
}

// wantTooMany checks that the server closed conn at once with 4029.
func wantTooMany(t *testing.T, conn *websocket.Conn, what string) {
	t.Helper()
	if code := websocket.CloseStatus(closed(t, conn)); code != events.CloseTooMany {
		t.Fatalf("%s: closed with %v, want %d", what, code, events.CloseTooMany)
	}
}

// TestCaps checks the caps on open connections: per user, per company (its
// users together), another company unaffected, a freed place taken again,
// and on PostgreSQL across instances.
func TestCaps(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, map[string]string{"FIELDHUB_EVENTS_MAX_PER_USER": "2", "FIELDHUB_EVENTS_MAX_PER_COMPANY": "3"})
		first := mustDial(t, e.instance, e.Admin["acme"], "")
		second := mustDial(t, e.instance, e.Admin["acme"], "token="+url.QueryEscape(e.Admin["acme"]))
		wantTooMany(t, mustDial(t, e.instance, e.Admin["acme"], ""), "the user's third")

		// The company's other user has one place left of the company's three.
		user := mustDial(t, e.instance, e.User["acme"], "")
		wantTooMany(t, mustDial(t, e.instance, e.User["acme"], ""), "the company's fourth")
		// Another company, and a SuperAdmin following Acme, are not counted
		// against Acme.
		beta := mustDial(t, e.instance, e.Admin["beta"], "")
		super := mustDial(t, e.instance, e.Super, fmt.Sprintf("companyId=%d", e.ID["acme"]))

		// The admitted ones are live.
		e.uplink(t, e.instance, "acme", map[string]any{"n": 1})
		for _, conn := range []*websocket.Conn{first, second, user, super} {
			wantEvent(t, conn, "acme", 1)
		}
		e.uplink(t, e.instance, "beta", map[string]any{"n": 2})
		wantEvent(t, beta, "beta", 2)

		// A closed connection frees its place.
		if got := open(t, e.instance); got != "5" {
			t.Fatalf("%s connections open, want 5", got)
		}
		first.Close(websocket.StatusNormalClosure, "")
		kerneltest.WaitFor(t, 10*time.Second, func() bool { return open(t, e.instance) == "4" },
			func() string { return "the closed connection still counts: " + open(t, e.instance) })
		again := mustDial(t, e.instance, e.Admin["acme"], "")
		e.uplink(t, e.instance, "acme", map[string]any{"n": 3})
		wantEvent(t, again, "acme", 3)

		if d == db.Postgres {
			// The caps count the connections of every instance.
			other := e.second(t)
			wantTooMany(t, mustDial(t, other, e.Admin["acme"], ""), "the user's third, on another instance")
			wantTooMany(t, mustDial(t, other, e.User["acme"], ""), "the company's fourth, on another instance")
			there := mustDial(t, other, e.Admin["beta"], "")
			e.uplink(t, other, "beta", map[string]any{"n": 4})
			wantEvent(t, there, "beta", 4)
		}
	})
}
