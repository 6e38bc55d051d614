package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/modules/nodes"
)

// CompanyTokens lists the integration tokens of a company, newest first.
func CompanyTokens(ctx context.Context, idb bun.IDB, companyID int64) ([]nodes.Token, error) {
	list := []nodes.Token{}
	if err := idb.NewSelect().Model(&list).Where("company_id = ?", companyID).Order("created_at DESC", "id DESC").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list integration tokens of company %d: %w", companyID, err)
	}
	return list, nil
}

// InsertToken stores a new token and sets its id.
func InsertToken(ctx context.Context, idb bun.IDB, t *nodes.Token) error {
	if _, err := idb.NewInsert().Model(t).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert integration token: %w", err)
	}
	return nil
}

// TokenByID loads a token; an unknown id is not found.
func TokenByID(ctx context.Context, idb bun.IDB, id int64) (*nodes.Token, error) {
	t := new(nodes.Token)
	if err := idb.NewSelect().Model(t).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load integration token %d", id)
	}
	return t, nil
}

// TokenByHash loads the id, company and last use of the token of a hash.
// An unknown hash is the database's "no rows" error, for the caller to
// answer as it must.
func TokenByHash(ctx context.Context, idb bun.IDB, hash string) (*nodes.Token, error) {
	t := new(nodes.Token)
	if err := idb.NewSelect().Model(t).Column("id", "company_id", "last_used_at").Where("token_hash = ?", hash).Scan(ctx); err != nil {
		return nil, err
	}
	return t, nil
}

// NoteTokenUse records when a token was last used.
func NoteTokenUse(ctx context.Context, idb bun.IDB, id int64, at time.Time) error {
	_, err := idb.NewUpdate().Model((*nodes.Token)(nil)).Set("last_used_at = ?", at.UTC()).Where("id = ?", id).Exec(ctx)
	return err
}

// DeleteToken removes a token by id.
func DeleteToken(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*nodes.Token)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete integration token %d: %w", id, err)
	}
	return nil
}
