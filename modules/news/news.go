// Package news is the contract of the news module: the /news page, open to
// visitors and every role, with the installation's own news (entries a
// SuperAdmin posts) and the entries of an RSS 2.0 or Atom feed the operator
// configures (FIELDHUB_NEWS_FEED_URL), with the JSON routes:
//
//   - GET /api/news (open) answers {"entries": [...], "feed": {...}}: the
//     local entries, newest first, and the feed's entries with whether the
//     last fetch failed ("Could not fetch the news from the provider.").
//   - POST /api/news, PUT /api/news/{newsId} and DELETE /api/news/{newsId}
//     (SuperAdmin) write a local entry: title, body (plain text) and
//     publishedAt (RFC 3339, default now).
//
// The server fetches the feed and keeps it for FIELDHUB_NEWS_REFRESH; when
// a fetch fails it keeps showing the entries it has (stale-while-error)
// beside the message. Feed text is shown as text: titles and summaries are
// stripped of markup, and only http and https links are kept. Package
// module builds the module; the implementation lives in internal/.
package news

import (
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
)

// Entry is a local news entry, as GET /api/news answers it.
type Entry struct {
	bun.BaseModel `bun:"table:news_entries" json:"-"`

	ID          int64     `json:"id" bun:"id,pk,autoincrement"`
	Title       string    `json:"title" bun:"title"`
	Body        string    `json:"body" bun:"body"`
	PublishedAt time.Time `json:"publishedAt" bun:"published_at"`
	CreatedAt   time.Time `json:"createdAt" bun:"created_at"`
	UpdatedAt   time.Time `json:"updatedAt" bun:"updated_at"`
}

// Item is an entry of the feed, as text.
type Item struct {
	Title       string    `json:"title"`
	Summary     string    `json:"summary"`
	Link        string    `json:"link"`
	PublishedAt time.Time `json:"publishedAt"` // zero when the feed gives no date
}

// Feed is what the module knows of the configured feed.
type Feed struct {
	// Configured is false when FIELDHUB_NEWS_FEED_URL is unset.
	Configured bool   `json:"configured"`
	Title      string `json:"title"`
	Items      []Item `json:"items"`
	// FetchedAt is when Items were fetched; zero before the first success.
	FetchedAt time.Time `json:"fetchedAt"`
	// Failed is true when the latest fetch failed; Items are then those of
	// the last one that worked, if any.
	Failed bool `json:"failed"`
	// Message is the catalog message of a failure, in the caller's
	// language.
	Message string `json:"message,omitempty"`
}

// Module is the news module as the kernel and the application see it.
type Module interface {
	kernel.Module
	kernel.Router
}

// Limits of a local entry, in characters.
const (
	MaxTitle = 255
	MaxBody  = 10000
)

// Message ids of the module; each is a key of the locale catalogs.
const (
	IDFeedFailed     = "news.feed.failed" // "Could not fetch the news from the provider."
	IDTitleRequired  = "news.title.required"
	IDBodyRequired   = "news.body.required"
	IDPublishedAtBad = "news.publishedAt.invalid"
	IDNotFound       = "news.notFound"
	IDCreated        = "news.created"
	IDUpdated        = "news.updated"
	IDDeleted        = "news.deleted"
)
