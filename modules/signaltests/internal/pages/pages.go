// Package pages draws the signal tests' pages: /signaltest, the list of
// the company's tests with the form that starts one, and
// /signaltest/peek/{testId}, a test's live map and points. Both are shells
// for islands (webapp/src/features/signaltests) that call the JSON routes.
package pages

import (
	"encoding/json"
	"net/http"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/signaltests/internal/store"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// menuItem is the "Field testing" entry of the side menu (SPEC.md section
// 2), for every role that works in a company, after Company.
var menuItem = web.MenuItem{ID: "signaltest", LabelID: "menu.signaltest", Href: "/signaltest", Icon: "mdi-signal-variant",
	Roles: auth.CompanyOrUser, Order: 60}

// Pages draws the module's pages.
type Pages struct {
	db      *bun.DB
	ui      *ui.Env
	tileURL string
}

// New returns the pages and adds the menu entry. tileURL is the map tile
// address of the dashboards' map modules (FIELDHUB_MAP_TILE_URL).
func New(host *kernel.Host, env *ui.Env, tileURL string) *Pages {
	host.Router.AddMenuItem(menuItem)
	return &Pages{db: host.DB, ui: env, tileURL: tileURL}
}

// Routes registers the pages.
func (p *Pages) Routes(r *web.ModuleRoutes) {
	r.Page("GET /signaltest", auth.CompanyOrUser, p.listPage)
	r.Page("GET /signaltest/peek/{testId}", auth.CompanyOrUser, p.peekPage)
}

// listProps are the props of the signal-tests island.
type listProps struct {
	CompanyID int64  `json:"companyId"`
	Lang      string `json:"lang"`
	TimeZone  string `json:"timeZone"`
}

// peekProps are the props of the signal-test-peek island.
type peekProps struct {
	TestID   int64  `json:"testId"`
	TileURL  string `json:"tileUrl"`
	Lang     string `json:"lang"`
	TimeZone string `json:"timeZone"`
}

func props(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}

// listPage draws /signaltest for the company the viewer works in.
func (p *Pages) listPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	v := web.ViewerFrom(ctx)
	company := v.CompanyID
	if company != 0 && !v.Caller.CanSeeCompany(company) {
		company = 0
	}
	lp := listProps{CompanyID: company, Lang: v.Lang, TimeZone: ui.Location(ctx).String()}
	return p.ui.Render(w, r, http.StatusOK, "signaltests.page.list.title", listView(company, props(lp)), ui.Options{Islands: true})
}

// peekPage draws /signaltest/peek/{testId}; a test of a company the
// viewer may not see is not found.
func (p *Pages) peekPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, err := web.PathID(r, "testId")
	if err != nil {
		return err
	}
	t, err := store.Get(ctx, p.db, id)
	if err != nil {
		return err
	}
	v := web.ViewerFrom(ctx)
	if !v.Caller.CanSeeCompany(t.CompanyID) {
		return errs.New(errs.NotFound, errs.IDNotFound)
	}
	pp := peekProps{TestID: t.ID, TileURL: p.tileURL, Lang: v.Lang, TimeZone: ui.Location(ctx).String()}
	return p.ui.Render(w, r, http.StatusOK, "signaltests.page.peek.title", peekView(t.TagName, t.Description, props(pp)), ui.Options{Islands: true})
}
