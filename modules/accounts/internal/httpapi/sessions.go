package httpapi

import (
	"net/http"

	"github.com/google/uuid"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/signin"
)

// authenticate answers POST /users/authenticate with tokens, and sets them as
// HttpOnly cookies for browsers.
func (a *API) authenticate(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	ans, err := a.signin.Login(r, in.Email, in.Password)
	if err != nil {
		return err
	}
	a.signin.SetCookies(w, ans)
	return web.OK(w, ans)
}

// refresh answers POST /users/refresh: a refresh token (in the body or the
// cookie) buys a new access token and is replaced by a new refresh token
// (signin.Service.Renew).
func (a *API) refresh(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		RefreshToken string `json:"refreshToken"`
	}
	if r.ContentLength != 0 {
		if err := web.Decode(r, &in); err != nil {
			return err
		}
	}
	if in.RefreshToken == "" {
		if c, err := r.Cookie(signin.RefreshCookie); err == nil {
			in.RefreshToken = c.Value
		}
	}
	ans, err := a.signin.Renew(r.Context(), in.RefreshToken)
	if err != nil {
		return err
	}
	a.signin.SetCookies(w, ans)
	return web.OK(w, ans)
}

// logout answers POST /users/logout: the session ends and the cookies clear.
func (a *API) logout(w http.ResponseWriter, r *http.Request) error {
	if err := a.signin.End(r); err != nil {
		return err
	}
	a.signin.ClearCookies(w)
	return web.NoContent(w)
}

// forgot answers POST /users/forgot/{email}. It answers the same whether or
// not the address has an account, so that it cannot be used to find out.
func (a *API) forgot(w http.ResponseWriter, r *http.Request) error {
	if err := a.signin.RequestReset(r, r.PathValue("email")); err != nil {
		return err
	}
	return a.message(w, r, http.StatusAccepted, accounts.MsgForgotSent)
}

// resetPassword answers PUT /users/forgot/{guid} with the new password.
func (a *API) resetPassword(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Password        string  `json:"password"`
		ConfirmPassword *string `json:"confirmPassword"`
	}
	if _, err := uuid.Parse(r.PathValue("guid")); err != nil {
		return errs.New(errs.Invalid, accounts.MsgResetBadGUID)
	}
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if err := a.signin.Reset(r.Context(), r.PathValue("guid"), in.Password, in.ConfirmPassword); err != nil {
		return err
	}
	return a.message(w, r, http.StatusOK, accounts.MsgResetDone)
}
