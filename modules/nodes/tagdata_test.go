package nodes_test

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// The DevEUIs of the tag data fixtures: Acme's node with data, Acme's
// node without, and Beta's node with data.
const (
	sensorEUI = "70B3D57ED0000001"
	quietEUI  = "70B3D57ED0000002"
	betaEUI   = "70B3D57ED0000003"
)

// dataEnv is a running portal whose nodes module reads the SQL time series
// that the ingest writes. Acme has a node with uplinks ("sensor") and one
// without ("quiet"); Beta has a node with uplinks.
type dataEnv struct {
	c     *kerneltest.Client
	store tsdb.Store
	now   time.Time
	// tokens by who: acmeAdmin, acmeUser, betaAdmin, and the integration
	// tokens acmeIngest and betaIngest.
	tok map[string]string
	id  map[string]int64 // acme, beta (companies), sensor, quiet, foreign (tags)
}

func newDataEnv(t *testing.T, d db.Dialect) *dataEnv {
	t.Helper()
	p := kerneltest.Start(t, d, nil, app.Build)
	s := kerneltest.Companies(t, p.Client, p.App, kerneltest.CompanySpec{Key: "acme", Ingest: true, User: true}, kerneltest.CompanySpec{Key: "beta", Ingest: true})
	e := &dataEnv{c: p.Client, store: p.App.Series(), tok: s.Tokens, id: s.Tenants(t).ID}
	for _, n := range []struct{ company, key, name, eui string }{
		{"acme", "sensor", "Sensor", sensorEUI}, {"acme", "quiet", "Quiet", quietEUI}, {"beta", "foreign", "Foreign", betaEUI},
	} {
		e.id[n.key] = e.c.AppNode(t, e.tok[n.company+"Admin"], e.id[n.company], "Field "+n.key, n.name, n.eui).TagID
	}
	// Uplinks through the ingest: one 30 hours ago (outside the default
	// window) and three in the last hours, each with five keys.
	e.now = time.Now().UTC()
	for i, ago := range []time.Duration{30 * time.Hour, 3 * time.Hour, 2 * time.Hour, time.Hour} {
		for _, company := range []string{"acme", "beta"} {
			eui := sensorEUI
			if company == "beta" {
				eui = betaEUI
			}
			r := e.c.Call(t, "POST", "/api/ingest/generic", e.tok[company+"Ingest"], map[string]any{
				"devEui": eui, "time": e.now.Add(-ago).Format(time.RFC3339Nano),
				"values": map[string]any{"temperature": 20.0 + float64(i), "note": fmt.Sprintf("reading %d", i)},
				"rssi":   -70 - i, "snr": 7.5, "battery": 3.6,
			})
			if r.Status != http.StatusOK {
				t.Fatalf("uplink: %d %s", r.Status, r.Body)
			}
		}
	}
	return e
}

// get calls a GET route as who and wants 200.
func (e *dataEnv) get(t *testing.T, who, path string) kerneltest.Response {
	t.Helper()
	return e.c.Must(t, "GET", path, e.tok[who], nil, http.StatusOK)
}

// write stores points of Acme's sensor directly, as a long history would
// have them.
func (e *dataEnv) write(t *testing.T, key string, at []time.Time, values []float64) {
	t.Helper()
	s := tsdb.Series{Company: e.id["acme"], DevEUI: strings.ToLower(sensorEUI), Key: key}
	pts := make([]tsdb.Point, len(at))
	for i := range at {
		pts[i] = tsdb.Number(s, at[i], values[i])
	}
	if err := e.store.Write(context.Background(), pts); err != nil {
		t.Fatal(err)
	}
}

