package httpapi

import (
	"encoding/json"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"GET /settings":                     {Summary: "The signed-in user's settings.", Response: (map[string]any)(nil)},
	"POST /settings":                    {Summary: "Change the signed-in user's settings.", Request: (map[string]json.RawMessage)(nil), Response: (map[string]any)(nil)},
	"GET /settings/global":              {Summary: "The installation's settings.", Response: (map[string]any)(nil)},
	"POST /settings/global":             {Summary: "Change the installation's settings.", Request: (map[string]json.RawMessage)(nil), Response: (map[string]any)(nil)},
	"GET /settings/global/logo":         {Summary: "The installation's logo (the file).", ContentType: "image/*"},
	"POST /settings/global/logo":        {Summary: "Upload the installation's logo (the image file as the body).", RequestType: "image/*", Response: (map[string]string)(nil)},
	"DELETE /settings/global/logo":      {Summary: "Remove the installation's logo."},
	"GET /settings/company/fields":      {Summary: "The company settings that exist, with their types.", Response: ([]field)(nil)},
	"GET /settings/company/{companyId}": {Summary: "A company's settings.", Response: (map[string]any)(nil)},
	"PUT /settings/company/{companyId}": {Summary: "Change a company's settings.", Request: (map[string]json.RawMessage)(nil), Response: (map[string]any)(nil)},
}
