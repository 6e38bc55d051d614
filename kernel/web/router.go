// Package web is the kernel's HTTP layer: a router whose every route declares
// who may call it (an access list of roles, checked by the guard), the
// middleware every request passes (request id, access log, panic recovery,
// authentication, body limit, metrics), JSON helpers, and the one function
// that maps errors to HTTP statuses and the locale catalogs' texts.
package web

import (
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/i18n"
)

// HandlerFunc is a handler that returns its error instead of writing it, so
// that errors are mapped in one place.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// Route describes one registered endpoint.
type Route struct {
	Module  string
	Method  string
	Path    string      // the full path pattern, for example /api/users/{userId}
	Access  []auth.Role // empty: open to anyone
	MaxBody int64
	Page    bool // a server page: guards redirect instead of answering 401/403
	// Embeddable pages may be framed by the embedding origins (Embeddable).
	Embeddable bool
	// CredentialID names, as a locale catalog key, what a route open to
	// sessions authenticates its caller by itself (an integration token),
	// for the API documentation; "" for none (AuthenticatedBy).
	CredentialID string
}

// Pattern returns the ServeMux pattern of r.
func (r Route) Pattern() string { return r.Method + " " + r.Path }

// Authenticator turns a request's credentials into a caller. ok is false when
// the request carries no usable credentials.
type Authenticator func(r *http.Request) (c auth.Caller, ok bool)

// Router registers routes and serves them through the middleware chain.
type Router struct {
	pages    pageSupport
	mux      *http.ServeMux
	routes   []Route
	docs     map[string]DescribedRoute
	cat      *i18n.Catalogs
	log      *slog.Logger
	authn    []Authenticator
	maxBody  int64
	metrics  *metrics
	logEvery bool
	proxies  []netip.Prefix
	sec      *security
	// publicOrigin is FIELDHUB_PUBLIC_URL's origin, which state-changing
	// browser requests must name (crossSite).
	publicOrigin string
}

// Options configure a Router.
type Options struct {
	Catalogs     *i18n.Catalogs
	Log          *slog.Logger
	MaxBodyBytes int64
	AccessLog    bool
	// TrustedProxies are the reverse proxies whose X-Forwarded-For
	// ClientAddr believes.
	TrustedProxies []netip.Prefix
	// PublicURL is the portal's address as users reach it: its origin is
	// the one state-changing browser requests must name, and https turns
	// HSTS on.
	PublicURL string
	// EmbedOrigins may frame the routes marked Embeddable; none when empty.
	EmbedOrigins []string
}

// NewRouter returns an empty router.
func NewRouter(o Options) *Router {
	r := &Router{mux: http.NewServeMux(), cat: o.Catalogs, log: o.Log, maxBody: o.MaxBodyBytes, metrics: newMetrics(), logEvery: o.AccessLog,
		proxies: o.TrustedProxies,
		sec:     newSecurity(o.PublicURL, o.EmbedOrigins), publicOrigin: originOf(o.PublicURL)}
	return r
}

// AddAuthenticator adds a way to recognise callers (bearer tokens and session
// cookies, public dashboard tokens); the first that succeeds wins.
func (rt *Router) AddAuthenticator(a Authenticator) { rt.authn = append(rt.authn, a) }

// Catalogs returns the message catalogs the router answers with.
func (rt *Router) Catalogs() *i18n.Catalogs { return rt.cat }

// Routes lists every registered route, in registration order.
func (rt *Router) Routes() []Route { return slices.Clone(rt.routes) }

// Module returns a registrar whose routes are attributed to module.
func (rt *Router) Module(name string) *ModuleRoutes { return &ModuleRoutes{rt: rt, module: name} }

// ModuleRoutes registers one module's routes.
type ModuleRoutes struct {
	rt     *Router
	module string
}

// RouteOption adjusts one route.
type RouteOption func(*Route)

// MaxBody sets a route's body limit, for uploads.
func MaxBody(n int64) RouteOption { return func(r *Route) { r.MaxBody = n } }

// AuthenticatedBy marks a route, open as far as sessions and roles go,
// that authenticates its caller itself by the credential that the locale
// catalog key id names (an integration token, say): the API documentation
// shows that instead of "open".
func AuthenticatedBy(id string) RouteOption { return func(r *Route) { r.CredentialID = id } }

// API registers an endpoint under /api. pattern is "METHOD /path" with the
// path after /api, which the router prefixes; access lists the roles
// allowed (auth.Open for anyone).
func (m *ModuleRoutes) API(pattern string, access []auth.Role, h HandlerFunc, opts ...RouteOption) {
	method, path, _ := splitPattern(pattern)
	m.handle(Route{Method: method, Path: "/api" + path}, access, h, opts)
}

func splitPattern(pattern string) (method, path string, ok bool) {
	return strings.Cut(pattern, " ")
}

