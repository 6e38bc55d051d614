package dashboards_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// forecastServices are in-process stand-ins for SMHI's snow1g point
// forecast and MET Norway's Locationforecast 2.0 compact, answering in the
// formats their documentation gives (SMHI: opendata.smhi.se/metfcst/snow1gv1,
// MET Norway: api.met.no/doc/ForecastJSON), with the same quirks: SMHI
// answers 404 for a point outside its area, MET Norway 403 without an
// identifying User-Agent. Latitudes pick failures: MET Norway answers 500
// at 10°, unreadable JSON at 11° and drops the connection at 12°.
type forecastServices struct {
	smhi, metno *httptest.Server
	mu          sync.Mutex
	calls       map[string]int
}

func newForecastServices(t *testing.T) *forecastServices {
	f := &forecastServices{calls: map[string]int{}}
	f.smhi = httptest.NewServer(http.HandlerFunc(f.serveSMHI))
	f.metno = httptest.NewServer(http.HandlerFunc(f.serveMETNO))
	t.Cleanup(func() { f.smhi.Close(); f.metno.Close() })
	return f
}

func (f *forecastServices) count(service string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[service]
}

func (f *forecastServices) serveSMHI(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.calls["smhi"]++
	f.mu.Unlock()
	// /api/category/snow1g/version/1/geotype/point/lon/{lon}/lat/{lat}/data.json
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if r.Method != http.MethodGet || len(parts) != 12 || strings.Join(parts[:7], "/") != "api/category/snow1g/version/1/geotype/point" ||
		parts[7] != "lon" || parts[9] != "lat" || parts[11] != "data.json" {
		http.NotFound(w, r)
		return
	}
	lon, err1 := strconv.ParseFloat(parts[8], 64)
	lat, err2 := strconv.ParseFloat(parts[10], 64)
	if err1 != nil || err2 != nil {
		http.Error(w, "bad coordinates", http.StatusBadRequest)
		return
	}
	if lat > 70 { // outside the valid-area polygon: 404 with an empty body
		w.WriteHeader(http.StatusNotFound)
		return
	}
	start := time.Now().UTC().Truncate(time.Hour)
	var steps []map[string]any
	t := start
	for i := 0; i < 82; i++ {
		width := time.Hour
		switch {
		case i >= 70:
			width = 12 * time.Hour
		case i >= 60:
			width = 6 * time.Hour
		}
		temp := 5.0 + float64(i%24)/10
		data := map[string]any{
			"air_temperature": temp, "wind_from_direction": 200, "wind_speed": 3.2, "wind_speed_of_gust": 6.1,
			"relative_humidity": 80, "air_pressure_at_mean_sea_level": 1012.3, "visibility_in_air": 24.1,
			"thunderstorm_probability": 0, "probability_of_frozen_precipitation": 0, "cloud_area_fraction": 6,
			"low_type_cloud_area_fraction": 3, "medium_type_cloud_area_fraction": 2, "high_type_cloud_area_fraction": 6,
			"cloud_base_altitude": 9999, "cloud_top_altitude": 4000, "precipitation_amount_mean": 0.3,
			"precipitation_amount_min": 0, "precipitation_amount_max": 0.8, "precipitation_amount_median": 0.2,
			"probability_of_precipitation": 60, "precipitation_frozen_part": -9,
			"predominant_precipitation_type_at_surface": 1, "symbol_code": 18,
			"precipitation_amount_mean_deterministic": 0.3,
		}
		if i == 2 {
			data["air_temperature"] = 9999 // missing
		}
		steps = append(steps, map[string]any{"time": t.Add(width).Format(time.RFC3339),
			"intervalParametersStartTime": t.Format(time.RFC3339), "data": data})
		t = t.Add(width)
	}
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"createdTime":   start.Add(-20 * time.Minute).Format(time.RFC3339),
		"referenceTime": start.Add(-time.Hour).Format(time.RFC3339),
		"geometry":      map[string]any{"type": "Point", "coordinates": []float64{lon, lat}},
		"timeSeries":    steps,
	})
}

