package core

import (
	"context"
	"fmt"
	"sort"

	"github.com/uptrace/bun"
)

// scope names the table a set of settings lives in and, for user and
// company settings, the owner column and id.
type scope struct {
	table string
	owner string // "" for the global settings
	id    int64
}

func userScope(id int64) scope { return scope{table: "user_settings", owner: "user_id", id: id} }
func companyScope(id int64) scope {
	return scope{table: "company_settings", owner: "company_id", id: id}
}

var globalScope = scope{table: "global_settings"}

// store holds the module's queries. Each method takes the bun.IDB to run on,
// so that the caller chooses the transaction.
type store struct{}

// load returns the stored values of a scope by name.
func (store) load(ctx context.Context, idb bun.IDB, s scope) (map[string]string, error) {
	var rows []struct {
		Name  string `bun:"name"`
		Value string `bun:"value"`
	}
	q := idb.NewSelect().Table(s.table).Column("name", "value")
	if s.owner != "" {
		q = q.Where("? = ?", bun.Ident(s.owner), s.id)
	}
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("load %s of %d: %w", s.table, s.id, err)
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.Name] = r.Value
	}
	return out, nil
}

// put inserts or replaces values. Names are written in sorted order, so that
// two concurrent writers lock rows in the same order and cannot deadlock.
func (store) put(ctx context.Context, idb bun.IDB, s scope, values map[string]string) error {
	names := make([]string, 0, len(values))
	for name := range values {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		var q *bun.RawQuery
		if s.owner == "" {
			q = idb.NewRaw("INSERT INTO ? (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value",
				bun.Ident(s.table), name, values[name])
		} else {
			q = idb.NewRaw("INSERT INTO ? (?, name, value) VALUES (?, ?, ?) ON CONFLICT (?, name) DO UPDATE SET value = EXCLUDED.value",
				bun.Ident(s.table), bun.Ident(s.owner), s.id, name, values[name], bun.Ident(s.owner))
		}
		if _, err := q.Exec(ctx); err != nil {
			return fmt.Errorf("store %s %q of %d: %w", s.table, name, s.id, err)
		}
	}
	return nil
}

// loadFrame returns, in one query, what every page's frame needs: a user's
// settings (none for userID 0, a visitor) and the named global settings.
func (store) loadFrame(ctx context.Context, idb bun.IDB, userID int64, globals []string) (user, global map[string]string, err error) {
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
