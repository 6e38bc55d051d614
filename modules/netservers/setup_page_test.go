package netservers_test

import (
	"fmt"
	"html"
	"net/http"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestApplicationPageIngestSetup: the page of an application says where
// its network server sends uplinks (FIELDHUB_PUBLIC_URL and the route),
// with the header, copy buttons, the network server's settings, whether
// the company has a token, and the first uplink's status for the
// first-uplink island to follow.
func TestApplicationPageIngestSetup(t *testing.T) {
	t.Parallel()
	p := kerneltest.Start(t, db.SQLite, map[string]string{"FIELDHUB_PUBLIC_URL": "https://portal.example.com/"}, app.Build)
	c := p.Client
	ten := kerneltest.Companies(t, c, p.App,
		kerneltest.CompanySpec{Key: "acme", Country: "GB", Ingest: true, App: "Generic", Nodes: []kerneltest.NodeSpec{{Key: "node", Name: "Cellar", DevEUI: "0004a30b001c1452"}}},
		kerneltest.CompanySpec{Key: "beta", Country: "GB"}).Tenants(t)
	newApp := func(company, network string) int64 {
		return c.Must(t, "POST", fmt.Sprintf("/api/applications/%d", ten.ID[company]), ten.Admin[company], map[string]any{"name": network, "networkServer": network}, http.StatusCreated).Num("id")
	}
	page := func(company string, id int64) string {
		t.Helper()
		pg := c.Page(t, "GET", fmt.Sprintf("/application/%d", id), ten.Admin[company], nil)
		if pg.Status != http.StatusOK {
			t.Fatalf("GET /application/%d: %d %.300s", id, pg.Status, pg.Body)
		}
		return html.UnescapeString(pg.Body)
	}

	cases := []struct {
		name, company string
		app           int64
		want, not     []string
	}{
		{"ChirpStack", "acme", newApp("acme", "chirpstack"), []string{
			"Connect ChirpStack", `id="ingest-url"`, `value="https://portal.example.com/api/ingest/chirpstack"`, `data-copy="ingest-url"`,
			`data-copied="Copied link to clipboard"`, `value="Authorization"`, `data-copy="ingest-header"`, "Bearer fh_",
			"ChirpStack adds ?event=up, ?event=join", "add the HTTP integration", "Payload encoding: JSON.", "Event types:",
			"Integration tokens of the company: 1.", `data-island="first-uplink"`, "Waiting for the first uplink",
		}, []string{"?event=up\"", "ingest/tts", "has no integration token"}},
		{"The Things Stack", "acme", newApp("acme", "tts"), []string{
			"Connect The Things Stack", `value="https://portal.example.com/api/ingest/tts"`, "base URL", "custom webhook",
			"Webhook format: JSON.", "Uplink message and Join accept", "Waiting for the first uplink",
		}, []string{"ingest/chirpstack"}},
		{"generic with a node that has not reported", "acme", ten.ID["acmeApp"], []string{
			`value="https://portal.example.com/api/ingest/generic"`, `"devEui": "70B3D57ED0000001"`,
			`"deveuis":["0004A30B001C1452"]`, "Waiting for the first uplink",
		}, []string{`"last"`}},
		{"a company without a token", "beta", newApp("beta", "chirpstack"), []string{
			"The company has no integration token yet.", `href="/company/tokens"`, `"deveuis":[]`,
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := page(tc.company, tc.app)
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("the page lacks %q", w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(body, n) {
					t.Errorf("the page has %q", n)
				}
			}
		})
	}

	t.Run("a node that reported turns the status green", func(t *testing.T) {
		c.Must(t, "POST", "/api/ingest/generic", ten.Token["acme"], map[string]any{"devEui": "0004A30B001C1452", "values": map[string]any{"t": 1}}, http.StatusOK)
		body := page("acme", ten.ID["acmeApp"])
		for _, w := range []string{"uplink-status received", "Last uplink from Cellar (0004A30B001C1452):", `"last":{"name":"Cellar","deveui":"0004A30B001C1452"`} {
			if !strings.Contains(body, w) {
				t.Errorf("the page lacks %q", w)
			}
		}
		if strings.Contains(body, "Waiting for the first uplink") {
			t.Error("the page still waits")
		}
	})
}
