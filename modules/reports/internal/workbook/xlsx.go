package workbook

import (
	"fmt"
	"io"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/fieldhub/fieldhub/modules/reports"
	"github.com/fieldhub/fieldhub/modules/reports/internal/collect"
)

// maxChartSeries bounds the lines of a trend's chart: beyond a dozen a
// line chart is unreadable.
const maxChartSeries = 12

// XLSX writes a workbook. Rows stream to disk-backed buffers, so memory
// does not grow with their number; a node's sheet that reaches the row
// limit continues on a sheet of its own after it.
type XLSX struct {
	f         *excelize.File
	labels    Labels
	spec      reports.Spec
	title     string
	used      map[string]bool
	sw        *excelize.StreamWriter
	node      collect.Node
	part      int
	row       int // rows written on the current sheet, the heading among them
	timeStyle int
	numStyle  int
	sheets    []sheetPart
	cells     []any
	// maxRows is a sheet's row limit, Excel's; tests lower it.
	maxRows int
}

// sheetPart is a sheet of a node's rows, for the chart.
type sheetPart struct {
	name string
	node collect.Node
	rows int
}

// NewXLSX starts a workbook for spec, titled title (the report's name).
func NewXLSX(spec reports.Spec, title string, labels Labels) (*XLSX, error) {
	f := excelize.NewFile()
	x := &XLSX{f: f, labels: labels, spec: spec, title: title, used: map[string]bool{}, maxRows: excelize.TotalRows}
	summary := sheetName(labels.Summary, x.used)
	if err := f.SetSheetName("Sheet1", summary); err != nil {
		return nil, err
	}
	layout := "yyyy-mm-dd hh:mm:ss"
	if spec.Type == reports.TypeTrend {
		layout = "yyyy-mm-dd hh:mm"
	}
	var err error
	if x.timeStyle, err = f.NewStyle(&excelize.Style{CustomNumFmt: &layout}); err != nil {
		return nil, err
	}
	if x.numStyle, err = f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}}); err != nil {
		return nil, err
	}
	return x, nil
}

// Node starts the sheet of n.
func (x *XLSX) Node(n collect.Node) error {
	if err := x.flush(); err != nil {
		return err
	}
	x.node, x.part = n, 1
	return x.startSheet()
}

func (x *XLSX) startSheet() error {
	name := x.node.Name
	if x.part > 1 {
		name = fmt.Sprintf("%s (%d)", name, x.part)
	}
	name = sheetName(name, x.used)
	if _, err := x.f.NewSheet(name); err != nil {
		return err
	}
	sw, err := x.f.NewStreamWriter(name)
	if err != nil {
		return err
	}
	x.sw = sw
	x.sheets = append(x.sheets, sheetPart{name: name, node: x.node})
	_ = sw.SetColWidth(1, 1, 20)
	head := []any{x.labels.Time, x.labels.Offset}
	for _, k := range x.node.Keys {
		if x.spec.Type == reports.TypeTrend {
			for _, a := range x.labels.Aggregates {
				head = append(head, k.Heading()+" "+a)
			}
		} else {
			head = append(head, k.Heading())
		}
	}
	for i := range head {
		head[i] = excelize.Cell{StyleID: x.numStyle, Value: head[i]}
	}
	x.row = 1
	return sw.SetRow("A1", head)
}

// Row writes a row of the current node.
func (x *XLSX) Row(t time.Time, cells []collect.Cell) error {
	if x.row >= x.maxRows {
		if err := x.flush(); err != nil {
			return err
		}
		x.part++
		if err := x.startSheet(); err != nil {
			return err
		}
	}
	x.cells = append(x.cells[:0], excelize.Cell{StyleID: x.timeStyle, Value: wall(t, x.spec.Location)}, offset(t, x.spec.Location))
	for _, c := range cells {
		switch {
		case c.Empty:
			x.cells = append(x.cells, nil)
		case c.IsText:
			x.cells = append(x.cells, c.Text)
		default:
			x.cells = append(x.cells, c.Value)
		}
	}
	x.row++
	x.sheets[len(x.sheets)-1].rows++
	cell, _ := excelize.CoordinatesToCellName(1, x.row)
	return x.sw.SetRow(cell, x.cells)
}

