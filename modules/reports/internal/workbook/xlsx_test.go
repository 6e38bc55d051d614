package workbook

import (
	"bytes"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/fieldhub/fieldhub/modules/reports"
	"github.com/fieldhub/fieldhub/modules/reports/internal/collect"
)

// TestSheetsContinuePastTheRowLimit writes more rows than a sheet holds
// (the limit lowered to 4: a heading and 3 rows) and reads every row back,
// in order, across the node's sheets, each with its heading.
func TestSheetsContinuePastTheRowLimit(t *testing.T) {
	loc, _ := time.LoadLocation("Europe/Stockholm")
	spec := reports.Spec{Type: reports.TypeRegular, From: time.Date(2026, 3, 29, 0, 0, 0, 0, loc), To: time.Date(2026, 3, 30, 0, 0, 0, 0, loc), Location: loc}
	x, err := NewXLSX(spec, "Limits", Labels{Summary: "Summary", Time: "Time", Offset: "UTC offset"})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	x.maxRows = 4
	node := collect.Node{ID: 1, Name: "Tank/North", DevEUI: "70B3D57ED0000001", Keys: []collect.Key{{Key: "level", Unit: "cm"}}}
	if err := x.Node(node); err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		if err := x.Row(spec.From.Add(time.Duration(i)*time.Hour), []collect.Cell{{Value: float64(i)}}); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := x.Finish(&buf, collect.Stats{Hours: 23, Nodes: []collect.NodeStats{{Node: node, Rows: 8, Values: 8}}}); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := []string{"Summary", "Tank North", "Tank North (2)", "Tank North (3)"}
	if got := f.GetSheetList(); len(got) != len(want) || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Fatalf("sheets %v, want %v", got, want)
	}
	var values []string
	for _, sheet := range want[1:] {
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		if rows[0][2] != "level (cm)" {
			t.Errorf("%s heading %v", sheet, rows[0])
		}
		for _, r := range rows[1:] {
			values = append(values, r[2])
		}
	}
	if len(values) != 8 || values[0] != "0" || values[7] != "7" {
		t.Errorf("values across the sheets %v", values)
	}
	// 02:00 does not exist that night: 01:00 +01:00 is followed by 03:00 +02:00.
	rows, _ := f.GetRows("Tank North")
	if rows[2][0] != "2026-03-29 01:00:00" || rows[2][1] != "+01:00" || rows[3][0] != "2026-03-29 03:00:00" || rows[3][1] != "+02:00" {
		t.Errorf("local times %v %v", rows[2], rows[3])
	}
}
