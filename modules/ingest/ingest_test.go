package ingest_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// The DevEUIs of the fixtures, as the nodes module and the time series
// spell them.
const (
	csEUI  = "0101010101010101"
	ttsEUI = "0004a30b001c1452"
)

// env is a running portal with two companies, Acme and Beta. Acme has a
// node for each fixture's DevEUI; both have an integration token. The
// tests drive the ingest as the network servers do, through the netservers
// module's routes (POST /api/ingest/generic), which hand each message to
// ingest.Service.
type env struct {
	c     *kerneltest.Client
	store tsdb.Store
	super string
	admin map[string]string // company key to its CompanyAdmin's session token
	token map[string]string // company key to its integration token
	id    map[string]int64  // company keys, "cs" and "tts" (tags) to ids
}

// newEnvWith starts the portal with the modules writing through wrap's
// store.
func newEnvWith(t *testing.T, d db.Dialect, wrap func(tsdb.Store) tsdb.Store) *env {
	t.Helper()
	e := &env{admin: map[string]string{}, token: map[string]string{}, id: map[string]int64{}}
	p := kerneltest.Start(t, d, nil, app.Options{WrapSeries: wrap}.Build)
	e.c, e.store = p.Client, p.App.Series()
	if err := p.App.CreateSuperAdmin(context.Background(), "super@fieldhub.test", "secret123"); err != nil {
		t.Fatal(err)
	}
	e.super = e.c.Login(t, "super@fieldhub.test", "secret123")
	for _, key := range []string{"acme", "beta"} {
		r := e.must(t, e.super, "POST", "/api/users/create/company", map[string]any{
			"company": map[string]any{"name": key, "orgNumber": "556677-8899", "invoiceAdress": "a@" + key + ".se", "country": "SE"},
			"user":    map[string]any{"firstName": "A", "lastName": "B", "email": "admin@" + key + ".se", "phoneNumber": "46701234567", "password": "secret123"},
		}, http.StatusCreated)
		e.id[key] = int64(r.Obj()["company"].(map[string]any)["companyId"].(float64))
		e.admin[key] = e.c.Login(t, "admin@"+key+".se", "secret123")
		e.token[key] = e.must(t, e.admin[key], "POST", fmt.Sprintf("/api/integration/tokens/%d", e.id[key]),
			map[string]any{"label": "network server", "isCompany": true}, http.StatusCreated).Str("token")
	}
	appID := e.must(t, e.admin["acme"], "POST", fmt.Sprintf("/api/applications/%d", e.id["acme"]), map[string]any{"name": "Field"}, http.StatusCreated).Num("id")
	for key, eui := range map[string]string{"cs": csEUI, "tts": strings.ToUpper(ttsEUI)} {
		e.id[key] = e.must(t, e.admin["acme"], "POST", fmt.Sprintf("/api/applications/%d/tag", appID),
			map[string]any{"name": "Node " + key, "deveui": eui}, http.StatusCreated).Num("id")
	}
	return e
}

func (e *env) must(t *testing.T, token, method, path string, body any, status int) kerneltest.Response {
	t.Helper()
	r := e.c.Call(t, method, path, token, body)
	if r.Status != status {
		t.Fatalf("%s %s: %d, want %d: %s", method, path, r.Status, status, r.Body)
	}
	return r
}

func (e *env) latest(t *testing.T, company int64, eui, key string) (tsdb.Point, bool) {
	t.Helper()
	p, ok, err := e.store.Latest(context.Background(), tsdb.Series{Company: company, DevEUI: eui, Key: key})
	if err != nil {
		t.Fatal(err)
	}
	return p, ok
}

// meta returns GET /api/tag/meta/{tagId}/tagdata as key to entry.
func (e *env) meta(t *testing.T, tag int64) map[string]map[string]any {
	t.Helper()
	r := e.must(t, e.admin["acme"], "GET", fmt.Sprintf("/api/tag/meta/%d/tagdata", tag), nil, http.StatusOK)
	out := map[string]map[string]any{}
	for _, x := range r.List() {
		m := x.(map[string]any)
		out[m["key"].(string)] = m
	}
	return out
}

