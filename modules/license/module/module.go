// Package module builds the license module for the application package.
package module

import (
	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/license"
	"github.com/fieldhub/fieldhub/modules/license/internal/httpapi"
	"github.com/fieldhub/fieldhub/modules/license/internal/pages"
)

// Deps is what the license module needs beside the kernel, whose Host
// holds the license.
type Deps struct {
	// SuperAdminPage, optional, takes the section of the license's terms
	// for the /superadmin page; the accounts module satisfies it.
	SuperAdminPage accounts.SuperAdminPage
	// Companies counts the companies for that section; required with
	// SuperAdminPage. The accounts module satisfies it.
	Companies license.Companies
}

// New builds the module and adds its section to the /superadmin page when
// given one. It panics when a dependency is missing, so that a wiring
// mistake stops the program at start.
func New(host *kernel.Host, deps Deps) license.Module {
	if host.License == nil {
		panic("license module: the kernel has no license")
	}
	if deps.SuperAdminPage != nil {
		if deps.Companies == nil {
			panic("license module: Deps.Companies is required with Deps.SuperAdminPage")
		}
		deps.SuperAdminPage.RegisterSuperAdminSection(pages.NewSection(host.License, deps.Companies))
	}
	return &licenseModule{api: httpapi.New(host.License)}
}

type licenseModule struct{ api *httpapi.API }

// Name names the module.
func (m *licenseModule) Name() string { return "license" }

// Routes registers GET /api/license/terms.
func (m *licenseModule) Routes(r *web.ModuleRoutes) { m.api.Routes(r) }
