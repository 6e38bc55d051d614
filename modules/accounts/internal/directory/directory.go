// Package directory is the accounts module's service: who the users and
// companies are and the changes to them (creating, editing, re-roling and
// deleting users, registering companies, inviting members, logos), with the
// rules of who may see and change whom, and the first accounts of an
// installation. Other modules reach it through accounts.Service; the JSON
// routes and the pages share its operations.
package directory

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/signin"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/store"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/validate"
)

// Directory is the users and companies of the installation.
type Directory struct {
	host   *kernel.Host
	db     *bun.DB
	signin *signin.Service
	// openRegistration is FIELDHUB_OPEN_REGISTRATION.
	openRegistration bool
	// limit caps the number of companies; nil sets none.
	limit accounts.CompanyLimit
}

// New builds the directory; sign gives an Admin who creates a company
// tokens that carry it; openRegistration lets visitors register; limit,
// when not nil, caps the number of companies.
func New(host *kernel.Host, sign *signin.Service, openRegistration bool, limit accounts.CompanyLimit) *Directory {
	return &Directory{host: host, db: host.DB, signin: sign, openRegistration: openRegistration, limit: limit}
}

// User returns a user by id.
func (d *Directory) User(ctx context.Context, id int64) (*accounts.User, error) {
	return store.UserByID(ctx, d.db, id)
}

// UserByEmail returns the user of an address, however its case and spaces
// are spelt; an unknown one is an errs.NotFound error.
func (d *Directory) UserByEmail(ctx context.Context, email string) (*accounts.User, error) {
	return store.UserByEmail(ctx, d.db, validate.NormaliseEmail(email))
}

// Company returns a company by id.
func (d *Directory) Company(ctx context.Context, id int64) (*accounts.Company, error) {
	return store.CompanyByID(ctx, d.db, id)
}

// CompanyUsers lists the users of a company.
func (d *Directory) CompanyUsers(ctx context.Context, companyID int64) ([]accounts.User, error) {
	return store.Users(ctx, d.db, companyID)
}

// SuperAdmins lists the installation's SuperAdmins.
func (d *Directory) SuperAdmins(ctx context.Context) ([]accounts.User, error) {
	return store.SuperAdmins(ctx, d.db)
}

// Users lists users, of one company when companyID is not 0, else all.
func (d *Directory) Users(ctx context.Context, companyID int64) ([]accounts.User, error) {
	return store.Users(ctx, d.db, companyID)
}

// Companies lists every company, or just one when only is not 0.
func (d *Directory) Companies(ctx context.Context, only int64) ([]accounts.Company, error) {
	return store.Companies(ctx, d.db, only)
}

// UserCounts returns how many users each company has.
func (d *Directory) UserCounts(ctx context.Context) (map[int64]int, error) {
	return store.UserCounts(ctx, d.db)
}

// CountCompanies counts the installation's companies (the license module's
// /superadmin section shows it against the license's limit).
func (d *Directory) CountCompanies(ctx context.Context) (int, error) {
	return store.CountCompanies(ctx, d.db)
}
