package signaltests

import (
	"math"
	"sort"
	"strings"

	"github.com/fieldhub/fieldhub/modules/ingest"
)

// latitudeNames and longitudeNames are the last parts of decoded keys that
// hold a position in the decoders of common GPS trackers (latitude,
// gps.latitude, location.lat, lng, lon, long...), lower case.
var (
	latitudeNames  = map[string]bool{"latitude": true, "lat": true}
	longitudeNames = map[string]bool{"longitude": true, "lng": true, "lon": true, "long": true}
)

// DetectPosition returns the keys of data that hold a latitude and a
// longitude: a key whose last dotted part is one of the common names, case
// aside. When several do, the shortest key (then the first in order) wins,
// so that "latitude" beats "gps.latitude". "" when there is none.
func DetectPosition(data map[string]any) (lat, lng string) {
	var lats, lngs []string
	for k, v := range data {
		if _, ok := v.(float64); !ok {
			continue
		}
		last := strings.ToLower(k[strings.LastIndex(k, ".")+1:])
		if latitudeNames[last] {
			lats = append(lats, k)
		}
		if longitudeNames[last] {
			lngs = append(lngs, k)
		}
	}
	return pick(lats), pick(lngs)
}

func pick(keys []string) string {
	if len(keys) == 0 {
		return ""
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) < len(keys[j])
		}
		return keys[i] < keys[j]
	})
	return keys[0]
}

// PositionOf reads the position of an uplink's values from the test's
// keys (detected when a key is ""). It is nil, nil when either is missing
// or not a number, out of range, or 0,0 (what a GPS without a fix sends).
func PositionOf(data map[string]any, latKey, lngKey string) (*float64, *float64) {
	if latKey == "" || lngKey == "" {
		dLat, dLng := DetectPosition(data)
		if latKey == "" {
			latKey = dLat
		}
		if lngKey == "" {
			lngKey = dLng
		}
	}
	lat, ok1 := data[latKey].(float64)
	lng, ok2 := data[lngKey].(float64)
	if !ok1 || !ok2 || math.IsNaN(lat) || math.IsNaN(lng) || lat < -90 || lat > 90 || lng < -180 || lng > 180 || (lat == 0 && lng == 0) {
		return nil, nil
	}
	return &lat, &lng
}

// BestReception is the gateway that heard an uplink best, as ChirpStack
// picks the gateway for a downlink: the highest SNR, then the highest
// RSSI; a reception without SNR ranks below those with one. ok is false
// when there is none.
func BestReception(rs []ingest.Reception) (best ingest.Reception, ok bool) {
	for i, r := range rs {
		if i == 0 || better(r, best) {
			best = r
		}
	}
	return best, len(rs) > 0
}

func better(a, b ingest.Reception) bool {
	if (a.SNR != nil) != (b.SNR != nil) {
		return a.SNR != nil
	}
	if a.SNR != nil && *a.SNR != *b.SNR {
		return *a.SNR > *b.SNR
	}
	if (a.RSSI != nil) != (b.RSSI != nil) {
		return a.RSSI != nil
	}
	return a.RSSI != nil && *a.RSSI > *b.RSSI
}
