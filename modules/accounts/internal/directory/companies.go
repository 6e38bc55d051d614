package directory

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/mail"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/store"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/validate"
)

// CompanyInput is the body of company create and update calls, with the
// JSON names of accounts.Company, and what the company forms post. Absent
// fields are left as they are on update.
type CompanyInput struct {
	Name            *string `json:"name"`
	OrgNumber       *string `json:"orgNumber"`
	PostalAddress   *string `json:"postalAdress"`
	DeliveryAddress *string `json:"deliveryAdress"`
	ContactPhone    *string `json:"contactPhonenumber"`
	ContactEmail    *string `json:"invoiceAdress"`
	ReferenceNumber *string `json:"refrenceNmuber"`
	Country         *string `json:"country"`
	Timezone        *string `json:"timezone"` // "" (or absent on create) is that of the country
}

func newCompany(in CompanyInput) (*accounts.Company, error) {
	c := &accounts.Company{}
	if err := applyCompany(c, in, true); err != nil {
		return nil, err
	}
	return c, nil
}

// applyCompany copies the given fields of in onto c and validates them: a
// name, an org or VAT number and an invoice address are required; the time
// zone defaults to that of the country. With all
// set, absent fields count as empty (create); otherwise they are left alone
// (update).
func applyCompany(c *accounts.Company, in CompanyInput, all bool) error {
	v := &errs.Validation{}
	if all || in.Name != nil {
		c.Name = str(in.Name)
		switch {
		case c.Name == "":
			v.Add("name", accounts.MsgCompanyNameReq)
		case len([]rune(c.Name)) > validate.MaxName:
			v.Add("name", accounts.MsgCompanyNameLong)
		}
	}
	if all || in.OrgNumber != nil {
		c.OrgNumber = validate.NormaliseOrgNumber(str(in.OrgNumber))
		switch {
		case c.OrgNumber == "":
			v.Add("orgNumber", accounts.MsgOrgNumberReq)
		case !validate.OrgNumber(c.OrgNumber):
			v.Add("orgNumber", accounts.MsgOrgNumberFormat)
		}
	}
	if all || in.ContactEmail != nil {
		c.ContactEmail = validate.NormaliseEmail(str(in.ContactEmail))
		validate.Email(v, "invoiceAdress", c.ContactEmail, accounts.MsgCompanyEmailReq)
	}
	if all || in.ContactPhone != nil {
		c.ContactPhone = validate.NormalisePhone(str(in.ContactPhone))
		validate.Phone(v, "contactPhonenumber", c.ContactPhone, false)
	}
	if all || in.PostalAddress != nil {
		c.PostalAddress = str(in.PostalAddress)
		validate.Length(v, "postalAdress", c.PostalAddress, validate.MaxAddress, false)
	}
	if all || in.DeliveryAddress != nil {
		c.DeliveryAddress = str(in.DeliveryAddress)
		validate.Length(v, "deliveryAdress", c.DeliveryAddress, validate.MaxAddress, false)
	}
	if all || in.ReferenceNumber != nil {
		c.ReferenceNumber = str(in.ReferenceNumber)
		validate.Length(v, "refrenceNmuber", c.ReferenceNumber, validate.MaxName, false)
	}
	oldCountry := c.Country
	if all || in.Country != nil {
		c.Country = strings.ToUpper(str(in.Country))
		if c.Country != "" && !validate.Country(c.Country) {
			v.Add("country", accounts.MsgCountryInvalid)
		}
	}
	switch {
	case all || in.Timezone != nil:
		c.Timezone = strings.TrimSpace(str(in.Timezone))
		if c.Timezone == "" {
			c.Timezone = accounts.CountryZone(c.Country)
		} else if !accounts.ValidZone(c.Timezone) {
			v.Add("timezone", accounts.MsgTimezoneInvalid)
		}
	case c.Country != oldCountry && (c.Timezone == "" || c.Timezone == accounts.CountryZone(oldCountry)):
		// A company that moves keeps a zone it chose, but not the one it
		// had only from its old country.
		c.Timezone = accounts.CountryZone(c.Country)
	}
	return v.Err()
}

