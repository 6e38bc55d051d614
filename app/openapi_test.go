package app_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi/datamodel"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/sdk/client"
)

// apiRoutes lists the router's REST routes by pattern: /api, not pages.
func apiRoutes(rt *web.Router) map[string]web.Route {
	out := map[string]web.Route{}
	for _, r := range rt.Routes() {
		if !r.Page && strings.HasPrefix(r.Path, "/api/") {
			out[r.Pattern()] = r
		}
	}
	return out
}

// TestOpenAPIDescriptions holds the route table and the modules'
// descriptions (web.Docs) to each other: a route without a description, or
// a description of no route, fails with its pattern.
func TestOpenAPIDescriptions(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	routes := apiRoutes(ta.Host().Router)
	docs := ta.Host().Router.Docs()
	var undescribed, unrouted, unsummarised []string
	for p, r := range routes {
		d, ok := docs[p]
		switch {
		case !ok:
			undescribed = append(undescribed, r.Module+": "+p)
		case d.Doc.Summary == "":
			unsummarised = append(unsummarised, r.Module+": "+p)
		}
	}
	for p, d := range docs {
		if _, ok := routes[p]; !ok {
			unrouted = append(unrouted, d.Module+": "+p)
		}
	}
	for what, list := range map[string][]string{
		"routes without a description (add them to the module's web.Docs)": undescribed,
		"descriptions of no registered route":                              unrouted,
		"descriptions without a summary":                                   unsummarised,
	} {
		if len(list) > 0 {
			slices.Sort(list)
			t.Errorf("%s:\n\t%s", what, strings.Join(list, "\n\t"))
		}
	}
	if len(routes) < 100 {
		t.Errorf("only %d REST routes registered", len(routes))
	}
}

// TestOpenAPIDocument fetches /api/openapi.json, validates it against the
// OpenAPI 3.1 schema, and finds every registered REST route in it with its
// roles.
func TestOpenAPIDocument(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	r := ta.Call(t, "GET", "/api/openapi.json", "", nil)
	if r.Status != http.StatusOK {
		t.Fatalf("GET /api/openapi.json: %d %s", r.Status, r.Body)
	}
	// A tree node's required children are an array of tree nodes: finite
	// (the array may be empty), though libopenapi calls a required circular
	// reference infinite unless told that arrays end.
	doc, err := libopenapi.NewDocumentWithConfiguration(r.Body, &datamodel.DocumentConfiguration{IgnoreArrayCircularReferences: true})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if v := doc.GetVersion(); v != "3.1.0" {
		t.Errorf("openapi %q, want 3.1.0", v)
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		t.Fatalf("validator: %v", errs)
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		for _, e := range verrs {
			t.Errorf("invalid: %s: %s", e.Message, e.Reason)
			for _, se := range e.SchemaValidationErrors {
				t.Errorf("\t%s at %s (%s)", se.Reason, se.FieldPath, se.KeywordLocation)
			}
		}
	}
	// The validator does refuse: the same document without its info.
	var broken map[string]any
	if err := json.Unmarshal(r.Body, &broken); err != nil {
		t.Fatal(err)
	}
	delete(broken, "info")
	brokenJSON, _ := json.Marshal(broken)
	if bad, err := libopenapi.NewDocumentWithConfiguration(brokenJSON, &datamodel.DocumentConfiguration{IgnoreArrayCircularReferences: true}); err == nil {
		if bv, errs := validator.NewValidator(bad); len(errs) == 0 {
			if ok, _ := bv.ValidateDocument(); ok {
				t.Error("a document without info validated")
			}
		}
	}
	var plain struct {
		Paths map[string]map[string]struct {
			Roles    []string `json:"x-roles"`
			Security []map[string][]string
			Tags     []string
		}
	}
	if err := json.Unmarshal(r.Body, &plain); err != nil {
		t.Fatal(err)
	}
	for p, route := range apiRoutes(ta.Host().Router) {
		op, ok := plain.Paths[strings.TrimSuffix(route.Path, "{$}")][strings.ToLower(route.Method)]
		if !ok {
			t.Errorf("%s missing from the document", p)
			continue
		}
		want := make([]string, len(route.Access))
		for i, role := range route.Access {
			want[i] = string(role)
		}
		if !slices.Equal(op.Roles, want) || op.Tags[0] != route.Module || (len(want) > 0 || route.CredentialID != "") != (len(op.Security) > 0) {
			t.Errorf("%s: roles %v security %v tags %v, want roles %v of %s", p, op.Roles, op.Security, op.Tags, want, route.Module)
		}
	}
}

