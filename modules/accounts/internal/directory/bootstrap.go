package directory

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/store"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/validate"
)

// EnsureFirstSuperAdmin creates a SuperAdmin with a generated password when
// the installation has no users at all, and returns the password; on any later
// start it returns created false.
func (d *Directory) EnsureFirstSuperAdmin(ctx context.Context) (email, password string, created bool, err error) {
	n, err := store.CountUsers(ctx, d.db)
	if err != nil {
		return "", "", false, err
	}
	if n > 0 {
		return "", "", false, nil
	}
	password = auth.RandomToken(12)
	if err := d.CreateSuperAdmin(ctx, accounts.FirstSuperAdminEmail, password); err != nil {
		if errs.Is(err, errs.Conflict) { // another instance was first
			return "", "", false, nil
		}
		return "", "", false, err
	}
	return accounts.FirstSuperAdminEmail, password, true, nil
}

// CreateSuperAdmin adds a SuperAdmin, or makes an existing account with that
// address one, sets its password and ends its sessions (the way back in for
// a locked-out operator).
func (d *Directory) CreateSuperAdmin(ctx context.Context, email, password string) error {
	email = validate.NormaliseEmail(email)
	v := &errs.Validation{}
	validate.Email(v, "email", email, errs.IDRequired)
	validate.NewPassword(v, password, nil)
	if err := v.Err(); err != nil {
		return err
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return err
	}
	existing, err := store.UserByEmail(ctx, d.db, email)
	switch {
	case err == nil:
		// A new password and role: the account's sessions end, as after a
		// password reset (someone else may have been using it).
		existing.Role, existing.PasswordHash = auth.SuperAdmin, hash
		var ended []string
		err := d.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if err := store.UpdateUser(ctx, tx, existing, "role", "password_hash"); err != nil {
				return err
			}
			var err error
			ended, err = store.EndSessionsOf(ctx, tx, existing.ID)
			return err
		})
		if err != nil {
			return err
		}
		d.signin.SessionsEnded(ended)
		return nil
	case !errs.Is(err, errs.NotFound):
		return err
	}
	return store.InsertUser(ctx, d.db, &accounts.User{Email: email, FirstName: "Super", LastName: "Admin", Role: auth.SuperAdmin, PasswordHash: hash})
}

// EnsureDemoCompany creates the demo company with a CompanyAdmin and a User
// the first time, and returns their logins; later it returns the company's
// id and no logins (the passwords were shown once).
func (d *Directory) EnsureDemoCompany(ctx context.Context) (int64, []accounts.DemoLogin, error) {
	id, found, err := store.CompanyIDByName(ctx, d.db, accounts.DemoCompanyName)
	if err != nil {
		return 0, nil, fmt.Errorf("look up demo company: %w", err)
	}
	if found {
		return id, nil, nil
	}
	c := &accounts.Company{Name: accounts.DemoCompanyName, OrgNumber: "5560000000", ContactEmail: "demo@fieldhub.local", Country: "SE", Timezone: "Europe/Stockholm",
		PostalAddress: "Storgatan 1, 111 22 Stockholm"}
	logins := []accounts.DemoLogin{
		{Email: "demo-admin@fieldhub.local", Password: auth.RandomToken(9), Role: auth.CompanyAdmin},
		{Email: "demo-user@fieldhub.local", Password: auth.RandomToken(9), Role: auth.User},
	}
	err = d.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := store.InsertCompany(ctx, tx, c); err != nil {
			return err
		}
		for i, l := range logins {
			hash, err := auth.HashPassword(l.Password)
			if err != nil {
				return err
			}
			u := &accounts.User{CompanyID: &c.ID, Email: l.Email, FirstName: []string{"Dana", "Dan"}[i], LastName: "Demo",
				PhoneNumber: "46700000000", Role: l.Role, PasswordHash: hash}
			if err := store.InsertUser(ctx, tx, u); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, nil, fmt.Errorf("create demo company: %w", err)
	}
	d.host.Bus.Publish(ctx, accounts.CompanyCreated{CompanyID: c.ID})
	return c.ID, logins, nil
}
