package bulk

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// The limits of an imported file: a file of 10,000 nodes with their labels
// stays well under 10 MiB, and a transaction of that many rows stays short.
const (
	MaxRows  = 10_000
	MaxBytes = 10 << 20
)

// Formats of an export.
const (
	FormatCSV  = "csv"
	FormatXLSX = "xlsx"
)

// row is one row of a file below its header, numbered as a spreadsheet
// shows it (the header is row 1).
type row struct {
	Number int
	Cells  []string
}

// sheet is a file's header and its rows that are not blank.
type sheet struct {
	Header []string
	Rows   []row
}

// readSheet reads an XLSX workbook's first sheet, or a CSV text (comma or
// semicolon separated, as spreadsheets in Swedish write it).
func readSheet(data []byte) (*sheet, error) {
	if len(data) > MaxBytes {
		return nil, tooLarge()
	}
	var (
		records [][]string
		err     error
	)
	if bytes.HasPrefix(data, []byte("PK\x03\x04")) {
		records, err = readXLSX(data)
	} else {
		records, err = readCSV(data)
	}
	if err != nil {
		return nil, err
	}
	s := &sheet{}
	for i, cells := range records {
		if blank(cells) {
			continue
		}
		if s.Header == nil {
			s.Header = cells
			continue
		}
		if len(s.Rows) == MaxRows {
			return nil, errs.New(errs.Invalid, nodes.IDImportTooManyRows).With("max", MaxRows)
		}
		s.Rows = append(s.Rows, row{Number: i + 1, Cells: cells})
	}
	if s.Header == nil {
		return nil, errs.New(errs.Invalid, nodes.IDImportNoHeader)
	}
	return s, nil
}

func tooLarge() error {
	return errs.New(errs.TooLarge, nodes.IDImportTooLarge).With("mib", MaxBytes>>20)
}

func notASpreadsheet(cause error) error {
	return errs.New(errs.Invalid, nodes.IDImportFileType).Wrap(cause)
}

func blank(cells []string) bool {
	for _, c := range cells {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

func readXLSX(data []byte) ([][]string, error) {
	// A workbook is a zip: its parts may unpack to far more than the
	// upload, so they are bounded (a sheet of 10,000 nodes is a few MB).
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{UnzipSizeLimit: 128 << 20, UnzipXMLSizeLimit: 64 << 20})
	if err != nil {
		return nil, notASpreadsheet(err)
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return nil, errs.New(errs.Invalid, nodes.IDImportNoHeader)
	}
	rows, err := f.Rows(sheets[0])
	if err != nil {
		return nil, notASpreadsheet(err)
	}
	defer rows.Close()
	var out [][]string
	for rows.Next() {
		if len(out) > MaxRows+1 && !blankTail(out) {
			return nil, errs.New(errs.Invalid, nodes.IDImportTooManyRows).With("max", MaxRows)
		}
		cells, err := rows.Columns()
		if err != nil {
			return nil, notASpreadsheet(err)
		}
		out = append(out, cells)
	}
	return out, rows.Error()
}

// blankTail reports whether the last row read is blank: a sheet may have
// formatted but empty rows below its data, which do not count.
func blankTail(records [][]string) bool { return blank(records[len(records)-1]) }

func readCSV(data []byte) ([][]string, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return nil, notASpreadsheet(errors.New("not UTF-8 text"))
	}
	first, _, _ := bytes.Cut(data, []byte("\n"))
	r := csv.NewReader(bytes.NewReader(data))
	if bytes.Count(first, []byte(";")) > bytes.Count(first, []byte(",")) {
		r.Comma = ';'
	}
	r.FieldsPerRecord = -1
	var out [][]string
	for {
		cells, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, notASpreadsheet(err)
		}
		for i, c := range cells {
			cells[i] = unescapeCell(c)
		}
		out = append(out, cells)
		if len(out) > MaxRows+1 && !blankTail(out) {
			return nil, errs.New(errs.Invalid, nodes.IDImportTooManyRows).With("max", MaxRows)
		}
	}
}

// writeSheet writes header and rows as CSV or as an XLSX workbook of one
// sheet, every cell as text so that a DevEUI of digits stays as it is.
func writeSheet(w io.Writer, format string, header []string, rows [][]string) error {
	if format == FormatCSV {
		cw := csv.NewWriter(w)
		if err := cw.Write(header); err != nil {
			return err
		}
		var escaped []string
		for _, r := range rows {
			escaped = escaped[:0]
			for _, c := range r {
				escaped = append(escaped, escapeCell(c))
			}
			if err := cw.Write(escaped); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	}
	f := excelize.NewFile()
	defer f.Close()
	const name = "Nodes"
	if err := f.SetSheetName("Sheet1", name); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter(name)
	if err != nil {
		return err
	}
	put := func(n int, cells []string) error {
		values := make([]any, len(cells))
		for i, c := range cells {
			values[i] = excelize.Cell{Value: c}
		}
		cell, err := excelize.CoordinatesToCellName(1, n)
		if err != nil {
			return err
		}
		return sw.SetRow(cell, values)
	}
	if err := put(1, header); err != nil {
		return err
	}
	for i, r := range rows {
		if err := put(i+2, r); err != nil {
			return fmt.Errorf("write row %d: %w", i+2, err)
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	return f.Write(w)
}

// A CSV cell that starts like a formula (=, +, -, @, a tab or a carriage
// return) is run as one by the spreadsheet that opens the file, so the
// export writes it after an apostrophe, as spreadsheets themselves do, and
// the import takes that apostrophe off again: a node named "=1+2" stays
// its name both ways. A number (a negative latitude) is left as it is.
func formulaLike(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '=', '@', '\t', '\r':
		return true
	case '+', '-':
		_, err := strconv.ParseFloat(s, 64)
		return err != nil
	case '\'':
		return formulaLike(s[1:])
	}
	return false
}

func escapeCell(s string) string {
	if formulaLike(s) {
		return "'" + s
	}
	return s
}

func unescapeCell(s string) string {
	if strings.HasPrefix(s, "'") && formulaLike(s[1:]) {
		return s[1:]
	}
	return s
}
