// Package accounts is the contract of the accounts module: users, companies,
// sessions and password resets (SPEC.md section 7 "Users" and "Companies").
// Other modules use the Service interface and the events; the implementation
// lives in internal/.
package accounts

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/core"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// User is a person with a login.
type User = core.User

// Company is a customer organisation.
type Company = core.Company

// Events this module publishes.
type (
	UserDeleted    = core.UserDeleted
	CompanyCreated = core.CompanyCreated
	CompanyDeleted = core.CompanyDeleted
	// UserSignedIn is published after a sign-in and after a session renewal
	// (Renewed), the portal's sign that a user is active.
	UserSignedIn = core.UserSignedIn
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

// Module is the accounts module as the kernel and main.go see it.
type Module interface {
	kernel.Module
	Service
	// EnsureFirstSuperAdmin creates the first SuperAdmin of an empty
	// installation and returns its generated password once.
	EnsureFirstSuperAdmin(ctx context.Context) (email, password string, created bool, err error)
	// CreateSuperAdmin adds a SuperAdmin or promotes an existing account.
	CreateSuperAdmin(ctx context.Context, email, password string) error
	// EnsureDemoCompany creates the demo company and its logins once.
	EnsureDemoCompany(ctx context.Context) (companyID int64, logins []DemoLogin, err error)
}

// DemoLogin is an account of the demo company, shown once.
type DemoLogin = core.DemoLogin

// CompanyCookie holds the company a SuperAdmin has chosen in the company
// switcher; other modules read it to scope a SuperAdmin's requests.
const CompanyCookie = core.CompanyCookie

// FirstSuperAdminEmail is the login of the SuperAdmin made on first start.
const FirstSuperAdminEmail = core.FirstSuperAdminEmail

// Deps is what the accounts module needs beside the kernel.
type Deps struct {
	// UI draws the module's pages.
	UI *ui.Env
}

// New builds the module.
func New(host *kernel.Host, deps Deps) Module { return core.New(host, deps.UI) }
