package sms

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
)

// The handshake: Fieldhub starts a plugin with MagicCookieKey set to
// MagicCookieValue (a program started otherwise refuses to run as a
// plugin) and accepts it only when it speaks ProtocolVersion. A change of
// Request, Response, Error or the service's methods that an older plugin
// or host cannot read raises ProtocolVersion; fields added with zero
// values that mean "as before" do not.
const (
	ProtocolVersion  = 1
	MagicCookieKey   = "FIELDHUB_SMS_PLUGIN"
	MagicCookieValue = "b8c2f0f6d1e94a4b9a3f5c7e2d6a1b04"
)

// PluginName is the name under which a plugin binary serves its provider
// (go-plugin's plugin set); Fieldhub dispenses it by this name.
const PluginName = "sms"

// Handshake is the go-plugin handshake of SMS plugins.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  ProtocolVersion,
	MagicCookieKey:   MagicCookieKey,
	MagicCookieValue: MagicCookieValue,
}

// The wire format. go-plugin's gRPC mode carries a gRPC service; this one
// is written by hand instead of generated from a .proto file, so that
// neither a plugin's author nor Fieldhub's build needs protoc. Its
// messages are the JSON of Request, sendReply, Info, selected by the gRPC
// content subtype codecName (registered by this package on both sides).
// Service fieldhub.sms.v1.Provider:
//
//	Send(Request) returns (sendReply)  // a reply holds response or error
//	Info({}) returns (Info)
//
// go-plugin adds the standard gRPC health service, which the host uses to
// check that a plugin lives.
const (
	serviceName = "fieldhub.sms.v1.Provider"
	codecName   = "fieldhub-sms-json"
)

// sendReply is Send's answer: a provider's failure travels as data, so that
// a gRPC error means only that the plugin (or the connection to it) failed.
type sendReply struct {
	Response *Response `json:"response,omitempty"`
	Error    *Error    `json:"error,omitempty"`
}

type empty struct{}

// jsonCodec encodes the messages as JSON.
type jsonCodec struct{}

func (jsonCodec) Marshal(v any) ([]byte, error)      { return json.Marshal(v) }
func (jsonCodec) Unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
func (jsonCodec) Name() string                       { return codecName }

func init() { encoding.RegisterCodec(jsonCodec{}) }

var serviceDesc = grpc.ServiceDesc{
	ServiceName: serviceName,
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{
		{MethodName: "Send", Handler: func(srv any, ctx context.Context, dec func(any) error, ic grpc.UnaryServerInterceptor) (any, error) {
			req := new(Request)
			if err := dec(req); err != nil {
				return nil, err
			}
			s := srv.(*server)
			call := func(ctx context.Context, r any) (any, error) { return s.send(ctx, *r.(*Request)), nil }
			if ic == nil {
				return call(ctx, req)
			}
			return ic(ctx, req, &grpc.UnaryServerInfo{Server: srv, FullMethod: "/" + serviceName + "/Send"}, call)
		}},
		{MethodName: "Info", Handler: func(srv any, ctx context.Context, dec func(any) error, ic grpc.UnaryServerInterceptor) (any, error) {
			in := new(empty)
			if err := dec(in); err != nil {
				return nil, err
			}
			s := srv.(*server)
			call := func(context.Context, any) (any, error) { return s.info(), nil }
			if ic == nil {
				return call(ctx, in)
			}
			return ic(ctx, in, &grpc.UnaryServerInfo{Server: srv, FullMethod: "/" + serviceName + "/Info"}, call)
		}},
	},
	Metadata: "github.com/fieldhub/fieldhub/sdk/sms/protocol.go",
}

// server serves a Provider.
type server struct{ p Provider }

func (s *server) send(ctx context.Context, req Request) (reply *sendReply) {
	defer func() {
		if r := recover(); r != nil {
			// The request may have reached the provider before the panic.
			reply = &sendReply{Error: &Error{Party: PartyPlugin, Message: fmt.Sprintf("panic: %v", r), Temporary: true}}
		}
	}()
	res, err := s.p.Send(ctx, req)
	if err != nil {
		return &sendReply{Error: AsError(err)}
	}
	return &sendReply{Response: &res}
}

func (s *server) info() *Info {
	in := &Info{Protocol: ProtocolVersion}
	if i, ok := s.p.(Idempotent); ok {
		in.Idempotent = i.Idempotent()
	}
	return in
}

// Client is a Provider in another process, reached over gRPC: what the
// host (and smstest) dispenses from a plugin.
type Client struct{ conn *grpc.ClientConn }

// NewClient is a Client on conn, a connection to a plugin's gRPC server.
func NewClient(conn *grpc.ClientConn) *Client { return &Client{conn: conn} }

// Send sends req through the plugin. A failure is an *Error: the
// provider's (as the plugin reported it) or the plugin's, when the call
// itself failed; then the provider may or may not have accepted the
// message (NotSent is false).
func (c *Client) Send(ctx context.Context, req Request) (Response, error) {
	var reply sendReply
	if err := c.conn.Invoke(ctx, "/"+serviceName+"/Send", &req, &reply, grpc.CallContentSubtype(codecName)); err != nil {
		return Response{}, &Error{Party: PartyPlugin, Message: "call the plugin: " + err.Error(), Temporary: true}
	}
	if reply.Error != nil {
		return Response{}, reply.Error
	}
	if reply.Response == nil {
		return Response{}, &Error{Party: PartyPlugin, Message: "the plugin answered neither a response nor an error", Temporary: true}
	}
	return *reply.Response, nil
}

// Info asks the plugin about itself.
func (c *Client) Info(ctx context.Context) (Info, error) {
	var in Info
	if err := c.conn.Invoke(ctx, "/"+serviceName+"/Info", &empty{}, &in, grpc.CallContentSubtype(codecName)); err != nil {
		return Info{}, fmt.Errorf("ask the plugin about itself: %w", err)
	}
	return in, nil
}

// GRPCPlugin is the go-plugin Plugin of an SMS provider: Impl on the
// plugin's side, a *Client on the host's.
type GRPCPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl Provider
}

// GRPCServer registers the provider's service.
func (p *GRPCPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	s.RegisterService(&serviceDesc, &server{p: p.Impl})
	return nil
}

// GRPCClient returns a *Client on the plugin's connection.
func (p *GRPCPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return NewClient(c), nil
}

// PluginSet is the plugin set to serve p (nil on the host's side).
func PluginSet(p Provider) plugin.PluginSet {
	return plugin.PluginSet{PluginName: &GRPCPlugin{Impl: p}}
}

// Serve runs p as a plugin until Fieldhub stops it: the one call of a
// plugin's main. Started by hand (without the handshake's cookie) it says
// that it is a plugin and exits.
func Serve(p Provider) {
	go exitWithParent()
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: Handshake,
		Plugins:         PluginSet(p),
		GRPCServer:      plugin.DefaultGRPCServer,
		Logger:          hclog.New(&hclog.LoggerOptions{Name: "sms", Output: os.Stderr, Level: hclog.Info, JSONFormat: true}),
	})
}

// exitWithParent ends the plugin when the portal that started it is gone
// (killed without stopping its plugins): the process is then adopted and
// its parent changes. go-plugin itself does not notice.
func exitWithParent() {
	parent := os.Getppid()
	for range time.Tick(time.Second) {
		if os.Getppid() != parent {
			os.Exit(0)
		}
	}
}
