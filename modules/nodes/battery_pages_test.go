package nodes_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestBatteryPagesShowUnits checks that the node list and /tagdetails show a
// node's battery as percent and volts in the page's language: an Elsys-style
// vdd in millivolts as volts, never as a number without a unit or a percent
// above 100.
func TestBatteryPagesShowUnits(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	for _, c := range []struct {
		lang                                string
		company                             func() kerneltest.People
		list, details, percent, noneDetails []string
	}{
		{"sv", func() kerneltest.People { return ta.Company(t, root, "Acme AB", "acme.example") },
			[]string{"3,6\u00a0V"}, []string{"Batterispänning", "<dd>3,6\u00a0V</dd>"}, []string{"87\u00a0% · 3,6\u00a0V", "<dd>87\u00a0%</dd>"},
			[]string{"Batteri</dt><dd class=\"muted\">"}},
		{"en", func() kerneltest.People { return ta.EnglishCompany(t, root, "Beta Ltd", "beta.example") },
			[]string{"3.6\u00a0V"}, []string{"Battery voltage", "<dd>3.6\u00a0V</dd>"}, []string{"87\u00a0% · 3.6\u00a0V", "<dd>87\u00a0%</dd>"},
			[]string{"Battery</dt><dd class=\"muted\">"}},
	} {
		t.Run(c.lang, func(t *testing.T) {
			people := c.company()
			eui := map[string]string{"sv": "70B3D57ED005B001", "en": "70B3D57ED005B002"}[c.lang]
			ta.AppNode(t, people.CompanyAdminToken, people.CompanyID, "Field", "Elsys", eui)
			tok := ta.Call(t, "POST", fmt.Sprintf("/api/integration/tokens/%d", people.CompanyID), people.CompanyAdminToken,
				map[string]any{"label": "ingest", "isCompany": true}).Str("token")
			uplink := func(at time.Time, values map[string]any) {
				t.Helper()
				r := ta.Call(t, "POST", "/api/ingest/generic", tok, map[string]any{"devEui": eui, "time": at.Format(time.RFC3339), "values": values})
				if r.Status != http.StatusOK {
					t.Fatalf("uplink: %d %s", r.Status, r.Body)
				}
			}
			now := time.Now().UTC().Truncate(time.Second)
			uplink(now.Add(-2*time.Minute), map[string]any{"temperature": 21.5, "vdd": 3600})
			list := kerneltest.Main(ta.Page(t, "GET", "/tag", people.UserToken, nil).Body)
			details := kerneltest.Main(ta.Page(t, "GET", "/tagdetails/"+eui, people.CompanyAdminToken, nil).Body)
			kerneltest.Contains(t, list, c.list, []string{"3600", "3\u00a0600", "%"})
			kerneltest.Contains(t, details, append(c.details, c.noneDetails...), []string{"<dd>3600", "3\u00a0600"})

			// A percent of its own joins the voltage; one above 100 is no
			// percent and leaves the last one.
			uplink(now.Add(-time.Minute), map[string]any{"temperature": 21.5, "vdd": 3600, "batteryLevel": 87})
			uplink(now, map[string]any{"temperature": 21.5, "vdd": 3600, "batteryLevel": 140})
			list = kerneltest.Main(ta.Page(t, "GET", "/tag", people.UserToken, nil).Body)
			details = kerneltest.Main(ta.Page(t, "GET", "/tagdetails/"+eui, people.CompanyAdminToken, nil).Body)
			kerneltest.Contains(t, list+details, c.percent, []string{"140\u00a0%"})
		})
	}
}
