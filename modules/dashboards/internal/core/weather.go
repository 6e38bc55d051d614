package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/kernel/config"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// The weather forecast module (type 7) shows an open-data point forecast
// that the server fetches and keeps for 30 minutes per rounded position, so
// that a dashboard on many screens asks the forecast service once. SMHI's
// snow1g point forecast serves positions in its area (Sweden and its
// neighbours); MET Norway's Locationforecast the rest of the world, and any
// position SMHI answers "out of area" for. Both base addresses are options
// (FIELDHUB_WEATHER_SMHI_URL, FIELDHUB_WEATHER_METNO_URL).

// Forecast is the answer of GET .../weather.
type Forecast struct {
	Source    string         `json:"source"` // "smhi" or "metno"
	Lat       float64        `json:"lat"`
	Lon       float64        `json:"lon"`
	UpdatedAt *time.Time     `json:"updatedAt"`
	Hours     []ForecastHour `json:"hours"`
}

// ForecastHour is the forecast of one hour. Temperature is in °C,
// precipitation in mm during the hour, wind in m/s from a direction in
// degrees, cloud cover in percent; a value the service did not give is
// null. Symbol is a weather symbol of MET Norway's set without its
// _day/_night suffix ("clearsky", "partlycloudy", "lightrainshowers", ...);
// SMHI's symbol codes are mapped onto it.
type ForecastHour struct {
	T             time.Time `json:"t"`
	Temperature   *float64  `json:"temperature"`
	Precipitation *float64  `json:"precipitation"`
	WindSpeed     *float64  `json:"windSpeed"`
	WindDirection *float64  `json:"windDirection"`
	Symbol        string    `json:"symbol"`
	CloudCover    *float64  `json:"cloudCover"`
}

const (
	weatherTTL      = 30 * time.Minute
	weatherErrorTTL = time.Minute // a failing service is asked again after this
	weatherHours    = 48
	weatherTimeout  = 10 * time.Second
	weatherMaxBody  = 8 << 20
	weatherMaxCache = 2000
)

// smhiArea is the bounding box of SMHI's forecast area (its valid-area
// polygon is irregular inside it; a point outside the polygon answers 404
// and is asked of MET Norway instead).
var smhiArea = struct{ minLat, maxLat, minLon, maxLon float64 }{49.9, 74.9, -18.1, 44.1}

// weatherClient fetches and caches forecasts.
type weatherClient struct {
	smhiURL   string
	metnoURL  string
	userAgent string
	http      *http.Client
	log       *slog.Logger

	mu    sync.Mutex
	cache map[string]*weatherEntry
}

type weatherEntry struct {
	ready    chan struct{}
	forecast *Forecast
	err      error
	expires  time.Time
}

func newWeatherClient(cfg *config.Config, client *http.Client, log *slog.Logger) *weatherClient {
	if client == nil {
		client = &http.Client{Timeout: weatherTimeout}
	}
	// MET Norway refuses requests without an identifying User-Agent.
	ua := "Fieldhub (+" + cfg.PublicURL
	if cfg.ContactEmail != "" {
		ua += "; " + cfg.ContactEmail
	}
	return &weatherClient{smhiURL: cfg.WeatherSMHIURL, metnoURL: cfg.WeatherMETNOURL, userAgent: ua + ")",
		http: client, log: log, cache: map[string]*weatherEntry{}}
}

// gatewayError is a forecast service that answered, but not usefully
// (502). Unreachable services are errs.Unavailable (503).
type gatewayError struct{ err error }

func (e *gatewayError) Error() string { return e.err.Error() }
func (e *gatewayError) Unwrap() error { return e.err }

// errOutOfArea is SMHI's answer for a point outside its area.
var errOutOfArea = errors.New("position outside the service's area")

// round keeps two decimals of a coordinate (about a kilometre), the grain
// of the cache.
func round(f float64) float64 { return math.Round(f*100) / 100 }

