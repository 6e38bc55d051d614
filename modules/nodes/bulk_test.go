package nodes_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// bulkEnv is env with Acme's applications Field and two named Twin, a
// node of Acme (bulkAcmeEUI, with a labelled key) and one of Beta (bulkBetaEUI).
type bulkEnv struct {
	*env
}

const (
	bulkAcmeEUI = "A000000000000001"
	bulkBetaEUI = "B000000000000001"
	csvHead     = "name,devEUI,joinEUI,appKey,application,decoder,latitude,longitude,label:temperature\n"
)

func newBulkEnv(t *testing.T, d db.Dialect) *bulkEnv {
	t.Helper()
	e := &bulkEnv{newEnv(t, d)}
	field := e.Must(t, "acmeAdmin", "POST", "/api/applications/{acme}", map[string]any{"name": "Field"}, http.StatusCreated).Num("id")
	e.IDs["{field}"] = fmt.Sprint(field)
	for range 2 {
		e.Must(t, "acmeAdmin", "POST", "/api/applications/{acme}", map[string]any{"name": "Twin"}, http.StatusCreated)
	}
	tag := e.Must(t, "acmeAdmin", "POST", "/api/applications/{field}/tag", map[string]any{"name": "Old", "deveui": bulkAcmeEUI, "lat": 59.5, "long": 18.25}, http.StatusCreated).Num("id")
	e.Must(t, "acmeAdmin", "POST", "/api/tag/key/add", map[string]any{"tagId": tag, "key": "temperature", "label": "Temp"}, http.StatusCreated)
	beta := e.Must(t, "betaAdmin", "POST", "/api/applications/{beta}", map[string]any{"name": "B"}, http.StatusCreated).Num("id")
	e.Must(t, "betaAdmin", "POST", fmt.Sprintf("/api/applications/%d/tag", beta), map[string]any{"name": "Theirs", "deveui": bulkBetaEUI}, http.StatusCreated)
	return e
}

// importFile posts a file as a multipart upload, as the page does.
func (e *bulkEnv) importFile(t *testing.T, who string, data []byte, name string, apply bool) kerneltest.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	mw.Close()
	return e.Call(t, who, "POST", fmt.Sprintf("/api/companies/{acme}/nodes/import?dryRun=%t", !apply), body.Bytes(), "Content-Type", mw.FormDataContentType())
}

// rows are a report's rows.
func rows(r kerneltest.Response) []map[string]any {
	var out []map[string]any
	list, _ := r.Obj()["rows"].([]any)
	for _, x := range list {
		out = append(out, x.(map[string]any))
	}
	return out
}

// reason is a refused row's first reason as field: id.
func reason(row map[string]any) string {
	list, _ := row["reasons"].([]any)
	if len(list) == 0 {
		return ""
	}
	r := list[0].(map[string]any)
	return fmt.Sprint(r["field"], ": ", r["id"])
}

