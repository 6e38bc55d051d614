package tagdata

import (
	"github.com/fieldhub/fieldhub/kernel/web"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"GET /tag/tagdata":                                {Summary: "Stored uplinks across the caller's nodes, filtered by the query.", Response: ([]TagDatum)(nil), Query: []string{"key", "max"}},
	"GET /tag/latest/{tagId}/{key}":                   {Summary: "A node's latest value of a key.", Response: TagDatum{}},
	"GET /tag/{tagId}/{view}/{key}":                   {Summary: "A node's series of a key over a time range ({view} is \"trend\").", Response: Trend{}, Query: []string{"tz", "resolution"}},
	"GET /tag/{tagId}/currents":                       {Summary: "A node's latest value of every key.", Response: ([]TagDatum)(nil)},
	"GET /companies/{companyId}/tagdata":              {Summary: "A company's stored uplinks, filtered and paged by the query.", Response: ([]TagDatum)(nil), Query: []string{"deveui", "key", "max"}},
	"GET /companies/{companyId}/tagdata/count":        {Summary: "How many stored uplinks match the query.", Response: DataCount{}},
	"GET /companies/{companyId}/defaults":             {Summary: "The latest value of each node's default key.", Response: ([]TagDatum)(nil)},
	"GET /companies/{companyId}/latesttagdata":        {Summary: "Each node's latest uplink.", Response: ([]TagDatum)(nil)},
	"GET /companies/{companyId}/datapointsweek":       {Summary: "Data points per day over the last week.", Response: ([]DataCount)(nil), Query: []string{"tz"}},
	"GET /companies/{companyId}/datapointsday":        {Summary: "Data points per hour over the last day.", Response: ([]DataCount)(nil)},
	"GET /companies/{companyId}/sensordatapoints/day": {Summary: "Data points per node over the last day.", Response: ([]NodeCount)(nil)},
	"GET /companies/{companyId}/tag/activity":         {Summary: "When each node was last heard.", Response: ([]NodeActivity)(nil)},
	"GET /companies/{companyId}/tag/batteries":        {Summary: "Each node's battery level.", Response: ([]NodeBattery)(nil)},
}
