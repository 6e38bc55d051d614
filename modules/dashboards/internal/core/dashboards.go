package core

import (
	"context"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// present fills what a dashboard shows the caller: whether it is their
// default and the list of its categories.
func (m *Module) present(ctx context.Context, list ...*Dashboard) error {
	defaults := map[int64]int64{} // company to the caller's default there
	c := auth.CallerFrom(ctx)
	for _, d := range list {
		def, ok := defaults[d.CompanyID]
		if !ok {
			var err error
			if def, err = m.store.defaultOf(ctx, m.db, c.UserID, d.CompanyID); err != nil {
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
func (m *Module) companyDashboards(w http.ResponseWriter, r *http.Request) error {
	id, err := m.pathCompany(r, false)
	if err != nil {
		return err
	}
	list, err := m.store.dashboards(r.Context(), m.db, id)
	if err != nil {
		return err
	}
	if err := m.present(r.Context(), list...); err != nil {
		return err
	}
	return web.OK(w, list)
}

// getDashboard answers GET /dashboards/{dashboardId}.
func (m *Module) getDashboard(w http.ResponseWriter, r *http.Request) error {
	d, err := m.pathDashboard(r, false)
	if err != nil {
		return err
	}
	if err := m.present(r.Context(), d); err != nil {
		return err
	}
	return web.OK(w, d)
}

// dashboardInput is the body of POST and PUT /dashboards (SPEC.md section
// 3: name and categoryId; duplicate: name).
type dashboardInput struct {
	Name       *string `json:"name"`
	CategoryID *int64  `json:"categoryId"`
}

func (in *dashboardInput) name() (string, error) {
	name := ""
	if in.Name != nil {
		name = strings.TrimSpace(*in.Name)
	}
	v := errs.Validation{}
	switch {
	case name == "":
		v.Add("name", errs.IDRequired)
	case utf8.RuneCountInString(name) > 255:
		v.Add("name", errs.IDMaxChars255)
	}
	return name, v.Err()
}

// category checks that the input's category (if any) belongs to the
// company.
func (m *Module) checkCategory(ctx context.Context, idb bun.IDB, companyID int64, id *int64) error {
	if id == nil {
		return nil
	}
	c, err := m.store.category(ctx, idb, *id)
	if err != nil || c.CompanyID != companyID {
		return fieldError("categoryId", msgCategoryUnknown, err)
	}
	return nil
}

// createDashboard answers POST /dashboards: in the caller's company.
func (m *Module) createDashboard(w http.ResponseWriter, r *http.Request) error {
	id, err := m.callerCompany(r)
	if err != nil {
		return err
	}
	if err := scoped(r.Context(), id, true); err != nil {
		return err
	}
	return m.answerNewDashboard(w, r, id)
}

// createDashboardFor answers POST /dashboards/create/{companyId}, the
// SuperAdmin's way to make a dashboard for a chosen company.
func (m *Module) createDashboardFor(w http.ResponseWriter, r *http.Request) error {
	id, err := m.pathCompany(r, true)
	if err != nil {
		return err
	}
	return m.answerNewDashboard(w, r, id)
}

func (m *Module) answerNewDashboard(w http.ResponseWriter, r *http.Request, companyID int64) error {
	var in dashboardInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	name, err := in.name()
	if err != nil {
		return err
	}
	d := &Dashboard{CompanyID: companyID, Name: name, CategoryID: in.CategoryID}
	err = m.db.RunInTx(r.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		return m.insertDashboard(ctx, tx, d)
	})
	if err != nil {
		return err
	}
	if err := m.present(r.Context(), d); err != nil {
		return err
	}
	return web.Created(w, d)
}

// insertDashboard adds d last in its category, which must be of its
// company.
func (m *Module) insertDashboard(ctx context.Context, tx bun.IDB, d *Dashboard) error {
	if err := m.checkCategory(ctx, tx, d.CompanyID, d.CategoryID); err != nil {
		return err
	}
	var err error
	if d.Index, err = nextPosition(ctx, tx, "dashboards", "company_id", d.CompanyID, "category_id", d.CategoryID); err != nil {
		return err
	}
	return m.store.insertDashboard(ctx, tx, d)
}

// updateDashboard answers PUT /dashboards/{dashboardId}: a new name and
// category; a dashboard moved to another category goes last there.
func (m *Module) updateDashboard(w http.ResponseWriter, r *http.Request) error {
	d, err := m.pathDashboard(r, true)
	if err != nil {
		return err
	}
	var in dashboardInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if d.Name, err = in.name(); err != nil {
		return err
	}
	err = m.db.RunInTx(r.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		if !sameID(d.CategoryID, in.CategoryID) {
			if err := m.checkCategory(ctx, tx, d.CompanyID, in.CategoryID); err != nil {
				return err
			}
			d.CategoryID = in.CategoryID
			if d.Index, err = nextPosition(ctx, tx, "dashboards", "company_id", d.CompanyID, "category_id", d.CategoryID); err != nil {
				return err
			}
		}
		return m.store.updateDashboard(ctx, tx, d)
	})
	if err != nil {
		return err
	}
	if err := m.present(r.Context(), d); err != nil {
		return err
	}
	return web.OK(w, d)
}

func sameID(a, b *int64) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

// deleteDashboard answers DELETE /dashboards/{dashboardId}.
func (m *Module) deleteDashboard(w http.ResponseWriter, r *http.Request) error {
	d, err := m.pathDashboard(r, true)
	if err != nil {
		return err
	}
	if err := m.store.deleteDashboard(r.Context(), m.db, d.ID); err != nil {
		return err
	}
	return web.NoContent(w)
}

// duplicateDashboard answers POST /dashboards/{dashboardId}/duplicate: a
// copy with copies of its modules and their pictures, right after the
// original in the same category.
func (m *Module) duplicateDashboard(w http.ResponseWriter, r *http.Request) error {
	src, err := m.pathDashboard(r, true)
	if err != nil {
		return err
	}
	var in dashboardInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	name, err := in.name()
	if err != nil {
		return err
	}
	d := &Dashboard{CompanyID: src.CompanyID, Name: name, CategoryID: src.CategoryID, Index: src.Index + 1}
	err = m.db.RunInTx(r.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		if err := m.store.shiftDashboards(ctx, tx, src.CompanyID, src.CategoryID, d.Index); err != nil {
			return err
		}
		if err := m.store.insertDashboard(ctx, tx, d); err != nil {
			return err
		}
		widgets, err := m.store.widgets(ctx, tx, src.ID)
		if err != nil {
			return err
		}
		for _, wd := range widgets {
			from := wd.ID
			wd.ID, wd.DashboardID = 0, d.ID
			if err := m.store.insertWidget(ctx, tx, wd); err != nil {
				return err
			}
			if err := m.store.copyWidgetImage(ctx, tx, from, wd.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := m.present(r.Context(), d); err != nil {
		return err
	}
	return web.Created(w, d)
}

// defaultInput is the optional body of PUT /dashboards/{id}/default.
type defaultInput struct {
	Scope string `json:"scope"`
}

// setDefault answers PUT /dashboards/{dashboardId}/default: the caller's
// own default (scope "user", any staff role), or the company's (scope
// "company", those who manage it).
func (m *Module) setDefault(w http.ResponseWriter, r *http.Request) error {
	scope, err := readScope(r)
	if err != nil {
		return err
	}
	d, err := m.pathDashboard(r, scope == "company")
	if err != nil {
		return err
	}
	c := auth.CallerFrom(r.Context())
	if scope == "company" {
		err = m.store.setCompanyDefault(r.Context(), m.db, d.CompanyID, d.ID)
	} else {
		err = m.store.setUserDefault(r.Context(), m.db, c.UserID, d.CompanyID, d.ID)
	}
	if err != nil {
		return err
	}
	return web.NoContent(w)
}

// clearDefault answers DELETE /dashboards/{dashboardId}/default: the
// dashboard stops being the caller's default, or with ?scope=company (or
// that body) the company's.
func (m *Module) clearDefault(w http.ResponseWriter, r *http.Request) error {
	scope, err := readScope(r)
	if err != nil {
		return err
	}
	d, err := m.pathDashboard(r, scope == "company")
	if err != nil {
		return err
	}
	if scope == "company" {
		err = m.store.clearCompanyDefault(r.Context(), m.db, d.ID)
	} else {
		err = m.store.clearUserDefault(r.Context(), m.db, auth.CallerFrom(r.Context()).UserID, d.ID)
	}
	if err != nil {
		return err
	}
	return web.NoContent(w)
}

// readScope reads the scope of a default from ?scope= or the body.
func readScope(r *http.Request) (string, error) {
	scope := r.URL.Query().Get("scope")
	if scope == "" && r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody {
		var in defaultInput
		if err := web.Decode(r, &in); err != nil {
			return "", err
		}
		scope = in.Scope
	}
	switch scope {
	case "", "user":
		return "user", nil
	case "company":
		return "company", nil
	}
	v := errs.Validation{}
	v.Add("scope", msgScope)
	return "", v.Err()
}

// defaultDashboard answers GET /dashboards/default: the caller's default in
// their company (their own, else the company's), or 204 without one.
func (m *Module) defaultDashboard(w http.ResponseWriter, r *http.Request) error {
	c := auth.CallerFrom(r.Context())
	companyID, err := m.callerCompany(r)
	if err != nil {
		if errs.Is(err, errs.Invalid) && c.CompanyID == 0 { // no company, so no default
			return web.NoContent(w)
		}
		return err
	}
	if err := scoped(r.Context(), companyID, false); err != nil {
		return err
	}
	id, err := m.store.defaultOf(r.Context(), m.db, c.UserID, companyID)
	if err != nil {
		return err
	}
	if id == 0 {
		return web.NoContent(w)
	}
	d, err := m.store.dashboard(r.Context(), m.db, id)
	if err != nil {
		return err
	}
	if err := m.present(r.Context(), d); err != nil {
		return err
	}
	return web.OK(w, d)
}