func TestBulkImportRows(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, rows string
		action     string
		reason     string // of the last row
		changes    []string
	}{
		{"new node", "N1,A0000000000000AA,,,Field,,59.1,18.1,Hot\n", "created", "", nil},
		{"new node by application id", "N1,a0-00-00-00-00-00-00-aa,,,{field},raw,,,\n", "created", "", nil},
		{"existing node as it is", "Old," + bulkAcmeEUI + ",,,Field,raw,59.5,18.25,Temp\n", "unchanged", "", nil},
		{"existing node renamed and relabelled", "New," + bulkAcmeEUI + ",,,Field,raw,59.5,18.25,Heat\n", "changed", "", []string{"name", "label:temperature"}},
		{"bad DevEUI", "N1,XYZ,,,Field,,,,\n", "refused", "devEUI: nodes.deveui.format", nil},
		{"no DevEUI", "N1,,,,Field,,,,\n", "refused", "devEUI: validation.required", nil},
		{"duplicate within the file", "N1,A0000000000000AA,,,Field,,,,\nN2,A0000000000000AA,,,Field,,,,\n", "refused", "devEUI: nodes.import.duplicate", nil},
		{"another company's DevEUI", "N1," + bulkBetaEUI + ",,,Field,,,,\n", "refused", "devEUI: nodes.deveui.taken", nil},
		{"no name", ",A0000000000000AA,,,Field,,,,\n", "refused", "name: validation.required", nil},
		{"unknown application", "N1,A0000000000000AA,,,Nowhere,,,,\n", "refused", "application: nodes.application.unknown", nil},
		{"no application", "N1,A0000000000000AA,,,,,,,\n", "refused", "application: validation.required", nil},
		{"ambiguous application", "N1,A0000000000000AA,,,twin,,,,\n", "refused", "application: nodes.import.applicationAmbiguous", nil},
		{"unknown decoder", "N1,A0000000000000AA,,,Field,nope,,,\n", "refused", "decoder: nodes.decoder.unknown", nil},
		{"decoder key in another case", "N1,A0000000000000AA,,,Field, RAW ,,,\n", "created", "", nil},
		{"existing node's decoder key in another case", "Old," + bulkAcmeEUI + ",,,Field,Raw,59.5,18.25,Temp\n", "unchanged", "", nil},
		{"application name in another case", "N1,A0000000000000AA,,, fIELD ,,,,\n", "created", "", nil},
		{"bad AppKey", "N1,A0000000000000AA,,00FF,Field,,,,\n", "refused", "appKey: nodes.appKey.format", nil},
		{"bad JoinEUI", "N1,A0000000000000AA,12,,Field,,,,\n", "refused", "joinEUI: nodes.appEui.format", nil},
		{"latitude not a number", "N1,A0000000000000AA,,,Field,,north,,\n", "refused", "latitude: nodes.import.number", nil},
		{"latitude out of range", "N1,A0000000000000AA,,,Field,,91,,\n", "refused", "latitude: nodes.lat.range", nil},
	}
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newBulkEnv(t, d)
		for _, c := range cases {
			r := e.importFile(t, "acmeAdmin", []byte(e.Fill(csvHead+c.rows)), "nodes.csv", false)
			if r.Status != http.StatusOK {
				t.Fatalf("%s: %d %s", c.name, r.Status, r.Body)
			}
			list := rows(r)
			last := list[len(list)-1]
			if last["action"] != c.action || reason(last) != c.reason {
				t.Errorf("%s: %v %q, want %s %q", c.name, last["action"], reason(last), c.action, c.reason)
			}
			if c.changes != nil {
				got := fmt.Sprint(last["changes"])
				if got != fmt.Sprint(c.changes) {
					t.Errorf("%s: changes %s, want %v", c.name, got, c.changes)
				}
			}
		}
		// The profile column names a device profile the company may use
		// (modules/profiles/bulk_test.go imports nodes with one).
		r := e.importFile(t, "acmeAdmin", []byte("devEUI,name,application,profile\nA0000000000000AA,N,Field,Sensor\n"), "p.csv", false)
		if got := reason(rows(r)[0]); got != "profile: nodes.import.profileUnknown" {
			t.Errorf("profile: %s", r.Body)
		}
	})
}

