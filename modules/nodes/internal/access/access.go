// Package access decides what a caller may see and change of the nodes
// module's data: a company's nodes, applications and tokens are visible to
// those who may see the company and changed by those who manage it.
// Another company's things are reported as not found, so that ids reveal
// nothing.
package access

import (
	"context"
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// ErrNotFound is the answer for what does not exist or is out of reach.
var ErrNotFound = errs.New(errs.NotFound, errs.IDNotFound)

// Scoped checks that the caller may see (and, with manage, change) what
// belongs to companyID.
func Scoped(ctx context.Context, companyID int64, manage bool) error {
	c := auth.CallerFrom(ctx)
	if !c.CanSeeCompany(companyID) {
		return ErrNotFound
	}
	if manage && !c.CanManageCompany(companyID) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	return nil
}

// CanManage tells whether the caller may change the nodes of companyID.
func CanManage(ctx context.Context, companyID int64) bool {
	return auth.CallerFrom(ctx).CanManageCompany(companyID)
}

// VisibleCompanyID returns the path's companyId if the caller may see that
// company and it exists; another company's id is reported as not found.
func VisibleCompanyID(ctx context.Context, r *http.Request, accounts nodes.Accounts) (int64, error) {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return 0, err
	}
	if !auth.CallerFrom(ctx).CanSeeCompany(id) {
		return 0, ErrNotFound
	}
	if _, err := accounts.Company(ctx, id); err != nil {
		return 0, err
	}
	return id, nil
}

// ManagedCompanyID returns the path's companyId if the caller may change
// that company's nodes.
func ManagedCompanyID(ctx context.Context, r *http.Request, accounts nodes.Accounts) (int64, error) {
	id, err := VisibleCompanyID(ctx, r, accounts)
	if err != nil {
		return 0, err
	}
	if !auth.CallerFrom(ctx).CanManageCompany(id) {
		return 0, errs.New(errs.Forbidden, errs.IDForbidden)
	}
	return id, nil
}
