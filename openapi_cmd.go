package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/fieldhub/fieldhub/app"
)

// openAPICommand runs `fieldhub openapi [--out FILE]`: it writes the
// OpenAPI document that GET /api/openapi.json answers, without a server,
// for code generators (the web islands' types in webapp/ are checked
// against it).
//
// The portal is built on the default configuration in a throwaway data
// folder, whatever the environment says, so that the document depends on
// the code alone and regenerating it on any machine gives the same bytes.
func openAPICommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("openapi", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "write the document to this file instead of the standard output")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("openapi: unexpected argument %q", fs.Arg(0))
	}
	doc, err := openAPIDocument(ctx)
	if err != nil {
		return fmt.Errorf("openapi: %w", err)
	}
	if *out == "" {
		_, err = stdout.Write(doc)
		return err
	}
	if err := os.WriteFile(*out, doc, 0o644); err != nil {
		return fmt.Errorf("openapi: %w", err)
	}
	return nil
}

// openAPIDocument builds the portal and asks its router for
// /api/openapi.json, so that the document is the one a running portal
// serves, indented for reading and diffing.
func openAPIDocument(ctx context.Context) ([]byte, error) {
	dir, err := os.MkdirTemp("", "fieldhub-openapi-")
	if err != nil {
		return nil, fmt.Errorf("make a data folder: %w", err)
	}
	defer os.RemoveAll(dir)
	noEnv := func(string) string { return "" }
	cfg, err := app.LoadConfig(noEnv, nil, map[string]string{"FIELDHUB_DATA": dir})
	if err != nil {
		return nil, err
	}
	a, err := app.Build(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, fmt.Errorf("build the portal: %w", err)
	}
	defer a.Close()
	rec := httptest.NewRecorder()
	a.Kernel().Handler().ServeHTTP(rec, httptest.NewRequestWithContext(ctx, http.MethodGet, "/api/openapi.json", nil))
	if rec.Code != http.StatusOK {
		return nil, fmt.Errorf("GET /api/openapi.json answered %d: %s", rec.Code, rec.Body)
	}
	var doc bytes.Buffer
	if err := json.Indent(&doc, rec.Body.Bytes(), "", "  "); err != nil {
		return nil, fmt.Errorf("indent the document: %w", err)
	}
	doc.WriteByte('\n')
	return doc.Bytes(), nil
}
