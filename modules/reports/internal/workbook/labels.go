// Package workbook writes a report as the files users get: an .xlsx
// workbook (a summary sheet, a sheet per node continued past the row limit,
// and for a trend a chart sheet) through excelize's streaming writer, and a
// CSV file of the same rows; and keeps the first rows for a preview. Each
// is a collect.Sink.
package workbook

import (
	"strings"
	"time"
)

// Labels are the texts of a workbook, in the reader's language.
type Labels struct {
	Summary, Chart                                  string // sheet names
	Report, Type, TypeName, Period, TimeZone, Hours string
	Node, DevEUI, Rows, Values, Gaps, Total         string
	Time, Offset                                    string
	Aggregates                                      []string // min, max, mean, last
	ChartTitle                                      string
}

// wall is t's local clock time as a time in UTC: spreadsheets keep times
// without a zone, and excelize counts from the instant, so the local
// clock reading is what goes in.
func wall(t time.Time, loc *time.Location) time.Time {
	l := t.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), l.Nanosecond(), time.UTC)
}

// offset is t's offset from UTC in loc, "+02:00": on the night the clocks
// go back the hour 02:00-03:00 comes twice, and the offset tells them
// apart.
func offset(t time.Time, loc *time.Location) string {
	return t.In(loc).Format("-07:00")
}

// sheetName makes name a valid, unused sheet name: at most 31 characters,
// none of []:*?/\, not starting or ending with an apostrophe.
func sheetName(name string, used map[string]bool) string {
	clean := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`[]:*?/\`, r) {
			return ' '
		}
		return r
	}, name)
	clean = strings.Trim(strings.TrimSpace(clean), "'")
	if clean == "" {
		clean = "Sheet"
	}
	base := []rune(clean)
	if len(base) > 25 {
		base = base[:25]
	}
	try := string(base)
	for i := 2; used[strings.ToLower(try)]; i++ {
		try = string(base) + " (" + itoa(i) + ")"
	}
	used[strings.ToLower(try)] = true
	return try
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
