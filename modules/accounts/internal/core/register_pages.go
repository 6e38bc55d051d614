package core

import (
	"github.com/fieldhub/fieldhub/kernel/web"
	"net/http"
	"net/url"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/webapp/ui"
)

// registerPage is /register (SuperAdmin): a new company with its first
// CompanyAdmin, through registerCompany as POST /users/create/company.
func (m *Module) registerPage(w http.ResponseWriter, r *http.Request) error {
	form := registerForm(url.Values{"company.country": {"SE"}}, ui.NoErrors)
	return m.ui.Render(w, r, http.StatusOK, "page.register.title", registerPage(form))
}

func (m *Module) registerSubmit(w http.ResponseWriter, r *http.Request) error {
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	in := companyAndUserInput{Company: companyInputFrom(vals, "company."), User: userInputFrom(vals, "user.")}
	in.User.Role, in.User.CurrentPassword = nil, nil
	company, _, err := m.registerCompany(r.Context(), in)
	if err != nil {
		return m.ui.FormFailed(w, r, err, "page.register.title", func(fe ui.FormErrors) templ.Component {
			return registerForm(vals, fe)
		}, registerPage)
	}
	web.Toast(w, r, "success", m.t(r, "page.register.done", "name", company.Name))
	web.Redirect(w, r, "/superadmin")
	return nil
}