// AddCompany validates and stores a company on behalf of c. A SuperAdmin
// creates any number of companies; an Admin without a company creates one,
// joins it and gets new tokens that carry it (cookies on w, and headers for
// API clients). The API and the /company/create page both use it.
func (d *Directory) AddCompany(w http.ResponseWriter, r *http.Request, c auth.Caller, in CompanyInput) (*accounts.Company, error) {
	ctx := r.Context()
	if c.Role == auth.Admin && c.CompanyID != 0 {
		return nil, errs.New(errs.Conflict, accounts.MsgAlreadyMember)
	}
	company, err := newCompany(in)
	if err != nil {
		return nil, err
	}
	err = d.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := d.checkCompanyLimit(ctx, tx); err != nil {
			return err
		}
		if err := store.InsertCompany(ctx, tx, company); err != nil {
			return err
		}
		if c.Role != auth.Admin {
			return nil
		}
		joined, err := store.JoinCompany(ctx, tx, c.UserID, company.ID)
		if err != nil {
			return err
		}
		if !joined {
			return errs.New(errs.Conflict, accounts.MsgAlreadyMember)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if c.Role == auth.Admin {
		if err := d.signin.Reissue(w, r, c, company.ID); err != nil {
			return nil, err
		}
	}
	d.host.Bus.Publish(ctx, accounts.CompanyCreated{CompanyID: company.ID})
	d.announce(ctx, company.ID, accounts.AuditCompanyCreated, map[string]any{"name": company.Name}, nil, nil)
	return company, nil
}

// checkCompanyLimit refuses another company when the installation has as
// many as its license allows. Two requests at once may both pass the count;
// the limit is a license term, not a security boundary, so a lock across
// the table is not worth it.
func (d *Directory) checkCompanyLimit(ctx context.Context, idb bun.IDB) error {
	if d.limit == nil {
		return nil
	}
	max := d.limit.CompanyLimit()
	if max <= 0 {
		return nil
	}
	n, err := store.CountCompanies(ctx, idb)
	if err != nil {
		return err
	}
	if n >= max {
		return errs.New(errs.Forbidden, accounts.MsgCompanyLimit).With("max", max)
	}
	return nil
}

// SaveCompany applies the given fields of in to c, a company the caller
// manages, and stores them; the API and the /company/edit page both use it.
func (d *Directory) SaveCompany(ctx context.Context, c *accounts.Company, in CompanyInput) error {
	if !auth.CallerFrom(ctx).CanManageCompany(c.ID) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	was := companyFields(c)
	if err := applyCompany(c, in, false); err != nil {
		return err
	}
	if err := store.UpdateCompany(ctx, d.db, c); err != nil {
		return err
	}
	if before, after := audit.Diff(was, companyFields(c)); !audit.Empty(after) {
		d.announce(ctx, c.ID, accounts.AuditCompanyEdited, map[string]any{"name": c.Name}, before, after)
	}
	return nil
}

// DeleteCompany deletes company id, whose members stay as users without a
// company, and publishes accounts.CompanyDeleted.
func (d *Directory) DeleteCompany(ctx context.Context, id int64) error {
	name := "#" + strconv.FormatInt(id, 10)
	if c, err := store.CompanyByID(ctx, d.db, id); err == nil {
		name = c.Name
	}
	var ended []string
	err := d.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		ended, err = store.DeleteCompany(ctx, tx, id)
		return err
	})
	if err != nil {
		return err
	}
	d.signin.SessionsEnded(ended)
	d.host.Bus.Publish(ctx, accounts.CompanyDeleted{CompanyID: id})
	// The company is gone: its deletion belongs to the installation.
	d.announce(ctx, 0, accounts.AuditCompanyDeleted, map[string]any{"name": name, "companyId": id}, nil, nil)
	return nil
}

