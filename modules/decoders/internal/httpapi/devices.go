package httpapi

import (
	"fmt"
	"io"
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/decoding"
)

// deviceRoutes registers the device repository's routes: its catalog, which
// every company's admins read (the codecs are every company's), and its
// import, the SuperAdmin's.
func (a *API) deviceRoutes(r *web.ModuleRoutes) {
	r.API("GET /devices", auth.AdminOrCompanyAdmin, a.deviceCatalog)
	r.API("GET /devices/{vendorId}/{modelId}", auth.AdminOrCompanyAdmin, a.deviceDetails)
	r.API("POST /devices/import", auth.SuperAdminOnly, a.importDevices, web.MaxBody(decoding.MaxArchive))
}

// deviceCatalog answers GET /api/devices[?q=]: the imported vendors with
// their models, and the codecs with their active version's example
// results; q keeps the models whose vendor, name or description match it
// (decoders.DeviceCatalog.Search).
func (a *API) deviceCatalog(w http.ResponseWriter, r *http.Request) error {
	cat, err := a.svc.DeviceCatalog(r.Context())
	if err != nil {
		return err
	}
	return web.OK(w, cat.Search(r.URL.Query().Get("q")))
}

// deviceDetails answers GET /api/devices/{vendorId}/{modelId}: the model
// with its vendor and its codecs' example results.
func (a *API) deviceDetails(w http.ResponseWriter, r *http.Request) error {
	d, err := a.svc.DeviceDetails(r.Context(), r.PathValue("vendorId"), r.PathValue("modelId"))
	if err != nil {
		return err
	}
	return web.OK(w, d)
}

// importDevices answers POST /api/devices/import, whose body is a .tar.gz
// or .zip archive of the repository (or its vendor folder): the report.
func (a *API) importDevices(w http.ResponseWriter, r *http.Request) error {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return fmt.Errorf("read the archive: %w", err)
	}
	report, err := a.svc.ImportArchive(r.Context(), data)
	if err != nil {
		return err
	}
	return web.OK(w, report)
}
