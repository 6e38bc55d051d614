package core

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Accounts is the part of accounts.Service the module asks: a company's
// facts (the company info module, the public page's name, the footer).
type Accounts interface {
	Company(ctx context.Context, id int64) (*accounts.Company, error)
}

// Nodes is the part of nodes.Service the module asks: which nodes a company
// has, for module validation and the node info modules, and a node's keys
// with their labels, units and default flag, for the series.
type Nodes interface {
	TagByDevEUI(ctx context.Context, deveui string) (*nodes.Tag, error)
	CompanyTags(ctx context.Context, companyID int64) ([]*nodes.Tag, error)
	TagKeys(ctx context.Context, tagID int64) ([]nodes.Key, error)
}

// Series reads stored tag data; tsdb.Store satisfies it.
type Series interface {
	Range(ctx context.Context, s tsdb.Series, from, to time.Time, maxPoints int) ([]tsdb.Point, error)
	Latest(ctx context.Context, s tsdb.Series) (tsdb.Point, bool, error)
	Aggregate(ctx context.Context, s tsdb.Series, from, to time.Time, bucket time.Duration) ([]tsdb.Bucket, error)
	CountByNode(ctx context.Context, company int64, from, to time.Time) (map[string]int64, error)
}

// GlobalSettings reads the global settings (powered_by for the chooser's
// footer).
type GlobalSettings interface {
	Global(ctx context.Context) (map[string]string, error)
}

// Deps are the module's dependencies; see dashboards.Deps.
type Deps struct {
	Accounts Accounts
	Nodes    Nodes
	Series   Series
	Settings GlobalSettings // nil: the footer shows the company's name
	UI       *ui.Env        // nil: no pages
	HTTP     *http.Client   // for the weather services; nil: a client with a 10 s timeout
}

// Module is the dashboards module.
type Module struct {
	host    *kernel.Host
	db      *bun.DB
	log     *slog.Logger
	deps    Deps
	ui      *ui.Env
	store   store
	weather *weatherClient
}

// New builds the module; with a UI it adds the Dashboard menu entry.
func New(host *kernel.Host, deps Deps) *Module {
	m := &Module{host: host, db: host.DB, log: host.Logger("dashboards"), deps: deps, ui: deps.UI}
	m.weather = newWeatherClient(host.Config, deps.HTTP, m.log)
	if m.ui != nil {
		host.Router.AddMenuItem(menuItem)
	}
	return m
}

// Name names the module.
func (m *Module) Name() string { return "dashboards" }

