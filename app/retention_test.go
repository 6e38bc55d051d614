package app_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestTagDataRetention checks that the portal schedules the tag data
// retention of FIELDHUB_TSDB_RETENTION_DAYS: run now, the job deletes the
// values older than that and keeps the newer ones. Without the setting
// there is no such job.
func TestTagDataRetention(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		ta := kerneltest.Start(t, d, map[string]string{"FIELDHUB_TSDB_RETENTION_DAYS": "7"}, app.Build)
		root := ta.SuperAdmin(t)
		own := ta.Company(t, root, "Retention AB", "retention.example")
		application := ta.Call(t, "POST", fmt.Sprintf("/api/applications/%d", own.CompanyID), own.CompanyAdminToken, map[string]any{"name": "Kept"}).Num("id")
		if r := ta.Call(t, "POST", fmt.Sprintf("/api/applications/%d/tag", application), own.CompanyAdminToken,
			map[string]any{"name": "Old and new", "deveui": "70B3D57ED00000AA"}); r.Status != 201 {
			t.Fatalf("tag: %d %s", r.Status, r.Body)
		}
		token := ta.Call(t, "POST", fmt.Sprintf("/api/integration/tokens/%d", own.CompanyID), own.CompanyAdminToken,
			map[string]any{"label": "retention", "isCompany": true}).Str("token")
		now := time.Now().UTC()
		for _, age := range []time.Duration{10 * 24 * time.Hour, 8 * 24 * time.Hour, 6 * 24 * time.Hour, time.Hour} {
			if r := ta.Call(t, "POST", "/api/ingest/generic", token, map[string]any{"devEui": "70B3D57ED00000AA",
				"time": now.Add(-age).Format(time.RFC3339), "values": map[string]any{"t": 1}}); r.Status != 200 {
				t.Fatalf("uplink: %d %s", r.Status, r.Body)
			}
		}
		count := func() int {
			var n int
			if err := ta.Host().DB.NewRaw("SELECT count(*) FROM tsdb_points").Scan(context.Background(), &n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		if n := count(); n != 4 {
			t.Fatalf("%d points stored, want 4", n)
		}
		if err := ta.Host().Scheduler.RunNow("tsdb", "retention"); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(15 * time.Second); count() != 2; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d points left, want the 2 of the last 7 days", count())
			}
		}
	})
	t.Run("no job without the setting", func(t *testing.T) {
		ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
		if err := ta.Host().Scheduler.RunNow("tsdb", "retention"); err == nil {
			t.Error("a tag data retention job runs though FIELDHUB_TSDB_RETENTION_DAYS is 0")
		}
	})
}
