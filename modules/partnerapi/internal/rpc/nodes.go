package rpc

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/timestamppb"

	fieldhubv1 "github.com/fieldhub/fieldhub/sdk/partner/fieldhubv1"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/partnerapi/internal/bridge"
)

// Nodes is fieldhub.v1.NodesService: the /api/applications and /api/tag
// routes.
type Nodes struct{ Portal *bridge.Client }

// company is the company a request names, else the caller's own.
func company(ctx context.Context, id int64) int64 {
	if id != 0 {
		return id
	}
	return auth.CallerFrom(ctx).CompanyID
}

func (s *Nodes) application(ctx context.Context, rpc bridge.RPC, call bridge.Call) (*fieldhubv1.Application, error) {
	var a nodes.Application
	if err := s.Portal.Do(ctx, rpc, call, &a); err != nil {
		return nil, err
	}
	return applicationProto(&a), nil
}

func (s *Nodes) node(ctx context.Context, rpc bridge.RPC, call bridge.Call) (*fieldhubv1.Node, error) {
	var t nodes.Tag
	if err := s.Portal.Do(ctx, rpc, call, &t); err != nil {
		return nil, err
	}
	return nodeProto(&t), nil
}

// ListApplications answers GET /api/companies/{companyId}/applications.
func (s *Nodes) ListApplications(ctx context.Context, req *connect.Request[fieldhubv1.ListApplicationsRequest]) (*connect.Response[fieldhubv1.ListApplicationsResponse], error) {
	var list []nodes.Application
	path := fmt.Sprintf("/api/companies/%d/applications", company(ctx, req.Msg.GetCompanyId()))
	if err := s.Portal.Do(ctx, bridge.Of(req), bridge.Call{Method: http.MethodGet, Path: path}, &list); err != nil {
		return nil, err
	}
	out := &fieldhubv1.ListApplicationsResponse{}
	for i := range list {
		out.Applications = append(out.Applications, applicationProto(&list[i]))
	}
	return connect.NewResponse(out), nil
}

// GetApplication answers GET /api/applications/{applicationId}.
func (s *Nodes) GetApplication(ctx context.Context, req *connect.Request[fieldhubv1.GetApplicationRequest]) (*connect.Response[fieldhubv1.GetApplicationResponse], error) {
	a, err := s.application(ctx, bridge.Of(req), bridge.Call{Method: http.MethodGet, Path: fmt.Sprintf("/api/applications/%d", req.Msg.GetId())})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&fieldhubv1.GetApplicationResponse{Application: a}), nil
}

// CreateApplication answers POST /api/applications/{companyId}.
func (s *Nodes) CreateApplication(ctx context.Context, req *connect.Request[fieldhubv1.CreateApplicationRequest]) (*connect.Response[fieldhubv1.CreateApplicationResponse], error) {
	path := fmt.Sprintf("/api/applications/%d", company(ctx, req.Msg.GetCompanyId()))
	a, err := s.application(ctx, bridge.Of(req), bridge.Call{Method: http.MethodPost, Path: path, Body: applicationBody(req.Msg.GetApplication())})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&fieldhubv1.CreateApplicationResponse{Application: a}), nil
}

// UpdateApplication answers PUT /api/applications/{applicationId}.
func (s *Nodes) UpdateApplication(ctx context.Context, req *connect.Request[fieldhubv1.UpdateApplicationRequest]) (*connect.Response[fieldhubv1.UpdateApplicationResponse], error) {
	path := fmt.Sprintf("/api/applications/%d", req.Msg.GetId())
	a, err := s.application(ctx, bridge.Of(req), bridge.Call{Method: http.MethodPut, Path: path, Body: applicationBody(req.Msg.GetApplication())})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&fieldhubv1.UpdateApplicationResponse{Application: a}), nil
}

// ListNodes answers GET /api/companies/{companyId}/tags.
func (s *Nodes) ListNodes(ctx context.Context, req *connect.Request[fieldhubv1.ListNodesRequest]) (*connect.Response[fieldhubv1.ListNodesResponse], error) {
	var list []nodes.Tag
	path := fmt.Sprintf("/api/companies/%d/tags", company(ctx, req.Msg.GetCompanyId()))
	if err := s.Portal.Do(ctx, bridge.Of(req), bridge.Call{Method: http.MethodGet, Path: path}, &list); err != nil {
		return nil, err
	}
	out := &fieldhubv1.ListNodesResponse{}
	for i := range list {
		out.Nodes = append(out.Nodes, nodeProto(&list[i]))
	}
	return connect.NewResponse(out), nil
}

