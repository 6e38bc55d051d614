package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestOpenAPICommandWritesTheServedDocument runs `fieldhub openapi` twice,
// to the standard output and to a file, under an environment whose
// configuration would stop a portal's start: the command ignores it, both
// runs give the same bytes, and they are the document a portal serves.
func TestOpenAPICommandWritesTheServedDocument(t *testing.T) {
	t.Setenv("FIELDHUB_LOG_LEVEL", "loud")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"openapi"}, &stdout, &stderr); err != nil {
		t.Fatalf("openapi: %v\n%s", err, stderr.String())
	}
	file := filepath.Join(t.TempDir(), "openapi.json")
	if err := run(context.Background(), []string{"openapi", "--out", file}, &bytes.Buffer{}, &stderr); err != nil {
		t.Fatalf("openapi --out: %v\n%s", err, stderr.String())
	}
	written, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(written, stdout.Bytes()) {
		t.Error("the document written to a file differs from the one written to the standard output")
	}
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	served := ta.Call(t, "GET", "/api/openapi.json", "", nil).Body
	var want bytes.Buffer
	if err := json.Indent(&want, served, "", "  "); err != nil {
		t.Fatal(err)
	}
	want.WriteByte('\n')
	if !bytes.Equal(stdout.Bytes(), want.Bytes()) {
		t.Errorf("fieldhub openapi wrote %d bytes, the portal serves %d other ones", stdout.Len(), want.Len())
	}
}

func TestOpenAPICommandRefusesAnArgument(t *testing.T) {
	if err := run(context.Background(), []string{"openapi", "extra"}, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
		t.Error("fieldhub openapi extra: no error")
	}
}
