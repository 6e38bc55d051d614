package partnerapi_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/partnerapi"
	"github.com/fieldhub/fieldhub/sdk/partner"
	fieldhubv1 "github.com/fieldhub/fieldhub/sdk/partner/fieldhubv1"
)

// portal is a started portal with two companies: own, whose people call,
// and foreign, whose things they must not reach.
type portal struct {
	ta            *kerneltest.Portal[*app.App]
	root          string
	own, foreign  kerneltest.People
	ownIngest     string // an integration token of own
	foreignIngest string
}

func start(t *testing.T, d db.Dialect) *portal {
	t.Helper()
	ta := kerneltest.Start(t, d, nil, app.Build)
	p := &portal{ta: ta, root: ta.SuperAdmin(t)}
	p.own = ta.EnglishCompany(t, p.root, "Own Widgets AB", "own.example")
	p.foreign = ta.EnglishCompany(t, p.root, "Foreign Widgets AB", "foreign.example")
	p.ownIngest = p.integrationToken(t, p.own)
	p.foreignIngest = p.integrationToken(t, p.foreign)
	return p
}

func (p *portal) integrationToken(t *testing.T, c kerneltest.People) string {
	t.Helper()
	return p.ta.Must(t, "POST", fmt.Sprintf("/api/integration/tokens/%d", c.CompanyID), c.CompanyAdminToken,
		map[string]any{"label": "partner", "isCompany": true}, http.StatusCreated).Str("token")
}

// client is the sdk's client of the portal as token.
func (p *portal) client(token string, opts ...partner.Option) *partner.Client {
	return partner.New(p.ta.URL, token, opts...)
}

// wantCode fails unless err is a Connect error of code with a message.
func wantCode(t *testing.T, what string, err error, code connect.Code) {
	t.Helper()
	var ce *connect.Error
	if !errors.As(err, &ce) {
		t.Fatalf("%s: want %v, got %v", what, code, err)
	}
	if ce.Code() != code || ce.Message() == "" {
		t.Fatalf("%s: want %v with a message, got %v %q", what, code, ce.Code(), ce.Message())
	}
}

func ptr[T any](v T) *T { return &v }

func req[T any](m *T) *connect.Request[T] { return connect.NewRequest(m) }