// GetNode answers GET /api/tag/{tagId}.
func (s *Nodes) GetNode(ctx context.Context, req *connect.Request[fieldhubv1.GetNodeRequest]) (*connect.Response[fieldhubv1.GetNodeResponse], error) {
	n, err := s.node(ctx, bridge.Of(req), bridge.Call{Method: http.MethodGet, Path: fmt.Sprintf("/api/tag/%d", req.Msg.GetId())})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&fieldhubv1.GetNodeResponse{Node: n}), nil
}

// CreateNode answers POST /api/applications/{applicationId}/tag.
func (s *Nodes) CreateNode(ctx context.Context, req *connect.Request[fieldhubv1.CreateNodeRequest]) (*connect.Response[fieldhubv1.CreateNodeResponse], error) {
	path := fmt.Sprintf("/api/applications/%d/tag", req.Msg.GetApplicationId())
	n, err := s.node(ctx, bridge.Of(req), bridge.Call{Method: http.MethodPost, Path: path, Body: nodeBody(req.Msg.GetNode())})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&fieldhubv1.CreateNodeResponse{Node: n}), nil
}

// UpdateNode answers PUT /api/tag/{deveui}.
func (s *Nodes) UpdateNode(ctx context.Context, req *connect.Request[fieldhubv1.UpdateNodeRequest]) (*connect.Response[fieldhubv1.UpdateNodeResponse], error) {
	path := "/api/tag/" + url.PathEscape(req.Msg.GetDevEui())
	n, err := s.node(ctx, bridge.Of(req), bridge.Call{Method: http.MethodPut, Path: path, Body: nodeBody(req.Msg.GetNode())})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&fieldhubv1.UpdateNodeResponse{Node: n}), nil
}

// applicationBody is in as the routes' JSON: only the fields it sets.
func applicationBody(in *fieldhubv1.ApplicationInput) map[string]any {
	m := map[string]any{}
	set(m, "name", in.Name)
	set(m, "networkServer", in.NetworkServer)
	set(m, "chirpstackApplicationId", in.ChirpstackApplicationId)
	set(m, "ttsDownlinkUrl", in.TtsDownlinkUrl)
	set(m, "ttsApiKey", in.TtsApiKey)
	return m
}

// nodeBody is in as the routes' JSON: only the fields it sets.
func nodeBody(in *fieldhubv1.NodeInput) map[string]any {
	m := map[string]any{}
	set(m, "name", in.Name)
	set(m, "deveui", in.DevEui)
	set(m, "appKey", in.AppKey)
	set(m, "appEui", in.AppEui)
	set(m, "applicationId", in.ApplicationId)
	set(m, "profile", in.Profile)
	set(m, "lat", in.Lat)
	set(m, "long", in.Long)
	set(m, "location", in.Location)
	set(m, "type", in.Type)
	set(m, "decoder", in.Decoder)
	return m
}

// set puts *v under name when v is set.
func set[T any](m map[string]any, name string, v *T) {
	if v != nil {
		m[name] = *v
	}
}

func applicationProto(a *nodes.Application) *fieldhubv1.Application {
	return &fieldhubv1.Application{Id: a.ID, CompanyId: a.CompanyID, Name: a.Name, NetworkServer: a.NetworkServer,
		ChirpstackApplicationId: a.ChirpStackApplicationID, TtsDownlinkUrl: a.TTSDownlinkURL, TtsApiKeySet: a.TTSAPIKeySet,
		CreatedAt: timestamppb.New(a.CreatedAt), UpdatedAt: timestamppb.New(a.UpdatedAt)}
}

func nodeProto(t *nodes.Tag) *fieldhubv1.Node {
	return &fieldhubv1.Node{Id: t.ID, CompanyId: t.CompanyID, ApplicationId: t.ApplicationID, Name: t.Name, DevEui: t.DevEUI,
		AppEui: t.AppEUI, Profile: t.Profile, Lat: t.Lat, Long: t.Long, Location: t.Location, Type: t.Type, Decoder: t.Decoder,
		Battery: t.Battery, BatteryVoltage: t.BatteryVoltage, Rssi: t.RSSI, ActiveAlarm: t.ActiveAlarm,
		LatestTime: timestamp(t.LatestTime), Keys: t.Keys, DataPoints_24H: t.DataPoints24h}
}
