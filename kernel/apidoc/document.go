// Package apidoc builds the OpenAPI 3.1 document of the REST API from the
// router: paths, methods and roles from the route table, summaries and body
// types from the modules' descriptions (web.Docs), and the bodies' schemas
// by reflection on those Go types. Nothing in it is written by hand, so it
// cannot fall behind the code; a test holds the route table and the
// descriptions to each other.
package apidoc

import (
	"encoding/json"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/web"
)

// Document is an OpenAPI 3.1 document, as far as the portal uses one.
type Document struct {
	OpenAPI    string              `json:"openapi"`
	Info       Info                `json:"info"`
	Servers    []Server            `json:"servers,omitempty"`
	Tags       []Tag               `json:"tags"`
	Paths      map[string]PathItem `json:"paths"`
	Components Components          `json:"components"`
}

// Info names the API.
type Info struct {
	Title       string `json:"title"`
	Version     string `json:"version"`
	Description string `json:"description,omitempty"`
}

// Server is the API's base address.
type Server struct {
	URL string `json:"url"`
}

// Tag is one module: its routes carry its name.
type Tag struct {
	Name string `json:"name"`
}

// PathItem holds a path's operations by lower-case method.
type PathItem map[string]*Operation

// Operation is one route.
type Operation struct {
	Tags        []string              `json:"tags"`
	Summary     string                `json:"summary,omitempty"`
	Description string                `json:"description,omitempty"`
	OperationID string                `json:"operationId"`
	Parameters  []Parameter           `json:"parameters,omitempty"`
	RequestBody *Body                 `json:"requestBody,omitempty"`
	Responses   map[string]Response   `json:"responses"`
	Security    []map[string][]string `json:"security"`
	// Roles are the roles the route admits, empty when it is open: the
	// router's access list.
	Roles []string `json:"x-roles"`
	// Credential names what an open route authenticates its caller by
	// itself (an integration token), as a locale catalog key.
	Credential string `json:"x-credential,omitempty"`

	// Method and Path are the route's, for the reference page.
	Method string `json:"-"`
	Path   string `json:"-"`
}

// Parameter is a path or query parameter.
type Parameter struct {
	Name     string `json:"name"`
	In       string `json:"in"`
	Required bool   `json:"required"`
	Schema   Schema `json:"schema"`
}

// Body is a request body.
type Body struct {
	Required bool                 `json:"required"`
	Content  map[string]MediaType `json:"content"`
}

// MediaType is a body's schema and example in one media type.
type MediaType struct {
	Schema  Schema `json:"schema"`
	Example any    `json:"example,omitempty"`
}

// Response is one answer.
type Response struct {
	Description string               `json:"description,omitempty"`
	Content     map[string]MediaType `json:"content,omitempty"`
	Ref         string               `json:"$ref,omitempty"`
}

// Components are the shared schemas, answers and security schemes.
type Components struct {
	Schemas         map[string]Schema         `json:"schemas"`
	Responses       map[string]Response       `json:"responses"`
	SecuritySchemes map[string]SecurityScheme `json:"securitySchemes"`
}

// SecurityScheme is one way to authenticate.
type SecurityScheme struct {
	Type         string `json:"type"`
	Scheme       string `json:"scheme,omitempty"`
	BearerFormat string `json:"bearerFormat,omitempty"`
	In           string `json:"in,omitempty"`
	Name         string `json:"name,omitempty"`
	Description  string `json:"description,omitempty"`
}

// Security scheme names.
const (
	BearerScheme      = "bearerToken"
	CookieScheme      = "sessionCookie"
	IntegrationScheme = "integrationToken"
)

// Options are what the document says about the installation.
type Options struct {
	Version    string // the portal's version
	CookieName string // the session cookie
}

var jsonType = "application/json"

// Build returns the document of every /api route of router (pages left
// out), in registration order within each module.
func Build(router *web.Router, o Options) *Document {
	d := &Document{
		OpenAPI: "3.1.0",
		Info: Info{Title: "Fieldhub REST API", Version: o.Version,
			Description: "The portal's JSON API. Sign in with POST /api/users/authenticate and send the token as `Authorization: Bearer <token>`; browsers use the session cookie. Errors answer with the Problem body. x-roles lists the roles a route admits (none: open to anyone)."},
		Servers: []Server{{URL: "/"}},
		Paths:   map[string]PathItem{},
		Components: Components{
			Schemas: map[string]Schema{},
			Responses: map[string]Response{"Problem": {Description: "The error: status, catalog id, message in the caller's language, and per-field messages for invalid input.",
				Content: map[string]MediaType{jsonType: {Schema: Schema{"$ref": "#/components/schemas/web.Problem"}}}}},
			SecuritySchemes: map[string]SecurityScheme{
				BearerScheme:      {Type: "http", Scheme: "bearer", BearerFormat: "access token", Description: "The access token POST /api/users/authenticate answers."},
				CookieScheme:      {Type: "apiKey", In: "cookie", Name: o.CookieName, Description: "The session cookie a browser sign-in sets."},
				IntegrationScheme: {Type: "http", Scheme: "bearer", BearerFormat: "integration token", Description: "A company's integration token, for the network servers' webhooks."},
			},
		},
	}
	refl := newReflector()
	refl.ref(reflect.TypeFor[web.Problem]())
	docs := router.Docs()
	seenTag := map[string]bool{}
	for _, rt := range router.Routes() {
		if rt.Page || !strings.HasPrefix(rt.Path, "/api/") {
			continue
		}
		if !seenTag[rt.Module] {
			seenTag[rt.Module] = true
			d.Tags = append(d.Tags, Tag{Name: rt.Module})
		}
		path := openAPIPath(rt.Path)
		if d.Paths[path] == nil {
			d.Paths[path] = PathItem{}
		}
		d.Paths[path][strings.ToLower(rt.Method)] = operation(refl, rt, docs[rt.Pattern()].Doc)
	}
	d.Components.Schemas = refl.components
	return d
}

