// Package site is the contract of the site module: the pages that belong to
// the portal as a whole rather than to one feature, namely the home landing
// (/), the contact form (/contact) and the API documentation page (/api) of
// SPEC.md section 2. It owns no tables; the implementation lives in
// internal/.
package site

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/site/internal/core"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Accounts is the part of accounts.Service the site module uses: the
// contact form's sender (User) and, when FIELDHUB_CONTACT_EMAIL is not set,
// its recipients (SuperAdmins).
type Accounts interface {
	User(ctx context.Context, id int64) (*accounts.User, error)
	SuperAdmins(ctx context.Context) ([]accounts.User, error)
}

// Deps is what the site module needs beside the kernel. Both are required.
type Deps struct {
	// UI draws the pages.
	UI *ui.Env
	// Accounts answers who writes through the contact form and who receives
	// it; the accounts module satisfies it.
	Accounts Accounts
}

// Module is the site module as the kernel and main.go see it.
type Module interface {
	kernel.Module
	kernel.Router
}

// New builds the module. It panics when a dependency is missing, so that a
// wiring mistake in main.go stops the program at start.
func New(host *kernel.Host, deps Deps) Module {
	if deps.UI == nil || deps.Accounts == nil {
		panic("site.New: Deps.UI and Deps.Accounts are required")
	}
	return core.New(host, deps.UI, deps.Accounts)
}
