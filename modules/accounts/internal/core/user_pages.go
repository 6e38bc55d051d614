package core

import (
	"net/http"
	"net/url"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// The user pages of SPEC.md section 2: /company/user/{userId} (view, edit,
// role, delete) and /company/usercreate (create or invite). The rules are
// those of the API: visibleUser, mayEdit, mayGrant.

// pageUser loads the user of the path if the viewer may see them; another
// company's user is a 404.
func (m *Module) pageUser(r *http.Request) (*User, error) {
	id, err := web.PathID(r, "userId")
	if err != nil {
		return nil, err
	}
	return m.visibleUserByID(r.Context(), id)
}

// mayChangeRole tells whether c gets the role form for u: the dedicated call
// is for administrators, never about oneself.
func mayChangeRole(c auth.Caller, u *User) bool {
	return u.ID != c.UserID && c.Role.In(auth.AdminOrCompanyAdmin) && mayEdit(c, u)
}

// mayDelete tells whether c gets the delete button for u; nobody deletes
// themselves (SPEC.md section 5).
func mayDelete(c auth.Caller, u *User) bool { return u.ID != c.UserID && mayEdit(c, u) }

// userView draws the user page; edit and role, when given, replace the
// fresh forms (a refused form with its messages).
func userView(c auth.Caller, u *User, edit, role templ.Component) templ.Component {
	if edit == nil && mayEdit(c, u) {
		edit = userEditForm(u.ID, userValues(u), ui.NoErrors, c.UserID == u.ID)
	}
	if role == nil && mayChangeRole(c, u) {
		role = userRoleForm(u.ID, string(u.Role), roleOptions(c, u.Role), ui.NoErrors)
	}
	return userPage(u, edit, role, mayDelete(c, u))
}

func (m *Module) userPage(w http.ResponseWriter, r *http.Request) error {
	u, err := m.pageUser(r)
	if err != nil {
		return err
	}
	return m.ui.Render(w, r, http.StatusOK, "page.user.title", userView(auth.CallerFrom(r.Context()), u, nil, nil))
}

func (m *Module) userEditSubmit(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	c := auth.CallerFrom(ctx)
	u, err := m.pageUser(r)
	if err != nil {
		return err
	}
	if !mayEdit(c, u) {
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
	if err := m.editUser(ctx, c, u, in); err != nil {
		return m.ui.FormFailed(w, r, err, "page.user.title", func(fe ui.FormErrors) templ.Component {
			return userEditForm(shown.ID, vals, fe, self)
		}, func(form templ.Component) templ.Component {
			return userView(c, &shown, form, nil)
		})
	}
	web.Toast(w, r, "success", m.t(r, "page.user.updated"))
	web.Redirect(w, r, userPath(u.ID, ""))
	return nil
}

func (m *Module) userRoleSubmit(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	c := auth.CallerFrom(ctx)
	u, err := m.pageUser(r)
	if err != nil {
		return err
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	shown := *u
	if err := m.setRole(ctx, c, u, vals.Get("role")); err != nil {
		return m.ui.FormFailed(w, r, err, "page.user.title", func(fe ui.FormErrors) templ.Component {
			return userRoleForm(shown.ID, vals.Get("role"), roleOptions(c, shown.Role), fe)
		}, func(form templ.Component) templ.Component {
			return userView(c, &shown, nil, form)
		})
	}
	web.Toast(w, r, "success", m.t(r, "page.user.role.changed"))
	web.Redirect(w, r, userPath(u.ID, ""))
	return nil
}

// userDeletePage is the confirmation step before a user is deleted.
func (m *Module) userDeletePage(w http.ResponseWriter, r *http.Request) error {
	c := auth.CallerFrom(r.Context())
	u, err := m.pageUser(r)
	if err != nil {
		return err
	}
	if u.ID == c.UserID {
		return errs.New(errs.Invalid, msgDeleteSelf)
	}
	if !mayEdit(c, u) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	return m.ui.Render(w, r, http.StatusOK, "page.user.delete", userDeleteConfirm(u))
}

func (m *Module) userDeleteSubmit(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	u, err := m.pageUser(r)
	if err != nil {
		return err
	}
	if err := m.removeUser(ctx, auth.CallerFrom(ctx), u); err != nil {
		return err
	}
	web.Toast(w, r, "success", m.t(r, "page.user.deleted", "name", fullName(u)))
	web.Redirect(w, r, "/company")
	return nil
}

// newUserValues are the values of a fresh user form.
func newUserValues() url.Values { return url.Values{"role": {string(auth.User)}} }

// usercreateWrap draws one form of /company/usercreate inside the page,
// the other one fresh.
func usercreateWrap(c auth.Caller, company *Company, invite bool) func(templ.Component) templ.Component {
	return func(form templ.Component) templ.Component {
		if invite {
			return usercreatePage(company, userCreateForm(newUserValues(), roleOptions(c, auth.User), ui.NoErrors), form)
		}
		return usercreatePage(company, form, inviteForm("", ui.NoErrors, ""))
	}
}

func (m *Module) usercreatePage(w http.ResponseWriter, r *http.Request) error {
	company, ok, err := m.viewedCompany(r, true)
	if err != nil {
		return err
	}
	if !ok {
		return m.ui.Render(w, r, http.StatusOK, "page.company.usercreate.title", noCompany())
	}
	c := auth.CallerFrom(r.Context())
	form := userCreateForm(newUserValues(), roleOptions(c, auth.User), ui.NoErrors)
	return m.ui.Render(w, r, http.StatusOK, "page.company.usercreate.title", usercreateWrap(c, company, false)(form))
}

func (m *Module) usercreateSubmit(w http.ResponseWriter, r *http.Request) error {
	company, ok, err := m.viewedCompany(r, true)
	if err != nil {
		return err
	}
	if !ok {
		return errs.New(errs.Invalid, msgNoCompany)
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	c := auth.CallerFrom(r.Context())
	in := userInputFrom(vals, "")
	in.CurrentPassword = nil
	in.CompanyID = &company.ID // read for a SuperAdmin; the others create in their own
	u, err := m.addUser(r.Context(), c, in)
	if err != nil {
		return m.ui.FormFailed(w, r, err, "page.company.usercreate.title", func(fe ui.FormErrors) templ.Component {
			return userCreateForm(vals, roleOptions(c, auth.User), fe)
		}, usercreateWrap(c, company, false))
	}
	web.Toast(w, r, "success", m.t(r, "page.user.created", "name", fullName(u)))
	web.Redirect(w, r, userPath(u.ID, ""))
	return nil
}

// inviteSubmit answers the invitation form with SPEC.md section 8's texts.
func (m *Module) inviteSubmit(w http.ResponseWriter, r *http.Request) error {
	company, ok, err := m.viewedCompany(r, true)
	if err != nil {
		return err
	}
	if !ok {
		return errs.New(errs.Invalid, msgNoCompany)
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	c := auth.CallerFrom(r.Context())
	email := vals.Get("email")
	if err := m.inviteUser(r.Context(), company, email); err != nil {
		return m.ui.FormFailed(w, r, err, "page.company.usercreate.title", func(fe ui.FormErrors) templ.Component {
			return inviteForm(email, fe, "")
		}, usercreateWrap(c, company, true))
	}
	sent := m.t(r, msgInviteSent)
	web.Toast(w, r, "success", sent)
	return m.ui.RenderForm(w, r, http.StatusOK, "page.company.usercreate.title", inviteForm("", ui.NoErrors, sent), usercreateWrap(c, company, true))
}
