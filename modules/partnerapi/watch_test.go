package partnerapi_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	"github.com/fieldhub/fieldhub/app"
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

// TestWatchAcrossInstances runs two portals on one PostgreSQL database, as
// two instances behind a load balancer: a Watch on one receives the
// uplinks the other stores, with their node, fCnt, radio side and values,
// and a Watch of another company does not.
func TestWatchAcrossInstances(t *testing.T) {
	t.Parallel()
	a := start(t, db.Postgres)
	b := kerneltest.Start(t, db.Postgres, map[string]string{"DATABASE_URL": a.ta.Host().Config.DatabaseURL}, app.Build)
	own := a.ta.AppNode(t, a.own.CompanyAdminToken, a.own.CompanyID, "Cold store", "Freezer", "70B3D57ED0000021")
	foreign := a.ta.AppNode(t, a.foreign.CompanyAdminToken, a.foreign.CompanyID, "Yard", "Gate", "70B3D57ED0000022")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	ownWatch, err := partner.New(b.URL, a.own.UserToken).TagData.Watch(ctx, req(&fieldhubv1.WatchRequest{}))
	if err != nil {
		t.Fatal(err)
	}
	defer ownWatch.Close()
	foreignWatch, err := partner.New(b.URL, a.foreign.UserToken).TagData.Watch(ctx, req(&fieldhubv1.WatchRequest{}))
	if err != nil {
		t.Fatal(err)
	}
	defer foreignWatch.Close()
	// The headers come once each watch is in place.
	ownWatch.ResponseHeader()
	foreignWatch.ResponseHeader()

	// A ChirpStack uplink has the radio side the generic form lacks.
	a.ta.Must(t, "POST", "/api/ingest/chirpstack?event=up", a.ownIngest, map[string]any{
		"deviceInfo": map[string]any{"devEui": "70b3d57ed0000021"}, "fCnt": 42, "object": map[string]any{"temperature": -18.5},
		"rxInfo": []any{map[string]any{"gatewayId": "aa555a0000000001", "rssi": -97, "snr": 7.5}},
		"txInfo": map[string]any{"modulation": map[string]any{"lora": map[string]any{"spreadingFactor": 9}}},
	}, http.StatusOK)
	// Posted after the own uplink, through the same instance and so the
	// same order of notifications: had the own uplink leaked to the other
	// company's watcher, it would come first.
	a.ta.Must(t, "POST", "/api/ingest/generic", a.foreignIngest, map[string]any{"devEui": "70B3D57ED0000022", "values": map[string]any{"open": 1}}, http.StatusOK)

	if !ownWatch.Receive() {
		t.Fatalf("no uplink on the other instance: %v", ownWatch.Err())
	}
	u := ownWatch.Msg().GetUplink()
	rx := u.GetReceptions()
	if u.GetTagId() != own.TagID || u.GetCompanyId() != a.own.CompanyID || u.GetDevEui() != "70B3D57ED0000021" || u.GetName() != "Freezer" ||
		u.GetFCnt() != 42 || u.GetSpreadingFactor() != 9 || u.GetValues().GetFields()["temperature"].GetNumberValue() != -18.5 ||
		len(rx) != 1 || rx[0].GetGatewayId() != "aa555a0000000001" || rx[0].GetRssi() != -97 || rx[0].GetSnr() != 7.5 {
		t.Fatalf("uplink %v", u)
	}
	// 200 values of 60 characters are over the 8000 bytes a notification
	// may carry: the uplink crosses through its row, radio part included.
	large := map[string]any{"n": 2}
	for i := range 200 {
		large[fmt.Sprintf("text%03d", i)] = strings.Repeat("x", 60)
	}
	a.ta.Must(t, "POST", "/api/ingest/chirpstack?event=up", a.ownIngest, map[string]any{
		"deviceInfo": map[string]any{"devEui": "70b3d57ed0000021"}, "fCnt": 43, "object": large}, http.StatusOK)
	if !ownWatch.Receive() {
		t.Fatalf("no large uplink on the other instance: %v", ownWatch.Err())
	}
	if u := ownWatch.Msg().GetUplink(); u.GetTagId() != own.TagID || u.GetFCnt() != 43 || len(u.GetValues().GetFields()) != 201 {
		t.Fatalf("large uplink of node %d, fCnt %d, %d values", u.GetTagId(), u.GetFCnt(), len(u.GetValues().GetFields()))
	}

	if !foreignWatch.Receive() {
		t.Fatalf("no uplink of the other company: %v", foreignWatch.Err())
	}
	if got := foreignWatch.Msg().GetUplink(); got.GetTagId() != foreign.TagID || got.GetValues().GetFields()["open"].GetNumberValue() != 1 {
		t.Fatalf("the other company's watcher received %v", got)
	}
}

// TestWatchSendsSmallMessagesUncompressed: a client that accepts gzip (as
// the sdk's does) still gets each uplink uncompressed, since gzip costs
// more than it saves on a message of some 200 bytes; compressing every
// delivery took most of the server's CPU at 5,000 uplinks/s to ten
// subscribers.
func TestWatchSendsSmallMessagesUncompressed(t *testing.T) {
	t.Parallel()
	p := start(t, db.SQLite)
	watched := p.ta.AppNode(t, p.own.CompanyAdminToken, p.own.CompanyID, "Cold store", "Freezer", "70B3D57ED0000011")
	msg, err := proto.Marshal(&fieldhubv1.WatchRequest{TagIds: []int64{watched.TagID}})
	if err != nil {
		t.Fatal(err)
	}
	body := binary.BigEndian.AppendUint32([]byte{0}, uint32(len(msg))) // Connect's envelope: flags, length
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, p.ta.URL+fieldhubv1connect.TagDataServiceWatchProcedure, bytes.NewReader(append(body, msg...)))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Content-Type", "application/connect+proto")
	r.Header.Set("Connect-Accept-Encoding", "gzip")
	r.Header.Set("Authorization", "Bearer "+p.own.UserToken)
	res, err := http.DefaultClient.Do(r) // the headers come once the watch is in place
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	p.ta.Must(t, "POST", "/api/ingest/generic", p.ownIngest, map[string]any{"devEui": "70B3D57ED0000011", "values": map[string]any{"temperature": 3}}, http.StatusOK)
	head := make([]byte, 5)
	if _, err := io.ReadFull(res.Body, head); err != nil {
		t.Fatal(err)
	}
	if head[0]&1 != 0 {
		t.Errorf("an uplink of %d bytes came compressed (encoding %q)", binary.BigEndian.Uint32(head[1:]), res.Header.Get("Connect-Content-Encoding"))
	}
	got := make([]byte, binary.BigEndian.Uint32(head[1:]))
	if _, err := io.ReadFull(res.Body, got); err != nil {
		t.Fatal(err)
	}
	var w fieldhubv1.WatchResponse
	if err := proto.Unmarshal(got, &w); err != nil && head[0]&1 == 0 {
		t.Fatal(err)
	}
	if head[0]&1 == 0 && w.GetUplink().GetTagId() != watched.TagID {
		t.Errorf("uplink %v", w.GetUplink())
	}
}
