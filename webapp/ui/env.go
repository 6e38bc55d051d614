// Package ui holds the templ components every server page shares: the frame
// (side menu, top bar, snackbar), form fields and the error page, and
// Render, which draws a page in the viewer's language and theme.
package ui

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/webapp"
)

// Links are the side menu's external links; an empty URL hides its entry.
type Links struct {
	APIDocs string
	Manual  string
	Shop    string
}

// Env is what rendering needs; modules receive it through their Deps.
type Env struct {
	Assets   *webapp.Assets
	Router   *web.Router
	Catalogs *i18n.Catalogs
	Links    Links
}

type pageKey struct{}

// pageState is what the components read from the context while rendering.
type pageState struct {
	env     *Env
	viewer  *web.Viewer
	title   string
	islands bool
	bare    bool // no side menu or top bar (home landing)
}

// Options adjust one page.
type Options struct {
	// Islands loads the islands script; set it on pages that use one.
	Islands bool
	// Bare hides the top bar and the menu toggle; the home route uses it.
	Bare bool
}

// Render draws body inside the frame as a full page, or alone for an htmx
// request that targets part of the page.
func (e *Env) Render(w http.ResponseWriter, r *http.Request, status int, titleID string, body templ.Component, opts ...Options) error {
	v := web.ViewerFrom(r.Context())
	st := &pageState{env: e, viewer: v, title: e.Catalogs.T(v.Lang, titleID, nil)}
	for _, o := range opts {
		st.islands = st.islands || o.Islands
		st.bare = st.bare || o.Bare
	}
	ctx := context.WithValue(r.Context(), pageKey{}, st)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Language", v.Lang)
	w.Header().Set("Vary", "HX-Request")
	w.WriteHeader(status)
	if web.IsHTMX(r) && r.Header.Get("HX-Boosted") != "true" {
		return body.Render(ctx, w)
	}
	return document(body).Render(ctx, w)
}

// Fragment draws a component alone, with the page's context.
func (e *Env) Fragment(w http.ResponseWriter, r *http.Request, status int, c templ.Component) error {
	v := web.ViewerFrom(r.Context())
	ctx := context.WithValue(r.Context(), pageKey{}, &pageState{env: e, viewer: v})
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	return c.Render(ctx, w)
}

// ErrorPage is the kernel's PageErrorRenderer.
func (e *Env) ErrorPage(w http.ResponseWriter, r *http.Request, status int, message string) {
	_ = e.Render(w, r, status, "page.error.title", errorBody(status, message))
}

func state(ctx context.Context) *pageState {
	if st, ok := ctx.Value(pageKey{}).(*pageState); ok {
		return st
	}
	return &pageState{viewer: &web.Viewer{Lang: i18n.Default}}
}

// T translates a message ID in the page's language.
func T(ctx context.Context, id string) string {
	st := state(ctx)
	if st.env == nil {
		return id
	}
	return st.env.Catalogs.T(st.viewer.Lang, id, nil)
}

// Tf translates with placeholder values given as name, value pairs.
func Tf(ctx context.Context, id string, pairs ...any) string {
	args := map[string]any{}
	for i := 0; i+1 < len(pairs); i += 2 {
		args[fmt.Sprint(pairs[i])] = pairs[i+1]
	}
	st := state(ctx)
	if st.env == nil {
		return id
	}
	return st.env.Catalogs.T(st.viewer.Lang, id, args)
}

// ViewerOf returns the viewer of the page being drawn.
func ViewerOf(ctx context.Context) *web.Viewer { return state(ctx).viewer }

// FormErrors are the messages of a refused form: per field, and one for the
// form as a whole when the error is not about a field.
type FormErrors struct {
	Fields map[string]string
	Form   string
}

// Has reports whether there is any error.
func (f FormErrors) Has() bool { return f.Form != "" || len(f.Fields) > 0 }

// ErrorsOf turns a domain error into form messages in lang. It returns ok
// false for errors a form cannot show (internal ones), which the caller
// should return instead.
func (e *Env) ErrorsOf(lang string, err error) (FormErrors, bool) {
	var de *errs.Error
	if !errors.As(err, &de) || de.Kind == errs.Internal || de.Kind == errs.Unavailable {
		return FormErrors{}, false
	}
	out := FormErrors{Fields: map[string]string{}}
	for _, f := range de.Fields {
		if _, seen := out.Fields[f.Field]; !seen {
			out.Fields[f.Field] = e.Catalogs.T(lang, f.ID, f.Args)
		}
	}
	if len(de.Fields) == 0 {
		out.Form = e.Catalogs.T(lang, de.ID, de.Args)
	}
	return out, true
}

// FormFailed answers a refused form: the form again with its messages, as
// the fragment htmx swaps in, or inside wrap as a whole page when the browser
// posted without htmx. Errors a form cannot show are returned to the caller.
// The status is FormStatus's. opts apply to the whole page (Islands for a
// form with an island).
func (e *Env) FormFailed(w http.ResponseWriter, r *http.Request, err error, titleID string, form func(FormErrors) templ.Component, wrap func(templ.Component) templ.Component, opts ...Options) error {
	fe, ok := e.ErrorsOf(web.ViewerFrom(r.Context()).Lang, err)
	if !ok {
		return err
	}
	return e.RenderForm(w, r, FormStatus(r, err), titleID, form(fe), wrap, opts...)
}

// FormStatus is the status of a form drawn again with the messages of err.
// To htmx it is 200: the fragment is the answer htmx asked for, and any 4xx
// would have the browser report "Failed to load resource" in the console
// for what is only a field to correct. A browser that posted without htmx
// gets the error's own status (400 for invalid input, 409, 403, ...), as
// the JSON API answers it.
func FormStatus(r *http.Request, err error) int {
	if web.IsHTMX(r) {
		return http.StatusOK
	}
	return web.StatusOf(err)
}

// RenderForm draws a form: alone for htmx, inside wrap as a whole page
// (drawn with opts) otherwise.
func (e *Env) RenderForm(w http.ResponseWriter, r *http.Request, status int, titleID string, form templ.Component, wrap func(templ.Component) templ.Component, opts ...Options) error {
	if web.IsHTMX(r) {
		return e.Fragment(w, r, status, form)
	}
	if wrap != nil {
		form = wrap(form)
	}
	return e.Render(w, r, status, titleID, form, opts...)
}

// NoErrors is the empty FormErrors of a fresh form.
var NoErrors = FormErrors{}