func TestBulkImportFiles(t *testing.T) {
	t.Parallel()
	many := strings.Builder{}
	many.WriteString("devEUI\n")
	for i := range 10_001 {
		fmt.Fprintf(&many, "%016X\n", i+1)
	}
	cases := []struct {
		name   string
		body   []byte
		status int
		id     string
	}{
		{"not a spreadsheet", []byte{0x00, 0x01, 0xff, 0xfe}, http.StatusBadRequest, "nodes.import.fileType"},
		{"a broken workbook", []byte("PK\x03\x04 not really"), http.StatusBadRequest, "nodes.import.fileType"},
		{"empty", []byte("\n\n"), http.StatusBadRequest, "nodes.import.noFile"},
		{"no devEUI column", []byte("name\nN\n"), http.StatusBadRequest, "nodes.import.noHeader"},
		{"unknown column", []byte("devEUI,colour\nA0000000000000AA,red\n"), http.StatusBadRequest, "nodes.import.unknownColumn"},
		{"repeated column", []byte("devEUI,DevEUI\nA0000000000000AA,A0000000000000AA\n"), http.StatusBadRequest, "nodes.import.repeatedColumn"},
		{"too many rows", []byte(many.String()), http.StatusBadRequest, "nodes.import.tooManyRows"},
		{"too large", bytes.Repeat([]byte("x"), 10<<20+1), http.StatusRequestEntityTooLarge, "nodes.import.tooLarge"},
	}
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newBulkEnv(t, d)
		for _, c := range cases {
			r := e.importFile(t, "acmeAdmin", c.body, "f.csv", false)
			if r.Status != c.status || r.Str("id") != c.id || r.Str("message") == "" {
				t.Errorf("%s: %d %.300s, want %d %s", c.name, r.Status, r.Body, c.status, c.id)
			}
		}
		// A CSV body without a form is taken as the file, for tools; a
		// semicolon separates as well as a comma.
		r := e.Must(t, "acmeAdmin", "POST", "/api/companies/{acme}/nodes/import", []byte("devEUI;name;application\nA0000000000000AA;N;Field\n"), http.StatusOK, "Content-Type", "text/csv")
		if rows(r)[0]["action"] != "created" || r.Obj()["dryRun"] != true {
			t.Errorf("CSV body: %s", r.Body)
		}
		// Only those who manage the company import and export.
		for who, status := range map[string]int{"acmeUser": http.StatusForbidden, "betaAdmin": http.StatusNotFound, "super": http.StatusOK} {
			if r := e.importFile(t, who, []byte("devEUI\n"+bulkAcmeEUI+"\n"), "f.csv", false); r.Status != status {
				t.Errorf("import as %s: %d, want %d", who, r.Status, status)
			}
			if r := e.Call(t, who, "GET", "/api/companies/{acme}/nodes/export?format=csv", nil); r.Status != status {
				t.Errorf("export as %s: %d, want %d", who, r.Status, status)
			}
		}
		e.Must(t, "acmeAdmin", "GET", "/api/companies/{acme}/nodes/export?format=pdf", nil, http.StatusBadRequest)
		// An apply with a refused row writes nothing and says why.
		r = e.importFile(t, "acmeAdmin", []byte(csvHead+"N1,A0000000000000AA,,,Field,,,,\nN2,XYZ,,,Field,,,,\n"), "f.csv", true)
		if r.Status != http.StatusBadRequest || r.Str("id") != "nodes.import.refused" || r.Obj()["applied"] != false || len(rows(r)) != 2 {
			t.Fatalf("apply with a refused row: %d %s", r.Status, r.Body)
		}
		if n := e.value(t, "SELECT count(*) FROM tags WHERE deveui = 'A0000000000000AA'"); n != "0" {
			t.Fatalf("a refused apply wrote %s nodes", n)
		}
	})
}

