package partnerapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/sdk/partner"
	fieldhubv1 "github.com/fieldhub/fieldhub/sdk/partner/fieldhubv1"
)

// TestWatchOverGRPC calls Watch with the gRPC protocol (HTTP/2 without
// TLS) and receives the uplink of the watched node that a device posts to
// the HTTP ingest, and not that of another node posted before it.
func TestWatchOverGRPC(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		p := start(t, d)
		watched := p.ta.AppNode(t, p.own.CompanyAdminToken, p.own.CompanyID, "Cold store", "Freezer", "70B3D57ED0000011")
		p.ta.Must(t, "POST", fmt.Sprintf("/api/applications/%d/tag", watched.AppID), p.own.CompanyAdminToken,
			map[string]any{"name": "Other", "deveui": "70B3D57ED0000012"}, http.StatusCreated)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c := p.client(p.own.UserToken, partner.GRPC())
		stream, err := c.TagData.Watch(ctx, req(&fieldhubv1.WatchRequest{TagIds: []int64{watched.TagID}}))
		if err != nil {
			t.Fatal(err)
		}
		defer stream.Close()
		// The headers come once the watch is in place.
		if ct := stream.ResponseHeader().Get("Content-Type"); !strings.HasPrefix(ct, "application/grpc") {
			t.Fatalf("content type %q, want gRPC", ct)
		}
		for _, eui := range []string{"70B3D57ED0000012", "70B3D57ED0000011"} {
			p.ta.Must(t, "POST", "/api/ingest/generic", p.ownIngest, map[string]any{"devEui": eui, "values": map[string]any{"temperature": 21.5}}, http.StatusOK)
		}
		if !stream.Receive() {
			t.Fatalf("no uplink: %v", stream.Err())
		}
		u := stream.Msg().GetUplink()
		if u.GetDevEui() != "70B3D57ED0000011" || u.GetTagId() != watched.TagID || u.GetValues().GetFields()["temperature"].GetNumberValue() != 21.5 {
			t.Fatalf("uplink %v", u)
		}

		// Another company's uplinks are out of reach.
		foreign, err := c.TagData.Watch(ctx, req(&fieldhubv1.WatchRequest{CompanyId: p.foreign.CompanyID}))
		if err != nil {
			t.Fatal(err)
		}
		if foreign.Receive() {
			t.Fatalf("watched another company: %v", foreign.Msg())
		}
		wantCode(t, "watch another company", foreign.Err(), connect.CodeNotFound)

		// gRPC-Web answers too.
		web := p.client(p.own.UserToken, partner.GRPCWeb())
		if _, err := web.Nodes.GetNode(ctx, req(&fieldhubv1.GetNodeRequest{Id: watched.TagID})); err != nil {
			t.Fatalf("gRPC-Web: %v", err)
		}
	})
}
