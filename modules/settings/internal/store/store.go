// Package store holds the settings module's queries on its three tables,
// user_settings, company_settings and global_settings: name/value strings,
// secrets already sealed. Each function takes the bun.IDB to run on, so
// that the caller chooses the transaction.
package store

import (
	"context"
	"fmt"
	"sort"

	"github.com/uptrace/bun"
)

// Scope names the table a set of settings lives in and, for user and
// company settings, the owner column and id.
type Scope struct {
	Table string
	Owner string // "" for the global settings
	ID    int64
}

// UserScope is the settings of one user.
func UserScope(id int64) Scope { return Scope{Table: "user_settings", Owner: "user_id", ID: id} }

// CompanyScope is the settings of one company.
func CompanyScope(id int64) Scope {
	return Scope{Table: "company_settings", Owner: "company_id", ID: id}
}

// GlobalScope is the installation's settings.
var GlobalScope = Scope{Table: "global_settings"}

// Load returns the stored values of a scope by name.
func Load(ctx context.Context, idb bun.IDB, s Scope) (map[string]string, error) {
	var rows []struct {
		Name  string `bun:"name"`
		Value string `bun:"value"`
	}
	q := idb.NewSelect().Table(s.Table).Column("name", "value")
	if s.Owner != "" {
		q = q.Where("? = ?", bun.Ident(s.Owner), s.ID)
	}
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("load %s of %d: %w", s.Table, s.ID, err)
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.Name] = r.Value
	}
	return out, nil
}

// Put inserts or replaces values. Names are written in sorted order, so that
// two concurrent writers lock rows in the same order and cannot deadlock.
func Put(ctx context.Context, idb bun.IDB, s Scope, values map[string]string) error {
	names := make([]string, 0, len(values))
	for name := range values {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		var q *bun.RawQuery
		if s.Owner == "" {
			q = idb.NewRaw("INSERT INTO ? (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value",
				bun.Ident(s.Table), name, values[name])
		} else {
			q = idb.NewRaw("INSERT INTO ? (?, name, value) VALUES (?, ?, ?) ON CONFLICT (?, name) DO UPDATE SET value = EXCLUDED.value",
				bun.Ident(s.Table), bun.Ident(s.Owner), s.ID, name, values[name], bun.Ident(s.Owner))
		}
		if _, err := q.Exec(ctx); err != nil {
			return fmt.Errorf("store %s %q of %d: %w", s.Table, name, s.ID, err)
		}
	}
	return nil
}

// LoadFrame returns, in one query, what every page's frame needs: a user's
// settings (none for userID 0, a visitor) and the named global settings.
func LoadFrame(ctx context.Context, idb bun.IDB, userID int64, globals []string) (user, global map[string]string, err error) {
	var rows []struct {
		Scope string `bun:"scope"`
		Name  string `bun:"name"`
		Value string `bun:"value"`
	}
	q := idb.NewRaw("SELECT 'global' AS scope, name, value FROM global_settings WHERE name IN (?)", bun.In(globals))
	if userID != 0 {
		q = idb.NewRaw("SELECT 'user' AS scope, name, value FROM user_settings WHERE user_id = ?"+
			" UNION ALL SELECT 'global' AS scope, name, value FROM global_settings WHERE name IN (?)", userID, bun.In(globals))
	}
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, nil, fmt.Errorf("load the settings of user %d and the brand: %w", userID, err)
	}
	user, global = map[string]string{}, map[string]string{}
	for _, r := range rows {
		if r.Scope == "user" {
			user[r.Name] = r.Value
		} else {
			global[r.Name] = r.Value
		}
	}
	return user, global, nil
}
