package httpapi

import (
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/news"
	"net/http"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"GET /news": {Summary: "The installation's news and the external feed.", Response: listAnswer{}},
	"POST /news": {Summary: "Publish a news entry.", Request: entryBody{}, Response: (*news.Entry)(nil), Status: http.StatusCreated,
		Example: web.Example{Request: `{"title": "Maintenance on Sunday", "body": "The portal is down 02:00-03:00 UTC.", "publishedAt": "2026-11-29T00:00:00Z"}`, Response: `{"id": 7, "title": "Maintenance on Sunday", "body": "The portal is down 02:00-03:00 UTC.", "publishedAt": "2026-11-29T00:00:00Z", "createdAt": "2026-11-27T15:00:00Z", "updatedAt": "2026-11-27T15:00:00Z"}`}},
	"PUT /news/{newsId}":    {Summary: "Change a news entry.", Request: entryBody{}, Response: (*news.Entry)(nil)},
	"DELETE /news/{newsId}": {Summary: "Delete a news entry."},
}
