// Package httpapi answers the dashboards module's JSON routes under /api:
// the category tree, dashboards and their defaults, modules and their
// pictures, the data modules read, and public links with the read-only
// routes they open (docs/api/dashboards.md).
package httpapi

import (
	"net/http"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/access"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/alarmstate"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/scriptsource"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/validate"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/weather"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/widgetdata"
)

// API holds what the routes use.
type API struct {
	host    *kernel.Host
	db      *bun.DB
	guard   *access.Guard
	check   *validate.Checker
	data    *widgetdata.Reader
	weather *weather.Client
	alarms  *alarmstate.Source
	scripts *scriptsource.Source
}

// Deps is what the routes need; every field is required.
type Deps struct {
	// Guard loads what a path names within the caller's reach.
	Guard *access.Guard
	// Check checks the modules the routes are given.
	Check *validate.Checker
	// Data reads the data of modules.
	Data *widgetdata.Reader
	// Weather fetches the weather modules' forecasts.
	Weather *weather.Client
	// Alarms answers the states of the alarms modules name.
	Alarms *alarmstate.Source
	// Scripts runs the scripts of function buttons.
	Scripts *scriptsource.Source
}

// New returns the API of the module on host.
func New(host *kernel.Host, deps Deps) *API {
	return &API{host: host, db: host.DB, guard: deps.Guard, check: deps.Check, data: deps.Data, weather: deps.Weather, alarms: deps.Alarms, scripts: deps.Scripts}
}

