package collect

import (
	"context"
	"fmt"
	"time"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/reports"
)

// Aggregates are the columns a trend report has per key, in order.
var Aggregates = []string{"min", "max", "mean", "last"}

// BucketEdges are the edges of a trend report's rows: the hours of the
// window (HourEdges), or its days in the report's time zone.
func BucketEdges(spec reports.Spec) ([]time.Time, error) {
	if spec.Resolution == reports.ResolutionDay {
		return tsdb.CalendarEdges(spec.From, spec.To, spec.Location, tsdb.Day)
	}
	return HourEdges(spec.From, spec.To), nil
}

// trend hands sink one row per bucket that has a number in any of n's
// keys: min, max, mean and last of each key.
func (c *Collector) trend(ctx context.Context, spec reports.Spec, n Node, sink Sink, ns *NodeStats) error {
	edges, err := BucketEdges(spec)
	if err != nil {
		return err
	}
	for chunk := 0; chunk < len(edges)-1; chunk += tsdb.MaxBuckets {
		part := edges[chunk : min(chunk+tsdb.MaxBuckets, len(edges)-1)+1]
		cols := make([]map[int64]tsdb.Bucket, len(n.Keys))
		for i, k := range n.Keys {
			buckets, err := c.Series.AggregateEdges(ctx, series(spec.Company, n, k.Key), part)
			if err != nil {
				return fmt.Errorf("aggregate %s %s: %w", n.DevEUI, k.Key, err)
			}
			cols[i] = map[int64]tsdb.Bucket{}
			for _, b := range buckets {
				cols[i][b.Start.UnixMicro()] = b
			}
		}
		cells := make([]Cell, len(n.Keys)*len(Aggregates))
		for _, start := range part[:len(part)-1] {
			any := false
			for i := range n.Keys {
				b, ok := cols[i][start.UnixMicro()]
				ok = ok && b.Count > 0
				for j, v := range []float64{b.Min, b.Max, b.Mean, b.Last} {
					cells[i*len(Aggregates)+j] = Cell{Value: v, Empty: !ok}
				}
				if ok {
					any = true
					ns.Values += b.Count
				}
			}
			if !any {
				continue
			}
			ns.Rows++
			if err := sink.Row(start, cells); err != nil {
				return err
			}
		}
	}
	return nil
}