// TestBulkImportThousandNodes imports 1,000 nodes from an XLSX in one
// apply, and imports their export again: nothing changes.
func TestBulkImportThousandNodes(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newBulkEnv(t, d)
		f := excelize.NewFile()
		header := []any{"Name", "DevEUI", "AppEUI", "AppKey", "Application", "Decoder", "Lat", "Long", "label:temperature", "label:humidity"}
		f.SetSheetRow("Sheet1", "A1", &header)
		for i := range 1000 {
			cell, _ := excelize.CoordinatesToCellName(1, i+2)
			row := []any{fmt.Sprintf("Sensor %04d", i), fmt.Sprintf("c0-00-00-00-00-00-%02x-%02x", i/256, i%256), "70B3D57ED0000001",
				fmt.Sprintf("%032X", i+1), "Field", "raw", 59 + float64(i)/10000, 18.5, "", ""}
			if i%2 == 0 {
				row[8], row[9] = "Temperature", "Humidity"
			}
			f.SetSheetRow("Sheet1", cell, &row)
		}
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			t.Fatal(err)
		}
		r := e.importFile(t, "acmeAdmin", buf.Bytes(), "nodes.xlsx", true)
		if r.Status != http.StatusOK || r.Obj()["applied"] != true {
			t.Fatalf("import: %d %.500s", r.Status, r.Body)
		}
		if c := r.Obj()["counts"].(map[string]any); c["created"] != 1000.0 || c["refused"] != 0.0 {
			t.Fatalf("counts: %v", c)
		}
		if n := e.value(t, "SELECT count(*) FROM tags WHERE company_id = ? AND deveui LIKE 'C0%'", e.ID(t, "{acme}")); n != "1000" {
			t.Fatalf("%s nodes stored", n)
		}
		if n := e.value(t, "SELECT count(*) FROM tag_keys AS tk JOIN tags AS t ON t.id = tk.tag_id WHERE t.deveui LIKE 'C0%' AND tk.label <> ''"); n != "1000" {
			t.Fatalf("%s labels stored", n)
		}
		for _, format := range []string{"xlsx", "csv"} {
			exp := e.Must(t, "acmeAdmin", "GET", "/api/companies/{acme}/nodes/export?format="+format, nil, http.StatusOK)
			if !strings.Contains(exp.Header.Get("Content-Disposition"), "."+format) {
				t.Errorf("%s: %v", format, exp.Header)
			}
			again := e.importFile(t, "acmeAdmin", exp.Body, "export."+format, false)
			c := again.Obj()["counts"].(map[string]any)
			if again.Status != http.StatusOK || c["unchanged"] != 1001.0 || c["changed"] != 0.0 || c["created"] != 0.0 || c["refused"] != 0.0 {
				var changed []string
				for _, row := range rows(again) {
					if row["action"] != "unchanged" && len(changed) < 5 {
						changed = append(changed, fmt.Sprint(row))
					}
				}
				t.Fatalf("%s round trip: %d %v %v", format, again.Status, c, changed)
			}
		}
		// An edit changes only the columns the file has.
		r = e.importFile(t, "acmeAdmin", []byte("name,devEUI,label:temperature,latitude\nRenamed,C000000000000001,Warm,\n"), "edit.csv", true)
		if r.Status != http.StatusOK || fmt.Sprint(rows(r)[0]["changes"]) != "[name latitude label:temperature]" {
			t.Fatalf("edit: %d %s", r.Status, r.Body)
		}
		if got := e.value(t, "SELECT name || '/' || app_eui || '/' || decoder || '/' || COALESCE(CAST(latitude AS TEXT), 'none') FROM tags WHERE deveui = 'C000000000000001'"); got != "Renamed/70B3D57ED0000001/raw/none" {
			t.Errorf("edited node: %s", got)
		}
		if got := e.value(t, "SELECT tk.label FROM tag_keys AS tk JOIN tags AS t ON t.id = tk.tag_id WHERE t.deveui = 'C000000000000001' AND tk.tag_key = 'temperature'"); got != "Warm" {
			t.Errorf("label: %s", got)
		}
		// The export in CSV names the columns of the import, the profile
		// too since the application has device profiles.
		exp := e.Must(t, "acmeAdmin", "GET", "/api/companies/{acme}/nodes/export?format=csv", nil, http.StatusOK)
		first, _, _ := strings.Cut(string(exp.Body), "\n")
		if want := "name,devEUI,joinEUI,appKey,application,profile,decoder,latitude,longitude,label:humidity,label:temperature"; first != want {
			t.Errorf("header %q, want %q", first, want)
		}
		if !slices.Contains(strings.Split(string(exp.Body), "\n"), "Sensor 0002,C000000000000002,70B3D57ED0000001,00000000000000000000000000000003,Field,,raw,59.0002,18.5,Humidity,Temperature") {
			t.Errorf("export: %.400s", exp.Body)
		}
	})
}