// forecast returns the cached forecast of a position, fetching it when
// there is none or it is older than 30 minutes. Calls for one position
// while a fetch is under way wait for it.
func (c *weatherClient) forecast(ctx context.Context, lat, lon float64) (*Forecast, error) {
	lat, lon = round(lat), round(lon)
	key := strconv.FormatFloat(lat, 'f', 2, 64) + "," + strconv.FormatFloat(lon, 'f', 2, 64)
	c.mu.Lock()
	e, ok := c.cache[key]
	if ok && !isDone(e.ready) || ok && time.Now().Before(e.expires) {
		c.mu.Unlock()
		select {
		case <-e.ready:
			return e.forecast, e.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if len(c.cache) >= weatherMaxCache {
		c.evict()
	}
	e = &weatherEntry{ready: make(chan struct{})}
	c.cache[key] = e
	c.mu.Unlock()

	// The fetch outlives a caller that gives up: others may wait for it.
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*weatherTimeout)
	e.forecast, e.err = c.fetch(fctx, lat, lon)
	cancel()
	ttl := weatherTTL
	if e.err != nil {
		ttl = weatherErrorTTL
		c.log.Warn("weather forecast failed", "lat", lat, "lon", lon, "err", e.err)
	}
	c.mu.Lock()
	e.expires = time.Now().Add(ttl)
	c.mu.Unlock()
	close(e.ready)
	return e.forecast, e.err
}

func isDone(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// evict drops expired entries; called with c.mu held.
func (c *weatherClient) evict() {
	now := time.Now()
	for k, e := range c.cache {
		if isDone(e.ready) && now.After(e.expires) {
			delete(c.cache, k)
		}
	}
}

func (c *weatherClient) fetch(ctx context.Context, lat, lon float64) (*Forecast, error) {
	if lat >= smhiArea.minLat && lat <= smhiArea.maxLat && lon >= smhiArea.minLon && lon <= smhiArea.maxLon {
		f, err := c.smhi(ctx, lat, lon)
		if !errors.Is(err, errOutOfArea) {
			return f, err
		}
	}
	return c.metno(ctx, lat, lon)
}

// get fetches a forecast service's JSON into dst. outOfArea lists statuses
// that mean "not our area".
func (c *weatherClient) get(ctx context.Context, service, u string, dst any, outOfArea ...int) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return &gatewayError{fmt.Errorf("%s: %w", service, err)}
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	res, err := c.http.Do(req)
	if err != nil {
		return errs.New(errs.Unavailable, msgWeatherUnavailable).Wrap(fmt.Errorf("%s: %w", service, err))
	}
	defer res.Body.Close()
	for _, s := range outOfArea {
		if res.StatusCode == s {
			return errOutOfArea
		}
	}
	switch {
	case res.StatusCode == http.StatusServiceUnavailable || res.StatusCode == http.StatusTooManyRequests:
		return errs.New(errs.Unavailable, msgWeatherUnavailable).Wrap(fmt.Errorf("%s answered %s", service, res.Status))
	case res.StatusCode != http.StatusOK:
		return &gatewayError{fmt.Errorf("%s answered %s", service, res.Status)}
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, weatherMaxBody))
	if err != nil {
		return errs.New(errs.Unavailable, msgWeatherUnavailable).Wrap(fmt.Errorf("%s: read answer: %w", service, err))
	}
	if err := json.Unmarshal(body, dst); err != nil {
		return &gatewayError{fmt.Errorf("%s: read answer: %w", service, err)}
	}
	return nil
}

// SMHI snow1g point forecast: timeSeries[] of {time, data: {parameter:
// value}}; 9999 means missing. precipitation_amount_mean is mm/h over the
// step; cloud_area_fraction is in octas.
type smhiAnswer struct {
	CreatedTime   *time.Time `json:"createdTime"`
	ApprovedTime  *time.Time `json:"approvedTime"`
	ReferenceTime *time.Time `json:"referenceTime"`
	TimeSeries    []struct {
		Time time.Time          `json:"time"`
		Data map[string]float64 `json:"data"`
	} `json:"timeSeries"`
}

