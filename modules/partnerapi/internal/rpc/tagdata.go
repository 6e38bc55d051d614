package rpc

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"connectrpc.com/connect"

	fieldhubv1 "github.com/fieldhub/fieldhub/sdk/partner/fieldhubv1"

	"github.com/fieldhub/fieldhub/modules/partnerapi/internal/bridge"
)

// TagData is fieldhub.v1.TagDataService: Range and Latest through the tag
// data routes, Watch from the bus (Live).
type TagData struct {
	Portal *bridge.Client
	*Live
}

// datum is a value as the tag data routes answer it.
type datum struct {
	ID        int64      `json:"id"`
	Name      string     `json:"name"`
	Key       string     `json:"key"`
	Value     any        `json:"value"`
	CreatedAt *time.Time `json:"createdAt"`
	Label     string     `json:"label"`
	Unit      string     `json:"unit"`
	Default   bool       `json:"defaultKey"`
	DevEUI    string     `json:"tagDeveui"`
}

func (d datum) proto() *fieldhubv1.Datum {
	return &fieldhubv1.Datum{TagId: d.ID, Name: d.Name, Key: d.Key, Value: value(d.Value), Time: timestamp(d.CreatedAt),
		Label: d.Label, Unit: d.Unit, DefaultKey: d.Default, DevEui: d.DevEUI}
}

// Range answers GET /api/tag/tagdata.
func (s *TagData) Range(ctx context.Context, req *connect.Request[fieldhubv1.RangeRequest]) (*connect.Response[fieldhubv1.RangeResponse], error) {
	m := req.Msg
	q := url.Values{"tagId": {strconv.FormatInt(m.GetTagId(), 10)}}
	if m.GetKey() != "" {
		q.Set("key", m.GetKey())
	}
	if m.GetFrom() != nil {
		q.Set("from", m.GetFrom().AsTime().Format(time.RFC3339Nano))
	}
	if m.GetTo() != nil {
		q.Set("to", m.GetTo().AsTime().Format(time.RFC3339Nano))
	}
	if m.GetMaxPoints() != 0 {
		q.Set("max", strconv.Itoa(int(m.GetMaxPoints())))
	}
	var list []datum
	if err := s.Portal.Do(ctx, bridge.Of(req), bridge.Call{Method: http.MethodGet, Path: "/api/tag/tagdata", Query: q}, &list); err != nil {
		return nil, err
	}
	out := &fieldhubv1.RangeResponse{Data: make([]*fieldhubv1.Datum, len(list))}
	for i, d := range list {
		out.Data[i] = d.proto()
	}
	return connect.NewResponse(out), nil
}

// Latest answers GET /api/tag/latest/{tagId}/{key}.
func (s *TagData) Latest(ctx context.Context, req *connect.Request[fieldhubv1.LatestRequest]) (*connect.Response[fieldhubv1.LatestResponse], error) {
	var d datum
	path := fmt.Sprintf("/api/tag/latest/%d/%s", req.Msg.GetTagId(), url.PathEscape(req.Msg.GetKey()))
	if err := s.Portal.Do(ctx, bridge.Of(req), bridge.Call{Method: http.MethodGet, Path: path}, &d); err != nil {
		return nil, err
	}
	return connect.NewResponse(&fieldhubv1.LatestResponse{Datum: d.proto()}), nil
}
