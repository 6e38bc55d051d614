package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/forwarding"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"GET /applications/{applicationId}/forwarding":  {Summary: "The forwarding targets of an application.", Response: []*forwarding.Target(nil)},
	"POST /applications/{applicationId}/forwarding": {Summary: "Add a forwarding target to an application.", Request: forwarding.Input{}, Response: (*forwarding.Target)(nil), Status: http.StatusCreated},
	"PUT /forwarding/{targetId}":                    {Summary: "Change a forwarding target.", Request: forwarding.Input{}, Response: (*forwarding.Target)(nil)},
	"DELETE /forwarding/{targetId}":                 {Summary: "Delete a forwarding target."},
	"POST /forwarding/{targetId}/test":              {Summary: "Send a test uplink to a forwarding target and answer how it went.", Response: forwarding.TestResult{}},
}