// InviteUser adds the registered user of email, who has no company, to
// company, a company the caller manages, as a User, and mails them in the
// company's language; inviting a member again succeeds without a mail. The
// API and the /company/usercreate page both use it.
func (d *Directory) InviteUser(ctx context.Context, company *accounts.Company, email string) error {
	if !auth.CallerFrom(ctx).CanManageCompany(company.ID) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	email = validate.NormaliseEmail(email)
	v := &errs.Validation{}
	validate.Email(v, "email", email, errs.IDRequired)
	if err := v.Err(); err != nil {
		return err
	}
	u, err := store.UserByEmail(ctx, d.db, email)
	if errs.Is(err, errs.NotFound) {
		return errs.New(errs.NotFound, accounts.MsgInviteNotFound)
	}
	if err != nil {
		return err
	}
	if u.Company() == company.ID {
		return nil
	}
	if u.CompanyID != nil || u.Role == auth.SuperAdmin {
		return errs.New(errs.Conflict, accounts.MsgInviteOther)
	}
	lang := company.Language()
	cat := d.host.Catalogs
	var ended []string
	err = d.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		added, err := store.AddMember(ctx, tx, u.ID, company.ID, auth.User)
		if err != nil {
			return err
		}
		if !added {
			return errs.New(errs.Conflict, accounts.MsgInviteOther)
		}
		if ended, err = store.EndSessionsOf(ctx, tx, u.ID); err != nil {
			return err
		}
		args := map[string]any{"name": u.Name(), "company": company.Name, "link": d.host.Config.PublicURL + "/login"}
		return d.host.Mail.Enqueue(ctx, tx, mail.Message{
			To:      []string{u.Email},
			Subject: cat.T(lang, "accounts.invite.mail.subject", args),
			Text:    cat.T(lang, "accounts.invite.mail.body", args),
		})
	})
	if err != nil {
		return err
	}
	d.signin.SessionsEnded(ended)
	d.announce(ctx, company.ID, accounts.AuditUserInvited, map[string]any{"target": u.Email}, nil, nil)
	return nil
}

// RegisterInput is the body of POST /users/create/company.
type RegisterInput struct {
	Company CompanyInput `json:"company"`
	User    UserInput    `json:"user"`
}

// Register validates and stores a company with its first user, a
// CompanyAdmin; the API and the /register page both use it. Field errors are
// named "company.name", "user.email" and so on.
func (d *Directory) Register(ctx context.Context, in RegisterInput) (*accounts.Company, *accounts.User, error) {
	company, cerr := newCompany(in.Company)
	user, uerr := newUser(in.User)
	if err := mergeValidation([]string{"company.", "user."}, []error{cerr, uerr}); err != nil {
		return nil, nil, err
	}
	user.Role = auth.CompanyAdmin
	err := d.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := d.checkCompanyLimit(ctx, tx); err != nil {
			return err
		}
		if err := store.InsertCompany(ctx, tx, company); err != nil {
			return err
		}
		user.CompanyID = &company.ID
		return store.InsertUser(ctx, tx, user)
	})
	if err != nil {
		return nil, nil, err
	}
	d.host.Bus.Publish(ctx, accounts.CompanyCreated{CompanyID: company.ID})
	d.announce(ctx, company.ID, accounts.AuditCompanyCreated, map[string]any{"name": company.Name}, nil, nil)
	d.announce(ctx, company.ID, accounts.AuditUserCreated, map[string]any{"target": user.Email, "role": string(user.Role)}, nil, nil)
	return company, user, nil
}

// mergeValidation joins the validation errors of nested objects, prefixing
// each field with its object's name; any other error is returned as is.
func mergeValidation(prefixes []string, parts []error) error {
	v := &errs.Validation{}
	for i, err := range parts {
		prefix := prefixes[i]
		if err == nil {
			continue
		}
		e, ok := err.(*errs.Error)
		if !ok || e.Kind != errs.Invalid {
			return err
		}
		for _, f := range e.Fields {
			v.AddArgs(prefix+f.Field, f.ID, f.Args)
		}
	}
	return v.Err()
}
