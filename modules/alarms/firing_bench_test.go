package alarms_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/kerneltest/smsfake"
	"github.com/fieldhub/fieldhub/sdk/sms/smstest"
)

// TestFiringToProviderLatency measures how long an alarm's SMS takes from
// the uplink that fires it to the SMS provider's receipt of the request
// (docs/performance.md, "Firing to provider request"), on PostgreSQL,
// through the real 46elks plugin process and the 46elks double. It runs
// only when FIELDHUB_BENCH_FIRING names the number of firings:
//
//	FIELDHUB_BENCH_FIRING=200 go test -count=1 -run TestFiringToProviderLatency -v ./modules/alarms/
//
// Each firing is its own rule (HIGH on its own key of acme's node, no
// delay, SMS only) and its own uplink, one after another: the time runs
// from just before the uplink's POST (so it includes the ingest's commit,
// the evaluation, the outbox and the plugin) to the double's receipt.
func TestFiringToProviderLatency(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("FIELDHUB_BENCH_FIRING"))
	if n <= 0 {
		t.Skip("set FIELDHUB_BENCH_FIRING to the number of firings")
	}
	dir := t.TempDir()
	if err := os.Rename(smstest.Build(t, "../../plugins/sms-46elks"), filepath.Join(dir, "sms-46elks")); err != nil {
		t.Fatal(err)
	}
	elks := smsfake.NewElks(t, "u0123", "elks-secret")
	var mu sync.Mutex
	received := map[int]time.Time{}
	elks.BeforeAnswer = func(i int) {
		mu.Lock()
		received[i] = time.Now()
		mu.Unlock()
	}
	t.Setenv("SMS_46ELKS_URL", elks.URL()) // the plugin inherits the portal's environment
	vars := map[string]string{"FIELDHUB_PLUGIN_DIR": dir}
	for k, v := range quiet {
		vars[k] = v
	}
	p := kerneltest.Start(t, db.Postgres, vars, app.Build)
	dev := kerneltest.NewDevices(t, p.Client, p.App, p.App.Series())
	e := &env{Session: dev.Session, p: p, eui: dev.EUI}
	e.Must(t, "super", "POST", "/api/settings/global", map[string]any{"SMS_PROVIDER": "46elks",
		"ELKS_USERNAME": "u0123", "ELKS_PASSWORD": "elks-secret", "ELKS_SENDER": "Fieldhub"}, http.StatusOK)
	for i := range n {
		e.create(t, rule(fmt.Sprintf("Firing %d", i), map[string]any{"tagDataKey": fmt.Sprintf("k%d", i), "alarmDelay": 0,
			"priority": 1, "contactType": 0, "alarmContacts": []string{"+46 70-111 22 33"}}))
	}
	t0 := time.Now().UTC().Add(-time.Duration(n+1) * time.Second).Truncate(time.Second)
	lat := make([]time.Duration, 0, n)
	for i := range n {
		start := time.Now()
		e.uplink(t, "acme", t0.Add(time.Duration(i)*time.Second), map[string]any{fmt.Sprintf("k%d", i): 20.0})
		if got := elks.WaitAccepted(i+1, 30*time.Second); len(got) != i+1 {
			t.Fatalf("firing %d: the double accepted %d SMS, want %d", i, len(got), i+1)
		}
		mu.Lock()
		lat = append(lat, received[i+1].Sub(start))
		mu.Unlock()
	}
	slices.Sort(lat)
	q := func(p float64) time.Duration {
		return lat[min(len(lat)-1, int(p*float64(len(lat))))].Round(100 * time.Microsecond)
	}
	t.Logf("%d firings, uplink to the provider's receipt: p50 %s, p90 %s, p99 %s, max %s", n, q(0.5), q(0.9), q(0.99), lat[len(lat)-1].Round(100*time.Microsecond))
}
