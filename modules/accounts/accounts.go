// Package accounts is the contract of the accounts module: users, companies,
// sessions and password resets, with the JSON routes under /api/users and
// /api/companies and the pages under /login, /forgot, /company, /register
// and /superadmin. Other modules use the Service interface, the models and
// the events; package module builds the module, and its implementation
// lives in internal/.
package accounts

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel"
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
	// EnsureDemoCompany creates the demo company and its logins once.
	EnsureDemoCompany(ctx context.Context) (companyID int64, logins []DemoLogin, err error)
}

// CompanyCookie holds the company a SuperAdmin has chosen in the company
// switcher; other modules read it to scope a SuperAdmin's requests.
const CompanyCookie = "fieldhub_company"

// FirstSuperAdminEmail is the login of the SuperAdmin made on first start.
const FirstSuperAdminEmail = "admin@fieldhub.local"

// DemoCompanyName names the company `serve --demo` creates.
const DemoCompanyName = "Demo AB"
