package bulk

import (
	"bytes"
	"testing"
)

// A CSV export's cells that a spreadsheet would run as formulas are
// written after an apostrophe and read back as they were.
func TestFormulaCells(t *testing.T) {
	cells := []string{"=1+2", "+46 70", "-33.9", "-", "@SUM(A1)", "'=x", "''=x", "'plain", "plain", "", "\tx", "18.07"}
	var buf bytes.Buffer
	if err := writeSheet(&buf, FormatCSV, []string{"devEUI"}, [][]string{cells}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"'=1+2", "'+46 70", ",-33.9,", "'-,", "'@SUM(A1)", "''=x", "'''=x", "'plain", "'\tx"} {
		if !bytes.Contains(buf.Bytes(), []byte(want)) {
			t.Errorf("export lacks %q: %s", want, buf.Bytes())
		}
	}
	sh, err := readSheet(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range sh.Rows[0].Cells {
		if c != cells[i] {
			t.Errorf("cell %d read back %q, want %q", i, c, cells[i])
		}
	}
}
