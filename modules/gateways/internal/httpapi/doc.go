package httpapi

import (
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/gateways"
	"net/http"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"POST /gateway/{applicationId}":            {Summary: "Add a gateway to an application.", Request: gateways.Input{}, Response: (*gateways.Gateway)(nil), Status: http.StatusCreated},
	"GET /gateway/{gatewayId}":                 {Summary: "One gateway with its statistics.", Response: (*gateways.Gateway)(nil)},
	"DELETE /gateway/{gatewayId}":              {Summary: "Delete a gateway."},
	"PUT /gateway/{gatewayId}/pos":             {Summary: "Set a gateway's position.", Request: gateways.Position{}, Response: (*gateways.Gateway)(nil)},
	"GET /gateway/company/{companyId}":         {Summary: "A company's gateways.", Response: ([]*gateways.Gateway)(nil)},
	"GET /gateway/company/{companyId}/unknown": {Summary: "Gateways that heard a company's nodes but are not registered.", Response: ([]gateways.Unknown)(nil)},
	"GET /gateway/geocode":                     {Summary: "The address at a position (reverse geocoding).", Response: gateways.Address{}},
}
