package alarms_test

import (
	"context"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestInactivityScale measures the inactivity scan over many nodes on
// PostgreSQL (docs/performance.md, "Inactivity scan"). It runs only when
// FIELDHUB_BENCH_INACTIVITY names the number of nodes:
//
//	FIELDHUB_BENCH_INACTIVITY=100000 go test -count=1 -run TestInactivityScale -v ./modules/alarms/
//
// It reports the scan that meets every node silent at once (a notice per
// node, written set-based, and one mail to the company listing them) and
// the steady scan after it, when no node fell silent since.
func TestInactivityScale(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("FIELDHUB_BENCH_INACTIVITY"))
	if n <= 0 {
		t.Skip("set FIELDHUB_BENCH_INACTIVITY to the number of nodes")
	}
	p := kerneltest.Start(t, db.Postgres, quiet, app.Build)
	dev := kerneltest.NewDevices(t, p.Client, p.App, p.App.Series())
	// The company has an inactivity contact, so that the first scan also
	// writes the mail (one listing its 100,000 newly silent nodes).
	dev.Must(t, "acmeAdmin", "PUT", "/api/settings/company/{acme}", map[string]any{"INACTIVITY_EMAIL": "night@acme.se"}, http.StatusOK)
	ctx := context.Background()
	now := time.Now().UTC()
	_, err := p.Host().DB.NewRaw(`INSERT INTO tags (company_id, application_id, name, deveui, decoder, latest_time, created_at, updated_at)
		SELECT ?, ?, 'Bench ' || g, lpad(to_hex(g + 4096), 16, '0'), 'raw', ?::timestamptz - (g % 1000) * interval '1 second', ?, ?
		FROM generate_series(1, ?) AS g`, dev.ID(t, "{acme}"), dev.ID(t, "{acmeApp}"), now.Add(-7*time.Hour), now, now, n).Exec(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Host().DB.ExecContext(ctx, "ANALYZE tags"); err != nil {
		t.Fatal(err)
	}
	for _, run := range []string{"first scan (every node falls silent)", "steady scan", "steady scan"} {
		start := time.Now()
		if err := p.App.Alarms().ScanInactivity(ctx, now); err != nil {
			t.Fatal(err)
		}
		t.Logf("%d nodes, %s: %s", n, run, time.Since(start).Round(time.Millisecond))
	}
	var mails int
	if err := p.Host().DB.NewRaw("SELECT count(*) FROM mail_outbox WHERE subject LIKE 'Inactive node%'").Scan(ctx, &mails); err != nil {
		t.Fatal(err)
	}
	if n > 10 && mails != 1 {
		t.Errorf("%d inactivity mails for %d nodes of one company, want one listing them", mails, n)
	}
}
