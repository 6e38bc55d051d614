// Package pages draws the logs module's part of the server pages: the
// latest changes of the audit trail, a section of the /superadmin page.
package pages

import (
	"fmt"
	"net/http"
	"sort"

	"github.com/a-h/templ"
	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/logs"
	"github.com/fieldhub/fieldhub/modules/logs/internal/store"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// latest is how many changes the section lists; the Log tab and GET
// /api/logs?type=USEREVENT have the rest.
const latest = 50

// Section is the /superadmin page's list of the latest changes people
// made, in every company; it satisfies accounts.SuperAdminSection.
type Section struct {
	db       *bun.DB
	catalogs *i18n.Catalogs
}

// NewSection returns the section, which reads db and words the changes
// with catalogs.
func NewSection(db *bun.DB, catalogs *i18n.Catalogs) *Section {
	return &Section{db: db, catalogs: catalogs}
}

// change is a row of the section: when, in which company, who, what, and
// the fields before and after.
type change struct {
	At      string
	Company string
	Who     string
	What    string
	Fields  []field
}

// field is one changed field of a change.
type field struct{ Name, Before, After string }

// SuperAdminSection draws the latest changes of every company and of the
// installation, in the viewer's language.
func (s *Section) SuperAdminSection(r *http.Request) (templ.Component, error) {
	entries, err := store.ListEntries(r.Context(), s.db, store.Scope{Installation: true},
		store.Filter{Types: []string{logs.TypeUserEvent}, Limit: latest})
	if err != nil {
		return nil, err
	}
	lang := web.ViewerFrom(r.Context()).Lang
	rows := make([]change, 0, len(entries))
	for _, e := range entries {
		c := change{At: ui.DateTime(r.Context(), e.CreatedAt), Company: text(e.Data["company"]), Who: text(e.Data["user"]), What: e.Message}
		if e.Data["kind"] == logs.KindAudit && s.catalogs.Has(lang) {
			c.What = s.catalogs.T(lang, e.MessageID, e.Data)
		}
		before, _ := e.Data["before"].(map[string]any)
		after, _ := e.Data["after"].(map[string]any)
		names := map[string]bool{}
		for k := range before {
			names[k] = true
		}
		for k := range after {
			names[k] = true
		}
		for k := range names {
			c.Fields = append(c.Fields, field{Name: k, Before: text(before[k]), After: text(after[k])})
		}
		sort.Slice(c.Fields, func(i, j int) bool { return c.Fields[i].Name < c.Fields[j].Name })
		rows = append(rows, c)
	}
	return latestChanges(rows), nil
}

// text prints a value of an entry's data, "" for none.
func text(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}