func at(v any) time.Time {
	s, _ := v.(string)
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

func ts(t time.Time) string { return url.QueryEscape(t.Format(time.RFC3339Nano)) }

func objects(t *testing.T, r kerneltest.Response) []map[string]any {
	t.Helper()
	if r.JSON == nil {
		t.Fatalf("not JSON: %s", r.Body)
	}
	var out []map[string]any
	for _, x := range r.List() {
		out = append(out, x.(map[string]any))
	}
	return out
}

func TestTagData(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newDataEnv(t, d)
		acme, sensor, quiet, foreign := e.id["acme"], e.id["sensor"], e.id["quiet"], e.id["foreign"]

		t.Run("points of the last 24 hours by default, in the tag data shape", func(t *testing.T) {
			got := objects(t, e.get(t, "acmeUser", fmt.Sprintf("/api/tag/tagdata?tagId=%d&key=temperature", sensor)))
			if len(got) != 3 {
				t.Fatalf("got %d points, want the 3 of the last 24 hours: %v", len(got), got)
			}
			for i, p := range got {
				want := e.now.Add(-time.Duration(3-i) * time.Hour).Truncate(time.Microsecond)
				if p["id"] != float64(sensor) || p["name"] != "Sensor" || p["key"] != "temperature" || p["value"] != 21.0+float64(i) ||
					!at(p["createdAt"]).Equal(want) || p["tagDeveui"] != sensorEUI || p["defaultKey"] != false || p["label"] != "" {
					t.Errorf("point %d: %v, want value %v at %s", i, p, 21.0+float64(i), want)
				}
			}
			// A window that reaches the old uplink, and texts.
			got = objects(t, e.get(t, "acmeUser", fmt.Sprintf("/api/tag/tagdata?tagId=%d&key=note&from=%s&to=%s",
				sensor, ts(e.now.Add(-31*time.Hour)), ts(e.now.Add(-150*time.Minute)))))
			if len(got) != 2 || got[0]["value"] != "reading 0" || got[1]["value"] != "reading 1" {
				t.Errorf("texts of a window: %v", got)
			}
		})

		t.Run("the default key, and none", func(t *testing.T) {
			r := e.c.Call(t, "GET", fmt.Sprintf("/api/tag/tagdata?tagId=%d", sensor), e.tok["acmeUser"], nil)
			if r.Status != http.StatusBadRequest || r.Obj()["errorIds"].(map[string]any)["key"].([]any)[0] != "nodes.tagdata.noKey" {
				t.Fatalf("without a default key: %d %s", r.Status, r.Body)
			}
			e.c.Must(t, "POST", "/api/tag/key/update", e.tok["acmeAdmin"], map[string]any{"tagId": sensor, "key": "temperature",
				"label": "Temperature", "unit": "°C", "defaultKey": true}, http.StatusOK)
			got := objects(t, e.get(t, "acmeUser", fmt.Sprintf("/api/tag/tagdata?tagId=%d", sensor)))
			if len(got) != 3 || got[2]["key"] != "temperature" || got[2]["label"] != "Temperature" || got[2]["unit"] != "°C" || got[2]["defaultKey"] != true {
				t.Errorf("default key: %v", got)
			}
		})

		t.Run("downsampled to max points", func(t *testing.T) {
			// 3,000 points every 20 s from 20 hours ago, a spike among them.
			var when []time.Time
			var vals []float64
			for i := range 3000 {
				when = append(when, e.now.Add(-20*time.Hour+time.Duration(i)*20*time.Second))
				v := math.Sin(float64(i) / 50)
				if i == 1234 {
					v = 99
				}
				vals = append(vals, v)
			}
			e.write(t, "level", when, vals)
			for _, tc := range []struct {
				query string
				want  int
			}{{"", 1000}, {"&max=100", 100}, {"&max=10000", 3000}, {"&max=1", 1}} {
				got := objects(t, e.get(t, "acmeUser", fmt.Sprintf("/api/tag/tagdata?tagId=%d&key=level%s", sensor, tc.query)))
				if len(got) != tc.want {
					t.Errorf("%q: %d points, want %d", tc.query, len(got), tc.want)
				}
				if tc.want >= 100 && !slices.ContainsFunc(got, func(p map[string]any) bool { return p["value"] == 99.0 }) {
					t.Errorf("%q: the spike is missing", tc.query)
				}
			}
		})

		t.Run("the company route by DevEUI or tag id", func(t *testing.T) {
			for _, q := range []string{"deveui=70-b3-d5-7e-d0-00-00-01", "deveui=" + strings.ToLower(sensorEUI), fmt.Sprintf("tagId=%d", sensor)} {
				got := objects(t, e.get(t, "acmeUser", fmt.Sprintf("/api/companies/%d/tagdata?%s&key=rssi", acme, q)))
				if len(got) != 3 || got[0]["value"] != -71.0 || got[2]["value"] != -73.0 {
					t.Errorf("%s: %v", q, got)
				}
			}
		})

		t.Run("trend", func(t *testing.T) {
			base := e.now.Truncate(time.Hour).Add(-5 * time.Hour)
			e.write(t, "flow", []time.Time{base.Add(10 * time.Minute), base.Add(20 * time.Minute), base.Add(70 * time.Minute), base.Add(80 * time.Minute)},
				[]float64{1, 3, 5, 7})
			from, to := base.Add(17*time.Minute), base.Add(3*time.Hour)
			trendOver := func(from, to time.Time, query string) map[string]any {
				t.Helper()
				return e.get(t, "acmeUser", fmt.Sprintf("/api/tag/%d/trend/flow?from=%s&to=%s%s", sensor,
					ts(from), ts(to), query)).Obj()
			}
			trend := func(query string) map[string]any { t.Helper(); return trendOver(from, to, query) }
			type bucket struct{ min, max, mean, last, count float64 }
			buckets := func(tr map[string]any) []bucket {
				var out []bucket
				for _, x := range tr["buckets"].([]any) {
					b := x.(map[string]any)
					out = append(out, bucket{b["min"].(float64), b["max"].(float64), b["mean"].(float64), b["last"].(float64), b["count"].(float64)})
				}
				return out
			}
			starts := func(tr map[string]any) []time.Time {
				var out []time.Time
				for _, x := range tr["buckets"].([]any) {
					out = append(out, at(x.(map[string]any)["start"]))
				}
				return out
			}
			total := func(tr map[string]any) (n float64) {
				for _, b := range buckets(tr) {
					n += b.count
				}
				return n
			}
			// The window is cut where it starts and ends, the hours between
			// on the clock: a partial first hour from 17 past.
			hourly := trend("&resolution=hour")
			if !at(hourly["from"]).Equal(from) || hourly["resolution"] != "hour" || hourly["key"] != "flow" {
				t.Errorf("hourly trend starts at %v, want %s: %v", hourly["from"], from, hourly)
			}
			if got := buckets(hourly); !slices.Equal(got, []bucket{{3, 3, 3, 3, 1}, {5, 7, 6, 7, 2}}) {
				t.Errorf("hourly buckets %v", got)
			}
			if got := starts(hourly); !slices.Equal(got, []time.Time{from, base.Add(time.Hour)}) {
				t.Errorf("hourly buckets start at %v", got)
			}
			if last := hourly["buckets"].([]any)[1].(map[string]any); !at(last["end"]).Equal(base.Add(2 * time.Hour)) {
				t.Errorf("the second bucket ends at %v, want %s", last["end"], base.Add(2*time.Hour))
			}
			if got := trend(""); got["resolution"] != "hour" || len(buckets(got)) != 2 {
				t.Errorf("the default resolution is chosen from the window (hours for 3): %v", got)
			}
			if got := trend("&resolution=day"); got["resolution"] != "hour" {
				t.Errorf("day buckets over 3 hours: resolution %v, want hour", got["resolution"])
			}
			long := trendOver(base.Add(-20*time.Hour), to, "&resolution=5hours")
			if long["resolution"] != "5hours" || total(long) != 4 {
				t.Errorf("5-hour buckets %v", long)
			}
			for _, s := range starts(long)[1:] {
				if s.Unix()%(5*3600) != 0 {
					t.Errorf("a 5-hour bucket starts at %s, off the 5-hour clock", s)
				}
			}
			stockholm, err := time.LoadLocation("Europe/Stockholm")
			if err != nil {
				t.Skipf("no time zone data: %v", err)
			}
			daily := trendOver(base.Add(-6*24*time.Hour), to, "&resolution=day&tz=Europe/Stockholm")
			for _, s := range starts(daily)[1:] {
				if l := s.In(stockholm); l.Hour() != 0 || l.Minute() != 0 {
					t.Errorf("a daily bucket starts at %s, want local midnight", l)
				}
			}
			// Without ?tz= the days are those of the company, in Sweden.
			weekly := trendOver(base.Add(-60*24*time.Hour), to, "&resolution=week")
			for _, s := range starts(weekly)[1:] {
				if l := s.In(stockholm); l.Weekday() != time.Monday || l.Hour() != 0 || l.Minute() != 0 {
					t.Errorf("a weekly bucket starts at %s, want a Monday midnight in Stockholm", l)
				}
			}
			for _, tr := range []map[string]any{daily, weekly} {
				if n := total(tr); n != 4 {
					t.Errorf("%s trend counts %v points, want 4", tr["resolution"], n)
				}
			}
			// Only "trend" is a view of a tag's key.
			e.c.Must(t, "GET", fmt.Sprintf("/api/tag/%d/bogus/flow", sensor), e.tok["acmeUser"], nil, http.StatusNotFound)
		})

		t.Run("daily trend buckets are the days of the zone, 23 and 25 hours on daylight-saving days", func(t *testing.T) {
			stockholm, err := time.LoadLocation("Europe/Stockholm")
			if err != nil {
				t.Fatal(err)
			}
			for _, tc := range []struct {
				name  string
				first time.Time // local midnight of the first of three days; the second changes the clocks
				hours []float64
			}{
				{"spring forward", time.Date(2026, 3, 28, 0, 0, 0, 0, stockholm), []float64{24, 23, 24}},
				{"fall back", time.Date(2026, 10, 24, 0, 0, 0, 0, stockholm), []float64{24, 25, 24}},
			} {
				t.Run(tc.name, func(t *testing.T) {
					// One point an hour, on the hour, over the three days.
					end := time.Date(2026, tc.first.Month(), tc.first.Day()+3, 0, 0, 0, 0, stockholm)
					var when []time.Time
					var vals []float64
					for h := tc.first; h.Before(end); h = h.Add(time.Hour) {
						when, vals = append(when, h), append(vals, 1)
					}
					key := "dst" + strings.ReplaceAll(tc.name, " ", "")
					e.write(t, key, when, vals)
					// A window of the three local days: each bucket starts at
					// a local midnight.
					tr := e.get(t, "acmeUser", fmt.Sprintf("/api/tag/%d/trend/%s?resolution=day&from=%s&to=%s", sensor, key,
						ts(tc.first), ts(end))).Obj()
					got := tr["buckets"].([]any)
					if len(got) != 3 {
						t.Fatalf("got %d buckets, want 3: %v", len(got), got)
					}
					for i, x := range got {
						b := x.(map[string]any)
						start := time.Date(2026, tc.first.Month(), tc.first.Day()+i, 0, 0, 0, 0, stockholm)
						if !at(b["start"]).Equal(start) || b["count"] != tc.hours[i] {
							t.Errorf("bucket %d starts at %v with %v points, want local midnight %v with %v (one an hour)",
								i, b["start"], b["count"], start, tc.hours[i])
						}
					}
				})
			}
		})

		t.Run("latest and currents", func(t *testing.T) {
			got := e.get(t, "acmeUser", fmt.Sprintf("/api/tag/latest/%d/temperature", sensor)).Obj()
			if got["value"] != 23.0 || !at(got["createdAt"]).Equal(e.now.Add(-time.Hour).Truncate(time.Microsecond)) || got["label"] != "Temperature" || got["key"] != "temperature" {
				t.Errorf("latest: %v", got)
			}
			for _, path := range []string{fmt.Sprintf("/api/tag/latest/%d/nothing", sensor), fmt.Sprintf("/api/tag/latest/%d/temperature", quiet)} {
				if got := e.get(t, "acmeUser", path).Obj(); got["value"] != nil || got["createdAt"] != nil {
					t.Errorf("%s: %v, want no value", path, got)
				}
			}
			cur := objects(t, e.get(t, "acmeUser", fmt.Sprintf("/api/tag/%d/currents", sensor)))
			byKey := map[string]any{}
			for _, c := range cur {
				byKey[c["key"].(string)] = c["value"]
			}
			want := map[string]any{"battery": 3.6, "note": "reading 3", "rssi": -73.0, "snr": 7.5, "temperature": 23.0}
			if len(byKey) != len(want) {
				t.Errorf("currents: %v", cur)
			}
			for k, v := range want {
				if byKey[k] != v {
					t.Errorf("current %s is %v, want %v", k, byKey[k], v)
				}
			}
			if got := objects(t, e.get(t, "acmeUser", fmt.Sprintf("/api/tag/%d/currents", quiet))); len(got) != 0 {
				t.Errorf("currents of a node without keys: %v", got)
			}
		})

		t.Run("counts of data points", func(t *testing.T) {
			ctx := context.Background()
			now := time.Now().UTC()
			want, err := e.store.Count(ctx, acme, now.Add(-24*time.Hour), now)
			if err != nil {
				t.Fatal(err)
			}
			if got := e.get(t, "acmeUser", fmt.Sprintf("/api/companies/%d/tagdata/count", acme)).Num("count"); got != want || want < 3000 {
				t.Errorf("count %d, want %d", got, want)
			}
			// Days in a time zone with daylight saving may be 23 or 25
			// hours long (width 0: not checked).
			for _, tc := range []struct {
				path    string
				buckets int
				width   time.Duration
			}{
				{fmt.Sprintf("/api/companies/%d/datapointsday", acme), 24, time.Hour},
				{fmt.Sprintf("/api/companies/%d/datapointsweek", acme), 7, 24 * time.Hour},
				{fmt.Sprintf("/api/companies/%d/datapointsweek?tz=Europe/Stockholm", acme), 7, 0},
			} {
				got := objects(t, e.get(t, "acmeUser", tc.path))
				if len(got) != tc.buckets {
					t.Fatalf("%s: %d buckets, want %d", tc.path, len(got), tc.buckets)
				}
				var sum int64
				for i, b := range got {
					sum += int64(b["count"].(float64))
					if i > 0 && !at(b["from"]).Equal(at(got[i-1]["to"])) {
						t.Errorf("%s: bucket %d starts at %v, the one before ends at %v", tc.path, i, b["from"], got[i-1]["to"])
					}
					if i < len(got)-1 && tc.width > 0 && at(b["to"]).Sub(at(b["from"])) != tc.width {
						t.Errorf("%s: bucket %d is %v long", tc.path, i, at(b["to"]).Sub(at(b["from"])))
					}
				}
				first, last := at(got[0]["from"]), at(got[len(got)-1]["to"])
				n, err := e.store.Count(ctx, acme, first, last)
				if err != nil {
					t.Fatal(err)
				}
				if sum != n || time.Since(last) > time.Minute {
					t.Errorf("%s: buckets add up to %d, the window [%s, %s) holds %d", tc.path, sum, first, last, n)
				}
			}
			per := objects(t, e.get(t, "acmeUser", fmt.Sprintf("/api/companies/%d/sensordatapoints/day", acme)))
			counts := map[string]float64{}
			for _, p := range per {
				counts[p["deveui"].(string)] = p["count"].(float64)
			}
			if len(per) != 2 || counts[sensorEUI] != float64(want) || counts[quietEUI] != 0 {
				t.Errorf("per node: %v, want %d for the sensor", per, want)
			}
			// dataPoints24h of the tags.
			if got := e.get(t, "acmeUser", fmt.Sprintf("/api/tag/%d", sensor)).Num("dataPoints24h"); got != want {
				t.Errorf("dataPoints24h of the tag: %d, want %d", got, want)
			}
			for _, tag := range objects(t, e.get(t, "acmeUser", fmt.Sprintf("/api/companies/%d/tags", acme))) {
				if tag["dataPoints24h"] != counts[tag["deveui"].(string)] {
					t.Errorf("dataPoints24h of %v in the list: %v, want %v", tag["name"], tag["dataPoints24h"], counts[tag["deveui"].(string)])
				}
			}
		})

		t.Run("defaults, latest of every key, activity and batteries", func(t *testing.T) {
			def := objects(t, e.get(t, "acmeUser", fmt.Sprintf("/api/companies/%d/defaults", acme)))
			if len(def) != 1 || def[0]["id"] != float64(sensor) || def[0]["key"] != "temperature" || def[0]["value"] != 23.0 || def[0]["defaultKey"] != true {
				t.Errorf("defaults: %v", def)
			}
			latest := objects(t, e.get(t, "acmeUser", fmt.Sprintf("/api/companies/%d/latesttagdata", acme)))
			var keys []string
			for _, l := range latest {
				keys = append(keys, l["key"].(string))
				if l["key"] == "temperature" && (l["defaultKey"] != true || l["value"] != 23.0) {
					t.Errorf("latest temperature: %v", l)
				}
			}
			if !slices.Equal(keys, []string{"battery", "note", "rssi", "snr", "temperature"}) {
				t.Errorf("latest tag data keys %v", keys)
			}
			act := objects(t, e.get(t, "acmeUser", fmt.Sprintf("/api/companies/%d/tag/activity", acme)))
			if len(act) != 2 || act[0]["name"] != "Quiet" || act[0]["active"] != false || act[0]["latestTime"] != nil ||
				act[1]["name"] != "Sensor" || act[1]["active"] != true || !at(act[1]["latestTime"]).Equal(e.now.Add(-time.Hour).Truncate(time.Microsecond)) {
				t.Errorf("activity: %v", act)
			}
			bat := objects(t, e.get(t, "acmeUser", fmt.Sprintf("/api/companies/%d/tag/batteries", acme)))
			if len(bat) != 1 || bat[0]["deveui"] != sensorEUI || bat[0]["battery"] != nil ||
				bat[0]["batteryVoltage"] != 3.6 || bat[0]["vdd"] != 3.6 {
				t.Errorf("batteries: %v", bat)
			}
		})

		t.Run("invalid queries", func(t *testing.T) {
			base := fmt.Sprintf("/api/tag/tagdata?tagId=%d&key=temperature", sensor)
			trend := fmt.Sprintf("/api/tag/%d/trend/temperature?x=1", sensor)
			for _, tc := range []struct {
				name, path, field, id string
			}{
				{"no tag", "/api/tag/tagdata?key=temperature", "tagId", "validation.required"},
				{"bad tag id", "/api/tag/tagdata?tagId=abc", "tagId", "error.badId"},
				{"bad from", base + "&from=yesterday", "from", "nodes.tagdata.time"},
				{"bad to", base + "&to=2024-13-01T00:00:00Z", "to", "nodes.tagdata.time"},
				{"time out of range", base + "&from=1500-01-01T00:00:00Z", "from", "nodes.tagdata.time"},
				{"from after to", base + "&from=2024-05-02T00:00:00Z&to=2024-05-01T00:00:00Z", "from", "nodes.tagdata.range"},
				{"max 0", base + "&max=0", "max", "nodes.tagdata.max"},
				{"max too large", base + "&max=10001", "max", "nodes.tagdata.max"},
				{"max not a number", base + "&max=many", "max", "nodes.tagdata.max"},
				{"key with a control character", fmt.Sprintf("/api/tag/tagdata?tagId=%d&key=a%%0Ab", sensor), "key", "tsdb.key.invalid"},
				{"unknown resolution", trend + "&resolution=minute", "resolution", "nodes.tagdata.resolution"},
				{"unknown time zone", trend + "&resolution=day&tz=Mars/Olympus", "tz", "nodes.tagdata.tz"},
				{"too many buckets", trend + "&resolution=hour&from=2000-01-01T00:00:00Z", "from", "nodes.tagdata.window"},
				{"trend from after to", trend + "&from=2024-05-02T00:00:00Z&to=2024-05-01T00:00:00Z", "from", "nodes.tagdata.range"},
				{"company route without a node", fmt.Sprintf("/api/companies/%d/tagdata?key=temperature", acme), "deveui", "validation.required"},
				{"company route with a bad DevEUI", fmt.Sprintf("/api/companies/%d/tagdata?deveui=xyz", acme), "deveui", "nodes.deveui.format"},
				{"week in an unknown time zone", fmt.Sprintf("/api/companies/%d/datapointsweek?tz=Nowhere", acme), "tz", "nodes.tagdata.tz"},
			} {
				t.Run(tc.name, func(t *testing.T) {
					texts := map[string]string{}
					for _, lang := range []string{"en", "sv"} {
						r := e.c.Call(t, "GET", tc.path, e.tok["acmeUser"], nil, "Accept-Language", lang)
						ids, _ := r.Obj()["errorIds"].(map[string]any)
						if r.Status != http.StatusBadRequest || ids == nil || ids[tc.field] == nil || ids[tc.field].([]any)[0] != tc.id {
							t.Fatalf("%s: %d %s; want 400 with %s on %s", lang, r.Status, r.Body, tc.id, tc.field)
						}
						texts[lang] = r.FieldError(tc.field)
						if texts[lang] == "" || texts[lang] == tc.id {
							t.Errorf("%s: %s has no text: %s", lang, tc.id, r.Body)
						}
						if strings.ContainsAny(texts[lang], "{}") {
							t.Errorf("%s: %s has a placeholder left: %q", lang, tc.id, texts[lang])
						}
					}
					if texts["en"] == texts["sv"] {
						t.Errorf("%s reads the same in English and Swedish: %q", tc.id, texts["en"])
					}
				})
			}
		})

		t.Run("another company's data is not found", func(t *testing.T) {
			for _, tc := range []struct{ who, path string }{
				{"betaAdmin", fmt.Sprintf("/api/tag/tagdata?tagId=%d&key=temperature", sensor)},
				{"betaAdmin", fmt.Sprintf("/api/tag/latest/%d/temperature", sensor)},
				{"betaAdmin", fmt.Sprintf("/api/tag/%d/trend/temperature", sensor)},
				{"betaAdmin", fmt.Sprintf("/api/tag/%d/currents", sensor)},
				{"betaAdmin", fmt.Sprintf("/api/companies/%d/tagdata?deveui=%s&key=temperature", acme, sensorEUI)},
				{"betaAdmin", fmt.Sprintf("/api/companies/%d/tagdata?deveui=%s&key=temperature", e.id["beta"], sensorEUI)},
				{"betaAdmin", fmt.Sprintf("/api/companies/%d/tagdata?tagId=%d&key=temperature", e.id["beta"], sensor)},
				{"acmeUser", fmt.Sprintf("/api/companies/%d/tagdata?tagId=%d&key=temperature", acme, foreign)},
				{"acmeUser", fmt.Sprintf("/api/tag/tagdata?tagId=%d&key=temperature", foreign)},
				{"acmeUser", fmt.Sprintf("/api/tag/%d/trend/temperature?resolution=day", foreign)},
				{"acmeUser", fmt.Sprintf("/api/companies/%d/tagdata/count", e.id["beta"])},
				{"acmeUser", fmt.Sprintf("/api/companies/%d/defaults", e.id["beta"])},
				{"acmeUser", fmt.Sprintf("/api/companies/%d/latesttagdata", e.id["beta"])},
				{"acmeUser", fmt.Sprintf("/api/companies/%d/datapointsweek", e.id["beta"])},
				{"acmeUser", fmt.Sprintf("/api/companies/%d/datapointsday", e.id["beta"])},
				{"acmeUser", fmt.Sprintf("/api/companies/%d/sensordatapoints/day", e.id["beta"])},
				{"acmeUser", fmt.Sprintf("/api/companies/%d/tag/activity", e.id["beta"])},
				{"acmeUser", fmt.Sprintf("/api/companies/%d/tag/batteries", e.id["beta"])},
			} {
				r := e.c.Call(t, "GET", tc.path, e.tok[tc.who], nil)
				if r.Status != http.StatusNotFound || strings.Contains(string(r.Body), "reading") {
					t.Errorf("%s as %s: %d %s, want 404", tc.path, tc.who, r.Status, r.Body)
				}
			}
			// Beta's own data is there: the 404s are not for want of data.
			if got := objects(t, e.get(t, "betaAdmin", fmt.Sprintf("/api/tag/tagdata?tagId=%d&key=note", foreign))); len(got) != 3 {
				t.Errorf("Beta's own points: %v", got)
			}
		})
	})
}
