package httpapi

import (
	"context"
	"fmt"
	"net/http"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/store"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/validate"
)

// listWidgets answers GET /dashboards/{dashboardId}/modules.
func (a *API) listWidgets(w http.ResponseWriter, r *http.Request) error {
	d, err := a.guard.PathDashboard(r, false)
	if err != nil {
		return err
	}
	list, err := store.Widgets(r.Context(), a.db, d.ID)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

// getWidget answers GET /dashboards/modules/{moduleId}.
func (a *API) getWidget(w http.ResponseWriter, r *http.Request) error {
	wd, _, err := a.guard.PathWidget(r, false)
	if err != nil {
		return err
	}
	return web.OK(w, wd)
}

// createWidget answers POST /dashboards/{dashboardId}/modules: the module
// goes last.
func (a *API) createWidget(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	d, err := a.guard.PathDashboard(r, true)
	if err != nil {
		return err
	}
	var in validate.WidgetInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	v := errs.Validation{}
	wd, err := a.check.Widget(ctx, &in, d, nil, a.check.Nodes(ctx, d.CompanyID), &v, "")
	if err != nil {
		return err
	}
	if err := v.Err(); err != nil {
		return err
	}
	err = a.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if wd.Index, err = store.NextPosition(ctx, tx, "dashboard_modules", "dashboard_id", d.ID, "", nil); err != nil {
			return err
		}
		return store.InsertWidget(ctx, tx, wd)
	})
	if err != nil {
		return err
	}
	a.announce(ctx, d.CompanyID, dashboards.AuditWidgetAdded, map[string]any{"name": d.Name, "title": wd.Title}, nil, nil)
	return a.answerWidget(w, r, http.StatusCreated, wd.ID)
}

func (a *API) answerWidget(w http.ResponseWriter, r *http.Request, status int, id int64) error {
	wd, err := store.Widget(r.Context(), a.db, id)
	if err != nil {
		return err
	}
	web.JSON(w, status, wd)
	return nil
}

// updateWidget answers PUT /dashboards/modules/{moduleId} with the whole
// module.
func (a *API) updateWidget(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	old, d, err := a.guard.PathWidget(r, true)
	if err != nil {
		return err
	}
	var in validate.WidgetInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	v := errs.Validation{}
	wd, err := a.check.Widget(ctx, &in, d, old, a.check.Nodes(ctx, d.CompanyID), &v, "")
	if err != nil {
		return err
	}
	if err := v.Err(); err != nil {
		return err
	}
	if err := store.UpdateWidget(ctx, a.db, wd); err != nil {
		return err
	}
	a.announce(ctx, d.CompanyID, dashboards.AuditWidgetEdited, map[string]any{"name": d.Name, "title": wd.Title}, nil, nil)
	return a.answerWidget(w, r, http.StatusOK, wd.ID)
}

// updateWidgets answers PUT /dashboards/modules/multiple: several whole
// modules of one dashboard, saved together (layout changes).
func (a *API) updateWidgets(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	var in []validate.WidgetInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if len(in) == 0 {
		return errs.New(errs.Invalid, dashboards.IDModulesEmpty)
	}
	if len(in) > 500 {
		return errs.New(errs.Invalid, errs.IDTooLong)
	}
	var d *dashboards.Dashboard
	seen := map[int64]bool{}
	olds := make([]*dashboards.Widget, len(in))
	for i, item := range in {
		if item.ID == nil {
			return errNotFound
		}
		if seen[*item.ID] {
			return errs.New(errs.Invalid, dashboards.IDModulesDuplicate)
		}
		seen[*item.ID] = true
		old, err := store.Widget(ctx, a.db, *item.ID)
		if err != nil {
			return err
		}
		if d == nil {
			if d, err = a.guard.Dashboard(ctx, old.DashboardID, true); err != nil {
				return err
			}
		} else if old.DashboardID != d.ID {
			return errNotFound
		}
		olds[i] = old
	}
	v := errs.Validation{}
	isNode := a.check.Nodes(ctx, d.CompanyID)
	saved := make([]*dashboards.Widget, len(in))
	for i := range in {
		wd, err := a.check.Widget(ctx, &in[i], d, olds[i], isNode, &v, fmt.Sprintf("[%d].", i))
		if err != nil {
			return err
		}
		saved[i] = wd
	}
	if err := v.Err(); err != nil {
		return err
	}
	err := a.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, wd := range saved {
			if err := store.UpdateWidget(ctx, tx, wd); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	a.announce(ctx, d.CompanyID, dashboards.AuditWidgetsEdited, map[string]any{"name": d.Name, "count": len(saved)}, nil, nil)
	out := make([]*dashboards.Widget, len(saved))
	for i, wd := range saved {
		if out[i], err = store.Widget(ctx, a.db, wd.ID); err != nil {
			return err
		}
	}
	return web.OK(w, out)
}

// deleteWidget answers DELETE /dashboards/modules/{moduleId}.
func (a *API) deleteWidget(w http.ResponseWriter, r *http.Request) error {
	wd, d, err := a.guard.PathWidget(r, true)
	if err != nil {
		return err
	}
	if err := store.DeleteWidget(r.Context(), a.db, wd.ID); err != nil {
		return err
	}
	a.announce(r.Context(), d.CompanyID, dashboards.AuditWidgetDeleted, map[string]any{"name": d.Name, "title": wd.Title}, nil, nil)
	return web.NoContent(w)
}

// copyWidget answers POST /dashboards/modules/copy/{moduleId}: a copy,
// picture included, right after the original.
func (a *API) copyWidget(w http.ResponseWriter, r *http.Request) error {
	wd, d, err := a.guard.PathWidget(r, true)
	if err != nil {
		return err
	}
	from := wd.ID
	err = a.db.RunInTx(r.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		wd.ID, wd.Index = 0, wd.Index+1
		if err := store.ShiftWidgets(ctx, tx, wd.DashboardID, wd.Index); err != nil {
			return err
		}
		if err := store.InsertWidget(ctx, tx, wd); err != nil {
			return err
		}
		return store.CopyWidgetImage(ctx, tx, from, wd.ID)
	})
	if err != nil {
		return err
	}
	a.announce(r.Context(), d.CompanyID, dashboards.AuditWidgetCopied, map[string]any{"name": d.Name, "title": wd.Title}, nil, nil)
	return a.answerWidget(w, r, http.StatusCreated, wd.ID)
}
