package reports_test

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/reports"
)

// libreOffice finds LibreOffice: without it the test skips on a
// developer's machine and fails on CI (CI=true), where
// scripts/ensure-libreoffice.sh installs it.
func libreOffice(t *testing.T) string {
	path, err := exec.LookPath("libreoffice")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("libreoffice is missing: run scripts/ensure-libreoffice.sh (Debian's libreoffice-calc-nogui)")
		}
		t.Skip("libreoffice is missing: scripts/ensure-libreoffice.sh installs it")
	}
	return path
}

// TestLibreOfficeOpensTheMailedReport sends a monthly report now, as a
// user does, receives it by mail, opens the .xlsx with LibreOffice Calc
// (headless, every sheet to CSV) and compares its rows with what the tag
// data API answers for the same month.
func TestLibreOfficeOpensTheMailedReport(t *testing.T) {
	lo := libreOffice(t)
	smtpURL, inbox := kerneltest.StartSMTP(t)
	p := kerneltest.Start(t, db.SQLite, map[string]string{"SMTP_URL": smtpURL}, app.Build)
	s := companies(t, p)
	month := reports.LastFinished(reports.TempoMonthly, time.Now(), sthlm)
	n := every(t, p, s.ID(t, "{acme}"), coldRoom, "temperature", month.From, month.To, time.Hour, func(i int) float64 { return float64(i%97)/4 - 5 })
	s.IDs["{report}"] = fmt.Sprint(s.Must(t, "acmeAdmin", "POST", "/api/report", map[string]any{"name": "Monthly cold room", "type": "regular", "tempo": 2,
		"reportContacts": []string{"inspector@acme.se"}, "nodes": []int64{s.ID(t, "{coldRoom}")}, "keys": []string{"temperature"}}, http.StatusCreated).Num("id"))
	sent := s.Must(t, "acmeAdmin", "POST", "/api/report/{report}/send", nil, http.StatusOK).Obj()
	if from, _ := time.Parse(time.RFC3339, sent["from"].(string)); !from.Equal(month.From) || sent["lastSent"] == nil {
		t.Errorf("sent %v, want the period from %s", sent, month.From)
	}
	m := waitSubject(t, inbox, "inspector@acme.se", "Monthly cold room")

	dir := t.TempDir()
	xlsx := filepath.Join(dir, "report.xlsx")
	if err := os.WriteFile(xlsx, attachment(t, m, ".xlsx"), 0o600); err != nil {
		t.Fatal(err)
	}
	// 44 is the comma, 34 the quote, 76 UTF-8; the last -1 writes every
	// sheet to a file of its own, report-<sheet>.csv.
	cmd := exec.Command(lo, "--headless", "--norestore", "-env:UserInstallation=file://"+filepath.Join(dir, "profile"),
		"--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1", "--outdir", dir, xlsx)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("libreoffice: %v\n%s", err, out)
	}
	sheet := readCSV(t, filepath.Join(dir, "report-Cold room.csv"))

	api := s.Must(t, "acmeAdmin", "GET", "/api/tag/tagdata?"+url.Values{"tagId": {fmt.Sprint(s.ID(t, "{coldRoom}"))}, "key": {"temperature"},
		"from": {month.From.UTC().Format(time.RFC3339)}, "to": {month.To.UTC().Format(time.RFC3339)}, "max": {"10000"}}.Encode(), nil, http.StatusOK).List()
	if len(api) != n || len(sheet) != n+1 {
		t.Fatalf("the API has %d values, LibreOffice reads %d rows, %d were stored", len(api), len(sheet)-1, n)
	}
	for i, x := range api {
		d := x.(map[string]any)
		at, _ := time.Parse(time.RFC3339, d["createdAt"].(string))
		row := sheet[i+1]
		v, err := strconv.ParseFloat(row[2], 64)
		if err != nil || v != d["value"].(float64) || row[0] != at.In(sthlm).Format("2006-01-02 15:04:05") || row[1] != at.In(sthlm).Format("-07:00") {
			t.Fatalf("row %d: LibreOffice reads %v, the API says %v at %s", i+1, row, d["value"], at.In(sthlm))
		}
	}
}

func readCSV(t *testing.T, path string) [][]string {
	f, err := os.Open(path)
	if err != nil {
		entries, _ := os.ReadDir(filepath.Dir(path))
		t.Fatalf("%v (the folder holds %v)", err, entries)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
