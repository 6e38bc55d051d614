// Package pages draws the news module's pages: /news for visitors and
// every role, with the SuperAdmin's form to post, edit and delete local
// entries, and /news/feed, the feed's part, which the page loads after it
// shows (the feed may take a moment to fetch).
package pages

import (
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/news"
	"github.com/fieldhub/fieldhub/modules/news/internal/board"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// localLayout is how the form writes a publication time: the value of an
// <input type="datetime-local">, in the viewer's time zone.
const localLayout = "2006-01-02T15:04"

// Pages are the news pages.
type Pages struct {
	board    *board.Board
	ui       *ui.Env
	catalogs *i18n.Catalogs
}

// New returns the pages of b, drawn with env.
func New(b *board.Board, env *ui.Env, catalogs *i18n.Catalogs) *Pages {
	return &Pages{board: b, ui: env, catalogs: catalogs}
}

// MenuItem is the News entry of the side menu: for visitors and every
// signed-in role but the public dashboard's pseudo-user.
var MenuItem = web.MenuItem{ID: "news", LabelID: "menu.news", Href: "/news", Icon: "mdi-newspaper-variant-outline",
	Roles: auth.CompanyOrUser, Guest: true, Order: 30}

// Routes registers the pages.
func (p *Pages) Routes(r *web.ModuleRoutes) {
	r.Page("GET /news", auth.Open, p.page)
	r.Page("GET /news/feed", auth.Open, p.feedPart)
	r.Page("POST /news", auth.SuperAdminOnly, p.create)
	r.Page("GET /news/{newsId}/edit", auth.SuperAdminOnly, p.editPage)
	r.Page("POST /news/{newsId}", auth.SuperAdminOnly, p.editSubmit)
	r.Page("GET /news/{newsId}/delete", auth.SuperAdminOnly, p.deletePage)
	r.Page("POST /news/{newsId}/delete", auth.SuperAdminOnly, p.deleteSubmit)
}

// canWrite reports whether the viewer may post, edit and delete.
func canWrite(r *http.Request) bool { return auth.CallerFrom(r.Context()).Role == auth.SuperAdmin }

// form is the entry form's values as written.
type form struct {
	ID                       int64
	Title, Body, PublishedAt string
}

func (p *Pages) page(w http.ResponseWriter, r *http.Request) error {
	return p.render(w, r, http.StatusOK, form{}, ui.NoErrors)
}

// render draws the whole page with the new-entry form as given.
func (p *Pages) render(w http.ResponseWriter, r *http.Request, status int, f form, fe ui.FormErrors) error {
	entries, err := p.board.Local(r.Context())
	if err != nil {
		return err
	}
	var postForm templ.Component
	if canWrite(r) {
		postForm = entryForm(f, fe)
	}
	feedOn := p.board.FeedConfigured()
	return p.ui.Render(w, r, status, "page.news.title", newsPage(entries, canWrite(r), postForm, feedOn))
}

// feedPart is the feed's section, which the page loads after it shows.
func (p *Pages) feedPart(w http.ResponseWriter, r *http.Request) error {
	return p.ui.Fragment(w, r, http.StatusOK, feedSection(p.board.Feed(r.Context())))
}

func (p *Pages) create(w http.ResponseWriter, r *http.Request) error {
	f := readForm(r)
	if _, err := p.board.Post(r.Context(), f.input(r)); err != nil {
		return p.ui.FormFailed(w, r, err, "page.news.title", func(fe ui.FormErrors) templ.Component { return entryForm(f, fe) },
			func(c templ.Component) templ.Component { return formCard("page.news.new", c) })
	}
	web.Toast(w, r, "success", p.t(r, news.IDCreated))
	web.Redirect(w, r, "/news")
	return nil
}

func (p *Pages) editPage(w http.ResponseWriter, r *http.Request) error {
	e, err := p.entry(r)
	if err != nil {
		return err
	}
	f := form{ID: e.ID, Title: e.Title, Body: e.Body, PublishedAt: e.PublishedAt.In(location(r)).Format(localLayout)}
	return p.ui.Render(w, r, http.StatusOK, "page.news.edit", editPage(entryForm(f, ui.NoErrors)))
}

func (p *Pages) editSubmit(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "newsId")
	if err != nil {
		return err
	}
	f := readForm(r)
	f.ID = id
	if _, err := p.board.Edit(r.Context(), id, f.input(r)); err != nil {
		if errs.Is(err, errs.NotFound) {
			return err
		}
		return p.ui.FormFailed(w, r, err, "page.news.edit", func(fe ui.FormErrors) templ.Component { return entryForm(f, fe) },
			func(c templ.Component) templ.Component { return editPage(c) })
	}
	web.Toast(w, r, "success", p.t(r, news.IDUpdated))
	web.Redirect(w, r, "/news")
	return nil
}

func (p *Pages) deletePage(w http.ResponseWriter, r *http.Request) error {
	e, err := p.entry(r)
	if err != nil {
		return err
	}
	return p.ui.Render(w, r, http.StatusOK, "page.news.delete", deleteConfirm(e))
}

func (p *Pages) deleteSubmit(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "newsId")
	if err != nil {
		return err
	}
	if err := p.board.Delete(r.Context(), id); err != nil {
		return err
	}
	web.Toast(w, r, "success", p.t(r, news.IDDeleted))
	web.Redirect(w, r, "/news")
	return nil
}

func (p *Pages) entry(r *http.Request) (*news.Entry, error) {
	id, err := web.PathID(r, "newsId")
	if err != nil {
		return nil, err
	}
	return p.board.Entry(r.Context(), id)
}

func (p *Pages) t(r *http.Request, id string) string {
	return p.catalogs.T(web.ViewerFrom(r.Context()).Lang, id, nil)
}

// location is the viewer's time zone, which the form's times are in.
func location(r *http.Request) *time.Location {
	if loc := web.ViewerFrom(r.Context()).Location; loc != nil {
		return loc
	}
	return time.UTC
}

func readForm(r *http.Request) form {
	return form{Title: r.PostFormValue("title"), Body: r.PostFormValue("body"), PublishedAt: strings.TrimSpace(r.PostFormValue("publishedAt"))}
}

// input reads the form's publication time in the viewer's zone; empty is
// now for a new entry and unchanged for an edited one.
func (f form) input(r *http.Request) board.Input {
	in := board.Input{Title: f.Title, Body: f.Body}
	if f.PublishedAt != "" {
		t, err := time.ParseInLocation(localLayout, f.PublishedAt, location(r))
		in.PublishedAt, in.BadTime = t, err != nil
	}
	return in
}

// paragraphs splits a plain-text body into paragraphs (at blank lines) of
// lines, which the page draws as <p> with <br>: the text stays text.
func paragraphs(body string) [][]string {
	var out [][]string
	for _, para := range strings.Split(body, "\n\n") {
		if para = strings.TrimSpace(para); para != "" {
			out = append(out, strings.Split(para, "\n"))
		}
	}
	return out
}
