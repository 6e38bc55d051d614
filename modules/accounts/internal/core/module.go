package core

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Module is the accounts module.
type Module struct {
	host  *kernel.Host
	db    *bun.DB
	log   *slog.Logger
	ui    *ui.Env
	store store
}

// New builds the module and hooks it into the page frame: it renews lapsed
// browser sessions and tells the frame who is looking.
func New(host *kernel.Host, env *ui.Env) *Module {
	m := &Module{host: host, db: host.DB, log: host.Logger("accounts"), ui: env}
	host.Router.SetRefresher(m.refreshBrowser)
	host.Router.AddViewerEnricher(m.enrichViewer)
	for _, item := range menuItems {
		host.Router.AddMenuItem(item)
	}
	return m
}

// Name names the module.
func (m *Module) Name() string { return "accounts" }

// Routes registers SPEC.md section 7 "Users" and "Companies".
func (m *Module) Routes(r *web.ModuleRoutes) {
	r.API("POST /users/authenticate", auth.Open, m.authenticate)
	r.API("POST /users/refresh", auth.Open, m.refresh)
	r.API("POST /users/logout", auth.Open, m.logout)
	r.API("POST /users/forgot/{email}", auth.Open, m.forgot)
	r.API("PUT /users/forgot/{guid}", auth.Open, m.resetPassword)
	r.API("POST /users", auth.Open, m.createUser)
	r.API("GET /users", auth.CompanyOrUser, m.me)
	r.API("GET /users/all", auth.AdminOrCompanyAdmin, m.listUsers)
	r.API("POST /users/create/company", auth.SuperAdminOnly, m.createUserAndCompany)
	r.API("GET /users/{userId}", auth.CompanyOrUser, m.getUser)
	r.API("GET /users/{userId}/company", auth.CompanyOrUser, m.getUserCompany)
	r.API("PUT /users/{userId}", auth.CompanyOrUser, m.updateUser)
	r.API("DELETE /users/{userId}", auth.CompanyOrUser, m.deleteUser)
	r.API("PUT /users/{userId}/role/{role}", auth.AdminOrCompanyAdmin, m.changeRole)

	r.API("GET /companies", auth.CompanyOrUser, m.listCompanies)
	r.API("GET /companies/all", auth.SuperAdminOnly, m.allCompanies)
	r.API("POST /companies", auth.AdminOrSuperAdmin, m.createCompany)
	r.API("GET /companies/{companyId}", auth.CompanyOrUser, m.getCompany)
	r.API("PUT /companies/{companyId}", auth.AdminOrCompanyAdmin, m.updateCompany)
	r.API("DELETE /companies/{companyId}", auth.SuperAdminOnly, m.deleteCompany)
	r.API("GET /companies/{companyId}/users", auth.CompanyOrUser, m.companyUsers)
	r.API("POST /companies/{companyId}/user", auth.AdminOrCompanyAdmin, m.invite)
	r.API("GET /companies/{companyId}/image", auth.CompanyOrUser, m.getImage)
	r.API("POST /companies/{companyId}/image", auth.AdminOrCompanyAdmin, m.putImage, web.MaxBody(web.ImageBodyLimit))
	r.API("DELETE /companies/{companyId}/image", auth.AdminOrCompanyAdmin, m.deleteImage)

	r.Page("GET /login", auth.Open, m.loginPage)
	r.Page("POST /login", auth.Open, m.loginSubmit)
	r.Page("GET /logout", auth.Open, m.logoutPage)
	r.Page("POST /logout", auth.Open, m.logoutPage)
	r.Page("GET /forgot", auth.Open, m.forgotPage)
	r.Page("POST /forgot", auth.Open, m.forgotSubmit)
	r.Page("GET /forgot/{guid}", auth.Open, m.resetPage)
	r.Page("POST /forgot/{guid}", auth.Open, m.resetSubmit)
	r.Page("POST /company/switch", auth.SuperAdminOnly, m.switchCompany)

	// The company pages, with the access of SPEC.md section 2's table; the
	// steps under a page (its logo, role and delete forms) share its access,
	// and the rules of the API decide the rest.
	r.Page("GET /company", auth.CompanyOrUser, m.companyPage)
	r.Page("GET /company/edit", auth.AdminOrCompanyAdmin, m.companyEditPage)
	r.Page("POST /company/edit", auth.AdminOrCompanyAdmin, m.companyEditSubmit)
	r.Page("POST /company/edit/logo", auth.AdminOrCompanyAdmin, m.logoUpload, web.MaxBody(web.ImageBodyLimit))
	r.Page("GET /company/edit/logo/delete", auth.AdminOrCompanyAdmin, m.logoDeletePage)
	r.Page("POST /company/edit/logo/delete", auth.AdminOrCompanyAdmin, m.logoDeleteSubmit)
	r.Page("GET /company/usercreate", auth.AdminOrCompanyAdmin, m.usercreatePage)
	r.Page("POST /company/usercreate", auth.AdminOrCompanyAdmin, m.usercreateSubmit)
	r.Page("POST /company/usercreate/invite", auth.AdminOrCompanyAdmin, m.inviteSubmit)
	r.Page("GET /company/user/{userId}", auth.CompanyOrUser, m.userPage)
	r.Page("POST /company/user/{userId}", auth.CompanyOrUser, m.userEditSubmit)
	r.Page("POST /company/user/{userId}/role", auth.AdminOrCompanyAdmin, m.userRoleSubmit)
	r.Page("GET /company/user/{userId}/delete", auth.CompanyOrUser, m.userDeletePage)
	r.Page("POST /company/user/{userId}/delete", auth.CompanyOrUser, m.userDeleteSubmit)
	r.Page("GET /company/create", auth.AdminOnly, m.companyCreatePage)
	r.Page("POST /company/create", auth.AdminOnly, m.companyCreateSubmit)
	r.Page("GET /register", auth.SuperAdminOnly, m.registerPage)
	r.Page("POST /register", auth.SuperAdminOnly, m.registerSubmit)
	r.Page("GET /superadmin", auth.SuperAdminOnly, m.superadminPage)
}

