package nodes_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// A Swedish company's people see the node pages and the export in
// Europe/Stockholm time, with the zone named, and a user's own zone wins.
func TestNodePagesShowTimesInTheViewersZone(t *testing.T) {
	p := kerneltest.Start(t, db.SQLite, nil, app.Build)
	s := kerneltest.Companies(t, p.Client, p.App, kerneltest.CompanySpec{Key: "acme", Ingest: true})
	c, tok, acme := p.Client, s.Tokens, s.Tenants(t).ID["acme"]
	const eui = "70B3D57ED0000A01"
	c.AppNode(t, tok["acmeAdmin"], acme, "Field", "Sensor", eui)
	winter := time.Date(2026, 1, 15, 5, 27, 29, 0, time.UTC)
	summer := time.Date(2026, 7, 1, 22, 30, 0, 0, time.UTC)
	for i, at := range []time.Time{winter, summer} {
		c.Must(t, "POST", "/api/ingest/generic", tok["acmeIngest"], map[string]any{
			"devEui": eui, "time": at.Format(time.RFC3339), "values": map[string]any{"temperature": 20.0 + float64(i)},
		}, http.StatusOK)
	}
	details := "/tagdetails/" + eui

	page := c.Page(t, "GET", details, tok["acmeAdmin"], nil)
	kerneltest.Contains(t, kerneltest.Main(page.Body),
		[]string{"2026-01-15 06:27:29 CET", "2026-07-02 00:30:00 CEST", "CSV, tider i Europe/Stockholm"},
		[]string{" UTC<", "2026-01-15 05:27:29"})
	if !strings.Contains(page.Body, `data-time-zone="Europe/Stockholm"`) {
		t.Errorf("the page does not tell the islands its zone")
	}

	export := c.Page(t, "GET", details+"/data.csv?from=2026-01-01T00:00:00Z&to=2026-08-01T00:00:00Z", tok["acmeAdmin"], nil)
	want := "Tid (Europe/Stockholm),UTC,temperature\n" +
		"2026-01-15 06:27:29,2026-01-15T05:27:29Z,20\n" +
		"2026-07-02 00:30:00,2026-07-01T22:30:00Z,21\n"
	if export.Status != http.StatusOK || export.Body != want || !strings.HasPrefix(export.Header.Get("Content-Type"), "text/csv") {
		t.Errorf("export: %d %q\n%s\nwant\n%s", export.Status, export.Header.Get("Content-Type"), export.Body, want)
	}
	if cd := export.Header.Get("Content-Disposition"); cd != `attachment; filename="70B3D57ED0000A01-2026-08-01.csv"` {
		t.Errorf("export file: %q", cd)
	}
	if bad := c.Page(t, "GET", details+"/data.csv?from=yesterday", tok["acmeAdmin"], nil); bad.Status != http.StatusBadRequest {
		t.Errorf("a bad from: %d", bad.Status)
	}

	// The user's own zone wins over the company's; a zone that does not
	// exist is refused with its own message.
	r := c.Call(t, "POST", "/api/settings", tok["acmeAdmin"], map[string]any{"timezone": "Mars/Olympus"})
	if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "settings.timezone.invalid") {
		t.Fatalf("unknown zone: %d %s", r.Status, r.Body)
	}
	c.Must(t, "POST", "/api/settings", tok["acmeAdmin"], map[string]any{"timezone": "America/New_York"}, http.StatusOK)
	page = c.Page(t, "GET", details, tok["acmeAdmin"], nil)
	kerneltest.Contains(t, kerneltest.Main(page.Body), []string{"2026-01-15 00:27:29 EST", "2026-07-01 18:30:00 EDT"}, []string{"CET"})
	export = c.Page(t, "GET", details+"/data.csv?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z", tok["acmeAdmin"], nil)
	if !strings.HasPrefix(export.Body, "Tid (America/New_York),UTC,temperature\n2026-01-15 00:27:29,") {
		t.Errorf("export in the user's zone: %s", export.Body)
	}
	c.Must(t, "POST", "/api/settings", tok["acmeAdmin"], map[string]any{"timezone": ""}, http.StatusOK)
	page = c.Page(t, "GET", "/tag", tok["acmeAdmin"], nil)
	kerneltest.Contains(t, kerneltest.Main(page.Body), []string{`title="2026-07-02 00:30:00 CEST"`}, nil)
}
