// Package partner is the typed client of the portal's partner API: the
// services of proto/fieldhub/v1 (ingest, tag data with the live Watch,
// decoders, applications and nodes), generated into fieldhubv1 and
// fieldhubv1connect, with the bearer token every call carries.
//
//	c := partner.New("https://portal.example.com", token)
//	stream, err := c.TagData.Watch(ctx, connect.NewRequest(&fieldhubv1.WatchRequest{}))
//
// Calls use the Connect protocol by default; partner.GRPC() selects gRPC,
// which needs HTTP/2: over TLS any client does, and for a plain http://
// address New's client speaks HTTP/2 without TLS when gRPC is chosen.
// Ingest takes an integration token of the company, the other services a
// user's access token.
package partner

import (
	"net/http"

	"connectrpc.com/connect"

	"github.com/fieldhub/fieldhub/sdk/partner/fieldhubv1/fieldhubv1connect"
)

// Client holds a client of each service.
type Client struct {
	Ingest   fieldhubv1connect.IngestServiceClient
	TagData  fieldhubv1connect.TagDataServiceClient
	Decoders fieldhubv1connect.DecoderServiceClient
	Nodes    fieldhubv1connect.NodesServiceClient
}

// Option changes how New's clients call.
type Option func(*options)

type options struct {
	grpc    bool
	connect []connect.ClientOption
	http    *http.Client
}

// GRPC makes the clients call with the gRPC protocol (over HTTP/2).
func GRPC() Option { return func(o *options) { o.grpc = true } }

// GRPCWeb makes the clients call with the gRPC-Web protocol.
func GRPCWeb() Option {
	return func(o *options) { o.connect = append(o.connect, connect.WithGRPCWeb()) }
}

// WithHTTPClient makes the clients send through hc (its transport carries
// the token added on top).
func WithHTTPClient(hc *http.Client) Option { return func(o *options) { o.http = hc } }

// WithClientOptions adds connect's own client options (compression,
// interceptors, codecs).
func WithClientOptions(opts ...connect.ClientOption) Option {
	return func(o *options) { o.connect = append(o.connect, opts...) }
}

// New returns the clients of the portal at baseURL (https://host or
// http://host:port) that authenticate as token.
func New(baseURL, token string, opts ...Option) *Client {
	o := options{}
	for _, f := range opts {
		f(&o)
	}
	if o.grpc {
		o.connect = append(o.connect, connect.WithGRPC())
	}
	base := http.DefaultTransport
	if o.http != nil && o.http.Transport != nil {
		base = o.http.Transport
	} else if o.grpc {
		base = h2cTransport()
	}
	hc := &http.Client{Transport: bearer{base: base, token: token}}
	if o.http != nil {
		c := *o.http
		c.Transport = hc.Transport
		hc = &c
	}
	return &Client{
		Ingest:   fieldhubv1connect.NewIngestServiceClient(hc, baseURL, o.connect...),
		TagData:  fieldhubv1connect.NewTagDataServiceClient(hc, baseURL, o.connect...),
		Decoders: fieldhubv1connect.NewDecoderServiceClient(hc, baseURL, o.connect...),
		Nodes:    fieldhubv1connect.NewNodesServiceClient(hc, baseURL, o.connect...),
	}
}

// h2cTransport speaks HTTP/2 to http:// addresses without TLS (prior
// knowledge), and HTTP/2 or HTTP/1.1 over TLS, as gRPC needs.
func h2cTransport() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	p := new(http.Protocols)
	p.SetUnencryptedHTTP2(true)
	p.SetHTTP2(true)
	t.Protocols = p
	return t
}

// bearer adds the token to every request.
type bearer struct {
	base  http.RoundTripper
	token string
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	if b.token != "" {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return b.base.RoundTrip(r)
}
