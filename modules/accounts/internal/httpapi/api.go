// Package httpapi serves the accounts module's JSON routes under /api/users
// and /api/companies: sign-in and sessions, password resets, users,
// companies and their logos.
package httpapi

import (
	"context"
	"net/http"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/directory"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/signin"
)

// API is the JSON routes' handlers.
type API struct {
	host   *kernel.Host
	dir    *directory.Directory
	signin *signin.Service
}

// New builds the handlers on the directory and the sign-in service.
func New(host *kernel.Host, dir *directory.Directory, sign *signin.Service) *API {
	return &API{host: host, dir: dir, signin: sign}
}

// Routes registers the JSON routes, each with who may call it.
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("POST /users/authenticate", auth.Open, a.authenticate)
	r.API("POST /users/refresh", auth.Open, a.refresh)
	r.API("POST /users/logout", auth.Open, a.logout)
	r.API("POST /users/forgot/{email}", auth.Open, a.forgot)
	r.API("PUT /users/forgot/{guid}", auth.Open, a.resetPassword)
	r.API("POST /users", auth.Open, a.createUser)
	r.API("GET /users", auth.CompanyOrUser, a.me)
	r.API("GET /users/all", auth.AdminOrCompanyAdmin, a.listUsers)
	r.API("POST /users/create/company", auth.SuperAdminOnly, a.createUserAndCompany)
	r.API("GET /users/{userId}", auth.CompanyOrUser, a.getUser)
	r.API("GET /users/{userId}/company", auth.CompanyOrUser, a.getUserCompany)
	r.API("PUT /users/{userId}", auth.CompanyOrUser, a.updateUser)
	r.API("DELETE /users/{userId}", auth.CompanyOrUser, a.deleteUser)
	r.API("PUT /users/{userId}/role/{role}", auth.AdminOrCompanyAdmin, a.changeRole)

	r.API("GET /companies", auth.CompanyOrUser, a.listCompanies)
	r.API("GET /companies/all", auth.SuperAdminOnly, a.allCompanies)
	r.API("POST /companies", auth.AdminOrSuperAdmin, a.createCompany)
	r.API("GET /companies/{companyId}", auth.CompanyOrUser, a.getCompany)
	r.API("PUT /companies/{companyId}", auth.AdminOrCompanyAdmin, a.updateCompany)
	r.API("DELETE /companies/{companyId}", auth.SuperAdminOnly, a.deleteCompany)
	r.API("GET /companies/{companyId}/users", auth.CompanyOrUser, a.companyUsers)
	r.API("POST /companies/{companyId}/user", auth.AdminOrCompanyAdmin, a.invite)
	r.API("GET /companies/{companyId}/image", auth.CompanyOrUser, a.getImage)
	r.API("POST /companies/{companyId}/image", auth.AdminOrCompanyAdmin, a.putImage, web.MaxBody(web.ImageBodyLimit))
	r.API("DELETE /companies/{companyId}/image", auth.AdminOrCompanyAdmin, a.deleteImage)
}

// visibleCompany loads the company of the path's companyId if the caller
// may see it.
func (a *API) visibleCompany(ctx context.Context, r *http.Request) (*accounts.Company, error) {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return nil, err
	}
	return a.dir.VisibleCompany(ctx, id)
}

// managedCompany loads the company of the path's companyId if the caller
// may change it.
func (a *API) managedCompany(ctx context.Context, r *http.Request) (*accounts.Company, error) {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return nil, err
	}
	return a.dir.ManagedCompany(ctx, id)
}

// visibleUser loads the user of the path's userId if the caller may see them.
func (a *API) visibleUser(ctx context.Context, r *http.Request) (*accounts.User, error) {
	id, err := web.PathID(r, "userId")
	if err != nil {
		return nil, err
	}
	return a.dir.VisibleUser(ctx, id)
}

// message answers with a translated text, for calls whose success has its
// own words ("Invitation sent").
func (a *API) message(w http.ResponseWriter, r *http.Request, status int, id string) error {
	web.JSON(w, status, map[string]string{"id": id, "message": a.host.Catalogs.T(a.host.Router.Lang(r), id, nil)})
	return nil
}