func TestPartnerAPI(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		p := start(t, d)
		ctx := context.Background()
		boss := p.client(p.own.CompanyAdminToken)
		worker := p.client(p.own.UserToken)

		// Applications and nodes, with the REST routes' rules.
		app, err := boss.Nodes.CreateApplication(ctx, req(&fieldhubv1.CreateApplicationRequest{
			Application: &fieldhubv1.ApplicationInput{Name: ptr("Cold store"), NetworkServer: ptr("generic")}}))
		if err != nil {
			t.Fatalf("create application: %v", err)
		}
		appID := app.Msg.GetApplication().GetId()
		if app.Msg.GetApplication().GetCompanyId() != p.own.CompanyID {
			t.Fatalf("application of company %d, want %d", app.Msg.GetApplication().GetCompanyId(), p.own.CompanyID)
		}
		_, err = worker.Nodes.CreateApplication(ctx, req(&fieldhubv1.CreateApplicationRequest{Application: &fieldhubv1.ApplicationInput{Name: ptr("No")}}))
		wantCode(t, "a User creates an application", err, connect.CodePermissionDenied)
		_, err = boss.Nodes.UpdateApplication(ctx, req(&fieldhubv1.UpdateApplicationRequest{Id: appID, Application: &fieldhubv1.ApplicationInput{Name: ptr("Cold store 2")}}))
		if err != nil {
			t.Fatalf("update application: %v", err)
		}
		got, err := worker.Nodes.GetApplication(ctx, req(&fieldhubv1.GetApplicationRequest{Id: appID}))
		if err != nil || got.Msg.GetApplication().GetName() != "Cold store 2" {
			t.Fatalf("get application: %v %v", got, err)
		}
		apps, err := worker.Nodes.ListApplications(ctx, req(&fieldhubv1.ListApplicationsRequest{}))
		if err != nil || len(apps.Msg.GetApplications()) != 1 {
			t.Fatalf("list applications: %v %v", apps, err)
		}
		node, err := boss.Nodes.CreateNode(ctx, req(&fieldhubv1.CreateNodeRequest{ApplicationId: appID,
			Node: &fieldhubv1.NodeInput{Name: ptr("Freezer"), DevEui: ptr("70B3D57ED0000001")}}))
		if err != nil {
			t.Fatalf("create node: %v", err)
		}
		tagID := node.Msg.GetNode().GetId()
		if _, err := boss.Nodes.CreateNode(ctx, req(&fieldhubv1.CreateNodeRequest{ApplicationId: appID,
			Node: &fieldhubv1.NodeInput{Name: ptr("Other"), DevEui: ptr("70B3D57ED0000002")}})); err != nil {
			t.Fatalf("create second node: %v", err)
		}
		_, err = boss.Nodes.CreateNode(ctx, req(&fieldhubv1.CreateNodeRequest{ApplicationId: appID,
			Node: &fieldhubv1.NodeInput{Name: ptr("Bad"), DevEui: ptr("not hex")}}))
		wantCode(t, "a node with a bad DevEUI", err, connect.CodeInvalidArgument)
		if _, err := boss.Nodes.UpdateNode(ctx, req(&fieldhubv1.UpdateNodeRequest{DevEui: "70b3d57ed0000001",
			Node: &fieldhubv1.NodeInput{Name: ptr("Freezer 1"), Location: ptr("Dock")}})); err != nil {
			t.Fatalf("update node: %v", err)
		}
		n, err := worker.Nodes.GetNode(ctx, req(&fieldhubv1.GetNodeRequest{Id: tagID}))
		if err != nil || n.Msg.GetNode().GetName() != "Freezer 1" || n.Msg.GetNode().GetLocation() != "Dock" {
			t.Fatalf("get node: %v %v", n, err)
		}
		list, err := worker.Nodes.ListNodes(ctx, req(&fieldhubv1.ListNodesRequest{}))
		if err != nil || len(list.Msg.GetNodes()) != 2 {
			t.Fatalf("list nodes: %v %v", list, err)
		}

		// Connect's JSON form, as curl sends it (README.md).
		plain := p.ta.Call(t, "POST", "/fieldhub.v1.NodesService/ListNodes", p.own.UserToken, "{}")
		if plain.Status != http.StatusOK || !strings.Contains(string(plain.Body), `"devEui":"70B3D57ED0000001"`) {
			t.Fatalf("ListNodes in JSON: %d %s", plain.Status, plain.Body)
		}
		refused := p.ta.Call(t, "POST", "/fieldhub.v1.NodesService/GetNode", p.own.UserToken, fmt.Sprintf(`{"id":"%d"}`, tagID+1000))
		if refused.Status != http.StatusNotFound || refused.Str("code") != "not_found" || refused.Str("message") != "The requested item was not found" {
			t.Fatalf("GetNode of no node in JSON: %d %s", refused.Status, refused.Body)
		}

		// Ingest, unary and client-streaming, by the integration token.
		ingest := p.client(p.ownIngest)
		t0 := time.Now().Add(-time.Hour).Truncate(time.Second)
		pushed, err := ingest.Ingest.Push(ctx, req(&fieldhubv1.PushRequest{Uplink: uplink("70B3D57ED0000001", t0, 1)}))
		if err != nil || pushed.Msg.GetResult().GetTagId() != tagID {
			t.Fatalf("push: %v %v", pushed, err)
		}
		_, err = worker.Ingest.Push(ctx, req(&fieldhubv1.PushRequest{Uplink: uplink("70B3D57ED0000001", t0, 1)}))
		wantCode(t, "a push with a user's token", err, connect.CodeUnauthenticated)
		_, err = ingest.Ingest.Push(ctx, req(&fieldhubv1.PushRequest{Uplink: &fieldhubv1.Uplink{}}))
		wantCode(t, "a push without a DevEUI", err, connect.CodeInvalidArgument)
		stream := ingest.Ingest.PushStream(ctx)
		for i := 2; i <= 4; i++ {
			if err := stream.Send(&fieldhubv1.PushStreamRequest{Uplink: uplink("70B3D57ED0000001", t0.Add(time.Duration(i)*time.Minute), float64(i))}); err != nil {
				t.Fatalf("send %d: %v", i, err)
			}
		}
		res, err := stream.CloseAndReceive()
		if err != nil || len(res.Msg.GetResults()) != 3 {
			t.Fatalf("push stream: %v %v", res, err)
		}

		// Tag data: a range downsampled, and the latest value.
		rng, err := worker.TagData.Range(ctx, req(&fieldhubv1.RangeRequest{TagId: tagID, Key: "temperature",
			From: timestamppb.New(t0.Add(-time.Minute)), To: timestamppb.New(time.Now())}))
		if err != nil || len(rng.Msg.GetData()) != 4 {
			t.Fatalf("range: %v %v", rng, err)
		}
		few, err := worker.TagData.Range(ctx, req(&fieldhubv1.RangeRequest{TagId: tagID, Key: "temperature",
			From: timestamppb.New(t0.Add(-time.Minute)), To: timestamppb.New(time.Now()), MaxPoints: 2}))
		if err != nil || len(few.Msg.GetData()) > 2 || len(few.Msg.GetData()) == 0 {
			t.Fatalf("range of 2 points: %v %v", few, err)
		}
		_, err = worker.TagData.Range(ctx, req(&fieldhubv1.RangeRequest{TagId: tagID, MaxPoints: 1_000_000}))
		wantCode(t, "a range of too many points", err, connect.CodeInvalidArgument)
		latest, err := worker.TagData.Latest(ctx, req(&fieldhubv1.LatestRequest{TagId: tagID, Key: "temperature"}))
		if err != nil || latest.Msg.GetDatum().GetValue().GetNumberValue() != 4 {
			t.Fatalf("latest: %v %v", latest, err)
		}

		// Decoders: the catalog, and a test of a script.
		decs, err := worker.Decoders.ListDecoders(ctx, req(&fieldhubv1.ListDecodersRequest{}))
		if err != nil || len(decs.Msg.GetDecoders()) == 0 {
			t.Fatalf("list decoders: %v %v", decs, err)
		}
		script := "function decodeUplink(input) { return {data: {first: input.bytes[0]}}; }"
		test, err := boss.Decoders.TestDecoder(ctx, req(&fieldhubv1.TestDecoderRequest{Codec: &fieldhubv1.TestDecoderRequest_Script{Script: script},
			FPort: 1, Payload: []byte{7}}))
		if err != nil || test.Msg.GetData().GetFields()["first"].GetNumberValue() != 7 {
			t.Fatalf("test decoder: %v %v", test, err)
		}
		_, err = worker.Decoders.TestDecoder(ctx, req(&fieldhubv1.TestDecoderRequest{Codec: &fieldhubv1.TestDecoderRequest_Script{Script: script}, FPort: 1}))
		wantCode(t, "a User tests a decoder", err, connect.CodePermissionDenied)
		var ce *connect.Error
		if errors.As(err, &ce) && ce.Meta().Get(partnerapi.ErrorIDHeader) != "error.forbidden" {
			t.Errorf("error id %q, want error.forbidden", ce.Meta().Get(partnerapi.ErrorIDHeader))
		}
	})
}

// uplink is a generic uplink of deveui at t with a temperature.
func uplink(deveui string, t time.Time, temperature float64) *fieldhubv1.Uplink {
	v, _ := structpb.NewStruct(map[string]any{"temperature": temperature})
	return &fieldhubv1.Uplink{DevEui: deveui, Time: timestamppb.New(t), Values: v, Rssi: proto.Float64(-80)}
}
