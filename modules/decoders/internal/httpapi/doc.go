package httpapi

import (
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/decoding"
	"net/http"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"GET /devices":                         {Summary: "The device catalog: vendors, models and their codecs.", Response: (*decoders.DeviceCatalog)(nil)},
	"GET /devices/{vendorId}/{modelId}":    {Summary: "A model of the device catalog, with its vendor and codecs.", Response: (*decoders.DeviceDetails)(nil)},
	"POST /devices/import":                 {Summary: "Import device definitions into the catalog from an archive of the device repository (or one vendor folder), .tar.gz or .zip, as the body.", RequestType: "application/octet-stream", Response: (*decoders.ImportReport)(nil)},
	"GET /decoder":                         {Summary: "The decoders a caller may choose for a node.", Response: ([]decoders.Entry)(nil)},
	"POST /decoder/test":                   {Summary: "Run a codec on a payload and answer the decoded values.", Request: decoding.TestInput{}, Response: decoders.TestResult{}},
	"GET /companies/{companyId}/decoders":  {Summary: "A company's own decoders.", Response: ([]decoders.Decoder)(nil)},
	"POST /companies/{companyId}/decoders": {Summary: "Create a company decoder.", Request: decoding.DecoderInput{}, Response: (*decoders.Decoder)(nil), Status: http.StatusCreated},
	"GET /decoders/{decoderId}":            {Summary: "One decoder with its versions.", Response: (*decoders.Decoder)(nil)},
	"PUT /decoders/{decoderId}": {Summary: "Rename or describe a decoder.", Request: struct {
		Name *string `json:"name"`
	}{}, Response: (*decoders.Decoder)(nil)},
	"DELETE /decoders/{decoderId}":                           {Summary: "Delete a decoder."},
	"POST /decoders/{decoderId}/versions":                    {Summary: "Add a version of a decoder's code.", Request: decoding.VersionInput{}, Response: (*decoders.Version)(nil), Status: http.StatusCreated},
	"GET /decoders/{decoderId}/versions/{version}":           {Summary: "One version of a decoder's code.", Response: (*decoders.Version)(nil)},
	"POST /decoders/{decoderId}/versions/{version}/activate": {Summary: "Make a version the one that decodes.", Response: (*decoders.Decoder)(nil)},
	"POST /decoders/{decoderId}/switch-on":                   {Summary: "Switch a decoder back on after it was switched off for failing.", Response: (*decoders.Decoder)(nil)},
	"GET /companies/{companyId}/decoders/limits":             {Summary: "A company's decoder limits (time and memory per call).", Response: decoders.LimitsView{}},
	"PUT /companies/{companyId}/decoders/limits":             {Summary: "Set a company's decoder limits.", Request: decoding.LimitsInput{}, Response: decoders.LimitsView{}},
	"DELETE /companies/{companyId}/decoders/limits":          {Summary: "Return a company's decoder limits to the installation's.", Response: decoders.LimitsView{}},
}
