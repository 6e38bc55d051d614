// Package collect reads what a report holds from the time-series store and
// hands it, node by node and row by row, to a Sink (a workbook, a CSV file,
// a preview): every stored value of the chosen keys (regular), or their
// minimum, maximum, mean and last per hour or day (trend). It reads in
// slices of the window, so that memory stays flat however many rows there
// are, and counts what the summary shows: rows, values and the hours
// without data.
package collect

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/reports"
)

// Node is a node a report covers, with the keys it shows.
type Node struct {
	ID     int64
	Name   string
	DevEUI string
	Keys   []Key
}

// Key is a key with what its column is headed by.
type Key struct {
	Key, Label, Unit string
}

// Heading is "Label (unit)", or the key when it has no label.
func (k Key) Heading() string {
	h := k.Label
	if h == "" {
		h = k.Key
	}
	if k.Unit != "" {
		h += " (" + k.Unit + ")"
	}
	return h
}

// Cell is one value of a row; Empty when the row has none for its column.
type Cell struct {
	Value  float64
	Text   string
	IsText bool
	Empty  bool
}

// Sink receives a report: for each node its table's start, then its rows
// in time order. An error stops the collection (ErrEnough quietly).
type Sink interface {
	Node(n Node) error
	Row(t time.Time, cells []Cell) error
}

// ErrEnough is what a Sink returns when it has all it wants (a preview).
var ErrEnough = errors.New("enough rows")

// NodeStats is what the summary shows of a node.
type NodeStats struct {
	Node   Node
	Rows   int64
	Values int64
	// Gaps counts the hours of the period in which none of its keys has a
	// number.
	Gaps int64
}

// Stats is what the summary shows of a report.
type Stats struct {
	Hours int64 // hours in the period: 23 or 25 on daylight-saving days
	Nodes []NodeStats
}

// Values is the number of values of every node.
func (s Stats) Values() int64 {
	var n int64
	for _, x := range s.Nodes {
		n += x.Values
	}
	return n
}

// Collector reads reports.
type Collector struct {
	Nodes  reports.Nodes
	Series reports.Series
}

// Resolve loads the nodes of spec in its company, in the order given, with
// the chosen keys' labels and units. A node that is not the company's is
// an invalid field.
func (c *Collector) Resolve(ctx context.Context, spec reports.Spec) ([]Node, error) {
	tags, err := c.Nodes.CompanyTags(ctx, spec.Company)
	if err != nil {
		return nil, err
	}
	byID := map[int64]*nodes.Tag{}
	for _, t := range tags {
		byID[t.ID] = t
	}
	out := make([]Node, 0, len(spec.Nodes))
	for _, id := range spec.Nodes {
		t, ok := byID[id]
		if !ok {
			return nil, errs.New(errs.Invalid, reports.IDNodeUnknown).With("id", id)
		}
		keys, err := c.Nodes.TagKeys(ctx, t.ID)
		if err != nil {
			return nil, err
		}
		n := Node{ID: t.ID, Name: t.Name, DevEUI: t.DevEUI}
		for _, k := range spec.Keys {
			col := Key{Key: k}
			if i := slices.IndexFunc(keys, func(x nodes.Key) bool { return x.Key == k }); i >= 0 {
				col.Label, col.Unit = keys[i].Label, keys[i].Unit
			}
			n.Keys = append(n.Keys, col)
		}
		out = append(out, n)
	}
	return out, nil
}

// Collect hands the report of spec over nodes to sink and returns its
// statistics.
func (c *Collector) Collect(ctx context.Context, spec reports.Spec, list []Node, sink Sink) (Stats, error) {
	hours := HourEdges(spec.From, spec.To)
	st := Stats{Hours: int64(len(hours) - 1)}
	for _, n := range list {
		ns := NodeStats{Node: n}
		if err := sink.Node(n); err != nil {
			return st, err
		}
		var err error
		hourly := spec.Type == reports.TypeTrend && spec.Resolution != reports.ResolutionDay
		if spec.Type == reports.TypeTrend {
			err = c.trend(ctx, spec, n, sink, &ns)
		} else {
			err = c.regular(ctx, spec, n, sink, &ns)
		}
		if err != nil {
			return st, err
		}
		if hourly {
			// An hourly trend's rows are the hours with a number: the
			// others are the gaps, without reading the hours again.
			ns.Gaps = st.Hours - ns.Rows
		} else if ns.Gaps, err = c.gaps(ctx, spec.Company, n, hours); err != nil {
			return st, err
		}
		st.Nodes = append(st.Nodes, ns)
	}
	return st, nil
}

// HourEdges cuts [from, to) at every UTC hour: the hours of the period in
// absolute time, 23 or 25 of them on the days the clocks change (in zones
// a whole number of hours off UTC they are the local clock hours).
func HourEdges(from, to time.Time) []time.Time {
	edges := []time.Time{from}
	for t := from.Truncate(time.Hour).Add(time.Hour); t.Before(to); t = t.Add(time.Hour) {
		edges = append(edges, t)
	}
	return append(edges, to)
}

// gaps counts the hours in which none of n's keys has a number.
func (c *Collector) gaps(ctx context.Context, company int64, n Node, hours []time.Time) (int64, error) {
	covered := make([]bool, len(hours)-1)
	for _, k := range n.Keys {
		for chunk := 0; chunk < len(hours)-1; chunk += tsdb.MaxBuckets {
			end := min(chunk+tsdb.MaxBuckets, len(hours)-1)
			buckets, err := c.Series.AggregateEdges(ctx, series(company, n, k.Key), hours[chunk:end+1])
			if err != nil {
				return 0, fmt.Errorf("count the hours of %s: %w", n.DevEUI, err)
			}
			for _, b := range buckets {
				if i, ok := slices.BinarySearchFunc(hours, b.Start, func(e, t time.Time) int { return e.Compare(t) }); ok && i < len(covered) && b.Count > 0 {
					covered[i] = true
				}
			}
		}
	}
	var gaps int64
	for _, c := range covered {
		if !c {
			gaps++
		}
	}
	return gaps, nil
}

func series(company int64, n Node, key string) tsdb.Series {
	return tsdb.Series{Company: company, DevEUI: strings.ToLower(n.DevEUI), Key: key}
}
