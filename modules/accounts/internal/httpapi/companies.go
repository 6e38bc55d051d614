package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/directory"
)

// listCompanies answers GET /companies: all companies for a SuperAdmin, the
// caller's own for the others.
func (a *API) listCompanies(w http.ResponseWriter, r *http.Request) error {
	only, none := listScope(auth.CallerFrom(r.Context()))
	if none {
		return web.OK(w, []accounts.Company{})
	}
	list, err := a.dir.Companies(r.Context(), only)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

func (a *API) allCompanies(w http.ResponseWriter, r *http.Request) error {
	list, err := a.dir.Companies(r.Context(), 0)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

// createCompany answers POST /companies: a SuperAdmin's new company, or an
// Admin's own (directory.Directory.AddCompany).
func (a *API) createCompany(w http.ResponseWriter, r *http.Request) error {
	c := auth.CallerFrom(r.Context())
	if c.Role == auth.Admin && c.CompanyID != 0 {
		return errs.New(errs.Conflict, accounts.MsgAlreadyMember)
	}
	var in directory.CompanyInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	company, err := a.dir.AddCompany(w, r, c, in)
	if err != nil {
		return err
	}
	return web.Created(w, company)
}

func (a *API) getCompany(w http.ResponseWriter, r *http.Request) error {
	c, err := a.visibleCompany(r.Context(), r)
	if err != nil {
		return err
	}
	return web.OK(w, c)
}

func (a *API) updateCompany(w http.ResponseWriter, r *http.Request) error {
	c, err := a.managedCompany(r.Context(), r)
	if err != nil {
		return err
	}
	var in directory.CompanyInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if err := a.dir.SaveCompany(r.Context(), c, in); err != nil {
		return err
	}
	return web.OK(w, c)
}

func (a *API) deleteCompany(w http.ResponseWriter, r *http.Request) error {
	c, err := a.visibleCompany(r.Context(), r)
	if err != nil {
		return err
	}
	if err := a.dir.DeleteCompany(r.Context(), c.ID); err != nil {
		return err
	}
	return web.NoContent(w)
}

func (a *API) companyUsers(w http.ResponseWriter, r *http.Request) error {
	c, err := a.visibleCompany(r.Context(), r)
	if err != nil {
		return err
	}
	users, err := a.dir.Users(r.Context(), c.ID)
	if err != nil {
		return err
	}
	return web.OK(w, users)
}

// invite answers POST /companies/{id}/user: an already registered user
// without a company joins this one as a User and is told by mail.
func (a *API) invite(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	company, err := a.managedCompany(ctx, r)
	if err != nil {
		return err
	}
	var in struct {
		Email string `json:"email"`
	}
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if err := a.dir.InviteUser(ctx, company, in.Email); err != nil {
		return err
	}
	return a.message(w, r, http.StatusOK, accounts.MsgInviteSent)
}

// listScope is the company whose companies or users a list shows the
// caller: 0 (all of them) for a SuperAdmin, else the caller's own; none is
// true for a caller without a company, whose list is empty.
func listScope(c auth.Caller) (company int64, none bool) {
	if c.Role == auth.SuperAdmin {
		return 0, false
	}
	return c.CompanyID, c.CompanyID == 0
}
