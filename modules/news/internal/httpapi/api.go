// Package httpapi serves the news module's JSON routes under /api/news.
package httpapi

import (
	"net/http"
	"time"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/news"
	"github.com/fieldhub/fieldhub/modules/news/internal/board"
)

// API answers the news routes.
type API struct {
	board    *board.Board
	router   *web.Router
	catalogs *i18n.Catalogs
}

// New returns the API of b; router tells a request's language, in which
// catalogs word the feed's failure.
func New(b *board.Board, router *web.Router, catalogs *i18n.Catalogs) *API {
	return &API{board: b, router: router, catalogs: catalogs}
}

// Routes registers the routes: reading is open, as the page is; writing is
// the SuperAdmin's.
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("GET /news", auth.Open, a.list)
	r.API("POST /news", auth.SuperAdminOnly, a.create)
	r.API("PUT /news/{newsId}", auth.SuperAdminOnly, a.update)
	r.API("DELETE /news/{newsId}", auth.SuperAdminOnly, a.remove)
}

// listAnswer is GET /api/news.
type listAnswer struct {
	Entries []news.Entry `json:"entries"`
	Feed    news.Feed    `json:"feed"`
}

func (a *API) list(w http.ResponseWriter, r *http.Request) error {
	entries, err := a.board.Local(r.Context())
	if err != nil {
		return err
	}
	f := a.board.Feed(r.Context())
	if f.Failed {
		f.Message = a.catalogs.T(a.router.Lang(r), news.IDFeedFailed, nil)
	}
	if f.Items == nil {
		f.Items = []news.Item{}
	}
	return web.OK(w, listAnswer{Entries: entries, Feed: f})
}

// entryBody is the body of POST and PUT: publishedAt is RFC 3339, and may
// be left out (now for a new entry, unchanged for an edited one).
type entryBody struct {
	Title       string `json:"title"`
	Body        string `json:"body"`
	PublishedAt string `json:"publishedAt"`
}

func (b entryBody) input() board.Input {
	in := board.Input{Title: b.Title, Body: b.Body}
	if b.PublishedAt != "" {
		t, err := time.Parse(time.RFC3339, b.PublishedAt)
		in.PublishedAt, in.BadTime = t, err != nil
	}
	return in
}

func (a *API) create(w http.ResponseWriter, r *http.Request) error {
	var body entryBody
	if err := web.Decode(r, &body); err != nil {
		return err
	}
	e, err := a.board.Post(r.Context(), body.input())
	if err != nil {
		return err
	}
	return web.Created(w, e)
}

func (a *API) update(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "newsId")
	if err != nil {
		return err
	}
	var body entryBody
	if err := web.Decode(r, &body); err != nil {
		return err
	}
	e, err := a.board.Edit(r.Context(), id, body.input())
	if err != nil {
		return err
	}
	return web.OK(w, e)
}

func (a *API) remove(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "newsId")
	if err != nil {
		return err
	}
	if err := a.board.Delete(r.Context(), id); err != nil {
		return err
	}
	return web.NoContent(w)
}
