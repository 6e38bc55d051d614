package partnerapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/sdk/partner"
	fieldhubv1 "github.com/fieldhub/fieldhub/sdk/partner/fieldhubv1"
	"github.com/fieldhub/fieldhub/sdk/partner/fieldhubv1/fieldhubv1connect"
)

// TestWatchOverGRPC calls Watch with the gRPC protocol (HTTP/2 without
// TLS), with connect's client and with grpc-go, and receives the uplink of
// the watched node that a device posts to the HTTP ingest, and not that of
// another node posted before it.
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

		// grpc-go, gRPC's own Go client, watches the same way.
		if got := watchWithGRPCGo(t, ctx, p, watched.TagID); got.GetTagId() != watched.TagID {
			t.Fatalf("grpc-go uplink %v", got)
		}

		// gRPC-Web answers too.
		web := p.client(p.own.UserToken, partner.GRPCWeb())
		if _, err := web.Nodes.GetNode(ctx, req(&fieldhubv1.GetNodeRequest{Id: watched.TagID})); err != nil {
			t.Fatalf("gRPC-Web: %v", err)
		}
	})
}

// watchWithGRPCGo calls Watch with grpc-go (without generated stubs: the
// method's path and the messages suffice), posts an uplink of node tagID
// to the HTTP ingest and returns the uplink the stream sends.
func watchWithGRPCGo(t *testing.T, ctx context.Context, p *portal, tagID int64) *fieldhubv1.LiveUplink {
	t.Helper()
	conn, err := grpc.NewClient(strings.TrimPrefix(p.ta.URL, "http://"), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+p.own.UserToken)
	stream, err := conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true}, fieldhubv1connect.TagDataServiceWatchProcedure)
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.SendMsg(&fieldhubv1.WatchRequest{TagIds: []int64{tagID}}); err != nil {
		t.Fatal(err)
	}
	if err := stream.CloseSend(); err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Header(); err != nil { // the watch is in place
		t.Fatal(err)
	}
	p.ta.Must(t, "POST", "/api/ingest/generic", p.ownIngest, map[string]any{"devEui": "70B3D57ED0000011", "values": map[string]any{"temperature": 3}}, http.StatusOK)
	var res fieldhubv1.WatchResponse
	if err := stream.RecvMsg(&res); err != nil {
		t.Fatalf("grpc-go receive: %v", err)
	}
	return res.GetUplink()
}
