// Package rpc implements the partner API's services: each call but Watch
// is answered by the portal's REST route for it (internal/bridge), its
// body and answer translated between protobuf and the route's JSON.
package rpc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"connectrpc.com/connect"

	fieldhubv1 "github.com/fieldhub/fieldhub/sdk/partner/fieldhubv1"

	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/partnerapi/internal/bridge"
)

// Ingest is fieldhub.v1.IngestService: POST /api/ingest/generic, with the
// integration token of the call.
type Ingest struct{ Portal *bridge.Client }

// Push stores one uplink.
func (s *Ingest) Push(ctx context.Context, req *connect.Request[fieldhubv1.PushRequest]) (*connect.Response[fieldhubv1.PushResponse], error) {
	res, err := s.push(ctx, bridge.Of(req), req.Msg.GetUplink())
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&fieldhubv1.PushResponse{Result: res}), nil
}

// PushStream stores the stream's uplinks one after another: a refused one
// ends the call with its error, naming its place in the stream.
func (s *Ingest) PushStream(ctx context.Context, stream *connect.ClientStream[fieldhubv1.PushStreamRequest]) (*connect.Response[fieldhubv1.PushStreamResponse], error) {
	out := &fieldhubv1.PushStreamResponse{}
	from := bridge.RPC{Header: stream.RequestHeader(), Addr: stream.Peer().Addr}
	for stream.Receive() {
		res, err := s.push(ctx, from, stream.Msg().GetUplink())
		if err != nil {
			var ce *connect.Error
			if errors.As(err, &ce) {
				e := connect.NewError(ce.Code(), fmt.Errorf("uplink %d: %s", len(out.Results)+1, ce.Message()))
				for k, v := range ce.Meta() {
					e.Meta()[k] = v
				}
				return nil, e
			}
			return nil, err
		}
		out.Results = append(out.Results, res)
	}
	if err := stream.Err(); err != nil {
		return nil, err
	}
	return connect.NewResponse(out), nil
}

func (s *Ingest) push(ctx context.Context, rpc bridge.RPC, u *fieldhubv1.Uplink) (*fieldhubv1.UplinkResult, error) {
	var res ingest.UplinkResult
	call := bridge.Call{Method: http.MethodPost, Path: netservers.RouteGeneric, Body: genericForm(u)}
	if err := s.Portal.Do(ctx, rpc, call, &res); err != nil {
		return nil, err
	}
	return &fieldhubv1.UplinkResult{DevEui: res.DevEUI, Pooled: res.Pooled, TagId: res.TagID, Time: timestamp(res.Time),
		Keys: res.Keys, Warnings: res.Warnings}, nil
}

// genericForm is u in the JSON of the generic route, with only the fields
// u sets, so that the route's defaults and checks apply as to a body
// posted there.
func genericForm(u *fieldhubv1.Uplink) map[string]any {
	m := map[string]any{"devEui": u.GetDevEui()}
	if u.GetTime() != nil {
		m["time"] = u.GetTime().AsTime().Format(time.RFC3339Nano)
	}
	if u.FPort != nil {
		m["fPort"] = u.GetFPort()
	}
	if len(u.GetData()) > 0 {
		m["data"] = u.GetData() // base64, as the form has it
	}
	if u.GetValues() != nil {
		m["values"] = u.GetValues().AsMap()
	}
	for name, v := range map[string]*float64{"rssi": u.Rssi, "snr": u.Snr, "battery": u.Battery} {
		if v != nil {
			m[name] = *v
		}
	}
	if len(u.GetRxInfo()) > 0 {
		rx := make([]map[string]any, len(u.GetRxInfo()))
		for i, g := range u.GetRxInfo() {
			rx[i] = map[string]any{"gatewayId": g.GetGatewayId()}
			if g.Rssi != nil {
				rx[i]["rssi"] = g.GetRssi()
			}
			if g.Snr != nil {
				rx[i]["snr"] = g.GetSnr()
			}
		}
		m["rxInfo"] = rx
	}
	return m
}
