// Package partnerapi is the contract of the partner API module: the typed
// services of proto/fieldhub/v1, served with connectrpc on the portal's own
// port beside REST, in the Connect, gRPC and gRPC-Web protocols (gRPC over
// HTTP/2, which the kernel's server speaks without TLS too):
//
//   - fieldhub.v1.IngestService: Push and the client-streaming PushStream
//     take uplinks in the generic form, authenticated by an integration
//     token, as POST /api/ingest/generic does;
//   - fieldhub.v1.TagDataService: Range (downsampled) and Latest read a
//     node's values as GET /api/tag/tagdata and GET
//     /api/tag/latest/{tagId}/{key} do; the server-streaming Watch sends a
//     company's uplinks as any instance stores them (Uplinks: the events
//     module's fan-out between instances), optionally of some nodes alone;
//   - fieldhub.v1.DecoderService: ListDecoders and TestDecoder, as GET
//     /api/decoder and POST /api/decoder/test;
//   - fieldhub.v1.NodesService: list, get, create and update applications
//     and nodes, as the /api/applications and /api/tag routes.
//
// Every call but Watch is answered by the portal's own REST route, called
// in process with the caller's Authorization header (Portal): the same
// token authenticates it, the same roles and company scope apply, the same
// validation answers, and a REST error becomes the Connect error of its
// status (ErrorCode) with the catalog's message. The services' code is
// generated into the sdk module (sdk/partner/fieldhubv1), whose typed
// client partners import. Package module builds the module.
package partnerapi

import (
	"net/http"

	"connectrpc.com/connect"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

// Portal is the portal's own HTTP handler (the kernel's router with every
// module's routes), which the RPCs call in process.
type Portal interface {
	ServeHTTP(w http.ResponseWriter, r *http.Request)
}

// Uplinks is where Watch hears the stored uplinks of every instance of the
// portal, not only of the one that serves the call: the events module's
// fan-out, which the application wires in.
type Uplinks interface {
	// SubscribeUplinks calls fn with every uplink of company until cancel
	// is called; fn must not wait, nor call cancel.
	SubscribeUplinks(company int64, fn func(ingest.UplinkReceived)) (cancel func())
}

// Module is the partner API module as the kernel and the application see
// it.
type Module interface {
	kernel.Module
	kernel.Router
}

// ErrorIDHeader is the metadata of a Connect error that carries the
// catalog id of its message (error.notFound, validation.failed, ...), for
// programs that branch on it.
const ErrorIDHeader = "Fieldhub-Error-Id"

// IDWatchBehind is the message of a Watch ended because its client read
// too slowly: the uplinks are not held back for it.
const IDWatchBehind = "partnerapi.watch.behind"

// ErrorCode is the Connect code of an HTTP status of a REST answer.
func ErrorCode(status int) connect.Code {
	switch status {
	case http.StatusBadRequest, http.StatusUnsupportedMediaType:
		return connect.CodeInvalidArgument
	case http.StatusUnauthorized:
		return connect.CodeUnauthenticated
	case http.StatusForbidden:
		return connect.CodePermissionDenied
	case http.StatusNotFound:
		return connect.CodeNotFound
	case http.StatusConflict:
		return connect.CodeAlreadyExists
	case http.StatusRequestEntityTooLarge, http.StatusTooManyRequests:
		return connect.CodeResourceExhausted
	case http.StatusMethodNotAllowed:
		return connect.CodeUnimplemented
	case http.StatusServiceUnavailable:
		return connect.CodeUnavailable
	}
	return connect.CodeInternal
}
