package rpc

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"connectrpc.com/connect"

	fieldhubv1 "github.com/fieldhub/fieldhub/sdk/partner/fieldhubv1"

	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/partnerapi/internal/bridge"
)

// Decoders is fieldhub.v1.DecoderService: GET /api/decoder and POST
// /api/decoder/test.
type Decoders struct{ Portal *bridge.Client }

// companyQuery names a SuperAdmin's company, as the routes take it.
func companyQuery(id int64) url.Values {
	if id == 0 {
		return nil
	}
	return url.Values{"companyId": {strconv.FormatInt(id, 10)}}
}

// ListDecoders lists the decoders the company's nodes may use.
func (s *Decoders) ListDecoders(ctx context.Context, req *connect.Request[fieldhubv1.ListDecodersRequest]) (*connect.Response[fieldhubv1.ListDecodersResponse], error) {
	var list []decoders.Entry
	call := bridge.Call{Method: http.MethodGet, Path: "/api/decoder", Query: companyQuery(req.Msg.GetCompanyId())}
	if err := s.Portal.Do(ctx, bridge.Of(req), call, &list); err != nil {
		return nil, err
	}
	out := &fieldhubv1.ListDecodersResponse{}
	for _, e := range list {
		if e.Key == "" {
			continue // the forms' empty choice
		}
		out.Decoders = append(out.Decoders, &fieldhubv1.Decoder{Key: e.Key, Name: e.Name, Custom: e.Custom, Repo: e.Repo, Failing: e.Failing})
	}
	return connect.NewResponse(out), nil
}

// TestDecoder runs a codec on a payload.
func (s *Decoders) TestDecoder(ctx context.Context, req *connect.Request[fieldhubv1.TestDecoderRequest]) (*connect.Response[fieldhubv1.TestDecoderResponse], error) {
	m := req.Msg
	body := map[string]any{"fPort": m.GetFPort(), "base64": base64.StdEncoding.EncodeToString(m.GetPayload())}
	switch c := m.GetCodec().(type) {
	case *fieldhubv1.TestDecoderRequest_Key:
		body["key"] = c.Key
	case *fieldhubv1.TestDecoderRequest_Script:
		body["script"] = c.Script
	case *fieldhubv1.TestDecoderRequest_Wasm:
		body["wasm"] = base64.StdEncoding.EncodeToString(c.Wasm)
	}
	if len(m.GetVariables()) > 0 {
		body["variables"] = m.GetVariables()
	}
	if m.GetRecvTime() != nil {
		body["recvTime"] = m.GetRecvTime().AsTime().Format(time.RFC3339Nano)
	}
	var res decoders.TestResult
	call := bridge.Call{Method: http.MethodPost, Path: "/api/decoder/test", Query: companyQuery(m.GetCompanyId()), Body: body}
	if err := s.Portal.Do(ctx, bridge.Of(req), call, &res); err != nil {
		return nil, err
	}
	return connect.NewResponse(&fieldhubv1.TestDecoderResponse{Data: values(res.Data), Warnings: res.Warnings, Errors: res.Errors,
		Log: res.Log, Micros: res.Micros}), nil
}
