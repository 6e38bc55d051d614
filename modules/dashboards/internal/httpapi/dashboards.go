package httpapi

import (
	"context"
	"net/http"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/access"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/store"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/validate"
)

// present fills what a dashboard shows the caller: whether it is their
// default and the list of its categories.
func (a *API) present(ctx context.Context, list ...*dashboards.Dashboard) error {
	defaults := map[int64]int64{} // company to the caller's default there
	c := auth.CallerFrom(ctx)
	for _, d := range list {
		def, ok := defaults[d.CompanyID]
		if !ok {
			var err error
			if def, err = store.DefaultOf(ctx, a.db, c.UserID, d.CompanyID); err != nil {
				return err
			}
			defaults[d.CompanyID] = def
		}
		d.Default = def == d.ID
		d.Categories = []int64{}
		if d.CategoryID != nil {
			d.Categories = []int64{*d.CategoryID}
		}
	}
	return nil
}

// companyDashboards answers GET /companies/{companyId}/dashboards.
func (a *API) companyDashboards(w http.ResponseWriter, r *http.Request) error {
	id, err := a.guard.PathCompany(r, false)
	if err != nil {
		return err
	}
	list, err := store.Dashboards(r.Context(), a.db, id)
	if err != nil {
		return err
	}
	if err := a.present(r.Context(), list...); err != nil {
		return err
	}
	return web.OK(w, list)
}

// getDashboard answers GET /dashboards/{dashboardId}.
func (a *API) getDashboard(w http.ResponseWriter, r *http.Request) error {
	d, err := a.guard.PathDashboard(r, false)
	if err != nil {
		return err
	}
	if err := a.present(r.Context(), d); err != nil {
		return err
	}
	return web.OK(w, d)
}

// createDashboard answers POST /dashboards: in the caller's company.
func (a *API) createDashboard(w http.ResponseWriter, r *http.Request) error {
	id, err := a.guard.CallerCompany(r)
	if err != nil {
		return err
	}
	if err := access.Scoped(r.Context(), id, true); err != nil {
		return err
	}
	return a.answerNewDashboard(w, r, id)
}

// createDashboardFor answers POST /dashboards/create/{companyId}, the
// SuperAdmin's way to make a dashboard for a chosen company.
func (a *API) createDashboardFor(w http.ResponseWriter, r *http.Request) error {
	id, err := a.guard.PathCompany(r, true)
	if err != nil {
		return err
	}
	return a.answerNewDashboard(w, r, id)
}

func (a *API) answerNewDashboard(w http.ResponseWriter, r *http.Request, companyID int64) error {
	var in validate.DashboardInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	name, err := in.TrimmedName()
	if err != nil {
		return err
	}
	d := &dashboards.Dashboard{CompanyID: companyID, Name: name, CategoryID: in.CategoryID}
	err = a.db.RunInTx(r.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		if err := validate.Category(ctx, tx, d.CompanyID, d.CategoryID); err != nil {
			return err
		}
		return store.AppendDashboard(ctx, tx, d)
	})
	if err != nil {
		return err
	}
	a.announce(r.Context(), companyID, dashboards.AuditCreated, map[string]any{"name": d.Name}, nil, nil)
	if err := a.present(r.Context(), d); err != nil {
		return err
	}
	return web.Created(w, d)
}

// updateDashboard answers PUT /dashboards/{dashboardId}: a new name and
// category; a dashboard moved to another category goes last there.
func (a *API) updateDashboard(w http.ResponseWriter, r *http.Request) error {
	d, err := a.guard.PathDashboard(r, true)
	if err != nil {
		return err
	}
	var in validate.DashboardInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	was := dashboardFields(d)
	if d.Name, err = in.TrimmedName(); err != nil {
		return err
	}
	err = a.db.RunInTx(r.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		if !sameID(d.CategoryID, in.CategoryID) {
			if err := validate.Category(ctx, tx, d.CompanyID, in.CategoryID); err != nil {
				return err
			}
			d.CategoryID = in.CategoryID
			if d.Index, err = store.NextPosition(ctx, tx, "dashboards", "company_id", d.CompanyID, "category_id", d.CategoryID); err != nil {
				return err
			}
		}
		return store.UpdateDashboard(ctx, tx, d)
	})
	if err != nil {
		return err
	}
	a.announceDiff(r.Context(), d.CompanyID, dashboards.AuditEdited, map[string]any{"name": d.Name}, was, dashboardFields(d))
	if err := a.present(r.Context(), d); err != nil {
		return err
	}
	return web.OK(w, d)
}

func sameID(a, b *int64) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

// deleteDashboard answers DELETE /dashboards/{dashboardId}.
func (a *API) deleteDashboard(w http.ResponseWriter, r *http.Request) error {
	d, err := a.guard.PathDashboard(r, true)
	if err != nil {
		return err
	}
	if err := store.DeleteDashboard(r.Context(), a.db, d.ID); err != nil {
		return err
	}
	a.announce(r.Context(), d.CompanyID, dashboards.AuditDeleted, map[string]any{"name": d.Name}, nil, nil)
	return web.NoContent(w)
}

// duplicateDashboard answers POST /dashboards/{dashboardId}/duplicate: a
// copy with copies of its modules and their pictures, right after the
// original in the same category.
func (a *API) duplicateDashboard(w http.ResponseWriter, r *http.Request) error {
	src, err := a.guard.PathDashboard(r, true)
	if err != nil {
		return err
	}
	var in validate.DashboardInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	name, err := in.TrimmedName()
	if err != nil {
		return err
	}
	d := &dashboards.Dashboard{CompanyID: src.CompanyID, Name: name, CategoryID: src.CategoryID, Index: src.Index + 1}
	err = a.db.RunInTx(r.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		if err := store.ShiftDashboards(ctx, tx, src.CompanyID, src.CategoryID, d.Index); err != nil {
			return err
		}
		if err := store.InsertDashboard(ctx, tx, d); err != nil {
			return err
		}
		widgets, err := store.Widgets(ctx, tx, src.ID)
		if err != nil {
			return err
		}
		for _, wd := range widgets {
			from := wd.ID
			wd.ID, wd.DashboardID = 0, d.ID
			if err := store.InsertWidget(ctx, tx, wd); err != nil {
				return err
			}
			if err := store.CopyWidgetImage(ctx, tx, from, wd.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	a.announce(r.Context(), d.CompanyID, dashboards.AuditCopied, map[string]any{"name": d.Name, "from": src.Name}, nil, nil)
	if err := a.present(r.Context(), d); err != nil {
		return err
	}
	return web.Created(w, d)
}
