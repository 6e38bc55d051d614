package pages

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// exportWindow is how far back the node details page's export reaches
// without ?from=: the last 24 hours, the default range of the charts.
const exportWindow = 24 * time.Hour

// exportCSV answers GET /tagdetails/{deveui}/data.csv?from=&to=: the node's
// stored values in [from, to) (RFC 3339; by default the last 24 hours), one
// row per time, oldest first, one column per key. Times are written in the
// viewer's time zone, which the first column's header names, beside the
// same time in UTC, so that the hour the clocks repeat in autumn stays
// unambiguous.
func (pg *Pages) exportCSV(w http.ResponseWriter, r *http.Request) error {
	t, err := pg.pageTag(r)
	if err != nil {
		return err
	}
	if pg.series == nil {
		return errs.New(errs.NotFound, errs.IDNotFound)
	}
	from, to, err := exportRange(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	data, err := pg.reg.TagData(ctx, t)
	if err != nil {
		return err
	}
	loc := web.ViewerFrom(ctx).Location
	header := []string{pg.t(r, "page.tag.details.export.time", "zone", loc.String()), "UTC"}
	cells := map[time.Time][]string{}
	for i, d := range data {
		pts, err := pg.series.Range(ctx, tsdb.Series{Company: t.CompanyID, DevEUI: strings.ToLower(t.DevEUI), Key: d.Key.Key}, from, to, tsdb.MaxPoints)
		if err != nil {
			return err
		}
		name := d.Key.Key
		if d.Unit != "" {
			name += " (" + d.Unit + ")"
		}
		header = append(header, name)
		for _, p := range pts {
			row := cells[p.Time]
			if row == nil {
				row = make([]string, len(data))
				cells[p.Time] = row
			}
			if p.IsText {
				row[i] = spreadsheetSafe(p.Text)
			} else {
				row[i] = formatNumber(p.Value, d.Decimals)
			}
		}
	}
	times := make([]time.Time, 0, len(cells))
	for tm := range cells {
		times = append(times, tm)
	}
	slices.SortFunc(times, time.Time.Compare)
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.csv"`, strings.ToUpper(t.DevEUI), to.In(loc).Format("2006-01-02")))
	cw := csv.NewWriter(w)
	_ = cw.Write(header)
	for _, tm := range times {
		_ = cw.Write(append([]string{tm.In(loc).Format(time.DateTime), tm.UTC().Format(time.RFC3339Nano)}, cells[tm]...))
	}
	cw.Flush()
	return cw.Error()
}

// exportRange reads ?from= and ?to=; to defaults to now, from to
// exportWindow before to.
func exportRange(r *http.Request) (from, to time.Time, err error) {
	q := r.URL.Query()
	var v errs.Validation
	read := func(name string, def time.Time) time.Time {
		raw := q.Get(name)
		if raw == "" {
			return def
		}
		at, err := time.Parse(time.RFC3339Nano, raw)
		if err != nil || at.Before(tsdb.MinTime) || !at.Before(tsdb.MaxTime) {
			v.Add(name, nodes.IDTagDataTime)
		}
		return at.UTC()
	}
	to = read("to", time.Now().UTC())
	from = read("from", to.Add(-exportWindow))
	if v.Err() == nil && from.After(to) {
		v.Add("from", nodes.IDTagDataRange)
	}
	return from, to, v.Err()
}

// spreadsheetSafe keeps a device's text from being read as a formula by
// the spreadsheet that opens the file.
func spreadsheetSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
