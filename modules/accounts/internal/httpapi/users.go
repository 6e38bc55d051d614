package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/directory"
)

// me answers GET /users: the caller's own account.
func (a *API) me(w http.ResponseWriter, r *http.Request) error {
	u, err := a.dir.User(r.Context(), auth.CallerFrom(r.Context()).UserID)
	if err != nil {
		return err
	}
	return web.OK(w, u)
}

// listUsers answers GET /users/all: every user for a SuperAdmin, the
// caller's company's users for the others.
func (a *API) listUsers(w http.ResponseWriter, r *http.Request) error {
	scope, none := listScope(auth.CallerFrom(r.Context()))
	if none {
		return web.OK(w, []accounts.User{})
	}
	users, err := a.dir.Users(r.Context(), scope)
	if err != nil {
		return err
	}
	return web.OK(w, users)
}

func (a *API) getUser(w http.ResponseWriter, r *http.Request) error {
	u, err := a.visibleUser(r.Context(), r)
	if err != nil {
		return err
	}
	return web.OK(w, u)
}

func (a *API) getUserCompany(w http.ResponseWriter, r *http.Request) error {
	u, err := a.visibleUser(r.Context(), r)
	if err != nil {
		return err
	}
	if u.CompanyID == nil {
		return errs.New(errs.NotFound, accounts.MsgNoCompany)
	}
	c, err := a.dir.Company(r.Context(), *u.CompanyID)
	if err != nil {
		return err
	}
	return web.OK(w, c)
}

// createUser answers POST /users: registration without a session
// (directory.Directory.RegisterUser), which answers 201 with the same message
// whether or not the address is taken, else a user an administrator
// creates (directory.Directory.AddUser), answered with the user.
func (a *API) createUser(w http.ResponseWriter, r *http.Request) error {
	c := auth.CallerFrom(r.Context())
	if err := a.dir.MayCreateUser(c); err != nil {
		return err
	}
	var in directory.UserInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if !c.SignedIn() {
		if err := a.dir.RegisterUser(r.Context(), a.host.Router.Lang(r), in); err != nil {
			return err
		}
		return a.message(w, r, http.StatusCreated, accounts.MsgRegistered)
	}
	u, err := a.dir.AddUser(r.Context(), c, in)
	if err != nil {
		return err
	}
	return web.Created(w, u)
}

// updateUser answers PUT /users/{id}: profile fields; the password only for
// oneself, with the current password. The role has its own call.
func (a *API) updateUser(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	u, err := a.visibleUser(ctx, r)
	if err != nil {
		return err
	}
	if !directory.MayEdit(auth.CallerFrom(ctx), u) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	var in directory.UserInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if err := a.dir.EditUser(ctx, auth.CallerFrom(ctx), u, in); err != nil {
		return err
	}
	return web.OK(w, u)
}

// deleteUser answers DELETE /users/{id}. Nobody deletes themselves.
func (a *API) deleteUser(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	u, err := a.visibleUser(ctx, r)
	if err != nil {
		return err
	}
	if err := a.dir.RemoveUser(ctx, auth.CallerFrom(ctx), u); err != nil {
		return err
	}
	return web.NoContent(w)
}

// changeRole answers PUT /users/{id}/role/{role}.
func (a *API) changeRole(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	u, err := a.visibleUser(ctx, r)
	if err != nil {
		return err
	}
	if err := a.dir.SetRole(ctx, auth.CallerFrom(ctx), u, r.PathValue("role")); err != nil {
		return err
	}
	return web.OK(w, u)
}

// createUserAndCompany answers POST /users/create/company (the /register
// page): a new company with its first user as CompanyAdmin.
func (a *API) createUserAndCompany(w http.ResponseWriter, r *http.Request) error {
	var in directory.RegisterInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	company, user, err := a.dir.Register(r.Context(), in)
	if err != nil {
		return err
	}
	return web.Created(w, map[string]any{"company": company, "user": user})
}
