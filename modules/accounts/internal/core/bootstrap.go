package core

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
)

// FirstSuperAdminEmail is the login of the SuperAdmin made on first start.
const FirstSuperAdminEmail = "admin@fieldhub.local"

// EnsureFirstSuperAdmin creates a SuperAdmin with a generated password when
// the installation has no users at all, and returns the password; on any later
// start it returns created false.
func (m *Module) EnsureFirstSuperAdmin(ctx context.Context) (email, password string, created bool, err error) {
	n, err := m.db.NewSelect().Model((*User)(nil)).Count(ctx)
	if err != nil {
		return "", "", false, fmt.Errorf("count users: %w", err)
	}
	if n > 0 {
		return "", "", false, nil
	}
	password = auth.RandomToken(12)
	if err := m.CreateSuperAdmin(ctx, FirstSuperAdminEmail, password); err != nil {
		if errs.Is(err, errs.Conflict) { // another instance was first
			return "", "", false, nil
		}
		return "", "", false, err
	}
	return FirstSuperAdminEmail, password, true, nil
}

// CreateSuperAdmin adds a SuperAdmin, or makes an existing account with that
// address one and sets its password (the way back in for a locked-out
// operator).
func (m *Module) CreateSuperAdmin(ctx context.Context, email, password string) error {
	email = normaliseEmail(email)
	v := &errs.Validation{}
	checkEmail(v, "email", email, errs.IDRequired)
	checkNewPassword(v, password, nil)
	if err := v.Err(); err != nil {
		return err
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return err
	}
	existing, err := m.store.userByEmail(ctx, m.db, email)
	switch {
	case err == nil:
		existing.Role, existing.PasswordHash = auth.SuperAdmin, hash
		return m.store.updateUser(ctx, m.db, existing, "role", "password_hash")
	case !errs.Is(err, errs.NotFound):
		return err
	}
	return m.store.insertUser(ctx, m.db, &User{Email: email, FirstName: "Super", LastName: "Admin", Role: auth.SuperAdmin, PasswordHash: hash})
}

// Start schedules the pruning of expired sessions, resets and login failures.
func (m *Module) Start(ctx context.Context) error {
	return m.host.Scheduler.Every("accounts", "prune", time.Hour, true, m.prune)
}

func (m *Module) prune(ctx context.Context) error {
	now := time.Now().UTC()
	if _, err := m.db.NewDelete().Model((*session)(nil)).Where("expires_at < ?", now).Exec(ctx); err != nil {
		return fmt.Errorf("prune sessions: %w", err)
	}
	if _, err := m.db.NewDelete().Model((*passwordReset)(nil)).Where("expires_at < ?", now.Add(-24*time.Hour)).Exec(ctx); err != nil {
		return fmt.Errorf("prune password resets: %w", err)
	}
	if _, err := m.db.NewDelete().Model((*loginFailure)(nil)).Where("at < ?", now.Add(-failureWindow)).Exec(ctx); err != nil {
		return fmt.Errorf("prune login failures: %w", err)
	}
	return nil
}

// DemoLogin is an account of the demo company.
type DemoLogin struct {
	Email, Password string
	Role            auth.Role
}

// DemoCompanyName names the company `serve --demo` creates.
const DemoCompanyName = "Demo AB"

// EnsureDemoCompany creates the demo company with a CompanyAdmin and a User
// the first time, and returns their logins; later it returns the company's
// id and no logins (the passwords were shown once).
func (m *Module) EnsureDemoCompany(ctx context.Context) (int64, []DemoLogin, error) {
	var existing Company
	err := m.db.NewSelect().Model(&existing).Column("id").Where("name = ?", DemoCompanyName).Limit(1).Scan(ctx)
	if err == nil {
		return existing.ID, nil, nil
	}
	if !db.IsNoRows(err) {
		return 0, nil, fmt.Errorf("look up demo company: %w", err)
	}
	c := &Company{Name: DemoCompanyName, OrgNumber: "5560000000", ContactEmail: "demo@fieldhub.local", Country: "SE",
		PostalAddress: "Storgatan 1, 111 22 Stockholm"}
	logins := []DemoLogin{
		{Email: "demo-admin@fieldhub.local", Password: auth.RandomToken(9), Role: auth.CompanyAdmin},
		{Email: "demo-user@fieldhub.local", Password: auth.RandomToken(9), Role: auth.User},
	}
	err = m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := m.store.insertCompany(ctx, tx, c); err != nil {
			return err
		}
		for i, l := range logins {
			hash, err := auth.HashPassword(l.Password)
			if err != nil {
				return err
			}
			u := &User{CompanyID: &c.ID, Email: l.Email, FirstName: []string{"Dana", "Dan"}[i], LastName: "Demo",
				PhoneNumber: "46700000000", Role: l.Role, PasswordHash: hash}
			if err := m.store.insertUser(ctx, tx, u); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, nil, fmt.Errorf("create demo company: %w", err)
	}
	m.host.Bus.Publish(ctx, CompanyCreated{CompanyID: c.ID})
	return c.ID, logins, nil
}