func (c *weatherClient) smhi(ctx context.Context, lat, lon float64) (*Forecast, error) {
	u := fmt.Sprintf("%s/api/category/snow1g/version/1/geotype/point/lon/%s/lat/%s/data.json",
		c.smhiURL, strconv.FormatFloat(lon, 'f', -1, 64), strconv.FormatFloat(lat, 'f', -1, 64))
	var a smhiAnswer
	if err := c.get(ctx, "SMHI", u, &a, http.StatusNotFound, http.StatusBadRequest); err != nil {
		return nil, err
	}
	if len(a.TimeSeries) == 0 {
		return nil, &gatewayError{errors.New("SMHI: the answer has no timeSeries")}
	}
	f := &Forecast{Source: "smhi", Lat: lat, Lon: lon, Hours: []ForecastHour{}}
	for _, t := range []*time.Time{a.CreatedTime, a.ApprovedTime, a.ReferenceTime} {
		if t != nil {
			u := t.UTC()
			f.UpdatedAt = &u
			break
		}
	}
	start := time.Now().Add(-time.Hour)
	var last time.Time
	for _, step := range a.TimeSeries {
		if step.Time.Before(start) {
			continue
		}
		if !last.IsZero() && step.Time.Sub(last) != time.Hour {
			break // the steps widen to 3, 6 and 12 hours: hourly ends here
		}
		last = step.Time
		h := ForecastHour{T: step.Time.UTC(),
			Temperature:   smhiValue(step.Data, "air_temperature"),
			Precipitation: smhiValue(step.Data, "precipitation_amount_mean"),
			WindSpeed:     smhiValue(step.Data, "wind_speed"),
			WindDirection: smhiValue(step.Data, "wind_from_direction"),
			CloudCover:    smhiValue(step.Data, "cloud_area_fraction"),
		}
		if h.CloudCover != nil {
			pct := math.Min(100, *h.CloudCover*12.5)
			h.CloudCover = &pct
		}
		if code := smhiValue(step.Data, "symbol_code"); code != nil {
			h.Symbol = smhiSymbols[int(*code)]
		}
		f.Hours = append(f.Hours, h)
		if len(f.Hours) == weatherHours {
			break
		}
	}
	return f, nil
}

func smhiValue(data map[string]float64, name string) *float64 {
	v, ok := data[name]
	if !ok || v == 9999 || v == -9 && name == "precipitation_frozen_part" {
		return nil
	}
	return &v
}

// smhiSymbols maps SMHI's weather symbol codes (1-27) onto MET Norway's
// symbol names.
var smhiSymbols = map[int]string{
	1: "clearsky", 2: "fair", 3: "partlycloudy", 4: "partlycloudy", 5: "cloudy", 6: "cloudy", 7: "fog",
	8: "lightrainshowers", 9: "rainshowers", 10: "heavyrainshowers", 11: "rainshowersandthunder",
	12: "lightsleetshowers", 13: "sleetshowers", 14: "heavysleetshowers",
	15: "lightsnowshowers", 16: "snowshowers", 17: "heavysnowshowers",
	18: "lightrain", 19: "rain", 20: "heavyrain", 21: "rainandthunder",
	22: "lightsleet", 23: "sleet", 24: "heavysleet",
	25: "lightsnow", 26: "snow", 27: "heavysnow",
}

// MET Norway Locationforecast 2.0 compact: properties.timeseries[] of
// {time, data: {instant: {details}, next_1_hours: {summary: {symbol_code},
// details: {precipitation_amount}}}}.
type metnoAnswer struct {
	Properties struct {
		Meta struct {
			UpdatedAt *time.Time `json:"updated_at"`
		} `json:"meta"`
		Timeseries []struct {
			Time time.Time `json:"time"`
			Data struct {
				Instant struct {
					Details map[string]float64 `json:"details"`
				} `json:"instant"`
				Next1Hours *struct {
					Summary struct {
						SymbolCode string `json:"symbol_code"`
					} `json:"summary"`
					Details map[string]float64 `json:"details"`
				} `json:"next_1_hours"`
			} `json:"data"`
		} `json:"timeseries"`
	} `json:"properties"`
}

