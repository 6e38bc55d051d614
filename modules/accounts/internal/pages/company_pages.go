package pages

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// The company pages: /company (overview), /company/edit with the logo, and
// /company/create. They act on the viewer's company: the caller's own, or
// for a SuperAdmin the one chosen in the switcher.

// viewedCompany loads the company the pages show; ok is false when the
// viewer has none (or it no longer exists), for the empty state.
func (p *Pages) viewedCompany(r *http.Request, manage bool) (c *accounts.Company, ok bool, err error) {
	id := web.ViewerFrom(r.Context()).CompanyID
	if id == 0 {
		return nil, false, nil
	}
	if manage {
		c, err = p.dir.ManagedCompany(r.Context(), id)
	} else {
		c, err = p.dir.VisibleCompany(r.Context(), id)
	}
	if errs.Is(err, errs.NotFound) {
		return nil, false, nil
	}
	return c, err == nil, err
}

func (p *Pages) companyPage(w http.ResponseWriter, r *http.Request) error {
	c, ok, err := p.viewedCompany(r, false)
	if err != nil {
		return err
	}
	if !ok {
		return p.ui.Render(w, r, http.StatusOK, "page.company.title", noCompany())
	}
	users, err := p.dir.Users(r.Context(), c.ID)
	if err != nil {
		return err
	}
	manage := auth.CallerFrom(r.Context()).CanManageCompany(c.ID)
	return p.ui.Render(w, r, http.StatusOK, "page.company.title", companyOverview(c, users, manage))
}

// editWrap draws a form of /company/edit inside the whole page.
func editWrap(c *accounts.Company, logoErrs ui.FormErrors) func(templ.Component) templ.Component {
	return func(form templ.Component) templ.Component {
		return companyEditPage(c, form, logoSection(c, logoErrs))
	}
}

func (p *Pages) companyEditPage(w http.ResponseWriter, r *http.Request) error {
	c, ok, err := p.viewedCompany(r, true)
	if err != nil {
		return err
	}
	if !ok {
		return p.ui.Render(w, r, http.StatusOK, "page.company.edit.title", noCompany())
	}
	return p.ui.Render(w, r, http.StatusOK, "page.company.edit.title",
		companyEditPage(c, companyEditForm(companyValues(c), ui.NoErrors), logoSection(c, ui.NoErrors)))
}

func (p *Pages) companyEditSubmit(w http.ResponseWriter, r *http.Request) error {
	c, ok, err := p.viewedCompany(r, true)
	if err != nil {
		return err
	}
	if !ok {
		return errs.New(errs.Invalid, accounts.MsgNoCompany)
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	shown := *c
	if err := p.dir.SaveCompany(r.Context(), c, companyInputFrom(vals, "")); err != nil {
		return p.ui.FormFailed(w, r, err, "page.company.edit.title", func(fe ui.FormErrors) templ.Component {
			return companyEditForm(vals, fe)
		}, editWrap(&shown, ui.NoErrors))
	}
	web.Toast(w, r, "success", p.t(r, "page.company.updated"))
	web.Redirect(w, r, "/company")
	return nil
}

// logoUpload takes the multipart form of the logo section (web.ReadImage).
func (p *Pages) logoUpload(w http.ResponseWriter, r *http.Request) error {
	c, ok, err := p.viewedCompany(r, true)
	if err != nil {
		return err
	}
	if !ok {
		return errs.New(errs.Invalid, accounts.MsgNoCompany)
	}
	data, _, err := web.ReadImage(r)
	if err == nil {
		_, err = p.dir.StoreImage(r.Context(), c, data)
	}
	if err != nil {
		return p.ui.FormFailed(w, r, err, "page.company.edit.title", func(fe ui.FormErrors) templ.Component {
			return logoSection(c, fe)
		}, func(logo templ.Component) templ.Component {
			return companyEditPage(c, companyEditForm(companyValues(c), ui.NoErrors), logo)
		})
	}
	web.Toast(w, r, "success", p.t(r, "page.company.logo.uploaded"))
	web.Redirect(w, r, "/company/edit")
	return nil
}

// logoDeletePage asks before the logo is removed: the confirmation step,
// a page of its own without JavaScript, swapped into the logo section by
// htmx.
func (p *Pages) logoDeletePage(w http.ResponseWriter, r *http.Request) error {
	c, ok, err := p.viewedCompany(r, true)
	if err != nil {
		return err
	}
	if !ok || c.Image == nil {
		web.Redirect(w, r, "/company/edit")
		return nil
	}
	return p.ui.Render(w, r, http.StatusOK, "page.company.logo.remove", logoConfirm(c))
}

func (p *Pages) logoDeleteSubmit(w http.ResponseWriter, r *http.Request) error {
	c, ok, err := p.viewedCompany(r, true)
	if err != nil {
		return err
	}
	if !ok {
		return errs.New(errs.Invalid, accounts.MsgNoCompany)
	}
	if err := p.dir.RemoveImage(r.Context(), c); err != nil {
		return err
	}
	web.Toast(w, r, "success", p.t(r, "page.company.logo.removed"))
	web.Redirect(w, r, "/company/edit")
	return nil
}

// companyCreatePage is /company/create: an Admin without a company creates
// one and joins it.
func (p *Pages) companyCreatePage(w http.ResponseWriter, r *http.Request) error {
	if auth.CallerFrom(r.Context()).CompanyID != 0 {
		return p.ui.Render(w, r, http.StatusOK, "page.company.create.title", alreadyMember())
	}
	form := companyCreateForm(url.Values{"country": {"SE"}}, ui.NoErrors)
	return p.ui.Render(w, r, http.StatusOK, "page.company.create.title", companyCreatePage(form))
}

func (p *Pages) companyCreateSubmit(w http.ResponseWriter, r *http.Request) error {
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	c := auth.CallerFrom(r.Context())
	if _, err := p.dir.AddCompany(w, r, c, companyInputFrom(vals, "")); err != nil {
		return p.ui.FormFailed(w, r, err, "page.company.create.title", func(fe ui.FormErrors) templ.Component {
			return companyCreateForm(vals, fe)
		}, companyCreatePage)
	}
	web.Toast(w, r, "success", p.t(r, "page.company.created"))
	web.Redirect(w, r, "/company")
	return nil
}

// countryName shows a country code with its name when the catalog has one.
func countryName(ctx context.Context, code string) string {
	if code == "" {
		return ""
	}
	id := "page.company.country." + code
	if name := ui.T(ctx, id); name != id {
		return name
	}
	return code
}

// fullName is how the pages name a user.
func fullName(u *accounts.User) string {
	if name := strings.TrimSpace(u.FirstName + " " + u.LastName); name != "" {
		return name
	}
	return u.Email
}
