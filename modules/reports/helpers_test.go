package reports_test

import (
	"bytes"
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// The nodes of the tests' companies.
const (
	coldRoom = "70B3D57ED0000001"
	freezer  = "70B3D57ED0000002"
	rivalEUI = "70B3D57ED0000009"
)

// sthlm is the companies' time zone (they are in Sweden).
var sthlm = func() *time.Location {
	loc, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		panic(err)
	}
	return loc
}()

// local reads a Stockholm time "2006-01-02 15:04".
func local(tb testing.TB, s string) time.Time {
	tb.Helper()
	t, err := time.ParseInLocation("2006-01-02 15:04", s, sthlm)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// companies makes acme (two nodes, a temperature key with label and unit)
// and rival (one node).
func companies(tb testing.TB, p *kerneltest.Portal[*app.App]) *kerneltest.Session {
	tb.Helper()
	s := kerneltest.Companies(tb, p.Client, p.App,
		kerneltest.CompanySpec{Key: "acme", App: "Plant", Nodes: []kerneltest.NodeSpec{
			{Key: "coldRoom", Name: "Cold room", DevEUI: coldRoom}, {Key: "freezer", Name: "Freezer", DevEUI: freezer}}},
		kerneltest.CompanySpec{Key: "rival", App: "Other", Nodes: []kerneltest.NodeSpec{{Key: "rivalNode", Name: "Rival", DevEUI: rivalEUI}}})
	for _, n := range []string{"{coldRoom}", "{freezer}"} {
		body := map[string]any{"tagId": s.ID(tb, n), "key": "temperature", "label": "Temperature", "unit": "°C"}
		if r := s.Call(tb, "acmeAdmin", "POST", "/api/tag/key/add", body); r.Status >= 300 {
			tb.Fatalf("add key: %d %s", r.Status, r.Body)
		}
		s.Must(tb, "acmeAdmin", "POST", "/api/tag/key/update", body, http.StatusOK)
	}
	return s
}

// every writes a number every step in [from, to) for the key of a node of
// company: value(i) for the i-th point.
func every(tb testing.TB, p *kerneltest.Portal[*app.App], company int64, deveui, key string, from, to time.Time, step time.Duration, value func(i int) float64) int {
	tb.Helper()
	s := tsdb.Series{Company: company, DevEUI: lower(deveui), Key: key}
	var pts []tsdb.Point
	i := 0
	for t := from; t.Before(to); t = t.Add(step) {
		pts = append(pts, tsdb.Number(s, t, value(i)))
		i++
	}
	for len(pts) > 0 {
		n := min(len(pts), 5000)
		if err := p.App.Series().Write(context.Background(), pts[:n]); err != nil {
			tb.Fatal(err)
		}
		pts = pts[n:]
	}
	return i
}

func lower(s string) string { return string(bytes.ToLower([]byte(s))) }

// workbook opens an .xlsx.
func workbook(tb testing.TB, data []byte) *excelize.File {
	tb.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		tb.Fatalf("open the workbook: %v", err)
	}
	tb.Cleanup(func() { f.Close() })
	return f
}

// rows reads a sheet's rows.
func rows(tb testing.TB, f *excelize.File, sheet string) [][]string {
	tb.Helper()
	r, err := f.GetRows(sheet)
	if err != nil {
		tb.Fatalf("read sheet %q (sheets %v): %v", sheet, f.GetSheetList(), err)
	}
	return r
}

// summaryHours is the hours of the period the summary (the first sheet,
// in the company's language) states.
func summaryHours(tb testing.TB, f *excelize.File) string {
	tb.Helper()
	v, err := f.GetCellValue(f.GetSheetName(0), "B5")
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// nodeRow is a node's row of the summary: rows, values, gaps.
func nodeRow(tb testing.TB, f *excelize.File, name string) []string {
	tb.Helper()
	for _, r := range rows(tb, f, f.GetSheetName(0)) {
		if len(r) >= 5 && r[0] == name {
			return r[2:5]
		}
	}
	tb.Fatalf("no node %q in the summary", name)
	return nil
}