// User returns a user by id.
func (m *Module) User(ctx context.Context, id int64) (*User, error) {
	return m.store.userByID(ctx, m.db, id)
}

// Company returns a company by id.
func (m *Module) Company(ctx context.Context, id int64) (*Company, error) {
	return m.store.companyByID(ctx, m.db, id)
}

// CompanyUsers lists the users of a company.
func (m *Module) CompanyUsers(ctx context.Context, companyID int64) ([]User, error) {
	return m.store.users(ctx, m.db, companyID)
}

// SuperAdmins lists the installation's SuperAdmins.
func (m *Module) SuperAdmins(ctx context.Context) ([]User, error) {
	users := []User{}
	if err := m.db.NewSelect().Model(&users).Where("role = ?", auth.SuperAdmin).Order("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list superadmins: %w", err)
	}
	return users, nil
}

// visibleCompany loads the company of the path's companyId if the caller
// may see it.
func (m *Module) visibleCompany(ctx context.Context, r *http.Request) (*Company, error) {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return nil, err
	}
	return m.visibleCompanyByID(ctx, id)
}

// visibleCompanyByID loads company id if the caller may see it; a company
// the caller may not see is reported as not found, so that ids of other
// companies reveal nothing.
func (m *Module) visibleCompanyByID(ctx context.Context, id int64) (*Company, error) {
	if !auth.CallerFrom(ctx).CanSeeCompany(id) {
		return nil, errs.New(errs.NotFound, errs.IDNotFound)
	}
	return m.store.companyByID(ctx, m.db, id)
}

// managedCompany loads the company of the path's companyId if the caller
// may change it.
func (m *Module) managedCompany(ctx context.Context, r *http.Request) (*Company, error) {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return nil, err
	}
	return m.managedCompanyByID(ctx, id)
}

// managedCompanyByID loads company id if the caller may change it.
func (m *Module) managedCompanyByID(ctx context.Context, id int64) (*Company, error) {
	c, err := m.visibleCompanyByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if !auth.CallerFrom(ctx).CanManageCompany(c.ID) {
		return nil, errs.New(errs.Forbidden, errs.IDForbidden)
	}
	return c, nil
}

// visibleUser loads the user of the path's userId if the caller may see them.
func (m *Module) visibleUser(ctx context.Context, r *http.Request) (*User, error) {
	id, err := web.PathID(r, "userId")
	if err != nil {
		return nil, err
	}
	return m.visibleUserByID(ctx, id)
}

// visibleUserByID loads user id if the caller may see them: themselves,
// members of their company, or anyone for a SuperAdmin.
func (m *Module) visibleUserByID(ctx context.Context, id int64) (*User, error) {
	u, err := m.store.userByID(ctx, m.db, id)
	if err != nil {
		return nil, err
	}
	c := auth.CallerFrom(ctx)
	if c.UserID == u.ID || c.Role == auth.SuperAdmin || (c.CompanyID != 0 && c.CompanyID == u.Company()) {
		return u, nil
	}
	return nil, errs.New(errs.NotFound, errs.IDNotFound)
}

// mayEdit applies SPEC.md section 6: anyone may edit themselves; an Admin or
// SuperAdmin may edit anyone but a SuperAdmin; a CompanyAdmin only Users. All
// but a SuperAdmin are limited to their own company.
func mayEdit(c auth.Caller, target *User) bool {
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

// mayGrant reports whether the caller may give role to someone: a SuperAdmin
// any role, an Admin up to Admin, a CompanyAdmin up to CompanyAdmin.
func mayGrant(c auth.Caller, role auth.Role) bool {
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

func (m *Module) lang(r *http.Request) string { return m.host.Router.Lang(r) }

// message answers with a translated text, for calls whose success the spec
// names ("Invitation sent").
func (m *Module) message(w http.ResponseWriter, r *http.Request, status int, id string) error {
	web.JSON(w, status, map[string]string{"id": id, "message": m.host.Catalogs.T(m.lang(r), id, nil)})
	return nil
}
