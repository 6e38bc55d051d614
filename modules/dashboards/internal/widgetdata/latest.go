package widgetdata

import (
	"context"
	"time"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/dashboards"
)

// LatestData is one series of a tagdata/latest answer.
type LatestData struct {
	DevEUI   string     `json:"deveui"`
	Name     string     `json:"name"`
	Key      string     `json:"key"`
	Label    string     `json:"label"`
	Unit     string     `json:"unit"`
	Value    *float64   `json:"value"`
	Text     *string    `json:"text"`
	Time     *time.Time `json:"time"`
	Previous *float64   `json:"previous"`
}

// Latest is the answer of GET .../tagdata/latest.
type Latest struct {
	Series []LatestData `json:"series"`
}

// Latest answers GET .../tagdata/latest of a module of a company: each
// series' latest value and the number before it (for the trend icon),
// nulls when there are none.
func (r *Reader) Latest(ctx context.Context, wd *dashboards.Widget, companyID int64) (*Latest, error) {
	refs, err := r.seriesOf(ctx, wd, companyID)
	if err != nil {
		return nil, err
	}
	out := make([]LatestData, len(refs))
	err = parallel(len(refs), func(i int) error {
		ref := refs[i]
		s := ref.tsdb(companyID)
		ld := LatestData{DevEUI: ref.DevEUI, Name: ref.Name, Key: ref.Key, Label: ref.Label, Unit: ref.Unit}
		p, prev, err := r.lastTwo(ctx, s)
		if err != nil {
			return err
		}
		if p != nil {
			t := p.Time.UTC()
			ld.Time = &t
			if p.IsText {
				ld.Text = &p.Text
			} else {
				ld.Value = &p.Value
				if prev != nil && !prev.IsText {
					ld.Previous = &prev.Value
				}
			}
		}
		out[i] = ld
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &Latest{Series: out}, nil
}

// latestWindows are the windows, ending an hour ahead of now, in which
// lastTwo looks for a series' latest values, shortest first.
var latestWindows = []time.Duration{2 * time.Hour, 3 * 24 * time.Hour, 62 * 24 * time.Hour}

// lastTwo returns the latest point of a series and the one before it (nil
// when there is none). The store tells the latest point alone, so this
// reads the points of a short recent window, widened for a series that
// reports rarely: a few recent points are cheap in every store. Range
// keeps a window's last point whatever it drops, so the latest is exact; the one before is exact unless the window holds more
// than maxPoints values. A series silent for two months is asked with
// Latest, and then has no previous value.
func (r *Reader) lastTwo(ctx context.Context, s tsdb.Series) (*tsdb.Point, *tsdb.Point, error) {
	to := time.Now().Add(latestAhead)
	for _, span := range latestWindows {
		pts, err := r.series.Range(ctx, s, to.Add(-span), to, maxPoints)
		if err != nil {
			return nil, nil, err
		}
		switch n := len(pts); {
		case n >= 2:
			return &pts[n-1], &pts[n-2], nil
		case n == 1 && span == latestWindows[len(latestWindows)-1]:
			return &pts[0], nil, nil
		}
	}
	p, ok, err := r.series.Latest(ctx, s)
	if err != nil || !ok {
		return nil, nil, err
	}
	return &p, nil, nil
}
