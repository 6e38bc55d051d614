package httpapi

import (
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/logs"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"GET /logs":             {Summary: "The activity log, filtered by the query.", Response: ([]logs.Entry)(nil), Query: []string{"companyId", "type", "deveui", "limit"}},
	"GET /logs/activeusers": {Summary: "How many users were active, per day.", Response: logs.ActiveUsers{}, Query: []string{"companyId"}},
	"GET /logs/datapoints":  {Summary: "How many data points arrived, per day.", Response: logs.DataPoints{}, Query: []string{"companyId"}},
}
