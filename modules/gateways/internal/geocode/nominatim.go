// Package geocode asks a Nominatim-compatible service (FIELDHUB_GEOCODE_URL)
// for the address of a position, for the gateway form. The server asks, not
// the browser: the pages' Content-Security-Policy stays on the portal's own
// origin, the service sees the portal's User-Agent as its usage policy asks,
// requests are spaced at least a second apart across all users, and
// answers are cached.
package geocode

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/gateways"
)

// cacheSize bounds the cached answers; the cache starts over when full.
const cacheSize = 2000

// spacing is the least time between two requests (the public instance's
// policy: at most one per second).
const spacing = time.Second

// Client looks addresses up.
type Client struct {
	base string
	http *http.Client

	mu    sync.Mutex
	next  time.Time // the earliest time of the next request
	cache map[string]gateways.Address
}

// New returns a client of the service at base, nil when base is "" (the
// lookup is off).
func New(base string) *Client {
	if base == "" {
		return nil
	}
	return &Client{base: base, http: &http.Client{Timeout: 10 * time.Second}, cache: map[string]gateways.Address{}}
}

// answer is the part of a jsonv2 answer the form shows. A position without
// an address is an HTTP 200 with {"error": "Unable to geocode"}; a bad
// request a 400 with {"error": {"code": 400, "message": ...}}, hence
// json.RawMessage.
type answer struct {
	DisplayName string          `json:"display_name"`
	Error       json.RawMessage `json:"error"`
}

// Reverse returns the address of lat, lng in lang ("en", "sv"). A service
// that cannot be reached or answers otherwise than documented is an
// errs.Unavailable error.
func (c *Client) Reverse(ctx context.Context, lat, lng float64, lang string) (gateways.Address, error) {
	key := fmt.Sprintf("%.5f,%.5f,%s", lat, lng, lang)
	c.mu.Lock()
	if a, ok := c.cache[key]; ok {
		c.mu.Unlock()
		return a, nil
	}
	wait := time.Until(c.next)
	c.next = time.Now().Add(max(wait, 0) + spacing)
	c.mu.Unlock()
	if wait > 0 {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return gateways.Address{}, ctx.Err()
		}
	}
	q := url.Values{"format": {"jsonv2"}, "lat": {strconv.FormatFloat(lat, 'f', 6, 64)}, "lon": {strconv.FormatFloat(lng, 'f', 6, 64)},
		"zoom": {"18"}, "addressdetails": {"0"}, "accept-language": {lang}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/reverse?"+q.Encode(), nil)
	if err != nil {
		return gateways.Address{}, fmt.Errorf("geocode request: %w", err)
	}
	req.Header.Set("User-Agent", "Fieldhub gateway positions (+https://github.com/fieldhub/fieldhub)")
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return gateways.Address{}, unavailable(fmt.Errorf("geocode %s: %w", c.base, err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return gateways.Address{}, unavailable(fmt.Errorf("read geocode answer: %w", err))
	}
	if resp.StatusCode != http.StatusOK {
		return gateways.Address{}, unavailable(fmt.Errorf("geocode %s: HTTP %d: %.200s", c.base, resp.StatusCode, body))
	}
	var a answer
	if err := json.Unmarshal(body, &a); err != nil {
		return gateways.Address{}, unavailable(fmt.Errorf("geocode answer is not JSON: %w", err))
	}
	out := gateways.Address{DisplayName: a.DisplayName, Found: len(a.Error) == 0 && a.DisplayName != ""}
	if !out.Found {
		out.DisplayName = ""
	}
	c.mu.Lock()
	if len(c.cache) >= cacheSize {
		clear(c.cache)
	}
	c.cache[key] = out
	c.mu.Unlock()
	return out, nil
}

func unavailable(err error) error {
	return errs.New(errs.Unavailable, gateways.IDGeocodeFail).Wrap(err)
}