// Raw registers an endpoint outside /api (health, metrics, pages).
func (m *ModuleRoutes) Raw(pattern string, access []auth.Role, h HandlerFunc, opts ...RouteOption) {
	method, path, _ := strings.Cut(pattern, " ")
	m.handle(Route{Method: method, Path: path}, access, h, opts)
}

func (m *ModuleRoutes) handle(route Route, access []auth.Role, h HandlerFunc, opts []RouteOption) {
	route.Module = m.module
	route.Access = access
	route.MaxBody = m.rt.maxBody
	for _, o := range opts {
		o(&route)
	}
	m.rt.routes = append(m.rt.routes, route)
	m.rt.mux.Handle(route.Pattern(), m.rt.guard(route, h))
}

// guard checks the route's access list, limits the body and runs h, writing
// any error it returns.
func (rt *Router) guard(route Route, h HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := auth.CallerFrom(r.Context())
		if route.Embeddable {
			rt.sec.setHeaders(w.Header(), infoOf(r.Context()).nonce, true)
		}
		if route.Page {
			rt.servePage(w, r, route, h)
			return
		}
		if len(route.Access) > 0 && !c.Role.In(route.Access) {
			if !c.SignedIn() {
				rt.WriteError(w, r, errs.New(errs.Unauthorized, errs.IDUnauthorized))
			} else {
				rt.WriteError(w, r, errs.New(errs.Forbidden, errs.IDForbidden))
			}
			return
		}
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, route.MaxBody)
		}
		setRoute(r.Context(), route.Pattern())
		if err := h(w, r); err != nil {
			rt.WriteError(w, r, err)
		}
	})
}

// ServeHTTP runs the middleware chain and dispatches to the routes.
func (rt *Router) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &recorder{ResponseWriter: w, status: http.StatusOK}
	info := &requestInfo{id: requestID(r), nonce: newNonce(), router: rt,
		cookies: r.Header.Get("Authorization") == "" && len(r.Header.Values("Cookie")) > 0}
	ctx := context.WithValue(r.Context(), infoKey{}, info)
	rec.Header().Set("X-Request-Id", info.id)
	rt.sec.setHeaders(rec.Header(), info.nonce, false)
	r = r.WithContext(ctx)
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			rt.log.Error("handler panicked", "panic", p, "stack", stack(), "request_id", info.id)
			if !rec.wrote {
				rt.WriteError(rec, r, errs.New(errs.Internal, errs.IDGeneric))
			}
		}
		rt.observe(r, rec, info, time.Since(start))
	}()
	_, info.pattern = rt.mux.Handler(r)
	if rt.crossSite(r) {
		rt.refuseCrossSite(rec, r)
		return
	}
	c, ok := rt.authenticate(r)
	if !ok && rt.pages.refresher != nil && wantsPage(r) {
		c, ok = rt.pages.refresher(rec, r)
	}
	if ok {
		info.userID = c.UserID
		r = r.WithContext(auth.WithCaller(ctx, c))
	}
	if info.pattern == "" {
		rt.unmatched(rec, r)
		return
	}
	rt.mux.ServeHTTP(rec, r)
}

func (rt *Router) authenticate(r *http.Request) (auth.Caller, bool) {
	for _, a := range rt.authn {
		if c, ok := a(r); ok {
			return c, true
		}
	}
	return auth.Caller{}, false
}

// unmatched answers a request no route takes: 405 when the path exists under
// another method, else 404, both as JSON.
func (rt *Router) unmatched(w http.ResponseWriter, r *http.Request) {
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := rt.mux.Handler(probe); pattern != "" {
			e := errs.New(errs.Invalid, errs.IDMethod).With("method", r.Method)
			if rt.pages.render != nil && wantsPage(r) && r.Method == http.MethodGet && !IsHTMX(r) {
				// A browser that opens the address of a form's target
				// (POST /logout) gets a page, not JSON.
				rt.servePage(w, r, Route{Method: http.MethodGet, Path: r.URL.Path, Page: true}, func(w http.ResponseWriter, r *http.Request) error {
					rt.pages.render(w, r, http.StatusMethodNotAllowed, rt.cat.T(ViewerFrom(r.Context()).Lang, e.ID, e.Args))
					return nil
				})
				return
			}
			rt.writeProblem(w, r, http.StatusMethodNotAllowed, e)
			return
		}
	}
	if rt.pages.render != nil && wantsPage(r) && r.Method == http.MethodGet {
		rt.servePage(w, r, Route{Method: http.MethodGet, Path: r.URL.Path, Page: true}, func(w http.ResponseWriter, r *http.Request) error {
			return errs.New(errs.NotFound, "page.notFound")
		})
		return
	}
	rt.WriteError(w, r, errs.New(errs.NotFound, errs.IDNotFound))
}

// Lang returns the language to answer r in: the "lang" cookie (the stored
// choice), else the best match of Accept-Language.
func (rt *Router) Lang(r *http.Request) string {
	if c, err := r.Cookie("lang"); err == nil && rt.cat.Has(c.Value) {
		return c.Value
	}
	return rt.cat.Match(r.Header.Get("Accept-Language"))
}
