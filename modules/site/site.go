// Package site is the contract of the site module: the pages that belong to
// the portal as a whole rather than to one feature, namely the home landing
// (/), the contact form (/contact) and the API documentation page (/api),
// all open to visitors. It owns no tables. Package module builds it; its pages
// live in internal/pages.
package site

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/accounts"
)

// Accounts is the part of accounts.Service the site module uses: the
// contact form's sender (User) and, when FIELDHUB_CONTACT_EMAIL is not set,
// its recipients (SuperAdmins).
type Accounts interface {
	User(ctx context.Context, id int64) (*accounts.User, error)
	SuperAdmins(ctx context.Context) ([]accounts.User, error)
}

// Module is the site module as the kernel and the application see it.
type Module interface {
	kernel.Module
	kernel.Router
}