// Routes registers SPEC.md section 7 "Dashboards" and "Modules" as
// docs/api/dashboards.md describes them.
//
// Go's ServeMux refuses a pattern that overlaps another without being more
// or less specific than it, and SPEC.md's paths do that in pairs such as
// GET /dashboards/categories/{id} and GET /dashboards/{id}/modules (both
// match /dashboards/categories/modules). The routes that name a dashboard
// first are therefore registered once per method as /dashboards/{id}/{part},
// which the literal routes beside them are more specific than, and answer
// for their known parts; the same holds for POST
// /dashboards/modules/{id}/{part} beside POST /dashboards/modules/copy/{id}.
func (m *Module) Routes(r *web.ModuleRoutes) {
	r.API("GET /dashboards/categories/{companyId}", auth.CompanyOrUser, m.categoryTree)
	r.API("POST /dashboards/categories/{companyId}", auth.AdminOrCompanyAdmin, m.createCategory)
	r.API("PUT /dashboards/categories/indexes", auth.AdminOrCompanyAdmin, m.saveIndexes)
	r.API("PUT /dashboards/categories/{categoryId}", auth.AdminOrCompanyAdmin, m.updateCategory)
	r.API("DELETE /dashboards/categories/{categoryId}", auth.AdminOrCompanyAdmin, m.deleteCategory)

	r.API("GET /companies/{companyId}/dashboards", auth.CompanyOrUser, m.companyDashboards)
	r.API("POST /dashboards", auth.AdminOrCompanyAdmin, m.createDashboard)
	r.API("POST /dashboards/create/{companyId}", auth.SuperAdminOnly, m.createDashboardFor)
	r.API("GET /dashboards/default", auth.CompanyOrUser, m.defaultDashboard)
	r.API("GET /dashboards/{dashboardId}", auth.CompanyOrUser, m.getDashboard)
	r.API("PUT /dashboards/{dashboardId}", auth.AdminOrCompanyAdmin, m.updateDashboard)
	r.API("DELETE /dashboards/{dashboardId}", auth.AdminOrCompanyAdmin, m.deleteDashboard)
	// GET /dashboards/{id}/modules.
	r.API("GET /dashboards/{dashboardId}/{part}", auth.CompanyOrUser, m.parts(map[string]web.HandlerFunc{"modules": m.listWidgets}))
	// POST /dashboards/{id}/duplicate and /dashboards/{id}/modules.
	r.API("POST /dashboards/{dashboardId}/{part}", auth.AdminOrCompanyAdmin, m.parts(map[string]web.HandlerFunc{"duplicate": m.duplicateDashboard, "modules": m.createWidget}))
	// PUT and DELETE /dashboards/{id}/default: a User sets their own.
	r.API("PUT /dashboards/{dashboardId}/{part}", auth.CompanyOrUser, m.parts(map[string]web.HandlerFunc{"default": m.setDefault}))
	r.API("DELETE /dashboards/{dashboardId}/{part}", auth.CompanyOrUser, m.parts(map[string]web.HandlerFunc{"default": m.clearDefault}))

	r.API("PUT /dashboards/modules/multiple", auth.AdminOrCompanyAdmin, m.updateWidgets)
	r.API("GET /dashboards/modules/{moduleId}", auth.CompanyOrUser, m.getWidget)
	r.API("PUT /dashboards/modules/{moduleId}", auth.AdminOrCompanyAdmin, m.updateWidget)
	r.API("DELETE /dashboards/modules/{moduleId}", auth.AdminOrCompanyAdmin, m.deleteWidget)
	r.API("POST /dashboards/modules/copy/{moduleId}", auth.AdminOrCompanyAdmin, m.copyWidget)
	// POST /dashboards/modules/{id}/image.
	r.API("POST /dashboards/modules/{moduleId}/{part}", auth.AdminOrCompanyAdmin, m.parts(map[string]web.HandlerFunc{"image": m.putWidgetImage}), web.MaxBody(web.ImageBodyLimit))
	r.API("GET /dashboards/modules/{moduleId}/image", auth.CompanyOrUser, m.getWidgetImage)
	r.API("DELETE /dashboards/modules/{moduleId}/image", auth.AdminOrCompanyAdmin, m.deleteWidgetImage)
	r.API("GET /dashboards/modules/{moduleId}/tagdata", auth.CompanyOrUser, m.widgetData(m.tagData))
	r.API("GET /dashboards/modules/{moduleId}/tagdata/latest", auth.CompanyOrUser, m.widgetData(m.latestData))
	r.API("GET /dashboards/modules/{moduleId}/info", auth.CompanyOrUser, m.widgetData(m.infoData))
	r.API("GET /dashboards/modules/{moduleId}/weather", auth.CompanyOrUser, m.widgetData(m.weatherData))

	r.API("POST /dashboards/public/{companyId}/{dashboardId}/{expiresAt}", auth.AdminOrCompanyAdmin, m.createPublicLink)
	r.API("GET /dashboards/public/company/{companyId}", auth.AdminOrCompanyAdmin, m.companyPublicLinks)
	r.API("DELETE /dashboards/public/{publicId}", auth.AdminOrCompanyAdmin, m.deletePublicLink)
	r.API("GET /dashboards/public/{token}", auth.Open, m.publicDashboard)
	r.API("GET /dashboards/public/{token}/modules/{moduleId}/tagdata", auth.Open, m.publicData(m.tagData))
	r.API("GET /dashboards/public/{token}/modules/{moduleId}/tagdata/latest", auth.Open, m.publicData(m.latestData))
	r.API("GET /dashboards/public/{token}/modules/{moduleId}/info", auth.Open, m.publicData(m.infoData))
	r.API("GET /dashboards/public/{token}/modules/{moduleId}/weather", auth.Open, m.publicData(m.weatherData))
	r.API("GET /dashboards/public/{token}/modules/{moduleId}/image", auth.Open, m.publicImage)

	if m.ui != nil {
		m.pageRoutes(r)
	}
}

