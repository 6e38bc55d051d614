package pages

import (
	"net/http"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/web"
)

// apiGroup is one module's endpoints on the API documentation page.
type apiGroup struct {
	Module string
	Routes []web.Route
}

// apiPage lists every endpoint under /api as the router has it, so that the
// page never falls behind the code: method, path and the roles allowed.
func (m *Module) apiPage(w http.ResponseWriter, r *http.Request) error {
	return m.ui.Render(w, r, http.StatusOK, "page.api.title", apiBody(apiGroups(m.host.Router.Routes())))
}

// apiGroups groups the API endpoints by module, modules in the order they
// were added and endpoints in the order they were registered.
func apiGroups(routes []web.Route) []apiGroup {
	var groups []apiGroup
	index := map[string]int{}
	for _, rt := range routes {
		if rt.Page || !strings.HasPrefix(rt.Path, "/api/") {
			continue
		}
		i, ok := index[rt.Module]
		if !ok {
			i = len(groups)
			index[rt.Module] = i
			groups = append(groups, apiGroup{Module: rt.Module})
		}
		groups[i].Routes = append(groups[i].Routes, rt)
	}
	return groups
}

// roleNames lists the roles of an endpoint, or "" for one open to anyone.
func roleNames(rt web.Route) string {
	names := make([]string, len(rt.Access))
	for i, role := range rt.Access {
		names[i] = string(role)
	}
	return strings.Join(names, ", ")
}
