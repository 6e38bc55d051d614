package pages

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
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

func (p *Pages) loginPage(w http.ResponseWriter, r *http.Request) error {
	if web.ViewerFrom(r.Context()).Caller.SignedIn() {
		web.Redirect(w, r, safeNext(r.URL.Query().Get("next")))
		return nil
	}
	return p.ui.Render(w, r, http.StatusOK, "page.login.title", authCard(loginForm("", r.URL.Query().Get("next"), ui.NoErrors)))
}

func (p *Pages) loginSubmit(w http.ResponseWriter, r *http.Request) error {
	email, next := r.PostFormValue("email"), r.PostFormValue("next")
	ans, err := p.signin.Login(r, email, r.PostFormValue("password"))
	if err != nil {
		return p.ui.FormFailed(w, r, err, "page.login.title", func(fe ui.FormErrors) templ.Component {
			return loginForm(email, next, fe)
		}, authCard)
	}
	p.signin.SetCookies(w, ans)
	web.Toast(w, r, "success", ans.Message)
	web.Redirect(w, r, safeNext(next))
	return nil
}

// logoutPage ends the session: the menu's form posts to it. There is no GET
// /logout, which a link or an image on another site could call.
func (p *Pages) logoutPage(w http.ResponseWriter, r *http.Request) error {
	if err := p.signin.End(r); err != nil {
		return err
	}
	p.signin.ClearCookies(w)
	web.Toast(w, r, "success", p.host.Catalogs.T(p.host.Router.Lang(r), "page.logout.done", nil))
	web.Redirect(w, r, "/login")
	return nil
}

func (p *Pages) forgotPage(w http.ResponseWriter, r *http.Request) error {
	return p.ui.Render(w, r, http.StatusOK, "page.forgot.title", authCard(forgotForm("", ui.NoErrors, "")))
}

func (p *Pages) forgotSubmit(w http.ResponseWriter, r *http.Request) error {
	email := r.PostFormValue("email")
	if err := p.signin.RequestReset(r, email); err != nil {
		return p.ui.FormFailed(w, r, err, "page.forgot.title", func(fe ui.FormErrors) templ.Component {
			return forgotForm(email, fe, "")
		}, authCard)
	}
	sent := p.host.Catalogs.T(web.ViewerFrom(r.Context()).Lang, accounts.MsgForgotSent, nil)
	return p.ui.RenderForm(w, r, http.StatusOK, "page.forgot.title", forgotForm(email, ui.NoErrors, sent), authCard)
}

func (p *Pages) resetPage(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("guid")
	if err := p.signin.CheckReset(r.Context(), id); err != nil {
		fe, ok := p.ui.ErrorsOf(web.ViewerFrom(r.Context()).Lang, err)
		if !ok {
			return err
		}
		return p.ui.Render(w, r, http.StatusNotFound, "page.reset.title", authCard(resetInvalid(fe.Form)))
	}
	return p.ui.Render(w, r, http.StatusOK, "page.reset.title", authCard(resetForm(id, ui.NoErrors)))
}

func (p *Pages) resetSubmit(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("guid")
	confirm := r.PostFormValue("confirmPassword")
	if err := p.signin.Reset(r.Context(), id, r.PostFormValue("password"), &confirm); err != nil {
		return p.ui.FormFailed(w, r, err, "page.reset.title", func(fe ui.FormErrors) templ.Component {
			return resetForm(id, fe)
		}, authCard)
	}
	web.Toast(w, r, "success", p.host.Catalogs.T(p.host.Router.Lang(r), accounts.MsgResetDone, nil))
	web.Redirect(w, r, "/login")
	return nil
}
