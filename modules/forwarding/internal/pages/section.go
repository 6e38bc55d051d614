// Package pages draws the forwarding section of the application page (a
// nodes.ApplicationSection): the targets with their delivery state, drawn
// by the server, which the forwarding island takes over to add, change,
// switch, test and delete them.
package pages

import (
	"fmt"
	"net/http"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/modules/forwarding"
	"github.com/fieldhub/fieldhub/modules/forwarding/internal/forwarder"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Section is the forwarding section of the application page.
type Section struct{ f *forwarder.Forwarder }

// New returns the section; register it with the application pages.
func New(f *forwarder.Forwarder) *Section { return &Section{f: f} }

// ApplicationSection draws the targets of a for those who manage its
// company; others see no section. See nodes.ApplicationSection.
func (s *Section) ApplicationSection(r *http.Request, a *nodes.Application, _ []*nodes.Tag) (templ.Component, error) {
	if !auth.CallerFrom(r.Context()).CanManageCompany(a.CompanyID) {
		return nil, nil
	}
	targets, err := s.f.Targets(r.Context(), a)
	if err != nil {
		return nil, err
	}
	return section(targets, fmt.Sprintf(`{"applicationId":%d}`, a.ID)), nil
}

// errorsOf are the last errors the server list shows: the newest.
func errorsOf(t *forwarding.Target) []forwarding.Error {
	return t.LastErrors[:min(1, len(t.LastErrors))]
}
