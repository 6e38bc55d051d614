package pages

import (
	"net/http"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/modules/alarms"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/store"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// TagSection draws the node details page's section of the node's alarms,
// with a link to a new alarm on it (nodes.PageSection).
func (p *Pages) TagSection(r *http.Request, t *nodes.Tag) (templ.Component, error) {
	all, err := store.Company(r.Context(), p.db, t.CompanyID)
	if err != nil {
		return nil, err
	}
	var mine []*alarms.Alarm
	for _, a := range all {
		if a.TagID == t.ID {
			mine = append(mine, a)
		}
	}
	return tagSection(t, mine), nil
}
