package workbook

import (
	"time"

	"github.com/fieldhub/fieldhub/modules/reports/internal/collect"
)

// Preview is the first rows of a report as POST /report/preview answers
// them: the first node's table heading and up to Limit rows.
type Preview struct {
	Limit    int          `json:"-"`
	NodeName string       `json:"node"`
	Columns  []string     `json:"columns"`
	Rows     []PreviewRow `json:"rows"`
	Trend    bool         `json:"-"`
	Labels   []string     `json:"-"` // the aggregates' names, for a trend
}

// PreviewRow is one row: its time and its cells (null where none).
type PreviewRow struct {
	Time   time.Time `json:"time"`
	Values []any     `json:"values"`
}

// Node takes the first node's heading and stops at the second.
func (p *Preview) Node(n collect.Node) error {
	if p.NodeName != "" {
		return collect.ErrEnough
	}
	p.NodeName = n.Name
	p.Columns = []string{}
	for _, k := range n.Keys {
		if p.Trend {
			for _, a := range p.Labels {
				p.Columns = append(p.Columns, k.Heading()+" "+a)
			}
		} else {
			p.Columns = append(p.Columns, k.Heading())
		}
	}
	return nil
}

// Row keeps a row until Limit.
func (p *Preview) Row(t time.Time, cells []collect.Cell) error {
	r := PreviewRow{Time: t, Values: make([]any, len(cells))}
	for i, c := range cells {
		switch {
		case c.Empty:
		case c.IsText:
			r.Values[i] = c.Text
		default:
			r.Values[i] = c.Value
		}
	}
	p.Rows = append(p.Rows, r)
	if len(p.Rows) >= p.Limit {
		return collect.ErrEnough
	}
	return nil
}
