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
	"POST /ingest/chirpstack":       {Summary: "Receive a ChirpStack uplink webhook (authenticated by an integration token).", Description: "The network server's own uplink JSON, read as a tree; other event types answer 204.", Request: map[string]any(nil), Response: (*ingest.UplinkResult)(nil)},
	"POST /ingest/tts":              {Summary: "Receive a The Things Stack uplink webhook (authenticated by an integration token).", Description: "The network server's own uplink JSON, read as a tree; other event types answer 204.", Request: map[string]any(nil), Response: (*ingest.UplinkResult)(nil)},
	"POST /ingest/generic": {Summary: "Push an uplink in the generic form (authenticated by an integration token).", Description: "The body is read as a tree, not a fixed type: devEui, and values (key to number, string or boolean) or a payload for the node's decoder; the answer is 202 when the node is not registered and went to the pool.", Request: map[string]any(nil),
		Example: web.Example{Response: `{"devEui": "0011223344556677", "tagId": 21, "time": "2026-11-27T15:00:00Z", "keys": ["temperature", "humidity"]}`, Request: `{"devEui": "0011223344556677", "values": {"temperature": 21.5, "humidity": 40}}`}, Response: (*ingest.UplinkResult)(nil)},
}
