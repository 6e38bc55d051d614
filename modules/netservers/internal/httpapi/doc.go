package httpapi

import (
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/queue"
	"net/http"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"GET /downlink/tag/{tagId}":     {Summary: "A node's downlinks.", Response: ([]netservers.Downlink)(nil)},
	"POST /downlink/{tagId}":        {Summary: "Queue a downlink to a node.", Request: queue.Input{}, Response: (*netservers.Downlink)(nil), Status: http.StatusCreated},
	"DELETE /downlink/{downlinkId}": {Summary: "Cancel a queued downlink."},
	"POST /ingest/chirpstack":       {Summary: "Receive a ChirpStack uplink webhook (authenticated by an integration token).", Response: (*ingest.UplinkResult)(nil)},
	"POST /ingest/tts":              {Summary: "Receive a The Things Stack uplink webhook (authenticated by an integration token).", Response: (*ingest.UplinkResult)(nil)},
	"POST /ingest/generic":          {Summary: "Push an uplink in the generic form (authenticated by an integration token).", Response: (*ingest.UplinkResult)(nil)},
}