// refusing is a time-series store that refuses any write holding a point
// of the key "refused", as a database refuses a value, and holds the writes
// while gate is open.
type refusing struct {
	tsdb.Store
	gate    chan struct{}
	entered chan struct{}
}

func (r *refusing) Write(ctx context.Context, points []tsdb.Point) error {
	select {
	case r.entered <- struct{}{}:
	default:
	}
	<-r.gate
	for _, p := range points {
		if p.Key == "refused" {
			return fmt.Errorf("the database refuses %s", p.Series)
		}
	}
	return r.Store.Write(ctx, points)
}

// TestIngestBatchFailsOnlyTheFailingUplink: uplinks handled in one batch
// are stored, and their nodes' states updated, even when the database
// refuses one of them, which alone is answered with an error.
func TestIngestBatchFailsOnlyTheFailingUplink(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		r := &refusing{gate: make(chan struct{}), entered: make(chan struct{}, 1)}
		e := newEnvWith(t, d, func(s tsdb.Store) tsdb.Store { r.Store = s; return r })
		acme := e.id["acme"]
		at := func(i int) time.Time { return time.Date(2025, 4, 1, 12, 0, i, 0, time.UTC) }
		post := func(eui string, i int, key string) int {
			body := fmt.Sprintf(`{"devEui":%q,"time":%q,"values":{%q:%d}}`, eui, at(i).Format(time.RFC3339), key, i)
			req, _ := http.NewRequest("POST", e.c.Base+"/api/ingest/generic", strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+e.token["acme"])
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return 0
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		// The first uplink's write waits at the gate; the others queue up
		// behind it and go into the next batch together.
		first := make(chan int, 1)
		go func() { first <- post(csEUI, 0, "level") }()
		<-r.entered
		statuses := make([]int, 7)
		var wg sync.WaitGroup
		for i := 1; i < len(statuses); i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				key, eui := "level", csEUI
				switch i {
				case 3:
					key = "refused"
				case 4, 5:
					eui = ttsEUI
				}
				statuses[i] = post(eui, i, key)
			}()
		}
		time.Sleep(200 * time.Millisecond)
		close(r.gate)
		statuses[0] = <-first
		wg.Wait()
		for i, status := range statuses {
			if want := map[bool]int{true: http.StatusInternalServerError, false: http.StatusOK}[i == 3]; status != want {
				t.Errorf("uplink %d: %d, want %d", i, status, want)
			}
		}
		for i, eui := range []string{csEUI, csEUI, csEUI, "", ttsEUI, ttsEUI, csEUI} {
			if eui == "" {
				continue
			}
			pts, err := e.store.Range(context.Background(), tsdb.Series{Company: acme, DevEUI: eui, Key: "level"}, at(i), at(i+1), 10)
			if err != nil || len(pts) != 1 || pts[0].Value != float64(i) {
				t.Errorf("uplink %d: stored %v, %v", i, pts, err)
			}
		}
		if _, ok := e.latest(t, acme, csEUI, "refused"); ok {
			t.Error("the refused uplink was stored")
		}
		// Each node's state is its newest uplink's, however the batch held
		// them.
		for key, want := range map[string]string{"cs": "2025-04-01T12:00:06Z", "tts": "2025-04-01T12:00:05Z"} {
			tag := e.must(t, e.admin["acme"], "GET", fmt.Sprintf("/api/tag/%d", e.id[key]), nil, http.StatusOK).Obj()
			if tag["latestTime"] != want {
				t.Errorf("%s: latest time %v, want %s", key, tag["latestTime"], want)
			}
		}
		if keys := e.meta(t, e.id["cs"]); keys["refused"] != nil || keys["level"]["value"] != 6.0 {
			t.Errorf("keys of cs: %v", keys)
		}
	})
}
