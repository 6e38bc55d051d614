// Package weather fetches the point forecasts the weather module (type 7)
// shows and keeps each for 30 minutes per rounded position, so that a
// dashboard on many screens asks the forecast service once. SMHI's snow1g
// point forecast serves positions in its area (Sweden and its
// neighbours); MET Norway's Locationforecast the rest of the world, and
// any position SMHI answers "out of area" for. Both base addresses are
// options (FIELDHUB_WEATHER_SMHI_URL, FIELDHUB_WEATHER_METNO_URL).
package weather

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/dashboards"
)

// Forecast is a position's forecast: the answer of GET .../weather.
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

// Client fetches and caches forecasts.
type Client struct {
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

// New returns a Client of the services cfg names that fetches with client
// (nil: a client with a 10 s timeout) and logs failures to log. The
// installation's public address and contact e-mail ("" when none) name it
// to the services.
func New(cfg dashboards.Config, publicURL, contact string, client *http.Client, log *slog.Logger) *Client {
	if client == nil {
		client = &http.Client{Timeout: weatherTimeout}
	}
	// MET Norway refuses requests without an identifying User-Agent.
	ua := "Fieldhub (+" + publicURL
	if contact != "" {
		ua += "; " + contact
	}
	return &Client{smhiURL: cfg.WeatherSMHIURL, metnoURL: cfg.WeatherMETNOURL, userAgent: ua + ")",
		http: client, log: log, cache: map[string]*weatherEntry{}}
}

// gatewayError is a forecast service that answered, but not usefully
// (502). Unreachable services are errs.Unavailable (503).
type gatewayError struct{ err error }

func (e *gatewayError) Error() string { return e.err.Error() }
func (e *gatewayError) Unwrap() error { return e.err }

// IsBadGateway reports whether err is a forecast service that answered,
// but not usefully: a 502 for the caller.
func IsBadGateway(err error) bool {
	var gw *gatewayError
	return errors.As(err, &gw)
}

// errOutOfArea is SMHI's answer for a point outside its area.
var errOutOfArea = errors.New("position outside the service's area")

// round keeps two decimals of a coordinate (about a kilometre), the grain
// of the cache.
func round(f float64) float64 { return math.Round(f*100) / 100 }

// Forecast returns the cached forecast of a position, fetching it when
// there is none or it is older than 30 minutes. Calls for one position
// while a fetch is under way wait for it. A service that answered but not
// usefully is an error IsBadGateway tells; one that cannot be reached is
// errs.Unavailable.
func (c *Client) Forecast(ctx context.Context, lat, lon float64) (*Forecast, error) {
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
func (c *Client) evict() {
	now := time.Now()
	for k, e := range c.cache {
		if isDone(e.ready) && now.After(e.expires) {
			delete(c.cache, k)
		}
	}
}

func (c *Client) fetch(ctx context.Context, lat, lon float64) (*Forecast, error) {
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
func (c *Client) get(ctx context.Context, service, u string, dst any, outOfArea ...int) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return &gatewayError{fmt.Errorf("%s: %w", service, err)}
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	res, err := c.http.Do(req)
	if err != nil {
		return errs.New(errs.Unavailable, dashboards.IDWeatherUnavailable).Wrap(fmt.Errorf("%s: %w", service, err))
	}
	defer res.Body.Close()
	for _, s := range outOfArea {
		if res.StatusCode == s {
			return errOutOfArea
		}
	}
	switch {
	case res.StatusCode == http.StatusServiceUnavailable || res.StatusCode == http.StatusTooManyRequests:
		return errs.New(errs.Unavailable, dashboards.IDWeatherUnavailable).Wrap(fmt.Errorf("%s answered %s", service, res.Status))
	case res.StatusCode != http.StatusOK:
		return &gatewayError{fmt.Errorf("%s answered %s", service, res.Status)}
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, weatherMaxBody))
	if err != nil {
		return errs.New(errs.Unavailable, dashboards.IDWeatherUnavailable).Wrap(fmt.Errorf("%s: read answer: %w", service, err))
	}
	if err := json.Unmarshal(body, dst); err != nil {
		return &gatewayError{fmt.Errorf("%s: read answer: %w", service, err)}
	}
	return nil
}
