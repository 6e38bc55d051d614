// Command bulkimport measures the bulk import of nodes through the API of a
// running portal: it builds the fieldhub binary, starts `fieldhub serve` on
// a fresh PostgreSQL database (or SQLite with -db sqlite), makes a company
// with an application through the API, writes an XLSX of -nodes nodes
// (name, DevEUI, JoinEUI, AppKey, application, decoder, position and a key
// label each), and times POST /api/companies/{id}/nodes/import: the dry run,
// then the apply (one transaction); then the export of the nodes as XLSX,
// and the dry run of that export, which must find every row unchanged.
//
// Run it as:
//
//	go run ./bench/bulkimport                  # 10,000 nodes on PostgreSQL, as in docs/performance.md
//	go run ./bench/bulkimport -db sqlite -nodes 100
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/fieldhub/fieldhub/bench/internal/loadkit"
)

type options struct {
	nodes   int
	dialect string
	bin, pg string
}

func main() {
	var o options
	flag.IntVar(&o.nodes, "nodes", 10_000, "nodes in the imported file")
	flag.StringVar(&o.dialect, "db", "postgres", `"postgres" or "sqlite"`)
	flag.StringVar(&o.bin, "bin", "", "a fieldhub binary to test (default: build one)")
	flag.StringVar(&o.pg, "pg", loadkit.DefaultPostgres(), "PostgreSQL admin URL, used to create and drop the benchmark database")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "bulkimport:", err)
		os.Exit(1)
	}
}

func run(o options) (err error) {
	ctx := context.Background()
	pgAdmin := ""
	if o.dialect == "postgres" {
		pgAdmin = o.pg
	}
	portal, stop, err := loadkit.StartPortal(ctx, loadkit.PortalOptions{Name: "bulkimport", Bin: o.bin, PGAdmin: pgAdmin})
	if err != nil {
		return err
	}
	defer func() {
		if serr := stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	server := portal.Server()
	// The import names the application "Bench" on every row.
	co, err := loadkit.NewCompany(server.Base, portal.RootToken, loadkit.CompanyOptions{Application: map[string]any{"name": "Bench"}})
	if err != nil {
		return server.Fail(err)
	}
	file, err := workbook(o.nodes)
	if err != nil {
		return err
	}
	importPath := fmt.Sprintf("/api/companies/%d/nodes/import", co.ID)
	fmt.Printf("%d nodes on %s, an XLSX of %.1f MB\n", o.nodes, o.dialect, float64(len(file))/1e6)
	for _, step := range []struct {
		name, query string
		want        func(counts) bool
	}{
		{"dry run", "?dryRun=true", func(c counts) bool { return c.Created == o.nodes }},
		{"apply (one transaction)", "?dryRun=false", func(c counts) bool { return c.Created == o.nodes }},
	} {
		t0 := time.Now()
		c, err := upload(server.Base+importPath+step.query, co.AdminToken, file)
		if err != nil {
			return server.Fail(err)
		}
		if !step.want(c) {
			return fmt.Errorf("%s: counts %+v", step.name, c)
		}
		fmt.Printf("%-26s %s\n", step.name+":", time.Since(t0).Round(time.Millisecond))
	}
	t0 := time.Now()
	exported, err := download(server.Base+fmt.Sprintf("/api/companies/%d/nodes/export?format=xlsx", co.ID), co.AdminToken)
	if err != nil {
		return server.Fail(err)
	}
	fmt.Printf("%-26s %s (%.1f MB)\n", "export:", time.Since(t0).Round(time.Millisecond), float64(len(exported))/1e6)
	t0 = time.Now()
	c, err := upload(server.Base+importPath+"?dryRun=true", co.AdminToken, exported)
	if err != nil {
		return server.Fail(err)
	}
	if c.Unchanged != o.nodes || c.Created+c.Changed+c.Refused != 0 {
		return fmt.Errorf("the export's dry run: counts %+v, want %d unchanged", c, o.nodes)
	}
	fmt.Printf("%-26s %s (every row unchanged)\n", "dry run of the export:", time.Since(t0).Round(time.Millisecond))
	return nil
}

// workbook writes the XLSX of n nodes.
func workbook(n int) ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		return nil, err
	}
	header := []any{"name", "devEUI", "joinEUI", "appKey", "application", "decoder", "latitude", "longitude", "label:temperature"}
	if err := sw.SetRow("A1", header); err != nil {
		return nil, err
	}
	for i := range n {
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		row := []any{fmt.Sprintf("Meter %05d", i+1), fmt.Sprintf("70B3D57ED1%06X", i+1), "70B3D57ED0000001", fmt.Sprintf("%032X", i+1),
			"Bench", "raw", fmt.Sprint(59 + float64(i%1000)/1000), "18.07", "Temperature"}
		if err := sw.SetRow(cell, row); err != nil {
			return nil, err
		}
	}
	if err := sw.Flush(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	err = f.Write(&buf)
	return buf.Bytes(), err
}

type counts struct {
	Created, Changed, Unchanged, Refused int
}

// upload posts a file as the import page does and returns the report's
// counts.
func upload(url, token string, file []byte) (counts, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", "nodes.xlsx")
	if err != nil {
		return counts{}, err
	}
	fw.Write(file)
	mw.Close()
	req, err := http.NewRequest("POST", url, &body)
	if err != nil {
		return counts{}, err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	raw, err := do(req)
	if err != nil {
		return counts{}, err
	}
	var report struct {
		Counts counts `json:"counts"`
	}
	return report.Counts, json.Unmarshal(raw, &report)
}

func download(url, token string) ([]byte, error) {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	return do(req)
}

func do(req *http.Request) ([]byte, error) {
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s %s: %s: %.500s", req.Method, req.URL.Path, res.Status, raw)
	}
	return raw, nil
}
