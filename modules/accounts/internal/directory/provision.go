package directory

import (
	"context"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/store"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/validate"
)

// EnsureCompany returns the company of that exact name, made in country
// the first time; see accounts.Provisioning.
func (d *Directory) EnsureCompany(ctx context.Context, name, country string) (*accounts.Company, error) {
	name = strings.TrimSpace(name)
	country = strings.ToUpper(strings.TrimSpace(country))
	v := &errs.Validation{}
	validate.Length(v, "name", name, validate.MaxName, true)
	if country != "" && !validate.Country(country) {
		v.Add("country", accounts.MsgCountryInvalid)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	id, found, err := store.CompanyIDByName(ctx, d.db, name)
	if err != nil {
		return nil, err
	}
	if found {
		return store.CompanyByID(ctx, d.db, id)
	}
	c := &accounts.Company{Name: name, Country: country, Timezone: accounts.CountryZone(country)}
	if err := store.InsertCompany(ctx, d.db, c); err != nil {
		return nil, err
	}
	d.host.Bus.Publish(ctx, accounts.CompanyCreated{CompanyID: c.ID})
	return c, nil
}

// EnsureMember returns the user of email, made the first time as a member
// of the company; see accounts.Provisioning.
func (d *Directory) EnsureMember(ctx context.Context, companyID int64, email, firstName, lastName string, role auth.Role) (*accounts.User, error) {
	email = validate.NormaliseEmail(email)
	v := &errs.Validation{}
	validate.Email(v, "email", email, errs.IDRequired)
	if role != auth.User && role != auth.CompanyAdmin && role != auth.Admin {
		v.AddArgs("role", accounts.MsgRoleInvalid, map[string]any{"role": string(role)})
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if _, err := store.CompanyByID(ctx, d.db, companyID); err != nil {
		return nil, err
	}
	u, err := store.UserByEmail(ctx, d.db, email)
	switch {
	case err == nil && (u.CompanyID == nil || *u.CompanyID != companyID):
		return nil, errs.New(errs.Conflict, accounts.MsgAlreadyMember)
	case err == nil:
		return u, nil
	case !errs.Is(err, errs.NotFound):
		return nil, err
	}
	hash, err := auth.HashPassword(auth.RandomToken(24))
	if err != nil {
		return nil, err
	}
	u = &accounts.User{CompanyID: &companyID, Email: email, FirstName: firstName, LastName: lastName, Role: role, PasswordHash: hash}
	if err := store.InsertUser(ctx, d.db, u); err != nil {
		return nil, err
	}
	return u, nil
}
