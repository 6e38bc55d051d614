// Package store holds the dashboards module's tables: categories,
// dashboards, modules and their pictures, default dashboards and public
// links. Each function takes the bun.IDB to run on, so that the caller
// chooses the transaction.
package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
)

// notFoundOr turns "no rows" into the domain's not found and wraps the
// rest.
func notFoundOr(err error, what string, args ...any) error {
	if db.IsNoRows(err) {
		return errs.New(errs.NotFound, errs.IDNotFound)
	}
	return fmt.Errorf(what+": %w", append(args, err)...)
}

func now() time.Time { return time.Now().UTC() }

// NextPosition is the position after the last of the rows of table whose
// scopeCol is scope and, when col is given, whose col is parent (NULL when
// parent is nil): where a new row goes last.
func NextPosition(ctx context.Context, idb bun.IDB, table, scopeCol string, scope int64, col string, parent *int64) (int, error) {
	q := idb.NewSelect().TableExpr(table).ColumnExpr("COALESCE(MAX(position), -1) + 1").Where("? = ?", bun.Ident(scopeCol), scope)
	if col != "" {
		if parent == nil {
			q = q.Where("? IS NULL", bun.Ident(col))
		} else {
			q = q.Where("? = ?", bun.Ident(col), *parent)
		}
	}
	var n int
	if err := q.Scan(ctx, &n); err != nil {
		return 0, fmt.Errorf("next position in %s: %w", table, err)
	}
	return n, nil
}
