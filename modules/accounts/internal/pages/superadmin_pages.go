package pages

import (
	"net/http"
	"strings"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/validate"
)

// companyRow is a line of the /superadmin list.
type companyRow struct {
	accounts.Company
	Users int
}

// superadminPage is /superadmin (SuperAdmin): all companies with their
// number of users, filtered by the search box, and below them the sections
// other modules add. The search's htmx request
// (target company-list) gets the list alone.
func (p *Pages) superadminPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if len([]rune(q)) > validate.MaxName {
		q = string([]rune(q)[:validate.MaxName])
	}
	companies, err := p.dir.Companies(ctx, 0)
	if err != nil {
		return err
	}
	counts, err := p.dir.UserCounts(ctx)
	if err != nil {
		return err
	}
	rows := []companyRow{}
	for _, c := range companies {
		if matchesCompany(&c, q) {
			rows = append(rows, companyRow{Company: c, Users: counts[c.ID]})
		}
	}
	list := companyList(rows, q, len(companies))
	if web.IsHTMX(r) && r.Header.Get("HX-Target") == "company-list" {
		return p.ui.Fragment(w, r, http.StatusOK, list)
	}
	var sections []templ.Component
	for _, s := range p.superSections {
		c, err := s.SuperAdminSection(r)
		if err != nil {
			return err
		}
		if c != nil {
			sections = append(sections, c)
		}
	}
	return p.ui.Render(w, r, http.StatusOK, "page.superadmin.title", superadminPage(q, list, sections))
}

// matchesCompany tells whether q occurs in the company's name or, ignoring
// separators, its org number.
func matchesCompany(c *accounts.Company, q string) bool {
	if q == "" {
		return true
	}
	if strings.Contains(strings.ToLower(c.Name), strings.ToLower(q)) {
		return true
	}
	org := validate.NormaliseOrgNumber(q)
	return org != "" && strings.Contains(c.OrgNumber, org)
}
