package kerneltest

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// Devices is the fixture of the tests that decode the uplinks of nodes
// (the decoders' and the ingest's decoding again): two companies, acme and
// beta, each with its CompanyAdmin (Ada Acme, Ada Beta), an integration
// token ("acmeIngest") and an application ("{acmeApp}", "Field acme") with
// one node ("{acmeNode}", "Node acme", DevEUI 70B3D57ED0000001, beta's
// 70B3D57ED0000002); acme also has a User. It is made through the API
// with Companies, so the session names the callers.
type Devices struct {
	*Session
	// Store is the portal's time series.
	Store tsdb.Store
	// EUI are the nodes' DevEUIs: "acmeNode", "betaNode".
	EUI map[string]string
}

// NewDevices makes the fixture on c's portal, whose time series is store.
func NewDevices(tb testing.TB, c *Client, admins SuperAdmins, store tsdb.Store) *Devices {
	tb.Helper()
	d := &Devices{Store: store, EUI: map[string]string{}}
	var specs []CompanySpec
	for i, key := range []string{"acme", "beta"} {
		node := key + "Node"
		d.EUI[node] = fmt.Sprintf("70B3D57ED00000%02X", i+1)
		specs = append(specs, CompanySpec{Key: key, Admin: map[string]any{"firstName": "Ada", "lastName": strings.ToUpper(key[:1]) + key[1:]},
			Ingest: true, App: "Field " + key, Nodes: []NodeSpec{{Key: node, Name: "Node " + key, DevEUI: d.EUI[node]}}, User: key == "acme"})
	}
	d.Session = Companies(tb, c, admins, specs...)
	return d
}

// CreateDecoder makes a JavaScript decoder of company as its CompanyAdmin
// and returns its id.
func (d *Devices) CreateDecoder(tb testing.TB, company, name, source string) int64 {
	tb.Helper()
	return d.Must(tb, company+"Admin", "POST", "/api/companies/{"+company+"}/decoders",
		map[string]any{"name": name, "source": source}, http.StatusCreated).Num("id")
}

// UseDecoder sets the decoder of company's node.
func (d *Devices) UseDecoder(tb testing.TB, company, key string) {
	tb.Helper()
	d.Must(tb, company+"Admin", "PUT", "/api/tag/"+d.EUI[company+"Node"], map[string]any{"decoder": key}, http.StatusOK)
}

// Uplink posts a ChirpStack uplink of company's node with payload, fails
// the test unless it is taken (200), and returns the answer.
func (d *Devices) Uplink(tb testing.TB, company string, at time.Time, fPort int, payload []byte) Response {
	tb.Helper()
	r := d.PostUplink(tb, company, at, fPort, payload)
	if r.Status != http.StatusOK {
		tb.Fatalf("uplink of %s: %d %s", company, r.Status, r.Body)
	}
	return r
}

// PostUplink posts a ChirpStack uplink of company's node with payload, as
// ChirpStack does with the company's integration token, and returns the
// answer.
func (d *Devices) PostUplink(tb testing.TB, company string, at time.Time, fPort int, payload []byte) Response {
	tb.Helper()
	return d.Call(tb, company+"Ingest", "POST", "/api/ingest/chirpstack?event=up", map[string]any{
		"time":       at.UTC().Format(time.RFC3339Nano),
		"deviceInfo": map[string]any{"devEui": strings.ToLower(d.EUI[company+"Node"])},
		"fPort":      fPort,
		"data":       payload,
		"rxInfo":     []any{map[string]any{"gatewayId": "0016c001f153a14c", "rssi": -80, "snr": 7.25}},
	})
}

// Series is the series of a key of company's node.
func (d *Devices) Series(tb testing.TB, company, key string) tsdb.Series {
	tb.Helper()
	return tsdb.Series{Company: d.ID(tb, "{"+company+"}"), DevEUI: strings.ToLower(d.EUI[company+"Node"]), Key: key}
}

// Latest returns the newest stored point of a key of company's node, and
// whether there is one.
func (d *Devices) Latest(tb testing.TB, company, key string) (tsdb.Point, bool) {
	tb.Helper()
	return Latest(tb, d.Store, d.Series(tb, company, key))
}

// Points returns the stored points of a key of company's node in
// [from, to).
func (d *Devices) Points(tb testing.TB, company, key string, from, to time.Time) []tsdb.Point {
	tb.Helper()
	pts, err := d.Store.Range(context.Background(), d.Series(tb, company, key), from, to, 10_000)
	if err != nil {
		tb.Fatal(err)
	}
	return pts
}

// Latest returns the newest point of a series of store, and whether there
// is one; it fails the test when the store cannot tell.
func Latest(tb testing.TB, store tsdb.Store, s tsdb.Series) (tsdb.Point, bool) {
	tb.Helper()
	p, ok, err := store.Latest(context.Background(), s)
	if err != nil {
		tb.Fatal(err)
	}
	return p, ok
}
