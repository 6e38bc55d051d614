package weather

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"
)

// smhiArea is the bounding box of SMHI's forecast area (its valid-area
// polygon is irregular inside it; a point outside the polygon answers 404
// and is asked of MET Norway instead).
var smhiArea = struct{ minLat, maxLat, minLon, maxLon float64 }{49.9, 74.9, -18.1, 44.1}

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

func (c *Client) smhi(ctx context.Context, lat, lon float64) (*Forecast, error) {
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
