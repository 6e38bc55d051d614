package gateways_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// fakeNominatim answers /reverse as Nominatim does (EXTERNAL-APIS.md
// section 5): an address, a 200 with {"error": "Unable to geocode"} where
// it knows none (here north of 80°), a 400 with its error object for a
// missing parameter.
func fakeNominatim(t *testing.T, calls *atomic.Int32) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		q := r.URL.Query()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path != "/reverse" || q.Get("format") != "jsonv2" || r.UserAgent() == "" || strings.HasPrefix(r.UserAgent(), "Go-http-client"):
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"error":{"code":400,"message":"Parameter 'format' missing."}}`)
		case strings.HasPrefix(q.Get("lat"), "8"):
			fmt.Fprint(w, `{"error":"Unable to geocode"}`)
		case q.Get("lat") == "60.000000":
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			// The Python frontend's types: numbers for place_id, strings for lat and lon.
			fmt.Fprintf(w, `{"place_id":134140761,"licence":"Data © OpenStreetMap contributors","osm_type":"way","osm_id":280940520,"lat":"%s","lon":"%s",`+
				`"place_rank":26,"category":"highway","type":"primary","importance":0.1,"addresstype":"road","name":"Drottninggatan",`+
				`"display_name":"Drottninggatan, Norrmalm, Stockholm (%s)","boundingbox":["59.33","59.34","18.06","18.07"]}`, q.Get("lat"), q.Get("lon"), q.Get("accept-language"))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestGeocode checks the address lookup through the server: an address, no
// address, a failing service, bad input, answers cached, and off without
// the option.
func TestGeocode(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := fakeNominatim(t, &calls)
	p := kerneltest.Start(t, db.SQLite, map[string]string{"FIELDHUB_GEOCODE_URL": srv.URL}, app.Build)
	root := p.SuperAdmin(t)
	people := p.Client.EnglishCompany(t, root, "Gate Works AB", "gate.example")
	admin := people.CompanyAdminToken
	r := p.Client.Must(t, "GET", "/api/gateway/geocode?lat=59.3345&lon=18.0632", admin, nil, http.StatusOK, "Accept-Language", "sv")
	if r.Obj()["found"] != true || !strings.HasPrefix(r.Str("displayName"), "Drottninggatan, Norrmalm, Stockholm") {
		t.Errorf("an address: %s", r.Body)
	}
	p.Client.Must(t, "GET", "/api/gateway/geocode?lat=59.3345&lon=18.0632", admin, nil, http.StatusOK, "Accept-Language", "sv")
	if n := calls.Load(); n != 1 {
		t.Errorf("the service was asked %d times for one position; want once (cached)", n)
	}
	if r := p.Client.Must(t, "GET", "/api/gateway/geocode?lat=85&lon=0", admin, nil, http.StatusOK); r.Obj()["found"] != false || r.Str("displayName") != "" {
		t.Errorf("no address: %s", r.Body)
	}
	if r := p.Client.Call(t, "GET", "/api/gateway/geocode?lat=60&lon=0", admin, nil); r.Status != http.StatusServiceUnavailable ||
		!strings.Contains(string(r.Body), "could not be reached") {
		t.Errorf("a failing service: %d %s", r.Status, r.Body)
	}
	for _, q := range []string{"lat=91&lon=0", "lat=1&lon=x", "lon=1"} {
		if r := p.Client.Call(t, "GET", "/api/gateway/geocode?"+q, admin, nil); r.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", q, r.Status, r.Body)
		}
	}
	if r := p.Client.Call(t, "GET", "/api/gateway/geocode?lat=1&lon=1", people.UserToken, nil); r.Status != http.StatusForbidden {
		t.Errorf("a User: %d %s", r.Status, r.Body)
	}

	off := kerneltest.Start(t, db.SQLite, nil, app.Build)
	offRoot := off.SuperAdmin(t)
	if r := off.Client.Call(t, "GET", "/api/gateway/geocode?lat=1&lon=1", offRoot, nil); r.Status != http.StatusNotFound || !strings.Contains(string(r.Body), "not configured") {
		t.Errorf("without FIELDHUB_GEOCODE_URL: %d %s", r.Status, r.Body)
	}
}
