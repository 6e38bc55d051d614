package pages

import (
	"net/http"
	"net/url"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/directory"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// The user pages: /company/user/{userId} (view, edit, role, delete) and
// /company/usercreate (create or invite). The rules are those of the API:
// directory.Directory.VisibleUser, directory.MayEdit, directory.MayChangeRoleOf,
// directory.MayGrant.

// pageUser loads the user of the path if the viewer may see them; another
// company's user is a 404.
func (p *Pages) pageUser(r *http.Request) (*accounts.User, error) {
	id, err := web.PathID(r, "userId")
	if err != nil {
		return nil, err
	}
	return p.dir.VisibleUser(r.Context(), id)
}

// mayDelete tells whether c gets the delete button for u; nobody deletes
// themselves.
func mayDelete(c auth.Caller, u *accounts.User) bool {
	return u.ID != c.UserID && directory.MayEdit(c, u)
}

// userView draws the user page; edit and role, when given, replace the
// fresh forms (a refused form with its messages).
func userView(c auth.Caller, u *accounts.User, edit, role templ.Component) templ.Component {
	if edit == nil && directory.MayEdit(c, u) {
		edit = userEditForm(u.ID, userValues(u), ui.NoErrors, c.UserID == u.ID)
	}
	if role == nil && directory.MayChangeRoleOf(c, u) {
		role = userRoleForm(u.ID, string(u.Role), roleOptions(c, u.Role), ui.NoErrors)
	}
	return userPage(u, edit, role, mayDelete(c, u))
}

func (p *Pages) userPage(w http.ResponseWriter, r *http.Request) error {
	u, err := p.pageUser(r)
	if err != nil {
		return err
	}
	return p.ui.Render(w, r, http.StatusOK, "page.user.title", userView(auth.CallerFrom(r.Context()), u, nil, nil))
}

func (p *Pages) userEditSubmit(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	c := auth.CallerFrom(ctx)
	u, err := p.pageUser(r)
	if err != nil {
		return err
	}
	if !directory.MayEdit(c, u) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	in := userInputFrom(vals, "")
	in.Role = nil // the role has its own form
	shown := *u
	self := c.UserID == u.ID
	if err := p.dir.EditUser(ctx, c, u, in); err != nil {
		return p.ui.FormFailed(w, r, err, "page.user.title", func(fe ui.FormErrors) templ.Component {
			return userEditForm(shown.ID, vals, fe, self)
		}, func(form templ.Component) templ.Component {
			return userView(c, &shown, form, nil)
		})
	}
	web.Toast(w, r, "success", p.t(r, "page.user.updated"))
	web.Redirect(w, r, userPath(u.ID, ""))
	return nil
}

func (p *Pages) userRoleSubmit(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	c := auth.CallerFrom(ctx)
	u, err := p.pageUser(r)
	if err != nil {
		return err
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	shown := *u
	if err := p.dir.SetRole(ctx, c, u, vals.Get("role")); err != nil {
		return p.ui.FormFailed(w, r, err, "page.user.title", func(fe ui.FormErrors) templ.Component {
			return userRoleForm(shown.ID, vals.Get("role"), roleOptions(c, shown.Role), fe)
		}, func(form templ.Component) templ.Component {
			return userView(c, &shown, nil, form)
		})
	}
	web.Toast(w, r, "success", p.t(r, "page.user.role.changed"))
	web.Redirect(w, r, userPath(u.ID, ""))
	return nil
}

// userDeletePage is the confirmation step before a user is deleted.
func (p *Pages) userDeletePage(w http.ResponseWriter, r *http.Request) error {
	c := auth.CallerFrom(r.Context())
	u, err := p.pageUser(r)
	if err != nil {
		return err
	}
	if u.ID == c.UserID {
		return errs.New(errs.Invalid, accounts.MsgDeleteSelf)
	}
	if !directory.MayEdit(c, u) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	return p.ui.Render(w, r, http.StatusOK, "page.user.delete", userDeleteConfirm(u))
}

func (p *Pages) userDeleteSubmit(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	u, err := p.pageUser(r)
	if err != nil {
		return err
	}
	if err := p.dir.RemoveUser(ctx, auth.CallerFrom(ctx), u); err != nil {
		return err
	}
	web.Toast(w, r, "success", p.t(r, "page.user.deleted", "name", fullName(u)))
	web.Redirect(w, r, "/company")
	return nil
}

// newUserValues are the values of a fresh user form.
func newUserValues() url.Values { return url.Values{"role": {string(auth.User)}} }

// usercreateWrap draws one form of /company/usercreate inside the page,
// the other one fresh.
func usercreateWrap(c auth.Caller, company *accounts.Company, invite bool) func(templ.Component) templ.Component {
	return func(form templ.Component) templ.Component {
		if invite {
			return usercreatePage(company, userCreateForm(newUserValues(), roleOptions(c, auth.User), ui.NoErrors), form)
		}
		return usercreatePage(company, form, inviteForm("", ui.NoErrors, ""))
	}
}

func (p *Pages) usercreatePage(w http.ResponseWriter, r *http.Request) error {
	company, ok, err := p.viewedCompany(r, true)
	if err != nil {
		return err
	}
	if !ok {
		return p.ui.Render(w, r, http.StatusOK, "page.company.usercreate.title", noCompany())
	}
	c := auth.CallerFrom(r.Context())
	form := userCreateForm(newUserValues(), roleOptions(c, auth.User), ui.NoErrors)
	return p.ui.Render(w, r, http.StatusOK, "page.company.usercreate.title", usercreateWrap(c, company, false)(form))
}

func (p *Pages) usercreateSubmit(w http.ResponseWriter, r *http.Request) error {
	company, ok, err := p.viewedCompany(r, true)
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
	c := auth.CallerFrom(r.Context())
	in := userInputFrom(vals, "")
	in.CurrentPassword = nil
	in.CompanyID = &company.ID // read for a SuperAdmin; the others create in their own
	u, err := p.dir.AddUser(r.Context(), c, in)
	if err != nil {
		return p.ui.FormFailed(w, r, err, "page.company.usercreate.title", func(fe ui.FormErrors) templ.Component {
			return userCreateForm(vals, roleOptions(c, auth.User), fe)
		}, usercreateWrap(c, company, false))
	}
	web.Toast(w, r, "success", p.t(r, "page.user.created", "name", fullName(u)))
	web.Redirect(w, r, userPath(u.ID, ""))
	return nil
}

// inviteSubmit answers the invitation form with the API's texts: the
// success message, or why the address cannot be invited.
func (p *Pages) inviteSubmit(w http.ResponseWriter, r *http.Request) error {
	company, ok, err := p.viewedCompany(r, true)
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
	c := auth.CallerFrom(r.Context())
	email := vals.Get("email")
	if err := p.dir.InviteUser(r.Context(), company, email); err != nil {
		return p.ui.FormFailed(w, r, err, "page.company.usercreate.title", func(fe ui.FormErrors) templ.Component {
			return inviteForm(email, fe, "")
		}, usercreateWrap(c, company, true))
	}
	sent := p.t(r, accounts.MsgInviteSent)
	web.Toast(w, r, "success", sent)
	return p.ui.RenderForm(w, r, http.StatusOK, "page.company.usercreate.title", inviteForm("", ui.NoErrors, sent), usercreateWrap(c, company, true))
}
