package reports_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestReportCalls walks the calls of SPEC.md section 7 "Reports": the
// subscriptions, their checks and tenancy, the preview and the export with
// its 404 for a window without data.
func TestReportCalls(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		p := kerneltest.Start(t, d, nil, app.Build)
		s := companies(t, p)
		acme := s.ID(t, "{acme}")
		from, to := local(t, "2026-03-02 00:00"), local(t, "2026-03-03 00:00")
		n := every(t, p, acme, coldRoom, "temperature", from, to, 15*time.Minute, func(i int) float64 { return float64(i) / 4 })
		every(t, p, acme, freezer, "temperature", from, to, time.Hour, func(i int) float64 { return -18 - float64(i%3) })

		body := map[string]any{"name": "Cold chain", "type": "regular", "tempo": 1, "refrenceDate": "2026-03-01",
			"reportContacts": []string{"ops@acme.se", " qa@acme.se "}, "nodes": []int64{s.ID(t, "{coldRoom}"), s.ID(t, "{freezer}")}, "keys": []string{"temperature"}}
		r := s.Must(t, "acmeAdmin", "POST", "/api/report", body, http.StatusCreated).Obj()
		id := int64(r["id"].(float64))
		s.IDs["{report}"] = fmt.Sprint(id)
		if r["name"] != "Cold chain" || r["tempo"] != 1.0 || r["refrenceDate"] != "2026-03-01" || r["lastSent"] != nil ||
			fmt.Sprint(r["reportContacts"]) != "[ops@acme.se qa@acme.se]" || r["createdAt"] == nil || r["updatedAt"] == nil || r["resolution"] != "hour" {
			t.Errorf("created %v", r)
		}
		if got := s.Must(t, "acmeAdmin", "GET", "/api/report/company/{acme}", nil, http.StatusOK).List(); len(got) != 1 {
			t.Errorf("list: %v", got)
		}
		body["name"], body["type"], body["tempo"] = "Cold chain weekly", "trend", 2
		if got := s.Must(t, "acmeAdmin", "PUT", "/api/report/{report}", body, http.StatusOK).Obj(); got["name"] != "Cold chain weekly" || got["type"] != "trend" || got["tempo"] != 2.0 {
			t.Errorf("updated %v", got)
		}
		if got := s.Must(t, "acmeAdmin", "GET", "/api/report/{report}", nil, http.StatusOK).Obj(); got["name"] != "Cold chain weekly" {
			t.Errorf("read back %v", got)
		}

		// Bad input is named field by field; another company's node is refused.
		bad := s.Must(t, "acmeAdmin", "POST", "/api/report", map[string]any{"type": "pie", "tempo": 7, "reportContacts": []string{"nope"}, "refrenceDate": "March"}, http.StatusBadRequest)
		for _, field := range []string{"name", "type", "tempo", "reportContacts", "refrenceDate", "nodes", "keys"} {
			if bad.FieldError(field) == "" {
				t.Errorf("no error for %s: %s", field, bad.Body)
			}
		}
		body["nodes"] = []int64{s.ID(t, "{rivalNode}")}
		if e := s.Must(t, "acmeAdmin", "POST", "/api/report", body, http.StatusBadRequest).FieldError("nodes"); e == "" {
			t.Error("another company's node was taken")
		}
		// Another company's report is not found, to its admin and for its company.
		s.Must(t, "rivalAdmin", "GET", "/api/report/{report}", nil, http.StatusNotFound)
		s.Must(t, "rivalAdmin", "PUT", "/api/report/{report}", body, http.StatusNotFound)
		s.Must(t, "rivalAdmin", "DELETE", "/api/report/{report}", nil, http.StatusNotFound)
		s.Must(t, "rivalAdmin", "POST", "/api/report/{report}/send", nil, http.StatusNotFound)
		s.Must(t, "rivalAdmin", "GET", "/api/report/company/{acme}", nil, http.StatusNotFound)

		// The export: a workbook with the summary and a sheet per node.
		export := map[string]any{"nodes": []int64{s.ID(t, "{coldRoom}"), s.ID(t, "{freezer}")}, "keys": []string{"temperature"},
			"from": from.Format(time.RFC3339), "to": to.Format(time.RFC3339), "type": "regular", "format": "xlsx"}
		x := s.Must(t, "acmeAdmin", "POST", "/api/report/multiexport", export, http.StatusOK)
		if cd := x.Header.Get("Content-Disposition"); !strings.Contains(cd, "attachment") || !strings.HasSuffix(cd, `.xlsx"`) || !strings.Contains(cd, time.Now().In(sthlm).Format(time.DateOnly)) {
			t.Errorf("Content-Disposition %q", cd)
		}
		f := workbook(t, x.Body)
		if got := f.GetSheetList(); strings.Join(got, "|") != "Summary|Cold room|Freezer" {
			t.Errorf("sheets %v", got)
		}
		cold := rows(t, f, "Cold room")
		if len(cold) != n+1 || strings.Join(cold[0], "|") != "Time|UTC offset|Temperature (°C)" {
			t.Fatalf("Cold room: %d rows, heading %v", len(cold), cold[0])
		}
		if cold[1][0] != "2026-03-02 00:00:00" || cold[1][1] != "+01:00" || cold[1][2] != "0" || cold[5][2] != "1" || cold[n][2] != "23.75" {
			t.Errorf("Cold room rows %v %v %v", cold[1], cold[5], cold[n])
		}
		if got := nodeRow(t, f, "Freezer"); strings.Join(got, "|") != "24|24|0" {
			t.Errorf("Freezer's summary (rows, values, gaps) %v", got)
		}
		if got := summaryHours(t, f); got != "24" {
			t.Errorf("hours %s", got)
		}

		// A trend export has min, max, mean and last per hour and a chart.
		export["type"] = "trend"
		f = workbook(t, s.Must(t, "acmeAdmin", "POST", "/api/report/multiexport", export, http.StatusOK).Body)
		cold = rows(t, f, "Cold room")
		if len(cold) != 25 || strings.Join(cold[0][2:], "|") != "Temperature (°C) min|Temperature (°C) max|Temperature (°C) mean|Temperature (°C) last" ||
			strings.Join(cold[1][2:], "|") != "0|0.75|0.375|0.75" {
			t.Errorf("trend rows %d: %v %v", len(cold), cold[0], cold[1])
		}
		if got := f.GetSheetList(); got[len(got)-1] != "Chart" {
			t.Errorf("trend sheets %v", got)
		}

		// CSV beside it, and the preview.
		export["type"], export["format"] = "regular", "csv"
		c := s.Must(t, "acmeAdmin", "POST", "/api/report/multiexport", export, http.StatusOK)
		lines := strings.Split(strings.TrimSpace(string(c.Body)), "\n")
		if !strings.HasPrefix(c.Header.Get("Content-Type"), "text/csv") || len(lines) != 1+n+24 ||
			lines[1] != "Cold room,70B3D57ED0000001,2026-03-02 00:00:00,+01:00,temperature,Temperature,°C,0" {
			t.Errorf("csv: %d lines, %q", len(lines), lines[:2])
		}
		pv := s.Must(t, "acmeAdmin", "POST", "/api/report/preview", export, http.StatusOK).Obj()
		if pv["node"] != "Cold room" || len(pv["rows"].([]any)) != 20 {
			t.Errorf("preview %v", pv)
		}

		// No data in the window: 404 with SPEC's message; a SuperAdmin
		// exports for the company they name.
		export["from"], export["to"] = "2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z"
		if m := s.Must(t, "acmeAdmin", "POST", "/api/report/multiexport", export, http.StatusNotFound, "Accept-Language", "en").Str("message"); m != "There was no data found in the selected time span" {
			t.Errorf("no data: %q", m)
		}
		export["from"], export["to"], export["format"] = from.Format(time.RFC3339), to.Format(time.RFC3339), "xlsx"
		s.Must(t, "super", "POST", "/api/report/multiexport?companyId={acme}", export, http.StatusOK)
		s.Must(t, "super", "POST", "/api/report/multiexport?companyId={rival}", export, http.StatusBadRequest)
		s.Must(t, "rivalAdmin", "POST", "/api/report/multiexport", export, http.StatusBadRequest)

		s.Must(t, "acmeAdmin", "DELETE", "/api/report/{report}", nil, http.StatusNoContent)
		s.Must(t, "acmeAdmin", "GET", "/api/report/{report}", nil, http.StatusNotFound)
	})
}
