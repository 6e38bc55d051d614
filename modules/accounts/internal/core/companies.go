package core

import (
	"context"
	"net/http"
	"strings"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/mail"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// companyInput is the body of company create and update calls, with the
// field names of SPEC.md section 3. Absent fields are left as they are on
// update.
type companyInput struct {
	Name            *string `json:"name"`
	OrgNumber       *string `json:"orgNumber"`
	PostalAddress   *string `json:"postalAdress"`
	DeliveryAddress *string `json:"deliveryAdress"`
	ContactPhone    *string `json:"contactPhonenumber"`
	ContactEmail    *string `json:"invoiceAdress"`
	ReferenceNumber *string `json:"refrenceNmuber"`
	Country         *string `json:"country"`
}

func newCompany(in companyInput) (*Company, error) {
	c := &Company{}
	if err := applyCompany(c, in, true); err != nil {
		return nil, err
	}
	return c, nil
}

// applyCompany copies the given fields of in onto c and validates them with
// the messages of SPEC.md section 5. With all set, absent fields count as
// empty (create); otherwise they are left alone (update).
func applyCompany(c *Company, in companyInput, all bool) error {
	v := &errs.Validation{}
	if all || in.Name != nil {
		c.Name = str(in.Name)
		switch {
		case c.Name == "":
			v.Add("name", msgCompanyNameReq)
		case len([]rune(c.Name)) > maxName:
			v.Add("name", msgCompanyNameLong)
		}
	}
	if all || in.OrgNumber != nil {
		c.OrgNumber = normaliseOrgNumber(str(in.OrgNumber))
		switch {
		case c.OrgNumber == "":
			v.Add("orgNumber", msgOrgNumberReq)
		case !validOrgNumber(c.OrgNumber):
			v.Add("orgNumber", msgOrgNumberFormat)
		}
	}
	if all || in.ContactEmail != nil {
		c.ContactEmail = normaliseEmail(str(in.ContactEmail))
		checkEmail(v, "invoiceAdress", c.ContactEmail, msgCompanyEmailReq)
	}
	if all || in.ContactPhone != nil {
		c.ContactPhone = normalisePhone(str(in.ContactPhone))
		checkPhone(v, "contactPhonenumber", c.ContactPhone, false)
	}
	if all || in.PostalAddress != nil {
		c.PostalAddress = str(in.PostalAddress)
		checkLength(v, "postalAdress", c.PostalAddress, maxAddress, false)
	}
	if all || in.DeliveryAddress != nil {
		c.DeliveryAddress = str(in.DeliveryAddress)
		checkLength(v, "deliveryAdress", c.DeliveryAddress, maxAddress, false)
	}
	if all || in.ReferenceNumber != nil {
		c.ReferenceNumber = str(in.ReferenceNumber)
		checkLength(v, "refrenceNmuber", c.ReferenceNumber, maxName, false)
	}
	if all || in.Country != nil {
		c.Country = strings.ToUpper(str(in.Country))
		if c.Country != "" && !countryCode.MatchString(c.Country) {
			v.Add("country", msgCountryInvalid)
		}
	}
	return v.Err()
}

// listCompanies answers GET /companies: all companies for a SuperAdmin, the
// caller's own for the others.
func (m *Module) listCompanies(w http.ResponseWriter, r *http.Request) error {
	c := auth.CallerFrom(r.Context())
	if c.Role != auth.SuperAdmin && c.CompanyID == 0 {
		return web.OK(w, []Company{})
	}
	only := c.CompanyID
	if c.Role == auth.SuperAdmin {
		only = 0
	}
	list, err := m.store.companies(r.Context(), m.db, only)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

func (m *Module) allCompanies(w http.ResponseWriter, r *http.Request) error {
	list, err := m.store.companies(r.Context(), m.db, 0)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

// createCompany answers POST /companies. A SuperAdmin creates any number of
// companies; an Admin without a company creates one and joins it (the
// /company/create page), and gets fresh tokens that carry it.
func (m *Module) createCompany(w http.ResponseWriter, r *http.Request) error {
	c := auth.CallerFrom(r.Context())
	if c.Role == auth.Admin && c.CompanyID != 0 {
		return errs.New(errs.Conflict, msgAlreadyMember)
	}
	var in companyInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	company, err := m.addCompany(w, r, c, in)
	if err != nil {
		return err
	}
	return web.Created(w, company)
}

// addCompany validates and stores a company on behalf of c; an Admin joins
// it and gets new tokens (cookies on w, and headers for API clients). The
// API and the /company/create page both use it.
func (m *Module) addCompany(w http.ResponseWriter, r *http.Request, c auth.Caller, in companyInput) (*Company, error) {
	ctx := r.Context()
	if c.Role == auth.Admin && c.CompanyID != 0 {
		return nil, errs.New(errs.Conflict, msgAlreadyMember)
	}
	company, err := newCompany(in)
	if err != nil {
		return nil, err
	}
	err = m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := m.store.insertCompany(ctx, tx, company); err != nil {
			return err
		}
		if c.Role != auth.Admin {
			return nil
		}
		res, err := tx.NewUpdate().Model((*User)(nil)).Set("company_id = ?", company.ID).
			Where("id = ? AND company_id IS NULL", c.UserID).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return errs.New(errs.Conflict, msgAlreadyMember)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if c.Role == auth.Admin {
		if err := m.reissue(w, r, c, company.ID); err != nil {
			return nil, err
		}
	}
	m.host.Bus.Publish(ctx, CompanyCreated{CompanyID: company.ID})
	return company, nil
}

func (m *Module) getCompany(w http.ResponseWriter, r *http.Request) error {
	c, err := m.visibleCompany(r.Context(), r)
	if err != nil {
		return err
	}
	return web.OK(w, c)
}

func (m *Module) updateCompany(w http.ResponseWriter, r *http.Request) error {
	c, err := m.managedCompany(r.Context(), r)
	if err != nil {
		return err
	}
	var in companyInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if err := m.saveCompany(r.Context(), c, in); err != nil {
		return err
	}
	return web.OK(w, c)
}

// saveCompany applies the given fields of in to c, a company the caller
// manages, and stores them; the API and the /company/edit page both use it.
func (m *Module) saveCompany(ctx context.Context, c *Company, in companyInput) error {
	if !auth.CallerFrom(ctx).CanManageCompany(c.ID) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	if err := applyCompany(c, in, false); err != nil {
		return err
	}
	return m.store.updateCompany(ctx, m.db, c)
}

func (m *Module) deleteCompany(w http.ResponseWriter, r *http.Request) error {
	c, err := m.visibleCompany(r.Context(), r)
	if err != nil {
		return err
	}
	err = m.db.RunInTx(r.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		return m.store.deleteCompany(ctx, tx, c.ID)
	})
	if err != nil {
		return err
	}
	m.host.Bus.Publish(r.Context(), CompanyDeleted{CompanyID: c.ID})
	return web.NoContent(w)
}

func (m *Module) companyUsers(w http.ResponseWriter, r *http.Request) error {
	c, err := m.visibleCompany(r.Context(), r)
	if err != nil {
		return err
	}
	users, err := m.store.users(r.Context(), m.db, c.ID)
	if err != nil {
		return err
	}
	return web.OK(w, users)
}

// invite answers POST /companies/{id}/user: an already registered user
// without a company joins this one as a User and is told by mail.
func (m *Module) invite(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	company, err := m.managedCompany(ctx, r)
	if err != nil {
		return err
	}
	var in struct {
		Email string `json:"email"`
	}
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if err := m.inviteUser(ctx, company, in.Email); err != nil {
		return err
	}
	return m.message(w, r, http.StatusOK, msgInviteSent)
}

// inviteUser adds the registered user of email, who has no company, to
// company, a company the caller manages, and mails them; inviting a member
// again succeeds without a mail. The API and the /company/usercreate page
// both use it.
func (m *Module) inviteUser(ctx context.Context, company *Company, email string) error {
	if !auth.CallerFrom(ctx).CanManageCompany(company.ID) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	email = normaliseEmail(email)
	v := &errs.Validation{}
	checkEmail(v, "email", email, errs.IDRequired)
	if err := v.Err(); err != nil {
		return err
	}
	u, err := m.store.userByEmail(ctx, m.db, email)
	if errs.Is(err, errs.NotFound) {
		return errs.New(errs.NotFound, msgInviteNotFound)
	}
	if err != nil {
		return err
	}
	if u.Company() == company.ID {
		return nil
	}
	if u.CompanyID != nil || u.Role == auth.SuperAdmin {
		return errs.New(errs.Conflict, msgInviteOther)
	}
	lang := company.Language()
	cat := m.host.Catalogs
	return m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewUpdate().Model((*User)(nil)).Set("company_id = ?", company.ID).Set("role = ?", auth.User).
			Where("id = ? AND company_id IS NULL", u.ID).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return errs.New(errs.Conflict, msgInviteOther)
		}
		if err := m.store.deleteSessionsOf(ctx, tx, u.ID); err != nil {
			return err
		}
		args := map[string]any{"name": u.Name(), "company": company.Name, "link": m.host.Config.PublicURL + "/login"}
		return m.host.Mail.Enqueue(ctx, tx, mail.Message{
			To:      []string{u.Email},
			Subject: cat.T(lang, "accounts.invite.mail.subject", args),
			Text:    cat.T(lang, "accounts.invite.mail.body", args),
		})
	})
}
