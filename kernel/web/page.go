package web

import (
	"context"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
)

// Server pages share the router with the API but answer differently: the
// guard sends a visitor who is not signed in to /login and a signed-in role
// that is not allowed to /, and errors render as a page.

// Viewer is everything the page frame needs to know about who is looking:
// the caller and their preferences, filled by the modules that own them.
type Viewer struct {
	Caller             auth.Caller
	Path               string
	Lang               string
	Theme              string // "Colors" or "Scientific"
	Dark               bool
	StickyMenu         bool
	ToolbarTransparent bool
	UserName           string
	CompanyID          int64 // the company the pages show; a SuperAdmin chooses it
	CompanyName        string
	Companies          []Choice // the SuperAdmin's company switcher
	WhiteLabel         bool
	BrandName          string // the product name the frame shows, when set (white-label branding)
	BrandIcon          string // the brand's Material Design icon, such as mdi-home; "" for the default
	// BrandLogo is the URL of the installation's logo (white-label), shown
	// instead of the icon; "" for none.
	BrandLogo string
	// Notifications is the viewer's unread notifications, which the bell
	// of the top bar counts; the notifications module fills it through a
	// ViewerEnricher.
	Notifications int
	// Location is the time zone the viewer sees times in: their own choice,
	// else their company's; UTC for a visitor.
	Location *time.Location
}

// Choice is an option of a picker.
type Choice struct {
	ID   int64
	Name string
}

// ViewerEnricher fills a module's part of the viewer of a page request.
type ViewerEnricher func(r *http.Request, v *Viewer) error

// Refresher renews an expired browser session from its refresh cookie,
// setting new cookies on w; ok is false when there is no valid session.
type Refresher func(w http.ResponseWriter, r *http.Request) (auth.Caller, bool)

// PageErrorRenderer draws an error as a full page.
type PageErrorRenderer func(w http.ResponseWriter, r *http.Request, status int, message string)

// MenuItem is an entry of the side menu, registered by the module whose
// screen it opens, so that an entry appears only when its feature exists.
type MenuItem struct {
	ID      string
	LabelID string // catalog key
	Href    string
	Icon    string // Material Design icon name, such as mdi-home
	Roles   []auth.Role
	Order   int  // position in the side menu, lowest first
	Guest   bool // shown to visitors without a session
	// HiddenInWhiteLabel hides the entry when the installation is white-labelled.
	HiddenInWhiteLabel bool
	// External opens in a new tab.
	External bool
}

type pageSupport struct {
	enrichers []ViewerEnricher
	refresher Refresher
	render    PageErrorRenderer
	menu      []MenuItem
}

type viewerKey struct{}

// AddViewerEnricher adds a module's part of the page viewer.
func (rt *Router) AddViewerEnricher(e ViewerEnricher) {
	rt.pages.enrichers = append(rt.pages.enrichers, e)
}

// SetRefresher sets how an expired browser session is renewed.
func (rt *Router) SetRefresher(f Refresher) { rt.pages.refresher = f }

// SetPageErrorRenderer sets how errors of pages are drawn.
func (rt *Router) SetPageErrorRenderer(f PageErrorRenderer) { rt.pages.render = f }

// AddMenuItem registers a side menu entry.
func (rt *Router) AddMenuItem(item MenuItem) { rt.pages.menu = append(rt.pages.menu, item) }

// Menu returns the entries the viewer may see, in order.
func (rt *Router) Menu(v *Viewer) []MenuItem {
	var out []MenuItem
	for _, item := range rt.pages.menu {
		switch {
		case item.HiddenInWhiteLabel && v.WhiteLabel:
		case v.Caller.SignedIn() && item.Roles != nil && !v.Caller.Role.In(item.Roles):
		case !v.Caller.SignedIn() && !item.Guest:
		default:
			out = append(out, item)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Order < out[j].Order })
	return out
}

// Page registers a server page (outside /api). access lists the roles
// allowed (auth.Open for anyone).
func (m *ModuleRoutes) Page(pattern string, access []auth.Role, h HandlerFunc, opts ...RouteOption) {
	method, path, _ := strings.Cut(pattern, " ")
	m.handle(Route{Method: method, Path: path, Page: true}, access, h, opts)
}

// ViewerFrom returns the viewer of a page request.
func ViewerFrom(ctx context.Context) *Viewer {
	if v, ok := ctx.Value(viewerKey{}).(*Viewer); ok {
		return v
	}
	return &Viewer{Caller: auth.CallerFrom(ctx), Lang: "en", Theme: "Colors", Location: time.UTC}
}

func (rt *Router) servePage(w http.ResponseWriter, r *http.Request, route Route, h HandlerFunc) {
	c := auth.CallerFrom(r.Context())
	if len(route.Access) > 0 && !c.Role.In(route.Access) {
		if !c.SignedIn() {
			Redirect(w, r, "/login?next="+url.QueryEscape(r.URL.RequestURI()))
		} else {
			Redirect(w, r, "/")
		}
		return
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, route.MaxBody)
	}
	setRoute(r.Context(), route.Pattern())
	v := &Viewer{Caller: c, Path: r.URL.Path, Lang: rt.Lang(r), Theme: "Colors", CompanyID: c.CompanyID, Location: time.UTC}
	for _, e := range rt.pages.enrichers {
		if err := e(r, v); err != nil {
			rt.writePageError(w, r, err)
			return
		}
	}
	r = r.WithContext(context.WithValue(r.Context(), viewerKey{}, v))
	if err := h(w, r); err != nil {
		rt.writePageError(w, r, err)
	}
}

// writePageError draws err as a page (or, for an htmx request, as a
// snackbar message that leaves the page as it is).
func (rt *Router) writePageError(w http.ResponseWriter, r *http.Request, err error) {
	e := asDomainError(err)
	status := statusOf[e.Kind]
	if e.Kind == errs.Internal || e.Kind == errs.Unavailable {
		rt.log.Error("page failed", "err", err, "route", routeOf(r.Context()), "request_id", infoOf(r.Context()).id)
	}
	msg := rt.cat.T(ViewerFrom(r.Context()).Lang, e.ID, e.Args)
	if IsHTMX(r) {
		Toast(w, r, "error", msg)
		w.Header().Set("HX-Reswap", "none")
		w.WriteHeader(status)
		return
	}
	if rt.pages.render == nil {
		http.Error(w, msg, status)
		return
	}
	rt.pages.render(w, r, status, msg)
}

// IsHTMX reports whether r was sent by htmx (a fragment request).
func IsHTMX(r *http.Request) bool { return r.Header.Get("HX-Request") == "true" }

// Redirect sends the browser to target: a 303 for a normal request, an
// HX-Redirect for htmx, which would otherwise swap the target page into the
// current one.
func Redirect(w http.ResponseWriter, r *http.Request, target string) {
	if IsHTMX(r) {
		// The next page shows a pending toast from its cookie; shown here
		// too, the event would clear that cookie on the page being left.
		w.Header().Del("HX-Trigger")
		w.Header().Set("HX-Redirect", target)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// wantsPage reports whether r is a browser navigation to a page, the only
// kind of request for which an expired session is renewed on the server.
func wantsPage(r *http.Request) bool {
	return (r.Method == http.MethodGet || r.Method == http.MethodHead || IsHTMX(r)) &&
		!strings.HasPrefix(r.URL.Path, "/api/") && !strings.HasPrefix(r.URL.Path, "/assets/")
}
