package partnerapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/sdk/partner"
	fieldhubv1 "github.com/fieldhub/fieldhub/sdk/partner/fieldhubv1"
	"github.com/fieldhub/fieldhub/sdk/partner/fieldhubv1/fieldhubv1connect"
)

// foreignDevEUI is the other company's node.
const foreignDevEUI = "FEEDFACE00000001"

// rpcCall makes one RPC that names the foreign company's things and
// returns its answer.
type rpcCall func(ctx context.Context, c *partner.Client) (proto.Message, error)

// unary adapts a unary client method.
func unary[Req, Res any](call func(context.Context, *connect.Request[Req]) (*connect.Response[Res], error), m *Req) rpcCall {
	return func(ctx context.Context, _ *partner.Client) (proto.Message, error) {
		res, err := call(ctx, connect.NewRequest(m))
		if err != nil {
			return nil, err
		}
		return any(res.Msg).(proto.Message), nil
	}
}

// walk is every RPC with the foreign company's ids, by procedure.
func walk(foreignCompany, foreignApp, foreignTag int64) map[string]func(c *partner.Client) rpcCall {
	script := "function decodeUplink(input) { return {data: {}}; }"
	return map[string]func(c *partner.Client) rpcCall{
		fieldhubv1connect.IngestServicePushProcedure: func(c *partner.Client) rpcCall {
			return unary(c.Ingest.Push, &fieldhubv1.PushRequest{Uplink: uplink(foreignDevEUI, time.Now(), -40)})
		},
		fieldhubv1connect.IngestServicePushStreamProcedure: func(c *partner.Client) rpcCall {
			return func(ctx context.Context, c *partner.Client) (proto.Message, error) {
				s := c.Ingest.PushStream(ctx)
				if err := s.Send(&fieldhubv1.PushStreamRequest{Uplink: uplink(foreignDevEUI, time.Now(), -40)}); err != nil {
					return nil, err
				}
				res, err := s.CloseAndReceive()
				if err != nil {
					return nil, err
				}
				return res.Msg, nil
			}
		},
		fieldhubv1connect.TagDataServiceRangeProcedure: func(c *partner.Client) rpcCall {
			return unary(c.TagData.Range, &fieldhubv1.RangeRequest{TagId: foreignTag, Key: "temperature"})
		},
		fieldhubv1connect.TagDataServiceLatestProcedure: func(c *partner.Client) rpcCall {
			return unary(c.TagData.Latest, &fieldhubv1.LatestRequest{TagId: foreignTag, Key: "temperature"})
		},
		fieldhubv1connect.TagDataServiceWatchProcedure: func(c *partner.Client) rpcCall {
			return func(ctx context.Context, c *partner.Client) (proto.Message, error) {
				s, err := c.TagData.Watch(ctx, connect.NewRequest(&fieldhubv1.WatchRequest{CompanyId: foreignCompany}))
				if err != nil {
					return nil, err
				}
				defer s.Close()
				if s.Receive() {
					return s.Msg(), nil
				}
				return nil, s.Err()
			}
		},
		fieldhubv1connect.DecoderServiceListDecodersProcedure: func(c *partner.Client) rpcCall {
			return unary(c.Decoders.ListDecoders, &fieldhubv1.ListDecodersRequest{CompanyId: foreignCompany})
		},
		fieldhubv1connect.DecoderServiceTestDecoderProcedure: func(c *partner.Client) rpcCall {
			return unary(c.Decoders.TestDecoder, &fieldhubv1.TestDecoderRequest{CompanyId: foreignCompany,
				Codec: &fieldhubv1.TestDecoderRequest_Script{Script: script}, FPort: 1})
		},
		fieldhubv1connect.NodesServiceListApplicationsProcedure: func(c *partner.Client) rpcCall {
			return unary(c.Nodes.ListApplications, &fieldhubv1.ListApplicationsRequest{CompanyId: foreignCompany})
		},
		fieldhubv1connect.NodesServiceGetApplicationProcedure: func(c *partner.Client) rpcCall {
			return unary(c.Nodes.GetApplication, &fieldhubv1.GetApplicationRequest{Id: foreignApp})
		},
		fieldhubv1connect.NodesServiceCreateApplicationProcedure: func(c *partner.Client) rpcCall {
			return unary(c.Nodes.CreateApplication, &fieldhubv1.CreateApplicationRequest{CompanyId: foreignCompany,
				Application: &fieldhubv1.ApplicationInput{Name: ptr("Planted")}})
		},
		fieldhubv1connect.NodesServiceUpdateApplicationProcedure: func(c *partner.Client) rpcCall {
			return unary(c.Nodes.UpdateApplication, &fieldhubv1.UpdateApplicationRequest{Id: foreignApp,
				Application: &fieldhubv1.ApplicationInput{Name: ptr("Hijacked")}})
		},
		fieldhubv1connect.NodesServiceListNodesProcedure: func(c *partner.Client) rpcCall {
			return unary(c.Nodes.ListNodes, &fieldhubv1.ListNodesRequest{CompanyId: foreignCompany})
		},
		fieldhubv1connect.NodesServiceGetNodeProcedure: func(c *partner.Client) rpcCall {
			return unary(c.Nodes.GetNode, &fieldhubv1.GetNodeRequest{Id: foreignTag})
		},
		fieldhubv1connect.NodesServiceCreateNodeProcedure: func(c *partner.Client) rpcCall {
			return unary(c.Nodes.CreateNode, &fieldhubv1.CreateNodeRequest{ApplicationId: foreignApp,
				Node: &fieldhubv1.NodeInput{Name: ptr("Planted"), DevEui: ptr("0011223344556677")}})
		},
		fieldhubv1connect.NodesServiceUpdateNodeProcedure: func(c *partner.Client) rpcCall {
			return unary(c.Nodes.UpdateNode, &fieldhubv1.UpdateNodeRequest{DevEui: foreignDevEUI, Node: &fieldhubv1.NodeInput{Name: ptr("Hijacked")}})
		},
	}
}

