package httpapi

import (
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/bulk"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
	"net/http"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"POST /companies/{companyId}/nodes/import": {Summary: "Check (dryRun, the default) or write a file of nodes: CSV text or an XLSX workbook.",
		Description: "The file is the multipart field file, or the request body itself (text/csv or the workbook). dryRun=false writes every row in one transaction unless a row is refused: then nothing is written and the answer is 400 with the same report. docs/api/nodes-import.md has the columns and the errors.",
		RequestType: "multipart/form-data", Query: []string{"dryRun"}, Response: (*bulk.Report)(nil)},
	"GET /companies/{companyId}/nodes/export": {Summary: "The company's nodes in the import's columns, as an attachment: format=xlsx (the default) or csv.",
		Query: []string{"format"}, ContentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"},
	"POST /applications/{companyId}": {Summary: "Create an application in a company.", Request: registry.ApplicationInput{}, Response: (*nodes.Application)(nil), Status: http.StatusCreated,
		Example: web.Example{Request: `{"name": "Greenhouses", "networkServer": "chirpstack", "chirpstackApplicationId": "b3f1c0de-1111-2222-3333-444455556666"}`, Response: `{"id": 4, "companyId": 3, "name": "Greenhouses", "networkServer": "chirpstack", "chirpstackApplicationId": "b3f1c0de-1111-2222-3333-444455556666", "ttsDownlinkUrl": "", "ttsApiKeySet": false, "createdAt": "2026-11-27T15:00:00Z", "updatedAt": "2026-11-27T15:00:00Z"}`}},
	"GET /applications/{applicationId}":       {Summary: "One application.", Response: (*nodes.Application)(nil)},
	"PUT /applications/{applicationId}":       {Summary: "Change an application.", Request: registry.ApplicationInput{}, Response: (*nodes.Application)(nil)},
	"DELETE /applications/{applicationId}":    {Summary: "Delete an application."},
	"GET /companies/{companyId}/applications": {Summary: "A company's applications.", Response: ([]nodes.Application)(nil)},
	"GET /companies/{companyId}/tags":         {Summary: "A company's nodes.", Response: ([]*nodes.Tag)(nil)},
	"GET /tag":                                {Summary: "The nodes the caller may see.", Response: ([]*nodes.Tag)(nil), Query: []string{"companyId"}},
	"POST /applications/{applicationId}/tag": {Summary: "Add a node to an application.", Request: registry.TagInput{}, Response: (*nodes.Tag)(nil), Status: http.StatusCreated,
		Example: web.Example{Request: `{"name": "Greenhouse 1 climate", "deveui": "0011223344556677", "lat": 59.33, "long": 18.06, "decoder": "elsys"}`}},
	"PUT /tag/{deveui}":               {Summary: "Change a node, named by its DevEUI.", Request: registry.TagInput{}, Response: (*nodes.Tag)(nil)},
	"GET /tag/{tagId}":                {Summary: "One node.", Response: (*nodes.Tag)(nil)},
	"DELETE /tag/{tagId}":             {Summary: "Delete a node."},
	"GET /tag/{scope}/{companyId}":    {Summary: "A company's nodes ({scope} is \"company\").", Response: ([]*nodes.Tag)(nil)},
	"GET /tag/{tagId}/keys":           {Summary: "A node's keys (the values it reports).", Response: ([]nodes.Key)(nil)},
	"GET /tag/{tagId}/image":          {Summary: "A node's picture (the file).", ContentType: "image/*"},
	"POST /tag/{tagId}/image":         {Summary: "Upload a node's picture (the image file as the body).", RequestType: "image/*", Response: (*nodes.Tag)(nil)},
	"DELETE /tag/{tagId}/image":       {Summary: "Remove a node's picture."},
	"POST /tag/{tagId}/default/{key}": {Summary: "Make a key the node's default.", Response: (*nodes.Key)(nil)},
	"POST /tag/{tagId}/move":          {Summary: "Move a node to another application.", Request: registry.MoveInput{}, Response: (*registry.MoveResult)(nil)},
	"POST /tag/key/add": {Summary: "Add a key to a node.", Request: registry.KeyInput{}, Response: (*nodes.Key)(nil), Status: http.StatusCreated,
		Example: web.Example{Request: `{"tagId": 21, "key": "co2", "label": "CO2", "unit": "ppm", "decimals": 0}`}},
	"POST /tag/key/update":                 {Summary: "Change a node's key (label, unit, scaling).", Request: registry.KeyInput{}, Response: (*nodes.Key)(nil)},
	"DELETE /tag/key/delete/{tagId}/{key}": {Summary: "Remove a key from a node."},
	"GET /tag/key/label/{tagId}/{key}":     {Summary: "A node's key with its label.", Response: (*nodes.Key)(nil)},
	"GET /tag/tagdata/keys/{companyId}":    {Summary: "Every key of a company's nodes.", Response: ([]nodes.Key)(nil)},
	"GET /tag/meta/{tagId}/tagdata":        {Summary: "A node's stored uplinks with their radio metadata.", Response: ([]registry.TagData)(nil)},
	"GET /tag/pool":                        {Summary: "Nodes heard but not registered (the pool).", Response: ([]nodes.PoolEntry)(nil), Query: []string{"status"}},
	"PUT /tag/pool/{poolId}": {Summary: "Change a pool entry's status (hide or show it).", Request: struct {
		Status string `json:"status"`
	}{}, Response: (*nodes.PoolEntry)(nil),
		Example: web.Example{Request: `{"status": "hidden"}`}},
	"GET /integration/tokens/{companyId}": {Summary: "A company's integration tokens (hints only; a token is shown once).", Response: ([]nodes.Token)(nil)},
	"POST /integration/tokens/{companyId}": {Summary: "Create an integration token; the answer holds the token, shown this once.", Request: registry.TokenInput{}, Response: (*nodes.Token)(nil), Status: http.StatusCreated,
		Example: web.Example{Request: `{"label": "ChirpStack webhook", "isCompany": true}`}},
	"DELETE /integration/tokens/{tokenId}": {Summary: "Revoke an integration token."},
}
