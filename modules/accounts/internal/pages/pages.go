// Package pages draws the accounts module's server pages: signing in and
// out, the forgotten password, the company pages (/company with its edit,
// logo, user and usercreate steps, /company/create), /register and
// /superadmin; and the module's part of every page's frame: its side menu
// entries, the viewer's name and company, and the SuperAdmin's company
// switcher. The pages act through the same operations as the JSON routes.
package pages

import (
	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/directory"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/signin"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Pages is the page handlers.
type Pages struct {
	host   *kernel.Host
	ui     *ui.Env
	dir    *directory.Directory
	signin *signin.Service
	// superSections are what other modules add to /superadmin; they
	// register while the application is built, before any request.
	superSections []accounts.SuperAdminSection
}

// RegisterSuperAdminSection adds s to the /superadmin page.
func (p *Pages) RegisterSuperAdminSection(s accounts.SuperAdminSection) {
	p.superSections = append(p.superSections, s)
}

// New builds the pages and hooks them into the page frame: it adds the
// module's menu entries and tells the frame who is looking.
func New(host *kernel.Host, env *ui.Env, dir *directory.Directory, sign *signin.Service) *Pages {
	p := &Pages{host: host, ui: env, dir: dir, signin: sign}
	host.Router.AddViewerEnricher(p.enrichViewer)
	for _, item := range menuItems {
		host.Router.AddMenuItem(item)
	}
	return p
}

// Routes registers the pages, each with who may see it.
func (p *Pages) Routes(r *web.ModuleRoutes) {
	r.Page("GET /login", auth.Open, p.loginPage)
	r.Page("POST /login", auth.Open, p.loginSubmit)
	r.Page("POST /logout", auth.Open, p.logoutPage)
	r.Page("GET /forgot", auth.Open, p.forgotPage)
	r.Page("POST /forgot", auth.Open, p.forgotSubmit)
	r.Page("GET /forgot/{guid}", auth.Open, p.resetPage)
	r.Page("POST /forgot/{guid}", auth.Open, p.resetSubmit)
	r.Page("POST /company/switch", auth.SuperAdminOnly, p.switchCompany)

	// The company pages: every member sees the company and its users, its
	// administrators change it. The steps under a page (its logo, role and
	// delete forms) share its access, and the rules of the API decide the
	// rest.
	r.Page("GET /company", auth.CompanyOrUser, p.companyPage)
	r.Page("GET /company/edit", auth.AdminOrCompanyAdmin, p.companyEditPage)
	r.Page("POST /company/edit", auth.AdminOrCompanyAdmin, p.companyEditSubmit)
	r.Page("POST /company/edit/logo", auth.AdminOrCompanyAdmin, p.logoUpload, web.MaxBody(web.ImageBodyLimit))
	r.Page("GET /company/edit/logo/delete", auth.AdminOrCompanyAdmin, p.logoDeletePage)
	r.Page("POST /company/edit/logo/delete", auth.AdminOrCompanyAdmin, p.logoDeleteSubmit)
	r.Page("GET /company/usercreate", auth.AdminOrCompanyAdmin, p.usercreatePage)
	r.Page("POST /company/usercreate", auth.AdminOrCompanyAdmin, p.usercreateSubmit)
	r.Page("POST /company/usercreate/invite", auth.AdminOrCompanyAdmin, p.inviteSubmit)
	r.Page("GET /company/user/{userId}", auth.CompanyOrUser, p.userPage)
	r.Page("POST /company/user/{userId}", auth.CompanyOrUser, p.userEditSubmit)
	r.Page("POST /company/user/{userId}/role", auth.AdminOrCompanyAdmin, p.userRoleSubmit)
	r.Page("GET /company/user/{userId}/delete", auth.CompanyOrUser, p.userDeletePage)
	r.Page("POST /company/user/{userId}/delete", auth.CompanyOrUser, p.userDeleteSubmit)
	r.Page("GET /company/create", auth.AdminOnly, p.companyCreatePage)
	r.Page("POST /company/create", auth.AdminOnly, p.companyCreateSubmit)
	r.Page("GET /register", auth.SuperAdminOnly, p.registerPage)
	r.Page("POST /register", auth.SuperAdminOnly, p.registerSubmit)
	r.Page("GET /superadmin", auth.SuperAdminOnly, p.superadminPage)
}
