package httpapi

import (
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/signaltests"
	"net/http"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"POST /signaltest/{companyId}/{deveui}": {Summary: "Start a signal test of a node.", Request: signaltests.StartRequest{}, Response: (*signaltests.Test)(nil), Status: http.StatusCreated},
	"GET /signaltest/{companyId}":           {Summary: "A company's signal tests.", Response: ([]signaltests.Test)(nil)},
	"GET /signaltest/single/{testId}":       {Summary: "One signal test with its measurements.", Response: (*signaltests.Detail)(nil)},
	"GET /signaltest/peek/{testId}":         {Summary: "A running signal test's newest measurements.", Response: signaltests.Peek{}, Query: []string{"after"}},
	"PUT /signaltest/end/{testId}":          {Summary: "End a signal test.", Response: (*signaltests.Test)(nil)},
	"DELETE /signaltest/{testId}":           {Summary: "Delete a signal test."},
}
