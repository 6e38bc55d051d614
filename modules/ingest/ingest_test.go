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
// node for each fixture's DevEUI ("cs", "tts"); both have an integration
// token. The tests drive the ingest as the network servers do, through the
// netservers module's routes (POST /api/ingest/generic), which hand each
// message to ingest.Service.
type env struct {
	*kerneltest.Tenants
	c     *kerneltest.Client
	store tsdb.Store
}

// newEnvWith starts the portal with the modules writing through wrap's
// store.
func newEnvWith(t *testing.T, d db.Dialect, wrap func(tsdb.Store) tsdb.Store) *env {
	t.Helper()
	p := kerneltest.Start(t, d, nil, app.Options{WrapSeries: wrap}.Build)
	s := kerneltest.Companies(t, p.Client, p.App, kerneltest.CompanySpec{Key: "acme", Ingest: true, App: "Field", Nodes: []kerneltest.NodeSpec{
		{Key: "cs", Name: "Node cs", DevEUI: csEUI}, {Key: "tts", Name: "Node tts", DevEUI: strings.ToUpper(ttsEUI)}}},
		kerneltest.CompanySpec{Key: "beta", Ingest: true})
	return &env{Tenants: s.Tenants(t), c: p.Client, store: p.App.Series()}
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
		acme := e.ID["acme"]
		at := func(i int) time.Time { return time.Date(2025, 4, 1, 12, 0, i, 0, time.UTC) }
		post := func(eui string, i int, key string) int {
			body := fmt.Sprintf(`{"devEui":%q,"time":%q,"values":{%q:%d}}`, eui, at(i).Format(time.RFC3339), key, i)
			req, _ := http.NewRequest("POST", e.c.Base+"/api/ingest/generic", strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+e.Token["acme"])
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
		if _, ok := kerneltest.Latest(t, e.store, tsdb.Series{Company: acme, DevEUI: csEUI, Key: "refused"}); ok {
			t.Error("the refused uplink was stored")
		}
		// Each node's state is its newest uplink's, however the batch held
		// them.
		for key, want := range map[string]string{"cs": "2025-04-01T12:00:06Z", "tts": "2025-04-01T12:00:05Z"} {
			tag := e.c.Must(t, "GET", fmt.Sprintf("/api/tag/%d", e.ID[key]), e.Admin["acme"], nil, http.StatusOK).Obj()
			if tag["latestTime"] != want {
				t.Errorf("%s: latest time %v, want %s", key, tag["latestTime"], want)
			}
		}
		if keys := e.c.TagData(t, e.Admin["acme"], e.ID["cs"]); keys["refused"] != nil || keys["level"]["value"] != 6.0 {
			t.Errorf("keys of cs: %v", keys)
		}
	})
}
