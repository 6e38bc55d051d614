package httpapi

import (
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/redecode"
	"net/http"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"GET /companies/{companyId}/redecode":  {Summary: "A company's re-decode jobs.", Response: ([]ingest.RedecodeJob)(nil), Query: []string{"decoder"}},
	"POST /companies/{companyId}/redecode": {Summary: "Start re-decoding stored uplinks with the current decoders.", Request: redecode.Input{}, Response: (*ingest.RedecodeJob)(nil), Status: http.StatusCreated},
	"GET /redecode/{jobId}":                {Summary: "One re-decode job and its progress.", Response: (*ingest.RedecodeJob)(nil)},
	"POST /tag/{tagId}/tagdata": {Summary: "Write a value for one of a node's keys by hand, stored as an uplink's values are.",
		Description: "time is RFC 3339 and optional (now when left out).",
		Request:     tagDataInput{}, Response: tagDataPoint{}, Status: http.StatusCreated,
		Example: web.Example{Request: `{"key": "temperature", "value": 21.5, "time": "2026-11-27T14:00:00Z"}`, Response: `{"key": "temperature", "value": 21.5, "time": "2026-11-27T14:00:00Z"}`}},
	"POST /redecode/{jobId}/cancel": {Summary: "Cancel a re-decode job.", Response: (*ingest.RedecodeJob)(nil)},
}
