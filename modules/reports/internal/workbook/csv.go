package workbook

import (
	"bufio"
	"encoding/csv"
	"io"
	"strconv"
	"time"

	"github.com/fieldhub/fieldhub/modules/reports"
	"github.com/fieldhub/fieldhub/modules/reports/internal/collect"
)

// CSV writes a report as one table, a row per value (regular) or per key
// and bucket (trend), for programs: its headings are fixed English names
// and its times local with their offset.
type CSV struct {
	w     *csv.Writer
	buf   *bufio.Writer
	spec  reports.Spec
	node  collect.Node
	trend bool
	rec   []string
}

// NewCSV writes spec's rows to w.
func NewCSV(w io.Writer, spec reports.Spec) (*CSV, error) {
	buf := bufio.NewWriterSize(w, 64<<10)
	c := &CSV{w: csv.NewWriter(buf), buf: buf, spec: spec, trend: spec.Type == reports.TypeTrend}
	head := []string{"node", "deveui", "time", "utcOffset", "key", "label", "unit"}
	if c.trend {
		head = append(head, "min", "max", "mean", "last")
	} else {
		head = append(head, "value")
	}
	return c, c.w.Write(head)
}

// Node starts n's rows.
func (c *CSV) Node(n collect.Node) error { c.node = n; return nil }

// Row writes the values of one instant or bucket.
func (c *CSV) Row(t time.Time, cells []collect.Cell) error {
	at := t.In(c.spec.Location).Format("2006-01-02 15:04:05")
	off := offset(t, c.spec.Location)
	width := 1
	if c.trend {
		width = len(collect.Aggregates)
	}
	for i, k := range c.node.Keys {
		group := cells[i*width : (i+1)*width]
		if group[0].Empty {
			continue
		}
		c.rec = append(c.rec[:0], c.node.Name, c.node.DevEUI, at, off, k.Key, k.Label, k.Unit)
		for _, v := range group {
			c.rec = append(c.rec, cellText(v))
		}
		if err := c.w.Write(c.rec); err != nil {
			return err
		}
	}
	return nil
}

// Finish writes what is buffered.
func (c *CSV) Finish() error {
	c.w.Flush()
	if err := c.w.Error(); err != nil {
		return err
	}
	return c.buf.Flush()
}

func cellText(v collect.Cell) string {
	if v.IsText {
		return v.Text
	}
	return strconv.FormatFloat(v.Value, 'f', -1, 64)
}
