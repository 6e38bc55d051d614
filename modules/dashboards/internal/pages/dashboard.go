package pages

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// dashboardPage draws /dashboard/{dashboardId}.
func (p *Pages) dashboardPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	d, err := p.guard.PathDashboard(r, false)
	if err != nil {
		return err
	}
	v := web.ViewerFrom(ctx)
	manage := v.Caller.CanManageCompany(d.CompanyID)
	// Those who manage the company are the roles of the routes behind the
	// function buttons that act: running scripts, writing a node's values,
	// queueing its downlinks (AdminOrCompanyAdmin of its company).
	dp := dashboardProps{DashboardID: d.ID, CompanyID: d.CompanyID, CanEdit: manage, CanRun: manage,
		TileURL: p.tileURL, Lang: v.Lang, TimeZone: ui.Location(ctx).String(), Name: d.Name}
	return p.ui.Render(w, r, http.StatusOK, "dashboards.page.dashboard.title", dashboardView(d.Name, props(dp), false), ui.Options{Islands: true})
}

// publicPage draws /public/{token} for anyone with the link; an unknown,
// removed or expired link gets a page that says so.
func (p *Pages) publicPage(w http.ResponseWriter, r *http.Request) error {
	token := r.PathValue("token")
	view, err := p.guard.PublicView(r.Context(), token)
	if errs.Is(err, errs.NotFound) {
		return p.ui.Render(w, r, http.StatusNotFound, "dashboards.page.public.title", publicGoneView())
	}
	if err != nil {
		return err
	}
	v := web.ViewerFrom(r.Context())
	// A visitor sees the times of the company that shares the dashboard.
	if loc, ok := accounts.LoadZone(view.Company.Timezone); ok {
		v.Location = loc
	}
	dp := dashboardProps{DashboardID: view.Dashboard.ID, CompanyID: view.Dashboard.CompanyID, PublicToken: &token,
		TileURL: p.tileURL, Lang: v.Lang, TimeZone: v.Location.String(), Name: view.Dashboard.Name}
	w.Header().Set("Referrer-Policy", "no-referrer") // the address holds the token
	return p.ui.Render(w, r, http.StatusOK, "dashboards.page.public.title", dashboardView(view.Dashboard.Name, props(dp), true), ui.Options{Islands: true})
}
