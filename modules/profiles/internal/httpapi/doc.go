package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/profiles"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"GET /companies/{companyId}/profiles":  {Summary: "The device profiles a company can use, with how many of its nodes use each (companyId 0: the installation's).", Response: []*profiles.Profile(nil)},
	"POST /companies/{companyId}/profiles": {Summary: "Create a device profile for a company (companyId 0: for the installation).", Request: profiles.Input{}, Response: (*profiles.Profile)(nil), Status: http.StatusCreated},
	"POST /profiles/from-model":            {Summary: "Create a device profile from a model of the device catalog.", Request: profiles.FromModel{}, Response: (*profiles.Profile)(nil), Status: http.StatusCreated},
	"GET /profiles/{profileId}":            {Summary: "A device profile.", Response: (*profiles.Profile)(nil)},
	"PUT /profiles/{profileId}":            {Summary: "Change a device profile; its nodes keep their settings until it is applied.", Request: profiles.Input{}, Response: (*profiles.Profile)(nil)},
	"DELETE /profiles/{profileId}":         {Summary: "Delete a device profile."},
	"POST /profiles/{profileId}/apply":     {Summary: "Apply a device profile's settings to the nodes that use it.", Response: profiles.Applied{}},
}
