// Package board is the news module's service: the local entries (read,
// posted, edited and deleted with their rules) and the configured feed.
// The JSON routes and the pages share it.
package board

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/modules/news"
	"github.com/fieldhub/fieldhub/modules/news/internal/feed"
	"github.com/fieldhub/fieldhub/modules/news/internal/store"
)

// Audit trail message ids.
const (
	auditPosted  = "audit.news.posted"
	auditEdited  = "audit.news.edited"
	auditDeleted = "audit.news.deleted"
)

// Board is the installation's news.
type Board struct {
	db    *bun.DB
	bus   events.Bus
	cache *feed.Cache
}

// New returns the board on db, announcing changes on bus, with the feed
// kept by cache.
func New(db *bun.DB, bus events.Bus, cache *feed.Cache) *Board {
	return &Board{db: db, bus: bus, cache: cache}
}

// Input is a local entry as a SuperAdmin writes it. A zero PublishedAt is
// now for a new entry and unchanged for an edited one.
type Input struct {
	Title       string
	Body        string
	PublishedAt time.Time
	// BadTime says the publication time given did not read; it is
	// reported with the other fields' errors.
	BadTime bool
}

// Local lists the local entries, newest first.
func (b *Board) Local(ctx context.Context) ([]news.Entry, error) { return store.List(ctx, b.db) }

// Entry returns a local entry.
func (b *Board) Entry(ctx context.Context, id int64) (*news.Entry, error) {
	return store.Get(ctx, b.db, id)
}

// Feed returns the configured feed, fetched when due.
func (b *Board) Feed(ctx context.Context) news.Feed { return b.cache.Get(ctx) }

// Post validates and stores a new entry.
func (b *Board) Post(ctx context.Context, in Input) (*news.Entry, error) {
	e := &news.Entry{}
	if err := apply(e, in); err != nil {
		return nil, err
	}
	if e.PublishedAt.IsZero() {
		e.PublishedAt = time.Now().UTC()
	}
	if err := store.Insert(ctx, b.db, e); err != nil {
		return nil, err
	}
	audit.Announce(ctx, b.bus, audit.Change{MessageID: auditPosted, Args: map[string]any{"title": e.Title}})
	return e, nil
}

// Edit validates in and stores it over entry id.
func (b *Board) Edit(ctx context.Context, id int64, in Input) (*news.Entry, error) {
	e, err := store.Get(ctx, b.db, id)
	if err != nil {
		return nil, err
	}
	was := fields(e)
	if err := apply(e, in); err != nil {
		return nil, err
	}
	if err := store.Update(ctx, b.db, e); err != nil {
		return nil, err
	}
	if before, after := audit.Diff(was, fields(e)); !audit.Empty(after) {
		audit.Announce(ctx, b.bus, audit.Change{MessageID: auditEdited, Args: map[string]any{"title": e.Title}, Before: before, After: after})
	}
	return e, nil
}

// Delete removes entry id.
func (b *Board) Delete(ctx context.Context, id int64) error {
	e, err := store.Get(ctx, b.db, id)
	if err != nil {
		return err
	}
	if err := store.Delete(ctx, b.db, id); err != nil {
		return err
	}
	audit.Announce(ctx, b.bus, audit.Change{MessageID: auditDeleted, Args: map[string]any{"title": e.Title}})
	return nil
}

// apply validates in and sets it on e: a title of at most 255 characters
// on one line and a body of at most 10000, both required.
func apply(e *news.Entry, in Input) error {
	title := strings.Join(strings.Fields(in.Title), " ")
	body := strings.TrimSpace(strings.ReplaceAll(in.Body, "\r\n", "\n"))
	v := &errs.Validation{}
	switch {
	case title == "":
		v.Add("title", news.IDTitleRequired)
	case utf8.RuneCountInString(title) > news.MaxTitle:
		v.Add("title", errs.IDMaxChars255)
	}
	switch {
	case body == "":
		v.Add("body", news.IDBodyRequired)
	case utf8.RuneCountInString(body) > news.MaxBody:
		v.Add("body", errs.IDTooLong)
	}
	if in.BadTime {
		v.Add("publishedAt", news.IDPublishedAtBad)
	}
	if err := v.Err(); err != nil {
		return err
	}
	e.Title, e.Body = title, body
	if !in.PublishedAt.IsZero() {
		e.PublishedAt = in.PublishedAt.UTC().Truncate(time.Second)
	}
	return nil
}

// fields are what the audit trail compares of an entry.
func fields(e *news.Entry) map[string]any {
	return map[string]any{"title": e.Title, "body": e.Body, "publishedAt": e.PublishedAt.UTC().Format(time.RFC3339)}
}

// FeedConfigured reports whether a feed is configured.
func (b *Board) FeedConfigured() bool { return b.cache.Configured() }
