package profiles_test

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// upload posts a nodes file to the bulk import as the page does.
func (e *env) upload(t *testing.T, data string, apply bool) kerneltest.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", "nodes.csv")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write([]byte(data))
	mw.Close()
	r := e.p.Client.Call(t, "POST", fmt.Sprintf("/api/companies/%d/nodes/import?dryRun=%t", e.own.CompanyID, !apply),
		e.own.CompanyAdminToken, body.Bytes(), "Content-Type", mw.FormDataContentType())
	if r.Status != http.StatusOK {
		t.Fatalf("import: %d %s", r.Status, r.Body)
	}
	return r
}

// actions are the rows' actions of an import's report, and the first
// reason of each refused row as "field: id".
func actions(r kerneltest.Response) []string {
	var out []string
	list, _ := r.Obj()["rows"].([]any)
	for _, x := range list {
		row := x.(map[string]any)
		a := fmt.Sprint(row["action"])
		if reasons, _ := row["reasons"].([]any); len(reasons) > 0 {
			why := reasons[0].(map[string]any)
			a += fmt.Sprintf(" (%v: %v)", why["field"], why["id"])
		}
		out = append(out, a)
	}
	return out
}

// TestBulkImportWithProfile imports nodes naming a device profile through
// the nodes' bulk import: the dry run refuses a row naming an unknown
// profile, the created nodes get the profile's decoder, labels, alarm and
// expected uplink interval, and the export names the profile and imports
// again unchanged.
func TestBulkImportWithProfile(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		c, tok := e.p.Client, e.own.CompanyAdminToken
		c.Must(t, "POST", fmt.Sprintf("/api/companies/%d/profiles", e.own.CompanyID), tok, profileBody("TH1 bulk"), http.StatusCreated)
		good := "name,devEUI,application,profile\nBulk 1,70B3D57ED0005001,Field,TH1 bulk\nBulk 2,70B3D57ED0005002,Field,TH1 bulk\n"
		dry := e.upload(t, good+"Bulk 3,70B3D57ED0005003,Field,No such profile\n", false)
		if got, want := fmt.Sprint(actions(dry)), "[created created refused (profile: nodes.import.profileUnknown)]"; got != want {
			t.Fatalf("dry run %s, want %s", got, want)
		}
		if n := count(t, e, "SELECT count(*) FROM tags WHERE deveui LIKE '70B3D57ED00050%'"); n != 0 {
			t.Fatalf("the dry run stored %d nodes", n)
		}
		if got := fmt.Sprint(actions(e.upload(t, good, true))); got != "[created created]" {
			t.Fatalf("import %s", got)
		}
		for _, eui := range []string{"70B3D57ED0005001", "70B3D57ED0005002"} {
			id := count(t, e, "SELECT id FROM tags WHERE deveui = ?", eui)
			node := c.Must(t, "GET", fmt.Sprintf("/api/tag/%d", id), tok, nil, http.StatusOK)
			if node.Str("decoder") != "ttn/acme/th1-codec" {
				t.Errorf("%s: decoder %q", eui, node.Str("decoder"))
			}
			if k := c.TagData(t, tok, id)["temperature"]; k["label"] != "Air temperature" || k["unit"] != "°C" || k["defaultKey"] != true {
				t.Errorf("%s: temperature key %v", eui, k)
			}
			if n := count(t, e, "SELECT count(*) FROM alarms WHERE tag_id = ? AND message = 'Too warm'", id); n != 1 {
				t.Errorf("%s: %d alarms from the template", eui, n)
			}
			if n := count(t, e, "SELECT uplink_interval FROM tags WHERE id = ?", id); n != 900 {
				t.Errorf("%s: expected uplink interval %d s, want 900", eui, n)
			}
		}
		exp := c.Must(t, "GET", fmt.Sprintf("/api/companies/%d/nodes/export?format=csv", e.own.CompanyID), tok, nil, http.StatusOK)
		lines := strings.Split(string(exp.Body), "\n")
		if !strings.Contains(lines[0], ",profile,") || !strings.Contains(string(exp.Body), "Bulk 1,70B3D57ED0005001,,,Field,TH1 bulk,") {
			t.Errorf("export: %.600s", exp.Body)
		}
		again := e.upload(t, string(exp.Body), false)
		for _, a := range actions(again) {
			if a != "unchanged" {
				t.Errorf("round trip: %v", actions(again))
				break
			}
		}
	})
}

// TestBulkImportProfileNamesWhateverTheirCase resolves the profile column
// as people type it: the exact name first, else the one profile whose name
// differs from it only in case or by surrounding spaces; a name that
// several profiles match but for case is refused, not guessed.
func TestBulkImportProfileNamesWhateverTheirCase(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		c, tok := e.p.Client, e.own.CompanyAdminToken
		for _, name := range []string{"EM300-TH", "Dup One", "DUP ONE"} {
			c.Must(t, "POST", fmt.Sprintf("/api/companies/%d/profiles", e.own.CompanyID), tok, profileBody(name), http.StatusCreated)
		}
		cases := []struct{ cell, want string }{
			{"EM300-TH", "created"},
			{"em300-th", "created"},
			{"  Em300-Th ", "created"},
			{"DUP ONE", "created"},
			{"dup one", "refused (profile: nodes.import.profileAmbiguous)"},
			{"em300", "refused (profile: nodes.import.profileUnknown)"},
		}
		for _, tc := range cases {
			got := actions(e.upload(t, "name,devEUI,application,profile\nN,70B3D57ED0006001,Field,"+tc.cell+"\n", false))
			if fmt.Sprint(got) != "["+tc.want+"]" {
				t.Errorf("profile %q: %v, want %s", tc.cell, got, tc.want)
			}
		}
		if got := fmt.Sprint(actions(e.upload(t, "name,devEUI,application,profile\nN,70B3D57ED0006001,Field,em300-th\n", true))); got != "[created]" {
			t.Fatalf("import %s", got)
		}
		exp := c.Must(t, "GET", fmt.Sprintf("/api/companies/%d/nodes/export?format=csv", e.own.CompanyID), tok, nil, http.StatusOK)
		if !strings.Contains(string(exp.Body), "N,70B3D57ED0006001,,,Field,EM300-TH,") {
			t.Errorf("the node is not exported with the profile EM300-TH: %.600s", exp.Body)
		}
	})
}

// count reads one number straight from the database.
func count(t *testing.T, e *env, query string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := e.p.Host().DB.NewRaw(query, args...).Scan(context.Background(), &n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}
