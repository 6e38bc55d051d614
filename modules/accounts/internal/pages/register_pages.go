package pages

import (
	"net/http"
	"net/url"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/directory"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// registerPage is /register (SuperAdmin): a new company with its first
// CompanyAdmin, through directory.Directory.Register as POST
// /users/create/company.
func (p *Pages) registerPage(w http.ResponseWriter, r *http.Request) error {
	form := registerForm(url.Values{"company.country": {"SE"}}, ui.NoErrors)
	return p.ui.Render(w, r, http.StatusOK, "page.register.title", registerPage(form))
}

func (p *Pages) registerSubmit(w http.ResponseWriter, r *http.Request) error {
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	in := directory.RegisterInput{Company: companyInputFrom(vals, "company."), User: userInputFrom(vals, "user.")}
	in.User.Role, in.User.CurrentPassword = nil, nil
	company, _, err := p.dir.Register(r.Context(), in)
	if err != nil {
		return p.ui.FormFailed(w, r, err, "page.register.title", func(fe ui.FormErrors) templ.Component {
			return registerForm(vals, fe)
		}, registerPage)
	}
	web.Toast(w, r, "success", p.t(r, "page.register.done", "name", company.Name))
	web.Redirect(w, r, "/superadmin")
	return nil
}
