package core

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/google/uuid"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// safeNext keeps a post-login destination on this site: a path, never a
// URL to somewhere else ("//evil.example" included).
func safeNext(next string) string {
	u, err := url.Parse(next)
	if err != nil || next == "" || !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || u.Host != "" || strings.Contains(next, "\\") {
		return "/"
	}
	return next
}

func (m *Module) loginPage(w http.ResponseWriter, r *http.Request) error {
	if web.ViewerFrom(r.Context()).Caller.SignedIn() {
		web.Redirect(w, r, safeNext(r.URL.Query().Get("next")))
		return nil
	}
	return m.ui.Render(w, r, http.StatusOK, "page.login.title", authCard(loginForm("", r.URL.Query().Get("next"), ui.NoErrors)))
}

func (m *Module) loginSubmit(w http.ResponseWriter, r *http.Request) error {
	email, next := r.PostFormValue("email"), r.PostFormValue("next")
	ans, err := m.login(r, email, r.PostFormValue("password"))
	if err != nil {
		return m.ui.FormFailed(w, r, err, "page.login.title", func(fe ui.FormErrors) templ.Component {
			return loginForm(email, next, fe)
		}, authCard)
	}
	m.setCookies(w, ans)
	web.Toast(w, r, "success", ans.Message)
	web.Redirect(w, r, safeNext(next))
	return nil
}

// logoutPage ends the session (GET /logout, and the menu's POST).
func (m *Module) logoutPage(w http.ResponseWriter, r *http.Request) error {
	if err := m.endSession(r); err != nil {
		return err
	}
	m.clearCookies(w)
	web.Toast(w, r, "success", m.host.Catalogs.T(m.lang(r), "page.logout.done", nil))
	web.Redirect(w, r, "/login")
	return nil
}

func (m *Module) forgotPage(w http.ResponseWriter, r *http.Request) error {
	return m.ui.Render(w, r, http.StatusOK, "page.forgot.title", authCard(forgotForm("", ui.NoErrors, "")))
}

func (m *Module) forgotSubmit(w http.ResponseWriter, r *http.Request) error {
	email := r.PostFormValue("email")
	if err := m.requestReset(r, email); err != nil {
		return m.ui.FormFailed(w, r, err, "page.forgot.title", func(fe ui.FormErrors) templ.Component {
			return forgotForm(email, fe, "")
		}, authCard)
	}
	sent := m.host.Catalogs.T(web.ViewerFrom(r.Context()).Lang, msgForgotSent, nil)
	return m.ui.RenderForm(w, r, http.StatusOK, "page.forgot.title", forgotForm(email, ui.NoErrors, sent), authCard)
}

func (m *Module) resetPage(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("guid")
	if err := m.checkReset(r, id); err != nil {
		fe, ok := m.ui.ErrorsOf(web.ViewerFrom(r.Context()).Lang, err)
		if !ok {
			return err
		}
		return m.ui.Render(w, r, http.StatusNotFound, "page.reset.title", authCard(resetInvalid(fe.Form)))
	}
	return m.ui.Render(w, r, http.StatusOK, "page.reset.title", authCard(resetForm(id, ui.NoErrors)))
}

func (m *Module) resetSubmit(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("guid")
	confirm := r.PostFormValue("confirmPassword")
	if err := m.resetWith(r.Context(), id, r.PostFormValue("password"), &confirm); err != nil {
		return m.ui.FormFailed(w, r, err, "page.reset.title", func(fe ui.FormErrors) templ.Component {
			return resetForm(id, fe)
		}, authCard)
	}
	web.Toast(w, r, "success", m.host.Catalogs.T(m.lang(r), msgResetDone, nil))
	web.Redirect(w, r, "/login")
	return nil
}

// checkReset tells whether a reset link can still be used.
func (m *Module) checkReset(r *http.Request, id string) error {
	if _, err := uuid.Parse(id); err != nil {
		return errs.New(errs.Invalid, msgResetBadGUID)
	}
	n, err := m.db.NewSelect().Model((*passwordReset)(nil)).
		Where("id = ? AND used_at IS NULL AND expires_at > ?", id, time.Now().UTC()).Count(r.Context())
	if err != nil {
		return err
	}
	if n == 0 {
		return errs.New(errs.NotFound, msgResetInvalid)
	}
	return nil
}
