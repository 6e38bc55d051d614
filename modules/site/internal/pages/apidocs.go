package pages

import (
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/apidoc"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// apiVersion is the REST API's version in the OpenAPI document.
const apiVersion = "1"

// docs describes this module's /api route.
var docs = web.Docs{
	"GET /openapi.json": {Summary: "The OpenAPI 3.1 document of this REST API, generated from the route table and the request and response types.", Response: apidoc.Document{}},
}

// apiGroup is one module's endpoints on the API documentation page.
type apiGroup struct {
	Module string
	Ops    []*apidoc.Operation
}

// document builds the OpenAPI document once: the route table is complete
// before the server takes requests, and never changes after.
func (m *Module) document() *apidoc.Document {
	m.docOnce.Do(func() {
		m.doc = apidoc.Build(m.host.Router, apidoc.Options{Version: apiVersion, CookieName: kernel.TokenCookie})
	})
	return m.doc
}

// openAPI answers GET /api/openapi.json. It is open, as the page is: it
// describes the routes, not anyone's data.
func (m *Module) openAPI(w http.ResponseWriter, r *http.Request) error {
	return web.OK(w, m.document())
}

// apiPage renders the OpenAPI document, so that the page never falls behind
// the code: per module each endpoint's method, path, roles, summary, and
// bodies' schemas and examples.
func (m *Module) apiPage(w http.ResponseWriter, r *http.Request) error {
	d := m.document()
	return m.ui.Render(w, r, http.StatusOK, "page.api.title", apiBody(apiGroups(d), d.Components.Schemas))
}

// apiGroups groups the operations by module, in the document's tag order.
func apiGroups(d *apidoc.Document) []apiGroup {
	ops := d.Operations()
	groups := make([]apiGroup, 0, len(d.Tags))
	for _, tag := range d.Tags {
		groups = append(groups, apiGroup{Module: tag.Name, Ops: ops[tag.Name]})
	}
	return groups
}

// roleNames lists the roles of an endpoint, or "" for one open to anyone.
func roleNames(op *apidoc.Operation) string { return strings.Join(op.Roles, ", ") }

// requestSchema and responseSchema return an operation's JSON body schema
// and example as indented JSON, "" when it has none.
func requestSchema(op *apidoc.Operation) (schema, example string) {
	if op.RequestBody == nil {
		return "", ""
	}
	return mediaJSON(op.RequestBody.Content)
}

func responseSchema(op *apidoc.Operation) (status, schema, example string) {
	for code, resp := range op.Responses {
		if code[0] == '2' {
			schema, example = mediaJSON(resp.Content)
			return code, schema, example
		}
	}
	return "", "", ""
}

func mediaJSON(content map[string]apidoc.MediaType) (schema, example string) {
	for mt, c := range content {
		if mt != "application/json" {
			return mt, ""
		}
		if c.Example != nil {
			example = apidoc.JSON(c.Example)
		}
		return apidoc.JSON(c.Schema), example
	}
	return "", ""
}

// schemaAnchor is the id of a component's entry on the page.
func schemaAnchor(name string) string { return "schema-" + name }

// sortedNames lists the schemas' names in order.
func sortedNames(schemas map[string]apidoc.Schema) []string {
	return slices.Sorted(maps.Keys(schemas))
}
