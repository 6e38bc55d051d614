package pages

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// The node details page's table of stored data: the latest values of the
// node's keys in the time series.

// Limits of the stored-data table.
const (
	recentPoints = 10 // rows: the latest uplinks
	recentKeys   = 16 // columns: the first keys, by name
)

// recentTable is the latest stored values of a node: one row per time,
// newest first, one column per key.
type recentTable struct {
	Keys      []string
	Rows      []recentRow
	Available bool // a time-series store is wired in
	Failed    bool // it could not be read
}

type recentRow struct {
	Time   time.Time
	Values []string
}

// recentData reads the latest points of the node's keys from the
// time-series store. A store that fails makes the table say so; the page
// still shows.
func (pg *Pages) recentData(ctx context.Context, t *nodes.Tag, keys []nodes.Key) recentTable {
	out := recentTable{Available: pg.series != nil}
	if !out.Available {
		return out
	}
	if len(keys) > recentKeys {
		keys = keys[:recentKeys]
	}
	cells := map[time.Time]map[string]string{}
	for _, k := range keys {
		pts, err := pg.latestPoints(ctx, tsdb.Series{Company: t.CompanyID, DevEUI: strings.ToLower(t.DevEUI), Key: k.Key}, recentPoints)
		if err != nil {
			pg.log.Warn("read stored values failed", "tag_id", t.ID, "key", k.Key, "err", err)
			out.Failed = true
			return out
		}
		if len(pts) == 0 {
			continue
		}
		out.Keys = append(out.Keys, k.Key)
		for _, p := range pts {
			if cells[p.Time] == nil {
				cells[p.Time] = map[string]string{}
			}
			if p.IsText {
				cells[p.Time][k.Key] = p.Text
			} else {
				cells[p.Time][k.Key] = formatNumber(p.Value, k.Decimals)
			}
		}
	}
	times := make([]time.Time, 0, len(cells))
	for tm := range cells {
		times = append(times, tm)
	}
	slices.SortFunc(times, func(a, b time.Time) int { return b.Compare(a) })
	if len(times) > recentPoints {
		times = times[:recentPoints]
	}
	for _, tm := range times {
		row := recentRow{Time: tm, Values: make([]string, len(out.Keys))}
		for i, k := range out.Keys {
			row.Values[i] = cells[tm][k]
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}

// latestPoints returns up to n of the latest points of s, oldest first:
// the last day before its latest point, or longer when that day holds
// fewer than n.
func (pg *Pages) latestPoints(ctx context.Context, s tsdb.Series, n int) ([]tsdb.Point, error) {
	last, ok, err := pg.series.Latest(ctx, s)
	if err != nil || !ok {
		return nil, err
	}
	to := last.Time.Add(time.Microsecond)
	var pts []tsdb.Point
	for _, back := range []time.Duration{24 * time.Hour, 30 * 24 * time.Hour, 365 * 24 * time.Hour} {
		if pts, err = pg.series.Range(ctx, s, last.Time.Add(-back), to, 5000); err != nil {
			return nil, err
		}
		if len(pts) >= n {
			break
		}
	}
	if len(pts) > n {
		pts = pts[len(pts)-n:]
	}
	return pts, nil
}
