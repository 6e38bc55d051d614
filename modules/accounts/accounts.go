// Package accounts is the contract of the accounts module: users, companies,
// sessions and password resets, with the JSON routes under /api/users and
// /api/companies and the pages under /login, /forgot, /company, /register
// and /superadmin. Other modules use the Service interface, the models and
// the events; package module builds the module, and its implementation
// lives in internal/.
package accounts

import (
	"context"
	"net/http"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
)

// Service is what other modules may ask of accounts. Methods return an
// errs.NotFound error for an unknown id.
type Service interface {
	User(ctx context.Context, id int64) (*User, error)
	Company(ctx context.Context, id int64) (*Company, error)
	CompanyUsers(ctx context.Context, companyID int64) ([]User, error)
	// SuperAdmins lists the installation's SuperAdmins, who receive messages
	// for the installation when no other address is configured.
	SuperAdmins(ctx context.Context) ([]User, error)
	// CountCompanies counts the installation's companies.
	CountCompanies(ctx context.Context) (int, error)
}

// Module is the accounts module as the kernel and the application see it:
// it serves its routes, prunes lapsed sessions once started, and makes the
// first accounts of an installation.
type Module interface {
	kernel.Module
	kernel.Router
	kernel.Starter
	Service
	// EnsureFirstSuperAdmin creates the first SuperAdmin of an empty
	// installation and returns its generated password once.
	EnsureFirstSuperAdmin(ctx context.Context) (email, password string, created bool, err error)
	// CreateSuperAdmin adds a SuperAdmin or promotes an existing account.
	CreateSuperAdmin(ctx context.Context, email, password string) error
	// UserByEmail returns the user of an address (the fieldhub notify
	// command names users so); an unknown one is an errs.NotFound error.
	UserByEmail(ctx context.Context, email string) (*User, error)
	// EnsureDemoCompany creates the demo company and its logins once.
	EnsureDemoCompany(ctx context.Context) (companyID int64, logins []DemoLogin, err error)
	SuperAdminPage
	Provisioning
}

// Provisioning mirrors the tenants and users of a program that embeds
// Fieldhub's modules and signs its users in itself (examples/embed), so
// that what the modules store belongs to a company and a user of the
// portal. Both calls are idempotent.
type Provisioning interface {
	// EnsureCompany returns the company of that exact name, made in
	// country (ISO 3166 alpha-2, "" for none) the first time. An empty or
	// too long name is an errs.Invalid error.
	EnsureCompany(ctx context.Context, name, country string) (*Company, error)
	// EnsureMember returns the user of email, made the first time as a
	// member of the company with role and a password nobody knows (the
	// embedding program signs them in). A user of email in another company
	// is an errs.Conflict error; a bad address or a role a company member
	// cannot have (anything but User, CompanyAdmin and Admin) is an
	// errs.Invalid error.
	EnsureMember(ctx context.Context, companyID int64, email, firstName, lastName string, role auth.Role) (*User, error)
}

// CompanyLimit tells how many companies the installation may have; the
// license decides it and the application wires it. Creating a company
// (POST /api/companies, POST /api/users/create/company and the /register
// and /company/create pages) beyond it is an errs.Forbidden error that
// names the limit (MsgCompanyLimit).
type CompanyLimit interface {
	// CompanyLimit is the most companies the installation may have; 0
	// means no limit.
	CompanyLimit() int
}

// CompanyCookie holds the company a SuperAdmin has chosen in the company
// switcher; other modules read it to scope a SuperAdmin's requests.
const CompanyCookie = "fieldhub_company"

// FirstSuperAdminEmail is the login of the SuperAdmin made on first start.
const FirstSuperAdminEmail = "admin@fieldhub.local"

// DemoCompanyName names the company `serve --demo` creates.
const DemoCompanyName = "Demo AB"

// SuperAdminSection is a section another module adds to the /superadmin
// page, below the companies: the logs module's latest changes.
type SuperAdminSection interface {
	// SuperAdminSection draws the section for the page r asks for; nil
	// leaves it out.
	SuperAdminSection(r *http.Request) (templ.Component, error)
}

// SuperAdminPage is what the /superadmin page offers other modules.
// Without the UI there are no pages: sections are never drawn.
type SuperAdminPage interface {
	// RegisterSuperAdminSection adds s to the /superadmin page.
	RegisterSuperAdminSection(s SuperAdminSection)
}
