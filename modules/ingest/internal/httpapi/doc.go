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
	"POST /redecode/{jobId}/cancel":        {Summary: "Cancel a re-decode job.", Response: (*ingest.RedecodeJob)(nil)},
}
