package feed

import (
	"github.com/fieldhub/fieldhub/kernel/web"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"GET /events": {Summary: "The live event feed: a WebSocket of the caller's company's uplinks and alarms.", Query: []string{"companyId", "only"}},
}
