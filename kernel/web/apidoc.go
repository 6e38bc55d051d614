package web

import "maps"

// Doc describes one /api route for the OpenAPI document (package apidoc),
// which reads the route's method, path and roles from the route table and
// its bodies' shapes from the Go types named here, so that the document
// follows the code.
type Doc struct {
	// Summary says in one line what the route does (English).
	Summary string
	// Description adds detail where the summary is not enough.
	Description string
	// Request is a value of the JSON body's type (T{}), nil for none.
	Request any
	// Response is a value of the success answer's JSON type, nil for none.
	Response any
	// Status is the success status: 0 means 200, or 204 without Response.
	Status int
	// Query names the query parameters the route reads (all optional).
	Query []string
	// ContentType is the success answer's media type when it is not JSON
	// (a file download, a binary upload's body when Request is nil).
	ContentType string
	// RequestType is the request body's media type when it is not JSON.
	RequestType string
	// Example holds documented JSON bodies, which a test decodes through
	// Request and Response strictly.
	Example Example
}

// Example is a documented request and answer, as JSON text ("" for none).
type Example struct {
	Request  string
	Response string
}

// Docs describes a module's routes, keyed by the pattern exactly as it is
// registered with API ("GET /news/{newsId}", without the /api prefix).
type Docs map[string]Doc

// Describe adds the descriptions of this module's /api routes. A test
// checks that every route has one and that each names a registered route.
func (m *ModuleRoutes) Describe(d Docs) {
	if m.rt.docs == nil {
		m.rt.docs = map[string]DescribedRoute{}
	}
	for pattern, doc := range d {
		method, path, _ := splitPattern(pattern)
		m.rt.docs[method+" /api"+path] = DescribedRoute{Module: m.module, Doc: doc}
	}
}

// DescribedRoute is a description with the module that gave it.
type DescribedRoute struct {
	Module string
	Doc    Doc
}

// Docs returns the descriptions, keyed by the route's full pattern
// ("GET /api/news/{newsId}", as Route.Pattern gives it).
func (rt *Router) Docs() map[string]DescribedRoute { return maps.Clone(rt.docs) }
