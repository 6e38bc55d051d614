package httpapi

import (
	"net/http"
	"strconv"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/dashboards"
)

// Function buttons: the SCRIPT kind runs its script through this module,
// which checks the caller's role and company first. The other kinds use the
// routes of what they change (a node's tag data, the downlink queue) or
// none (opening a dashboard), so that those routes' rules apply as they are.

// pressWidget answers POST /dashboards/modules/{moduleId}/press: the
// module's invoked script runs now, for real. 200 with what it returned
// ({result, error}: a script that failed is an answer, not a failed call);
// 400 dashboards.press.notScript for any other module; 503
// dashboards.press.noScripts while no script engine is registered. There is
// no public form of the route: a public link never runs anything.
func (a *API) pressWidget(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	wd, d, err := a.guard.PathWidget(r, true)
	if err != nil {
		return err
	}
	scriptID, ok := scriptOf(wd)
	if !ok {
		return errs.New(errs.Invalid, dashboards.IDPressNotScript)
	}
	run, err := a.scripts.Run(ctx, d.CompanyID, scriptID)
	if err != nil {
		return err
	}
	a.announce(ctx, d.CompanyID, dashboards.AuditWidgetPressed, map[string]any{"name": d.Name, "title": wd.Title}, nil, nil)
	return web.OK(w, run)
}

// scriptOf returns the script a function button of the SCRIPT kind runs.
func scriptOf(wd *dashboards.Widget) (int64, bool) {
	if wd.Type != dashboards.TypeFunction || wd.Attributes["function_type"] != strconv.Itoa(dashboards.FunctionScript) {
		return 0, false
	}
	id, err := strconv.ParseInt(wd.Attributes["scriptid"], 10, 64)
	return id, err == nil && id > 0
}

// companyScripts answers GET /dashboards/scripts/{companyId}: the company's
// invoked scripts [{id, name}], which a SCRIPT button may run.
func (a *API) companyScripts(w http.ResponseWriter, r *http.Request) error {
	id, err := a.guard.PathCompany(r, true)
	if err != nil {
		return err
	}
	list, err := a.scripts.Invoked(r.Context(), id)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}