// Operations returns the document's operations grouped by tag, in the
// order of the tags, each group sorted by path and method.
func (d *Document) Operations() map[string][]*Operation {
	out := map[string][]*Operation{}
	for _, item := range d.Paths {
		for _, op := range item {
			out[op.Tags[0]] = append(out[op.Tags[0]], op)
		}
	}
	for _, ops := range out {
		slices.SortFunc(ops, func(a, b *Operation) int {
			if c := strings.Compare(a.Path, b.Path); c != 0 {
				return c
			}
			return strings.Compare(a.Method, b.Method)
		})
	}
	return out
}

// JSON returns a schema or an example as indented JSON, for the reference
// page.
func JSON(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

func operation(refl *reflector, rt web.Route, doc web.Doc) *Operation {
	op := &Operation{Tags: []string{rt.Module}, Summary: doc.Summary, Description: doc.Description,
		OperationID: operationID(rt), Responses: map[string]Response{}, Roles: []string{},
		Credential: rt.CredentialID, Method: rt.Method, Path: rt.Path, Security: []map[string][]string{}}
	for _, role := range rt.Access {
		op.Roles = append(op.Roles, string(role))
	}
	switch {
	case len(rt.Access) > 0:
		op.Security = []map[string][]string{{BearerScheme: {}}, {CookieScheme: {}}}
	case rt.CredentialID != "":
		op.Security = []map[string][]string{{IntegrationScheme: {}}}
	}
	for _, name := range pathParams(rt.Path) {
		op.Parameters = append(op.Parameters, Parameter{Name: name, In: "path", Required: true, Schema: paramSchema(name)})
	}
	for _, name := range doc.Query {
		op.Parameters = append(op.Parameters, Parameter{Name: name, In: "query", Schema: Schema{"type": "string"}})
	}
	if doc.Request != nil {
		op.RequestBody = &Body{Required: true, Content: map[string]MediaType{jsonType: {
			Schema: refl.schemaOf(reflect.TypeOf(doc.Request)), Example: example(doc.Example.Request)}}}
	} else if doc.RequestType != "" {
		op.RequestBody = &Body{Required: true, Content: map[string]MediaType{doc.RequestType: {Schema: Schema{"type": "string", "contentMediaType": doc.RequestType}}}}
	}
	status := doc.Status
	switch {
	case status != 0:
	case doc.Response == nil && doc.ContentType == "":
		status = http.StatusNoContent
	default:
		status = http.StatusOK
	}
	ok := Response{Description: http.StatusText(status)}
	switch {
	case doc.Response != nil:
		ok.Content = map[string]MediaType{jsonType: {Schema: refl.schemaOf(reflect.TypeOf(doc.Response)), Example: example(doc.Example.Response)}}
	case doc.ContentType != "":
		ok.Content = map[string]MediaType{doc.ContentType: {Schema: Schema{"type": "string", "contentMediaType": doc.ContentType}}}
	}
	op.Responses[strconv.Itoa(status)] = ok
	op.Responses["4XX"] = Response{Ref: "#/components/responses/Problem"}
	op.Responses["5XX"] = Response{Ref: "#/components/responses/Problem"}
	return op
}

// example parses a documented JSON example; a malformed one is left out
// here and reported by the examples test.
func example(text string) any {
	if text == "" {
		return nil
	}
	var v any
	if json.Unmarshal([]byte(text), &v) != nil {
		return nil
	}
	return v
}

var wildcard = regexp.MustCompile(`\{([^}]*)\}`)

// pathParams lists the wildcards of a ServeMux path, without {$} and with
// a {rest...} wildcard's dots dropped.
func pathParams(path string) []string {
	var names []string
	for _, m := range wildcard.FindAllStringSubmatch(path, -1) {
		if m[1] != "$" {
			names = append(names, strings.TrimSuffix(m[1], "..."))
		}
	}
	return names
}

// openAPIPath writes a ServeMux path as an OpenAPI path template.
func openAPIPath(path string) string {
	path = strings.TrimSuffix(path, "{$}")
	return wildcard.ReplaceAllStringFunc(path, func(w string) string { return strings.Replace(w, "...", "", 1) })
}

// paramSchema types a path parameter by its name: the portal's ids are
// positive integers, everything else a string.
func paramSchema(name string) Schema {
	if strings.HasSuffix(name, "Id") && name != "guid" {
		return Schema{"type": "integer", "format": "int64", "minimum": 1}
	}
	return Schema{"type": "string"}
}

func operationID(rt web.Route) string {
	id := strings.ToLower(rt.Method) + strings.NewReplacer("/", "_", "{", "", "}", "", "...", "", "$", "", "-", "_").Replace(strings.TrimPrefix(rt.Path, "/api"))
	return strings.TrimSuffix(id, "_")
}
