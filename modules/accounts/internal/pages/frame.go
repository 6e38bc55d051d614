package pages

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
)

// errBadCompanyChoice answers a company switch without a company id.
var errBadCompanyChoice = errs.New(errs.Invalid, errs.IDBadID)

// menuItems are this module's side menu entries; Order leaves room for the
// entries of other modules.
var menuItems = []web.MenuItem{
	{ID: "superadmin", LabelID: "menu.superadmin", Href: "/superadmin", Icon: "mdi-shield-crown", Roles: auth.SuperAdminOnly, Order: 20},
	{ID: "company", LabelID: "menu.company", Href: "/company", Icon: "mdi-domain", Roles: auth.CompanyOrUser, Order: 40},
	{ID: "register", LabelID: "menu.register", Href: "/register", Icon: "mdi-domain-plus", Roles: auth.SuperAdminOnly, Order: 140},
	{ID: "login", LabelID: "menu.login", Href: "/login", Icon: "mdi-login", Roles: []auth.Role{}, Guest: true, Order: 900},
}

// enrichViewer tells the frame the viewer's name and company, and gives a
// SuperAdmin the companies to switch between. Times show in the company's
// time zone (the settings module then applies a user's own choice).
func (p *Pages) enrichViewer(r *http.Request, v *web.Viewer) error {
	v.WhiteLabel = p.host.License.WhiteLabel
	if !v.Caller.SignedIn() {
		return nil
	}
	ctx := r.Context()
	u, err := p.dir.User(ctx, v.Caller.UserID)
	if err != nil {
		return nil // a deleted user's token lapses on its own; the page shows no name
	}
	v.UserName = strings.TrimSpace(u.FirstName + " " + u.LastName)
	if v.Caller.Role == auth.SuperAdmin {
		companies, err := p.dir.Companies(ctx, 0)
		if err != nil {
			return err
		}
		chosen := chosenCompany(r)
		for _, c := range companies {
			v.Companies = append(v.Companies, web.Choice{ID: c.ID, Name: c.Name})
			if c.ID == chosen || (chosen == 0 && v.CompanyID == 0) {
				v.CompanyID, v.CompanyName, chosen = c.ID, c.Name, c.ID
				v.Location = c.Location()
			}
		}
		if v.CompanyID == 0 && len(companies) > 0 {
			// The chosen company was deleted: the switcher shows the first
			// one, so the pages work in it rather than in none.
			v.CompanyID, v.CompanyName = companies[0].ID, companies[0].Name
		}
		return nil
	}
	if v.CompanyID != 0 {
		c, err := p.dir.Company(ctx, v.CompanyID)
		if err == nil {
			v.CompanyName, v.Location = c.Name, c.Location()
		}
	}
	return nil
}

func chosenCompany(r *http.Request) int64 {
	c, err := r.Cookie(accounts.CompanyCookie)
	if err != nil {
		return 0
	}
	id, _ := strconv.ParseInt(c.Value, 10, 64)
	return id
}

// switchCompany answers the SuperAdmin's company switcher: the choice is
// kept in a cookie; the page reloads, or goes to /dashboard from a dashboard
// page, since that dashboard belongs to the company left.
func (p *Pages) switchCompany(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseInt(r.PostFormValue("companyId"), 10, 64)
	if err != nil || id <= 0 {
		return errBadCompanyChoice
	}
	if _, err := p.dir.Company(r.Context(), id); err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{Name: accounts.CompanyCookie, Value: strconv.FormatInt(id, 10), Path: "/", HttpOnly: true,
		Secure: p.signin.SecureCookies(), SameSite: http.SameSiteLaxMode, MaxAge: 365 * 24 * 3600})
	from := r.PostFormValue("from")
	if strings.HasPrefix(from, "/dashboard") {
		web.Redirect(w, r, "/dashboard")
		return nil
	}
	if web.IsHTMX(r) {
		w.Header().Set("HX-Refresh", "true")
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	web.Redirect(w, r, safeNext(from))
	return nil
}
