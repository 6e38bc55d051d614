// Package store holds the news module's queries on its table of local
// entries (news_entries). Each function takes the bun.IDB to run on.
package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/news"
)

// MaxListed is how many local entries the page and GET /api/news list.
const MaxListed = 100

// List returns the newest local entries first.
func List(ctx context.Context, idb bun.IDB) ([]news.Entry, error) {
	list := []news.Entry{}
	if err := idb.NewSelect().Model(&list).Order("published_at DESC", "id DESC").Limit(MaxListed).Scan(ctx); err != nil {
		return nil, fmt.Errorf("list news: %w", err)
	}
	return list, nil
}

// Get returns an entry; an unknown id is an errs.NotFound error.
func Get(ctx context.Context, idb bun.IDB, id int64) (*news.Entry, error) {
	e := new(news.Entry)
	if err := idb.NewSelect().Model(e).Where("id = ?", id).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, errs.New(errs.NotFound, news.IDNotFound)
		}
		return nil, fmt.Errorf("get news %d: %w", id, err)
	}
	return e, nil
}

// Insert stores a new entry and sets its id and times.
func Insert(ctx context.Context, idb bun.IDB, e *news.Entry) error {
	now := time.Now().UTC()
	e.CreatedAt, e.UpdatedAt = now, now
	if _, err := idb.NewInsert().Model(e).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert news: %w", err)
	}
	return nil
}

// Update stores an entry's title, body and publication time.
func Update(ctx context.Context, idb bun.IDB, e *news.Entry) error {
	e.UpdatedAt = time.Now().UTC()
	res, err := idb.NewUpdate().Model(e).Column("title", "body", "published_at", "updated_at").WherePK().Exec(ctx)
	if err != nil {
		return fmt.Errorf("update news %d: %w", e.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errs.New(errs.NotFound, news.IDNotFound)
	}
	return nil
}

// Delete removes an entry; an unknown id is an errs.NotFound error.
func Delete(ctx context.Context, idb bun.IDB, id int64) error {
	res, err := idb.NewDelete().Model((*news.Entry)(nil)).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("delete news %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errs.New(errs.NotFound, news.IDNotFound)
	}
	return nil
}
