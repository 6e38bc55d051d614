package core

import (
	"net/http"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/web"
)

// companyRow is a line of the /superadmin list.
type companyRow struct {
	Company
	Users int
}

// superadminPage is /superadmin (SuperAdmin): all companies with their
// number of users, filtered by the search box. The search's htmx request
// (target company-list) gets the list alone.
func (m *Module) superadminPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if len([]rune(q)) > maxName {
		q = string([]rune(q)[:maxName])
	}
	companies, err := m.store.companies(ctx, m.db, 0)
	if err != nil {
		return err
	}
	counts, err := m.store.userCounts(ctx, m.db)
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
		return m.ui.Fragment(w, r, http.StatusOK, list)
	}
	return m.ui.Render(w, r, http.StatusOK, "page.superadmin.title", superadminPage(q, list))
}

// matchesCompany tells whether q occurs in the company's name or, ignoring
// separators, its org number.
func matchesCompany(c *Company, q string) bool {
	if q == "" {
		return true
	}
	if strings.Contains(strings.ToLower(c.Name), strings.ToLower(q)) {
		return true
	}
	org := normaliseOrgNumber(q)
	return org != "" && strings.Contains(c.OrgNumber, org)
}