// parts answers a /{part} route with the handler of its part; other parts
// are not found.
func (m *Module) parts(handlers map[string]web.HandlerFunc) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		h, ok := handlers[r.PathValue("part")]
		if !ok {
			return errNotFound
		}
		return h(w, r)
	}
}

var errNotFound = errs.New(errs.NotFound, errs.IDNotFound)

// scoped checks that the caller may see (and, with manage, change) what
// belongs to companyID. Another company's things are not found, so that
// ids reveal nothing.
func scoped(ctx context.Context, companyID int64, manage bool) error {
	c := auth.CallerFrom(ctx)
	if !c.CanSeeCompany(companyID) {
		return errNotFound
	}
	if manage && !c.CanManageCompany(companyID) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	return nil
}

// pathCompany returns the path's companyId if the caller may see (and,
// with manage, change) that company and it exists.
func (m *Module) pathCompany(r *http.Request, manage bool) (int64, error) {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return 0, err
	}
	if err := scoped(r.Context(), id, manage); err != nil {
		return 0, err
	}
	if _, err := m.deps.Accounts.Company(r.Context(), id); err != nil {
		return 0, err
	}
	return id, nil
}

// callerCompany is the company a call without a company in its path acts
// for: the caller's own; a SuperAdmin's ?companyId=, else the company
// chosen in the switcher, else their own.
func (m *Module) callerCompany(r *http.Request) (int64, error) {
	c := auth.CallerFrom(r.Context())
	id := c.CompanyID
	if c.Role == auth.SuperAdmin {
		raw := r.URL.Query().Get("companyId")
		if raw == "" {
			if ck, err := r.Cookie(accounts.CompanyCookie); err == nil {
				raw = ck.Value
			}
		}
		if raw != "" {
			n, err := strconv.ParseInt(raw, 10, 64)
			if err != nil || n <= 0 {
				return 0, errs.New(errs.Invalid, errs.IDBadID).With("id", raw)
			}
			id = n
		}
	}
	if id == 0 {
		return 0, errs.New(errs.Invalid, msgNoCompany)
	}
	if _, err := m.deps.Accounts.Company(r.Context(), id); err != nil {
		return 0, err
	}
	return id, nil
}

// pathDashboard loads the path's dashboard within the caller's reach.
func (m *Module) pathDashboard(r *http.Request, manage bool) (*Dashboard, error) {
	id, err := web.PathID(r, "dashboardId")
	if err != nil {
		return nil, err
	}
	return m.scopedDashboard(r.Context(), id, manage)
}

func (m *Module) scopedDashboard(ctx context.Context, id int64, manage bool) (*Dashboard, error) {
	d, err := m.store.dashboard(ctx, m.db, id)
	if err != nil {
		return nil, err
	}
	if err := scoped(ctx, d.CompanyID, manage); err != nil {
		return nil, err
	}
	return d, nil
}

// pathWidget loads the path's module and its dashboard within the caller's
// reach.
func (m *Module) pathWidget(r *http.Request, manage bool) (*Widget, *Dashboard, error) {
	id, err := web.PathID(r, "moduleId")
	if err != nil {
		return nil, nil, err
	}
	w, err := m.store.widget(r.Context(), m.db, id)
	if err != nil {
		return nil, nil, err
	}
	d, err := m.scopedDashboard(r.Context(), w.DashboardID, manage)
	if err != nil {
		return nil, nil, err
	}
	return w, d, nil
}

// pathCategory loads the path's category within the caller's reach.
func (m *Module) pathCategory(r *http.Request, manage bool) (*Category, error) {
	id, err := web.PathID(r, "categoryId")
	if err != nil {
		return nil, err
	}
	c, err := m.store.category(r.Context(), m.db, id)
	if err != nil {
		return nil, err
	}
	if err := scoped(r.Context(), c.CompanyID, manage); err != nil {
		return nil, err
	}
	return c, nil
}