func (c *weatherClient) metno(ctx context.Context, lat, lon float64) (*Forecast, error) {
	q := url.Values{}
	q.Set("lat", strconv.FormatFloat(lat, 'f', -1, 64))
	q.Set("lon", strconv.FormatFloat(lon, 'f', -1, 64))
	var a metnoAnswer
	if err := c.get(ctx, "MET Norway", c.metnoURL+"/weatherapi/locationforecast/2.0/compact?"+q.Encode(), &a); err != nil {
		if errors.Is(err, errOutOfArea) { // not asked for; kept for symmetry
			return nil, &gatewayError{err}
		}
		return nil, err
	}
	if len(a.Properties.Timeseries) == 0 {
		return nil, &gatewayError{errors.New("MET Norway: the answer has no timeseries")}
	}
	f := &Forecast{Source: "metno", Lat: lat, Lon: lon, Hours: []ForecastHour{}}
	if t := a.Properties.Meta.UpdatedAt; t != nil {
		u := t.UTC()
		f.UpdatedAt = &u
	}
	start := time.Now().Add(-time.Hour)
	for _, step := range a.Properties.Timeseries {
		if step.Time.Before(start) {
			continue
		}
		if step.Data.Next1Hours == nil {
			break // the rows widen to 6 hours: hourly ends here
		}
		d := step.Data.Instant.Details
		h := ForecastHour{T: step.Time.UTC(),
			Temperature:   value(d, "air_temperature"),
			WindSpeed:     value(d, "wind_speed"),
			WindDirection: value(d, "wind_from_direction"),
			CloudCover:    value(d, "cloud_area_fraction"),
			Precipitation: value(step.Data.Next1Hours.Details, "precipitation_amount"),
			Symbol:        metnoSymbol(step.Data.Next1Hours.Summary.SymbolCode),
		}
		f.Hours = append(f.Hours, h)
		if len(f.Hours) == weatherHours {
			break
		}
	}
	return f, nil
}

func value(m map[string]float64, name string) *float64 {
	if v, ok := m[name]; ok {
		return &v
	}
	return nil
}

// metnoSymbol strips the time-of-day suffix of a MET Norway symbol code.
func metnoSymbol(code string) string {
	for _, suffix := range []string{"_day", "_night", "_polartwilight"} {
		code = strings.TrimSuffix(code, suffix)
	}
	return code
}

// weatherData answers GET .../weather: the forecast at the module's
// weather_lat/weather_lon, else at its node's position.
func (m *Module) weatherData(w http.ResponseWriter, r *http.Request, wd *Widget, d *Dashboard) error {
	lat, lon, ok, err := m.weatherPosition(r.Context(), wd, d)
	if err != nil {
		return err
	}
	if !ok {
		return errs.New(errs.Invalid, msgNoPosition)
	}
	f, err := m.weather.forecast(r.Context(), lat, lon)
	var gw *gatewayError
	if errors.As(err, &gw) {
		lang := m.host.Router.Lang(r)
		web.JSON(w, http.StatusBadGateway, web.Problem{Status: http.StatusBadGateway, ID: msgWeatherBadGateway,
			Message: m.host.Catalogs.T(lang, msgWeatherBadGateway, nil), RequestID: w.Header().Get("X-Request-Id")})
		return nil
	}
	if err != nil {
		if !errs.Is(err, errs.Unavailable) {
			err = errs.New(errs.Unavailable, msgWeatherUnavailable).Wrap(err)
		}
		return err
	}
	return web.OK(w, f)
}

func (m *Module) weatherPosition(ctx context.Context, wd *Widget, d *Dashboard) (float64, float64, bool, error) {
	la, lo := wd.Attributes["weather_lat"], wd.Attributes["weather_lon"]
	if la != "" && lo != "" {
		lat, err1 := strconv.ParseFloat(la, 64)
		lon, err2 := strconv.ParseFloat(lo, 64)
		if err1 == nil && err2 == nil {
			return lat, lon, true, nil
		}
	}
	if wd.Tag == "" {
		return 0, 0, false, nil
	}
	t, err := m.nodeInfo(ctx, d.CompanyID).tag(wd.Tag)
	if err != nil || t == nil || t.Lat == nil || t.Long == nil {
		return 0, 0, false, err
	}
	return *t.Lat, *t.Long, true, nil
}
