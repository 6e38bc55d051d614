package directory

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/store"
)

// VisibleCompany loads company id if the caller may see it; a company the
// caller may not see is reported as not found, so that ids of other
// companies reveal nothing.
func (d *Directory) VisibleCompany(ctx context.Context, id int64) (*accounts.Company, error) {
	if !auth.CallerFrom(ctx).CanSeeCompany(id) {
		return nil, errs.New(errs.NotFound, errs.IDNotFound)
	}
	return store.CompanyByID(ctx, d.db, id)
}

// ManagedCompany loads company id if the caller may change it.
func (d *Directory) ManagedCompany(ctx context.Context, id int64) (*accounts.Company, error) {
	c, err := d.VisibleCompany(ctx, id)
	if err != nil {
		return nil, err
	}
	if !auth.CallerFrom(ctx).CanManageCompany(c.ID) {
		return nil, errs.New(errs.Forbidden, errs.IDForbidden)
	}
	return c, nil
}

// VisibleUser loads user id if the caller may see them: themselves,
// members of their company, or anyone for a SuperAdmin. Anyone else is
// reported as not found.
func (d *Directory) VisibleUser(ctx context.Context, id int64) (*accounts.User, error) {
	u, err := store.UserByID(ctx, d.db, id)
	if err != nil {
		return nil, err
	}
	c := auth.CallerFrom(ctx)
	if c.UserID == u.ID || c.Role == auth.SuperAdmin || (c.CompanyID != 0 && c.CompanyID == u.Company()) {
		return u, nil
	}
	return nil, errs.New(errs.NotFound, errs.IDNotFound)
}

// MayEdit tells whether c may edit target: anyone may edit themselves; an
// Admin or SuperAdmin may edit anyone but a SuperAdmin; a CompanyAdmin only
// Users. All but a SuperAdmin are limited to their own company.
func MayEdit(c auth.Caller, target *accounts.User) bool {
	if c.UserID == target.ID {
		return true
	}
	if c.Role != auth.SuperAdmin && (c.CompanyID == 0 || c.CompanyID != target.Company()) {
		return false
	}
	switch c.Role {
	case auth.SuperAdmin, auth.Admin:
		return target.Role != auth.SuperAdmin
	case auth.CompanyAdmin:
		return target.Role == auth.User
	}
	return false
}

// MayChangeRoleOf tells whether c may change target's role at all (which
// roles, MayGrant says): never their own (so the last SuperAdmin, and the
// CompanyAdmin who acts, keep theirs); an Admin or SuperAdmin whom they may
// edit; a CompanyAdmin the Users and the other CompanyAdmins of their own
// company, so that a CompanyAdmin can take back the role they could give.
func MayChangeRoleOf(c auth.Caller, target *accounts.User) bool {
	if target.ID == c.UserID || !c.Role.In(auth.AdminOrCompanyAdmin) {
		return false
	}
	if c.Role == auth.CompanyAdmin {
		return c.CompanyID != 0 && c.CompanyID == target.Company() && (target.Role == auth.User || target.Role == auth.CompanyAdmin)
	}
	return MayEdit(c, target)
}

// MayGrant reports whether the caller may give role to someone: a SuperAdmin
// any role, an Admin up to Admin, a CompanyAdmin up to CompanyAdmin.
func MayGrant(c auth.Caller, role auth.Role) bool {
	switch c.Role {
	case auth.SuperAdmin:
		return true
	case auth.Admin:
		return role != auth.SuperAdmin
	case auth.CompanyAdmin:
		return role == auth.CompanyAdmin || role == auth.User
	}
	return false
}