func (f *forecastServices) serveMETNO(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.calls["metno"]++
	f.mu.Unlock()
	if r.URL.Path != "/weatherapi/locationforecast/2.0/compact" {
		http.NotFound(w, r)
		return
	}
	if !strings.HasPrefix(r.UserAgent(), "Fieldhub (+") {
		http.Error(w, "Forbidden: identify your application in the User-Agent", http.StatusForbidden)
		return
	}
	lat, err1 := strconv.ParseFloat(r.URL.Query().Get("lat"), 64)
	lon, err2 := strconv.ParseFloat(r.URL.Query().Get("lon"), 64)
	if err1 != nil || err2 != nil {
		http.Error(w, `{"error":"lat and lon are required"}`, http.StatusBadRequest)
		return
	}
	switch lat {
	case 10:
		http.Error(w, "Internal Server Error", http.StatusInternalServerError)
		return
	case 11:
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"type":"Feature","properties":`))
		return
	case 12:
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
		return
	}
	start := time.Now().UTC().Truncate(time.Hour)
	var rows []map[string]any
	for i := 0; i < 60; i++ {
		t := start.Add(time.Duration(i) * time.Hour)
		if i >= 52 {
			t = start.Add(52*time.Hour + time.Duration(i-52)*6*time.Hour)
		}
		data := map[string]any{
			"instant": map[string]any{"details": map[string]any{"air_pressure_at_sea_level": 1012.1, "air_temperature": 12.3 + float64(i)/10,
				"cloud_area_fraction": 75.0, "relative_humidity": 80.1, "wind_from_direction": 190.2, "wind_speed": 4.1}},
			"next_12_hours": map[string]any{"summary": map[string]any{"symbol_code": "cloudy"}, "details": map[string]any{}},
			"next_6_hours":  map[string]any{"summary": map[string]any{"symbol_code": "rain"}, "details": map[string]any{"precipitation_amount": 2.1}},
		}
		if i < 52 {
			data["next_1_hours"] = map[string]any{"summary": map[string]any{"symbol_code": "lightrain_day"}, "details": map[string]any{"precipitation_amount": 0.4}}
		}
		rows = append(rows, map[string]any{"time": t.Format(time.RFC3339), "data": data})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"type":     "Feature",
		"geometry": map[string]any{"type": "Point", "coordinates": []float64{lon, lat, 40}},
		"properties": map[string]any{
			"meta": map[string]any{"updated_at": start.Add(-30 * time.Minute).Format(time.RFC3339),
				"units": map[string]any{"air_temperature": "celsius", "wind_speed": "m/s", "precipitation_amount": "mm", "cloud_area_fraction": "%"}},
			"timeseries": rows,
		},
	})
}

func TestWeather(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		fs := newForecastServices(t)
		e := newEnv(t, d, map[string]string{"FIELDHUB_WEATHER_SMHI_URL": fs.smhi.URL, "FIELDHUB_WEATHER_METNO_URL": fs.metno.URL})
		kerneltest.RunSteps(t, e.Session, e, weatherSteps(fs))
	})
}

func weatherSteps(fs *forecastServices) []step {
	mk := func(attrs, placeholder string, tag string) func(t *testing.T, e *env) {
		return func(t *testing.T, e *env) {
			if e.IDs["{board}"] == "" {
				var d struct {
					ID float64 `json:"dashboardId"`
				}
				e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards", `{"name":"Weather"}`, http.StatusCreated, &d)
				e.IDs["{board}"] = itoa(d.ID)
			}
			var m struct {
				ID float64 `json:"dashboardModuleId"`
			}
			e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards/{board}/modules", fmt.Sprintf(`{"type":7,"tag":%q,"attributes":%s}`, tag, attrs), http.StatusCreated, &m)
			e.IDs[placeholder] = itoa(m.ID)
		}
	}
	hour := func(got any, i int) map[string]any {
		m, _ := kerneltest.At(got, "hours."+strconv.Itoa(i)).(map[string]any)
		return m
	}
	smhiCalls := 0
	return []step{
		{Name: "a position in Sweden: SMHI", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{stockholm}/weather", Status: 200,
			Before: mk(`{"weather_lat":"59.3293","weather_lon":"18.0686"}`, "{stockholm}", ""),
			Want: map[string]any{"source": "smhi", "lat": 59.33, "lon": 18.07, "hours.0.temperature": 5.0, "hours.0.windSpeed": 3.2,
				"hours.0.windDirection": float64(200), "hours.0.precipitation": 0.3, "hours.0.cloudCover": float64(75), "hours.0.symbol": "lightrain",
				"hours.2.temperature": nil},
			Then: func(t *testing.T, e *env, got any) {
				if n := len(kerneltest.At(got, "hours").([]any)); n != 48 {
					t.Errorf("%d hours, want 48", n)
				}
				first, _ := time.Parse(time.RFC3339, hour(got, 0)["t"].(string))
				if want := time.Now().UTC().Truncate(time.Hour).Add(time.Hour); !first.Equal(want) {
					t.Errorf("first hour %v, want %v", first, want)
				}
				if kerneltest.At(got, "updatedAt") == nil {
					t.Error("no updatedAt")
				}
			}},
		{Name: "asked again: from the cache", As: "acmeAdmin", Method: "GET", Path: "/api/dashboards/modules/{stockholm}/weather", Status: 200,
			Before: func(t *testing.T, e *env) { smhiCalls = fs.count("smhi") },
			Want:   map[string]any{"source": "smhi"},
			Then: func(t *testing.T, e *env, got any) {
				if n := fs.count("smhi"); n != 1 || smhiCalls != 1 {
					t.Errorf("SMHI asked %d times, then %d; want once", smhiCalls, n)
				}
			}},
		{Name: "a node's position", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{node}/weather", Status: 200,
			Before: mk(`{}`, "{node}", acmeNode), Want: map[string]any{"source": "smhi", "lat": 59.33, "lon": 18.06}},
		{Name: "inside SMHI's box but outside its area: MET Norway", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{north}/weather", Status: 200,
			Before: mk(`{"weather_lat":"71.17","weather_lon":"25.78"}`, "{north}", ""),
			Want:   map[string]any{"source": "metno", "lat": 71.17, "hours.0.temperature": 12.3, "hours.0.symbol": "lightrain", "hours.0.precipitation": 0.4, "hours.0.cloudCover": float64(75)}},
		{Name: "elsewhere: MET Norway, its hourly rows only", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{ny}/weather", Status: 200,
			Before: mk(`{"weather_lat":"40.7128","weather_lon":"-74.006"}`, "{ny}", ""),
			Want:   map[string]any{"source": "metno", "lat": 40.71, "lon": -74.01},
			Then: func(t *testing.T, e *env, got any) {
				if n := len(kerneltest.At(got, "hours").([]any)); n != 48 {
					t.Errorf("%d hours, want 48", n)
				}
			}},
		{Name: "no position", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{nowhere}/weather", Status: 400,
			Before: mk(`{}`, "{nowhere}", ""), ID: "dashboards.weather.noPosition"},
		{Name: "a failing service: 502", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{fail}/weather", Status: 502,
			Before: mk(`{"weather_lat":"10","weather_lon":"10"}`, "{fail}", ""), ID: "dashboards.weather.badGateway",
			Texts: map[string]string{"": "The weather service gave an answer that could not be read; try again later"}},
		{Name: "an unreadable answer: 502", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{garbled}/weather", Status: 502,
			Before: mk(`{"weather_lat":"11","weather_lon":"10"}`, "{garbled}", ""), ID: "dashboards.weather.badGateway"},
		{Name: "a service that cannot be reached: 503", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{down}/weather", Status: 503, Lang: "sv",
			Before: mk(`{"weather_lat":"12","weather_lon":"10"}`, "{down}", ""), ID: "dashboards.weather.unavailable",
			Texts: map[string]string{"": "Vädertjänsten kan inte nås just nu; försök igen senare"}},
		{Name: "on a public page", As: "", Method: "GET", Path: "/api/dashboards/public/{token}/modules/{stockholm}/weather", Status: 200,
			Before: func(t *testing.T, e *env) {
				var p struct {
					Token string `json:"token"`
				}
				e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards/public/{acme}/{board}/"+time.Now().Add(time.Hour).UTC().Format(time.RFC3339), "", http.StatusCreated, &p)
				e.IDs["{token}"] = p.Token
			},
			Want: map[string]any{"source": "smhi"}},
		{Name: "another company's module", As: "betaAdmin", Method: "GET", Path: "/api/dashboards/modules/{stockholm}/weather", Status: 404},
	}
}
