// Package access decides what a call of the dashboards module may reach: a
// signed-in caller the companies their role lets them see or manage, and a
// public link its one dashboard until it expires. Whatever lies beyond is
// not found, so that ids and tokens reveal nothing.
package access

import (
	"context"
	"net/http"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/store"
)

// Guard loads what a path names when the caller may reach it.
type Guard struct {
	db       *bun.DB
	accounts dashboards.Accounts
}

// New returns a Guard that reads db and asks acc whether a company exists.
func New(db *bun.DB, acc dashboards.Accounts) *Guard {
	return &Guard{db: db, accounts: acc}
}

func notFound() error { return errs.New(errs.NotFound, errs.IDNotFound) }

// Scoped checks that the caller may see (and, with manage, change) what
// belongs to companyID. Another company's things are not found.
func Scoped(ctx context.Context, companyID int64, manage bool) error {
	c := auth.CallerFrom(ctx)
	if !c.CanSeeCompany(companyID) {
		return notFound()
	}
	if manage && !c.CanManageCompany(companyID) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	return nil
}

// PathCompany returns the path's companyId if the caller may see (and,
// with manage, change) that company and it exists.
func (g *Guard) PathCompany(r *http.Request, manage bool) (int64, error) {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return 0, err
	}
	if err := Scoped(r.Context(), id, manage); err != nil {
		return 0, err
	}
	if _, err := g.accounts.Company(r.Context(), id); err != nil {
		return 0, err
	}
	return id, nil
}

// CallerCompany is the company a call without a company in its path acts
// for: the caller's own; a SuperAdmin's ?companyId=, else the company
// chosen in the switcher, else their own.
func (g *Guard) CallerCompany(r *http.Request) (int64, error) {
	id, err := accounts.RequestedCompany(r)
	if err != nil {
		return 0, err
	}
	if id == 0 {
		return 0, errs.New(errs.Invalid, dashboards.IDNoCompany)
	}
	if _, err := g.accounts.Company(r.Context(), id); err != nil {
		return 0, err
	}
	return id, nil
}

// PathDashboard loads the path's dashboard within the caller's reach.
func (g *Guard) PathDashboard(r *http.Request, manage bool) (*dashboards.Dashboard, error) {
	id, err := web.PathID(r, "dashboardId")
	if err != nil {
		return nil, err
	}
	return g.Dashboard(r.Context(), id, manage)
}

// Dashboard loads a dashboard within the caller's reach.
func (g *Guard) Dashboard(ctx context.Context, id int64, manage bool) (*dashboards.Dashboard, error) {
	d, err := store.Dashboard(ctx, g.db, id)
	if err != nil {
		return nil, err
	}
	if err := Scoped(ctx, d.CompanyID, manage); err != nil {
		return nil, err
	}
	return d, nil
}

// PathWidget loads the path's module and its dashboard within the
// caller's reach.
func (g *Guard) PathWidget(r *http.Request, manage bool) (*dashboards.Widget, *dashboards.Dashboard, error) {
	id, err := web.PathID(r, "moduleId")
	if err != nil {
		return nil, nil, err
	}
	w, err := store.Widget(r.Context(), g.db, id)
	if err != nil {
		return nil, nil, err
	}
	d, err := g.Dashboard(r.Context(), w.DashboardID, manage)
	if err != nil {
		return nil, nil, err
	}
	return w, d, nil
}

// PathCategory loads the path's category within the caller's reach.
func (g *Guard) PathCategory(r *http.Request, manage bool) (*dashboards.Category, error) {
	id, err := web.PathID(r, "categoryId")
	if err != nil {
		return nil, err
	}
	c, err := store.Category(r.Context(), g.db, id)
	if err != nil {
		return nil, err
	}
	if err := Scoped(r.Context(), c.CompanyID, manage); err != nil {
		return nil, err
	}
	return c, nil
}