// TestOpenAPIExamples decodes each documented example through the Go type
// the route really reads or answers, refusing unknown fields, so that an
// example cannot drift from the code.
func TestOpenAPIExamples(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	n := 0
	for pattern, d := range ta.Host().Router.Docs() {
		for _, ex := range []struct {
			what, text string
			typ        any
		}{{"request", d.Doc.Example.Request, d.Doc.Request}, {"response", d.Doc.Example.Response, d.Doc.Response}} {
			if ex.text == "" {
				continue
			}
			n++
			if ex.typ == nil {
				t.Errorf("%s: a %s example without a %s type", pattern, ex.what, ex.what)
				continue
			}
			dec := json.NewDecoder(bytes.NewReader([]byte(ex.text)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(reflect.New(reflect.TypeOf(ex.typ)).Interface()); err != nil {
				t.Errorf("%s: the %s example does not decode: %v", pattern, ex.what, err)
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d documented examples", n)
	}
}

// TestOpenAPIAgreesWithSDK checks the typed client in sdk/ against the
// document: every JSON field an SDK type reads from a route's answer is one
// the document's schema of that answer has. The SDK reads leniently (fields
// it does not know are skipped), so the check is one of inclusion.
func TestOpenAPIAgreesWithSDK(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	var doc map[string]any
	if err := json.Unmarshal(ta.Call(t, "GET", "/api/openapi.json", "", nil).Body, &doc); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		method, path, status string
		sdk                  any
		sendOnly             []string // fields the SDK sends and never reads back
	}{
		{"post", "/api/users/authenticate", "200", client.Session{}, nil},
		{"post", "/api/users/refresh", "200", client.Session{}, nil},
		{"get", "/api/users", "200", client.User{}, []string{"password"}},
		{"get", "/api/users/{userId}", "200", client.User{}, []string{"password"}},
		{"post", "/api/users", "201", client.User{}, []string{"password"}},
		{"get", "/api/companies", "200", client.Company{}, nil},
		{"post", "/api/companies", "201", client.Company{}, nil},
		{"get", "/api/companies/{companyId}/users", "200", client.User{}, []string{"password"}},
	} {
		props := answerProperties(t, doc, c.method, c.path, c.status)
		for _, name := range jsonNames(reflect.TypeOf(c.sdk)) {
			if _, ok := props[name]; !ok && !slices.Contains(c.sendOnly, name) {
				t.Errorf("%s %s: the SDK's %T reads %q, which the document's answer lacks", c.method, c.path, c.sdk, name)
			}
		}
	}
}

// answerProperties returns the properties of a route's JSON answer (of
// its items, for an array), following $refs.
func answerProperties(t *testing.T, doc map[string]any, method, path, status string) map[string]any {
	t.Helper()
	get := func(v any, keys ...string) any {
		for _, k := range keys {
			m, _ := v.(map[string]any)
			v = m[k]
		}
		return v
	}
	s := get(doc, "paths", path, method, "responses", status, "content", "application/json", "schema")
	for range 3 {
		if items := get(s, "items"); items != nil {
			s = items
		}
		if ref, ok := get(s, "$ref").(string); ok {
			s = get(doc, "components", "schemas", strings.TrimPrefix(ref, "#/components/schemas/"))
		}
	}
	props, _ := get(s, "properties").(map[string]any)
	if props == nil {
		t.Fatalf("%s %s %s: no object schema in the document", method, path, status)
	}
	return props
}

// jsonNames lists the JSON names of a struct's fields.
func jsonNames(t reflect.Type) []string {
	var names []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "-" && f.IsExported() {
			if name == "" {
				name = f.Name
			}
			names = append(names, name)
		}
	}
	return names
}