func (x *XLSX) flush() error {
	if x.sw == nil {
		return nil
	}
	err := x.sw.Flush()
	x.sw = nil
	return err
}

// Finish writes the summary (and a trend's chart) and the workbook to w.
func (x *XLSX) Finish(w io.Writer, st collect.Stats) error {
	if err := x.flush(); err != nil {
		return err
	}
	if err := x.summary(st); err != nil {
		return err
	}
	if x.spec.Type == reports.TypeTrend {
		if err := x.chart(); err != nil {
			return err
		}
	}
	// The summary, made first, is the active sheet already. SetActiveSheet
	// would read every streamed sheet back into memory to unselect it.
	return x.f.Write(w)
}

// Close releases the workbook's temporary files.
func (x *XLSX) Close() error { return x.f.Close() }

// summary fills the first sheet: the report, its period and time zone, the
// hours in it, and per node its rows, values and hours without data.
func (x *XLSX) summary(st collect.Stats) error {
	sheet := x.f.GetSheetName(0)
	loc := x.spec.Location
	period := fmt.Sprintf("%s – %s", x.spec.From.In(loc).Format("2006-01-02 15:04"), x.spec.To.In(loc).Format("2006-01-02 15:04"))
	rows := [][]any{
		{x.labels.Report, x.title},
		{x.labels.Type, x.labels.TypeName},
		{x.labels.Period, period},
		{x.labels.TimeZone, loc.String()},
		{x.labels.Hours, st.Hours},
		{},
		{x.labels.Node, x.labels.DevEUI, x.labels.Rows, x.labels.Values, x.labels.Gaps},
	}
	var total collect.NodeStats
	for _, n := range st.Nodes {
		rows = append(rows, []any{n.Node.Name, n.Node.DevEUI, n.Rows, n.Values, n.Gaps})
		total.Rows += n.Rows
		total.Values += n.Values
		total.Gaps += n.Gaps
	}
	rows = append(rows, []any{x.labels.Total, "", total.Rows, total.Values, total.Gaps})
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := x.f.SetSheetRow(sheet, cell, &r); err != nil {
			return err
		}
	}
	_ = x.f.SetColWidth(sheet, "A", "A", 24)
	_ = x.f.SetColWidth(sheet, "B", "B", 36)
	_ = x.f.SetCellStyle(sheet, "A1", "A5", x.numStyle)
	return x.f.SetCellStyle(sheet, "A7", "E7", x.numStyle)
}

// chart adds a chart sheet of the means: a line per node and key, of the
// first sheet of each node, at most maxChartSeries.
func (x *XLSX) chart() error {
	var series []excelize.ChartSeries
	seen := map[int64]bool{}
	for _, s := range x.sheets {
		if seen[s.node.ID] || s.rows == 0 {
			continue
		}
		seen[s.node.ID] = true
		for i := range s.node.Keys {
			if len(series) == maxChartSeries {
				break
			}
			col, _ := excelize.ColumnNumberToName(3 + i*len(collect.Aggregates) + 2) // the mean
			series = append(series, excelize.ChartSeries{
				Name:       fmt.Sprintf("'%s'!$%s$1", s.name, col),
				Categories: fmt.Sprintf("'%s'!$A$2:$A$%d", s.name, s.rows+1),
				Values:     fmt.Sprintf("'%s'!$%s$2:$%s$%d", s.name, col, col, s.rows+1),
			})
		}
	}
	if len(series) == 0 {
		return nil
	}
	return x.f.AddChartSheet(sheetName(x.labels.Chart, x.used), &excelize.Chart{
		Type:   excelize.Line,
		Series: series,
		Title:  excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: x.labels.ChartTitle}}},
		Legend: excelize.ChartLegend{Position: "bottom"},
		XAxis:  excelize.ChartAxis{NumFmt: excelize.ChartNumFmt{CustomNumFmt: "yyyy-mm-dd hh:mm"}},
	})
}