// Routes registers the routes of docs/api/dashboards.md.
//
// Go's ServeMux refuses a pattern that overlaps another without being more
// or less specific than it, and the API's paths do that in pairs such as
// GET /dashboards/categories/{id} and GET /dashboards/{id}/modules (both
// match /dashboards/categories/modules). The routes that name a dashboard
// first are therefore registered once per method as /dashboards/{id}/{part},
// which the literal routes beside them are more specific than, and answer
// for their known parts; the same holds for POST
// /dashboards/modules/{id}/{part} beside POST /dashboards/modules/copy/{id}.
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("GET /dashboards/categories/{companyId}", auth.CompanyOrUser, a.categoryTree)
	r.API("POST /dashboards/categories/{companyId}", auth.AdminOrCompanyAdmin, a.createCategory)
	r.API("PUT /dashboards/categories/indexes", auth.AdminOrCompanyAdmin, a.saveIndexes)
	r.API("PUT /dashboards/categories/{categoryId}", auth.AdminOrCompanyAdmin, a.updateCategory)
	r.API("DELETE /dashboards/categories/{categoryId}", auth.AdminOrCompanyAdmin, a.deleteCategory)

	r.API("GET /companies/{companyId}/dashboards", auth.CompanyOrUser, a.companyDashboards)
	// The invoked scripts a function button may run, for its editor.
	r.API("GET /dashboards/scripts/{companyId}", auth.AdminOrCompanyAdmin, a.companyScripts)
	r.API("POST /dashboards", auth.AdminOrCompanyAdmin, a.createDashboard)
	r.API("POST /dashboards/create/{companyId}", auth.SuperAdminOnly, a.createDashboardFor)
	r.API("GET /dashboards/default", auth.CompanyOrUser, a.defaultDashboard)
	r.API("GET /dashboards/{dashboardId}", auth.CompanyOrUser, a.getDashboard)
	r.API("PUT /dashboards/{dashboardId}", auth.AdminOrCompanyAdmin, a.updateDashboard)
	r.API("DELETE /dashboards/{dashboardId}", auth.AdminOrCompanyAdmin, a.deleteDashboard)
	// GET /dashboards/{id}/modules.
	r.API("GET /dashboards/{dashboardId}/{part}", auth.CompanyOrUser, a.parts(map[string]web.HandlerFunc{"modules": a.listWidgets}))
	// POST /dashboards/{id}/duplicate and /dashboards/{id}/modules.
	r.API("POST /dashboards/{dashboardId}/{part}", auth.AdminOrCompanyAdmin, a.parts(map[string]web.HandlerFunc{"duplicate": a.duplicateDashboard, "modules": a.createWidget}))
	// PUT and DELETE /dashboards/{id}/default: a User sets their own.
	r.API("PUT /dashboards/{dashboardId}/{part}", auth.CompanyOrUser, a.parts(map[string]web.HandlerFunc{"default": a.setDefault}))
	r.API("DELETE /dashboards/{dashboardId}/{part}", auth.CompanyOrUser, a.parts(map[string]web.HandlerFunc{"default": a.clearDefault}))

	r.API("PUT /dashboards/modules/multiple", auth.AdminOrCompanyAdmin, a.updateWidgets)
	r.API("GET /dashboards/modules/{moduleId}", auth.CompanyOrUser, a.getWidget)
	r.API("PUT /dashboards/modules/{moduleId}", auth.AdminOrCompanyAdmin, a.updateWidget)
	r.API("DELETE /dashboards/modules/{moduleId}", auth.AdminOrCompanyAdmin, a.deleteWidget)
	r.API("POST /dashboards/modules/copy/{moduleId}", auth.AdminOrCompanyAdmin, a.copyWidget)
	// POST /dashboards/modules/{id}/image, and /press: a function button of
	// the SCRIPT kind pressed, which runs its script, so the roles that may
	// run scripts.
	r.API("POST /dashboards/modules/{moduleId}/{part}", auth.AdminOrCompanyAdmin, a.parts(map[string]web.HandlerFunc{"image": a.putWidgetImage, "press": a.pressWidget}), web.MaxBody(web.ImageBodyLimit))
	r.API("GET /dashboards/modules/{moduleId}/image", auth.CompanyOrUser, a.getWidgetImage)
	r.API("DELETE /dashboards/modules/{moduleId}/image", auth.AdminOrCompanyAdmin, a.deleteWidgetImage)
	r.API("GET /dashboards/modules/{moduleId}/tagdata", auth.CompanyOrUser, a.widgetData(a.tagData))
	r.API("GET /dashboards/modules/{moduleId}/tagdata/latest", auth.CompanyOrUser, a.widgetData(a.latestData))
	r.API("GET /dashboards/modules/{moduleId}/info", auth.CompanyOrUser, a.widgetData(a.infoData))
	r.API("GET /dashboards/modules/{moduleId}/weather", auth.CompanyOrUser, a.widgetData(a.weatherData))
	r.API("GET /dashboards/modules/{moduleId}/alarm", auth.CompanyOrUser, a.widgetData(a.alarmData))

	r.API("POST /dashboards/public/{companyId}/{dashboardId}/{expiresAt}", auth.AdminOrCompanyAdmin, a.createPublicLink)
	r.API("GET /dashboards/public/company/{companyId}", auth.AdminOrCompanyAdmin, a.companyPublicLinks)
	r.API("DELETE /dashboards/public/{publicId}", auth.AdminOrCompanyAdmin, a.deletePublicLink)
	r.API("GET /dashboards/public/{token}", auth.Open, a.publicDashboard)
	r.API("GET /dashboards/public/{token}/modules/{moduleId}/tagdata", auth.Open, a.publicData(a.tagData))
	r.API("GET /dashboards/public/{token}/modules/{moduleId}/tagdata/latest", auth.Open, a.publicData(a.latestData))
	r.API("GET /dashboards/public/{token}/modules/{moduleId}/info", auth.Open, a.publicData(a.infoData))
	r.API("GET /dashboards/public/{token}/modules/{moduleId}/weather", auth.Open, a.publicData(a.weatherData))
	r.API("GET /dashboards/public/{token}/modules/{moduleId}/alarm", auth.Open, a.publicData(a.alarmData))
	r.API("GET /dashboards/public/{token}/modules/{moduleId}/image", auth.Open, a.publicImage)
}

// parts answers a /{part} route with the handler of its part; other parts
// are not found.
func (a *API) parts(handlers map[string]web.HandlerFunc) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		h, ok := handlers[r.PathValue("part")]
		if !ok {
			return errNotFound
		}
		return h(w, r)
	}
}

var errNotFound = errs.New(errs.NotFound, errs.IDNotFound)
