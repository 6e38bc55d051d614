package pages

import (
	"net/http"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/modules/nodes"
)

// The sections other modules add to the node details page
// (nodes.PageSection), between the node's keys and its picture, and to the
// application page (nodes.ApplicationSection), between the form and the
// nodes.

// RegisterPageSection adds s to every node details page; see nodes.Pages.
func (pg *Pages) RegisterPageSection(s nodes.PageSection) {
	pg.mu.Lock()
	pg.sections = append(pg.sections, s)
	pg.mu.Unlock()
}

// RegisterApplicationSection adds s to every application page; see
// nodes.Pages.
func (pg *Pages) RegisterApplicationSection(s nodes.ApplicationSection) {
	pg.mu.Lock()
	pg.appSections = append(pg.appSections, s)
	pg.mu.Unlock()
}

// drawApplicationSections draws the registered application sections for
// a with its nodes, in their order.
func (pg *Pages) drawApplicationSections(r *http.Request, a *nodes.Application, tags []*nodes.Tag) ([]templ.Component, error) {
	pg.mu.RLock()
	sections := pg.appSections
	pg.mu.RUnlock()
	var out []templ.Component
	for _, s := range sections {
		c, err := s.ApplicationSection(r, a, tags)
		if err != nil {
			return nil, err
		}
		if c != nil {
			out = append(out, c)
		}
	}
	return out, nil
}

// PageTag loads the path's node if the viewer manages its company; see
// nodes.Pages.
func (pg *Pages) PageTag(r *http.Request) (*nodes.Tag, error) { return pg.pageTag(r) }

// TagPage returns what draws t's page with section in place of s's own;
// see nodes.Pages.
func (pg *Pages) TagPage(r *http.Request, t *nodes.Tag, s nodes.PageSection) (func(section templ.Component) templ.Component, error) {
	d, at, err := pg.tagDetails(r, t, s)
	if err != nil {
		return nil, err
	}
	return func(section templ.Component) templ.Component {
		if at >= 0 {
			d.Sections[at] = section
		}
		return d.view()
	}, nil
}

// drawSections draws the registered sections for t, in their order; the
// section of replace, when set, is left nil at the index returned (-1 when
// it is not registered).
func (pg *Pages) drawSections(r *http.Request, t *nodes.Tag, replace nodes.PageSection) ([]templ.Component, int, error) {
	pg.mu.RLock()
	sections := pg.sections
	pg.mu.RUnlock()
	var out []templ.Component
	at := -1
	for _, s := range sections {
		if replace != nil && s == replace {
			at = len(out)
			out = append(out, nil)
			continue
		}
		c, err := s.TagSection(r, t)
		if err != nil {
			return nil, -1, err
		}
		if c != nil {
			out = append(out, c)
		}
	}
	return out, at, nil
}
