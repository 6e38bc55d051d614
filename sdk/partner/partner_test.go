package partner_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"connectrpc.com/connect"

	"github.com/fieldhub/fieldhub/sdk/partner"
	fieldhubv1 "github.com/fieldhub/fieldhub/sdk/partner/fieldhubv1"
	"github.com/fieldhub/fieldhub/sdk/partner/fieldhubv1/fieldhubv1connect"
)

// nodes answers GetNode with the caller's token as the node's name, and
// the protocol it was called with as its type.
type nodes struct {
	fieldhubv1connect.UnimplementedNodesServiceHandler
}

func (nodes) GetNode(_ context.Context, req *connect.Request[fieldhubv1.GetNodeRequest]) (*connect.Response[fieldhubv1.GetNodeResponse], error) {
	if req.Header().Get("Authorization") == "" {
		return nil, connect.NewError(connect.CodeUnauthenticated, errors.New("no token"))
	}
	return connect.NewResponse(&fieldhubv1.GetNodeResponse{Node: &fieldhubv1.Node{Id: req.Msg.GetId(),
		Name: req.Header().Get("Authorization"), Type: req.Peer().Protocol}}), nil
}

// TestClientSendsTheTokenInEachProtocol calls a server of the generated
// handler in Connect, gRPC (HTTP/2 without TLS) and gRPC-Web.
func TestClientSendsTheTokenInEachProtocol(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle(fieldhubv1connect.NewNodesServiceHandler(nodes{}))
	srv := httptest.NewUnstartedServer(mux)
	srv.Config.Protocols = new(http.Protocols)
	srv.Config.Protocols.SetHTTP1(true)
	srv.Config.Protocols.SetUnencryptedHTTP2(true)
	srv.Start()
	defer srv.Close()
	for _, tc := range []struct {
		protocol string
		opts     []partner.Option
	}{
		{connect.ProtocolConnect, nil},
		{connect.ProtocolGRPC, []partner.Option{partner.GRPC()}},
		{connect.ProtocolGRPCWeb, []partner.Option{partner.GRPCWeb()}},
	} {
		c := partner.New(srv.URL, "secret", tc.opts...)
		res, err := c.Nodes.GetNode(context.Background(), connect.NewRequest(&fieldhubv1.GetNodeRequest{Id: 7}))
		if err != nil {
			t.Fatalf("%s: %v", tc.protocol, err)
		}
		if n := res.Msg.GetNode(); n.GetId() != 7 || n.GetName() != "Bearer secret" || n.GetType() != tc.protocol {
			t.Errorf("%s: answered %v", tc.protocol, n)
		}
	}
	_, err := partner.New(srv.URL, "").Nodes.GetNode(context.Background(), connect.NewRequest(&fieldhubv1.GetNodeRequest{Id: 7}))
	if connect.CodeOf(err) != connect.CodeUnauthenticated {
		t.Errorf("without a token: %v", err)
	}
}