// TestBulkImportPage checks a file on /tag/import, imports it with the
// same form, and downloads the export, in Swedish (Acme's people's
// language).
func TestBulkImportPage(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newBulkEnv(t, d)
		admin := e.Tokens["acmeAdmin"]
		page := e.Client.Page(t, "GET", "/tag", admin, nil)
		kerneltest.Contains(t, page.Body, []string{`href="/tag/import"`}, nil)
		page = e.Client.Page(t, "GET", "/tag/import", admin, nil)
		kerneltest.Contains(t, page.Body, []string{"Importera noder", `name="file"`, `href="/tag/export?format=xlsx"`}, nil)
		if p := e.Client.Page(t, "GET", "/tag/import", e.Tokens["acmeUser"], nil); p.Status == http.StatusOK {
			t.Errorf("a User's import page: %d", p.Status)
		}
		post := func(step, csv string) kerneltest.Page {
			var body bytes.Buffer
			mw := multipart.NewWriter(&body)
			mw.WriteField("step", step)
			fw, _ := mw.CreateFormFile("file", "nodes.csv")
			fw.Write([]byte(csv))
			mw.Close()
			req, _ := http.NewRequest("POST", e.Client.Base+"/tag/import", &body)
			req.Header.Set("Content-Type", mw.FormDataContentType())
			return e.Client.SendPage(t, req, admin, kerneltest.HTMX...)
		}
		bad := csvHead + "N1,A0000000000000AA,,,Field,,,,\nN2,XYZ,,,Field,,,,\n"
		p := post("check", bad)
		kerneltest.Contains(t, p.Body, []string{"1 att skapa, 0 att ändra, 0 oförändrade, 1 avvisade", "En DevEUI består av 16 hexadecimala siffror", `data-action="refused"`}, []string{`value="apply"`})
		p = post("apply", bad)
		kerneltest.Contains(t, p.Body, []string{"Inget importerades: 1 rader avvisades"}, nil)
		good := csvHead + "N1,A0000000000000AA,,,Field,,,,\n"
		p = post("check", good)
		kerneltest.Contains(t, p.Body, []string{"Importera 1 nya och 0 ändrade noder", `value="apply"`}, nil)
		p = post("apply", good)
		kerneltest.Contains(t, p.Body, []string{"Importerat: 1 noder skapade, 0 ändrade."}, nil)
		p = post("check", "colour\nred\n")
		kerneltest.Contains(t, p.Body, []string{`role="alert"`, "Okänd kolumn ”colour”"}, nil)
		exp := e.Client.Page(t, "GET", "/tag/export?format=csv", admin, nil)
		kerneltest.Contains(t, exp.Body, []string{"N1,A0000000000000AA"}, nil)
	})
}

// TestBulkImportClaims: a file tells no more DevEUIs of other companies'
// nodes than node by node creation would (nodes.ClaimsFree), and its
// refused claims count as theirs do.
func TestBulkImportClaims(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newBulkEnv(t, d)
		beta := e.Must(t, "betaAdmin", "GET", "/api/companies/{beta}/applications", nil, http.StatusOK).List()[0].(map[string]any)["id"]
		csv := "name,devEUI,application\n"
		for i := range nodes.ClaimsFree + 2 {
			eui := fmt.Sprintf("B1000000000000%02X", i)
			e.Must(t, "betaAdmin", "POST", fmt.Sprintf("/api/applications/%v/tag", beta), map[string]any{"name": "Theirs", "deveui": eui}, http.StatusCreated)
			csv += "N," + eui + ",Field\n"
		}
		csv += "Mine,A0000000000000AA,Field\n"
		r := e.importFile(t, "acmeAdmin", []byte(csv), "f.csv", false)
		var got []string
		for _, row := range rows(r) {
			got = append(got, reason(row))
		}
		want := slices.Repeat([]string{"devEUI: nodes.deveui.taken"}, nodes.ClaimsFree)
		want = append(want, slices.Repeat([]string{"devEUI: nodes.import.claims"}, 3)...)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("reasons %v, want %v", got, want)
		}
		if n := e.value(t, "SELECT count(*) FROM deveui_claims WHERE company_id = ?", e.ID(t, "{acme}")); n != fmt.Sprint(nodes.ClaimsFree) {
			t.Errorf("%s claims recorded", n)
		}
		// Now the company waits, for a file as for a node.
		e.Must(t, "acmeAdmin", "POST", "/api/companies/{acme}/nodes/import", []byte("devEUI,name,application\nA0000000000000AB,N,Field\n"), http.StatusTooManyRequests, "Content-Type", "text/csv")
	})
}
