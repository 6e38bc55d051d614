package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestStreamsLiveUplinks runs the example against a portal, signed in as
// a company's user: it prints the uplinks a device posts to the HTTP
// ingest, as Connect and as gRPC.
func TestStreamsLiveUplinks(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	own := ta.EnglishCompany(t, root, "Own Widgets AB", "own.example")
	ta.AppNode(t, own.CompanyAdminToken, own.CompanyID, "Cold store", "Freezer", "70B3D57ED0000021")
	ingest := ta.Must(t, "POST", fmt.Sprintf("/api/integration/tokens/%d", own.CompanyID), own.CompanyAdminToken,
		map[string]any{"label": "devices", "isCompany": true}, http.StatusCreated).Str("token")
	for _, proto := range [][]string{nil, {"-grpc"}} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		var out bytes.Buffer
		done := make(chan error, 1)
		args := append([]string{"-url", ta.URL, "-email", "worker@own.example", "-password", kerneltest.Password, "-n", "1"}, proto...)
		go func() { done <- run(ctx, args, &out) }()
		// Post until the stream has one: the example's Watch begins at
		// some moment after it starts.
		var err error
		for posting := true; posting; {
			ta.Must(t, "POST", "/api/ingest/generic", ingest, map[string]any{"devEui": "70B3D57ED0000021", "values": map[string]any{"temperature": -18.5}}, http.StatusOK)
			select {
			case err = <-done:
				posting = false
			case <-time.After(200 * time.Millisecond):
			}
		}
		cancel()
		if err != nil {
			t.Fatalf("run %v: %v", proto, err)
		}
		if line := out.String(); !strings.Contains(line, "70B3D57ED0000021 Freezer {\"temperature\":-18.5}") {
			t.Fatalf("run %v printed %q", proto, line)
		}
	}
}
