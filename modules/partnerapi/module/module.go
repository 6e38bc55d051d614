// Package module builds the partner API module for the application
// package.
package module

import (
	"net/http"

	"connectrpc.com/connect"

	"github.com/fieldhub/fieldhub/sdk/partner/fieldhubv1/fieldhubv1connect"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/partnerapi"
	"github.com/fieldhub/fieldhub/modules/partnerapi/internal/bridge"
	"github.com/fieldhub/fieldhub/modules/partnerapi/internal/rpc"
)

// maxMessage is the largest message a call takes: the ingest's and the
// decoder test's bodies fit.
const maxMessage = 4 << 20

// compressMin is the smallest answer message that is compressed for a
// client that accepts it: below a kilobyte gzip costs more than it saves.
const compressMin = 1 << 10

// maxStream bounds a whole call's body. A client stream of uplinks may go
// on for as long as its client likes; each message is bounded by
// maxMessage.
const maxStream = 1 << 50

// Deps is what the partner API needs beside the kernel.
type Deps struct {
	// Portal answers the RPCs' REST calls: the kernel's handler, with
	// every module's routes. Required.
	Portal partnerapi.Portal
	// Uplinks feeds Watch with the uplinks of every instance: the events
	// module. Required.
	Uplinks partnerapi.Uplinks
}

// New builds the module. It panics without Deps.Portal or Deps.Uplinks, so
// that a wiring mistake stops the program at start.
func New(host *kernel.Host, deps Deps) partnerapi.Module {
	if deps.Portal == nil {
		panic("partnerapi module: Deps.Portal is required")
	}
	if deps.Uplinks == nil {
		panic("partnerapi module: Deps.Uplinks is required")
	}
	portal := bridge.New(deps.Portal)
	// Messages under compressMin go uncompressed although the client
	// accepts gzip: a Watch delivery is some 200 bytes, and compressing
	// each took 60 % of the server's CPU at 5,000 uplinks/s to ten
	// subscribers, to save a few dozen bytes.
	opts := []connect.HandlerOption{connect.WithReadMaxBytes(maxMessage), connect.WithCompressMinBytes(compressMin)}
	m := &module{}
	add := func(path string, h http.Handler) { m.handlers = append(m.handlers, service{path, h}) }
	add(fieldhubv1connect.NewIngestServiceHandler(&rpc.Ingest{Portal: portal}, opts...))
	add(fieldhubv1connect.NewTagDataServiceHandler(&rpc.TagData{Portal: portal, Live: rpc.NewLive(deps.Uplinks, host.Catalogs)}, opts...))
	add(fieldhubv1connect.NewDecoderServiceHandler(&rpc.Decoders{Portal: portal}, opts...))
	add(fieldhubv1connect.NewNodesServiceHandler(&rpc.Nodes{Portal: portal}, opts...))
	return m
}

// service is one service's handler under its path (/fieldhub.v1.X/).
type service struct {
	path    string
	handler http.Handler
}

type module struct{ handlers []service }

// Name names the module.
func (m *module) Name() string { return "partnerapi" }

// Routes registers each service under its path, open as far as the router
// goes: each call is authenticated by the route it calls (or by Watch),
// which answers in the call's own protocol.
func (m *module) Routes(r *web.ModuleRoutes) {
	for _, s := range m.handlers {
		h := s.handler
		r.Raw("POST "+s.path, auth.Open, func(w http.ResponseWriter, req *http.Request) error {
			h.ServeHTTP(flushWriter{w}, req)
			return nil
		}, web.MaxBody(maxStream))
	}
}

// flushWriter lets the streaming calls flush through the router's
// response writer, which reaches the connection's flush by Unwrap.
type flushWriter struct{ http.ResponseWriter }

func (f flushWriter) Flush() { _ = http.NewResponseController(f.ResponseWriter).Flush() }

func (f flushWriter) Unwrap() http.ResponseWriter { return f.ResponseWriter }
