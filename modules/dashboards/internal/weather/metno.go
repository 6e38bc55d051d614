package weather

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"time"
)

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

func (c *Client) metno(ctx context.Context, lat, lon float64) (*Forecast, error) {
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
