package collect

import (
	"context"
	"fmt"
	"time"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/reports"
)

// sliceWidth is how much of the window regular reads at a time; a slice
// with more points than one Range call returns is halved until it fits.
const sliceWidth = 24 * time.Hour

// regular hands sink every stored value of n's keys, one row per instant
// at which any of them has a value.
func (c *Collector) regular(ctx context.Context, spec reports.Spec, n Node, sink Sink, ns *NodeStats) error {
	for from := spec.From; from.Before(spec.To); {
		to := from.Add(sliceWidth)
		if to.After(spec.To) {
			to = spec.To
		}
		if err := c.slice(ctx, spec.Company, n, from, to, sink, ns); err != nil {
			return err
		}
		from = to
	}
	return nil
}

// slice reads [from, to) of every key and merges the points into rows.
func (c *Collector) slice(ctx context.Context, company int64, n Node, from, to time.Time, sink Sink, ns *NodeStats) error {
	cols := make([][]tsdb.Point, len(n.Keys))
	for i, k := range n.Keys {
		pts, err := c.Series.Range(ctx, series(company, n, k.Key), from, to, tsdb.MaxPoints)
		if err != nil {
			return fmt.Errorf("read %s %s: %w", n.DevEUI, k.Key, err)
		}
		if len(pts) >= tsdb.MaxPoints && to.Sub(from) > time.Microsecond {
			// Maybe thinned out: read the halves instead.
			mid := from.Add(to.Sub(from) / 2).Truncate(time.Microsecond)
			if err := c.slice(ctx, company, n, from, mid, sink, ns); err != nil {
				return err
			}
			return c.slice(ctx, company, n, mid, to, sink, ns)
		}
		cols[i] = pts
	}
	next := make([]int, len(cols))
	cells := make([]Cell, len(cols))
	for {
		var at time.Time
		found := false
		for i, pts := range cols {
			if next[i] < len(pts) && (!found || pts[next[i]].Time.Before(at)) {
				at, found = pts[next[i]].Time, true
			}
		}
		if !found {
			return nil
		}
		for i, pts := range cols {
			cells[i] = Cell{Empty: true}
			if next[i] < len(pts) && pts[next[i]].Time.Equal(at) {
				p := pts[next[i]]
				cells[i] = Cell{Value: p.Value, Text: p.Text, IsText: p.IsText}
				next[i]++
				ns.Values++
			}
		}
		ns.Rows++
		if err := sink.Row(at, cells); err != nil {
			return err
		}
	}
}
