// Package pages draws the license module's section of the /superadmin
// page: the license's terms and the companies used of its limit.
package pages

import (
	"net/http"

	"github.com/a-h/templ"

	klicense "github.com/fieldhub/fieldhub/kernel/license"
	"github.com/fieldhub/fieldhub/modules/license"
	"github.com/fieldhub/fieldhub/modules/license/internal/httpapi"
)

// Section is the /superadmin page's card of the license; it satisfies
// accounts.SuperAdminSection.
type Section struct {
	lic       *klicense.License
	companies license.Companies
}

// NewSection returns the section of lic; companies counts the companies
// the installation has.
func NewSection(lic *klicense.License, companies license.Companies) *Section {
	return &Section{lic: lic, companies: companies}
}

// SuperAdminSection draws the terms.
func (s *Section) SuperAdminSection(r *http.Request) (templ.Component, error) {
	n, err := s.companies.CountCompanies(r.Context())
	if err != nil {
		return nil, err
	}
	return termsCard(httpapi.Answer(s.lic), n), nil
}