// procedures lists every RPC the proto files declare.
func procedures() []string {
	var out []string
	for _, f := range []protoreflect.FileDescriptor{fieldhubv1.File_fieldhub_v1_ingest_proto, fieldhubv1.File_fieldhub_v1_tagdata_proto,
		fieldhubv1.File_fieldhub_v1_decoders_proto, fieldhubv1.File_fieldhub_v1_nodes_proto} {
		for i := range f.Services().Len() {
			s := f.Services().Get(i)
			for j := range s.Methods().Len() {
				out = append(out, fmt.Sprintf("/%s/%s", s.FullName(), s.Methods().Get(j).Name()))
			}
		}
	}
	return out
}

// TestTenancyWalk calls every RPC, as every role of one company and its
// integration token, with the other company's ids: each is refused or
// answers nothing of the other company, and the other company's things
// are as they were.
func TestTenancyWalk(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		p := start(t, d)
		fn := p.ta.AppNode(t, p.foreign.CompanyAdminToken, p.foreign.CompanyID, "Foreign Widgets app", "Foreign Widgets node", foreignDevEUI)
		p.ta.Must(t, "POST", "/api/ingest/generic", p.foreignIngest, map[string]any{"devEui": foreignDevEUI, "values": map[string]any{"temperature": 5}}, http.StatusOK)
		snapshot := func() string {
			return string(p.ta.Must(t, "GET", fmt.Sprintf("/api/companies/%d/applications", p.foreign.CompanyID), p.root, nil, http.StatusOK).Body) +
				string(p.ta.Must(t, "GET", fmt.Sprintf("/api/companies/%d/tagdata?deveui=%s&key=temperature", p.foreign.CompanyID, foreignDevEUI), p.root, nil, http.StatusOK).Body)
		}
		before := snapshot()
		calls := walk(p.foreign.CompanyID, fn.AppID, fn.TagID)
		for _, proc := range procedures() {
			if calls[proc] == nil {
				t.Errorf("%s: the walk has no call of it", proc)
			}
		}
		markers := []string{"Foreign Widgets", foreignDevEUI, fmt.Sprintf(`"tagId":"%d"`, fn.TagID), fmt.Sprintf(`"applicationId":"%d"`, fn.AppID)}
		callers := []struct{ name, token string }{
			{"User", p.own.UserToken}, {"CompanyAdmin", p.own.CompanyAdminToken}, {"Admin", p.own.AdminToken},
			{"integration token", p.ownIngest}, {"visitor", ""},
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		for _, proc := range slices.Sorted(maps.Keys(calls)) {
			for _, caller := range callers {
				c := p.client(caller.token)
				msg, err := calls[proc](c)(ctx, c)
				if err != nil {
					if code := connect.CodeOf(err); !slices.Contains([]connect.Code{connect.CodeNotFound, connect.CodePermissionDenied,
						connect.CodeUnauthenticated, connect.CodeInvalidArgument}, code) {
						t.Errorf("%s as %s: %v", proc, caller.name, err)
					}
					continue
				}
				raw, _ := protojson.Marshal(msg)
				var compact bytes.Buffer
				_ = json.Compact(&compact, raw)
				shown := markers
				if strings.HasPrefix(proc, "/"+fieldhubv1connect.IngestServiceName+"/") {
					// The answer names the DevEUI the caller sent: what
					// counts is that it went to the pool, as a DevEUI
					// without a node of the token's company does.
					if !strings.Contains(compact.String(), `"pooled":true`) {
						t.Errorf("%s as %s answered %s, not pooled", proc, caller.name, compact.String())
					}
					shown = slices.DeleteFunc(slices.Clone(markers), func(m string) bool { return m == foreignDevEUI })
				}
				for _, m := range shown {
					if strings.Contains(compact.String(), m) {
						t.Errorf("%s as %s answered %s, which shows %q", proc, caller.name, compact.String(), m)
					}
				}
			}
		}
		if after := snapshot(); after != before {
			t.Errorf("the other company's things changed:\n%s\n%s", before, after)
		}
	})
}
