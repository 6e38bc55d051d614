package httpapi

import (
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/news"
	"net/http"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"GET /news":             {Summary: "The installation's news and the external feed.", Response: listAnswer{}},
	"POST /news":            {Summary: "Publish a news entry.", Request: entryBody{}, Response: (*news.Entry)(nil), Status: http.StatusCreated},
	"PUT /news/{newsId}":    {Summary: "Change a news entry.", Request: entryBody{}, Response: (*news.Entry)(nil)},
	"DELETE /news/{newsId}": {Summary: "Delete a news entry."},
}
