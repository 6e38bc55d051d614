package widgetdata

import (
	"context"
	"strconv"

	"github.com/fieldhub/fieldhub/modules/dashboards"
)

// Position is where a module's weather forecast is for: its weather_lat
// and weather_lon, else its node's position; ok is false when it has
// neither.
func (r *Reader) Position(ctx context.Context, wd *dashboards.Widget, companyID int64) (lat, lon float64, ok bool, err error) {
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
	t, err := r.nodeInfo(ctx, companyID).tag(wd.Tag)
	if err != nil || t == nil || t.Lat == nil || t.Long == nil {
		return 0, 0, false, err
	}
	return *t.Lat, *t.Long, true, nil
}
