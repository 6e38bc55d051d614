package httpapi

import (
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/license"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"GET /license/terms": {Summary: "The license terms.", Response: license.Terms{}},
}
