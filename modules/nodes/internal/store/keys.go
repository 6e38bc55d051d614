package store

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// keyQuery selects keys with their tag's name and DevEUI.
func keyQuery(idb bun.IDB, dst any) *bun.SelectQuery {
	return idb.NewSelect().Model(dst).
		ColumnExpr("tk.*").
		ColumnExpr("tag.name AS tag_name, tag.deveui AS tag_deveui").
		Join("JOIN tags AS tag ON tag.id = tk.tag_id")
}

// KeysOfTags lists the keys of the tags, by tag id and key.
func KeysOfTags(ctx context.Context, idb bun.IDB, tagIDs []int64) ([]nodes.Key, error) {
	list := []nodes.Key{}
	if len(tagIDs) == 0 {
		return list, nil
	}
	if err := keyQuery(idb, &list).Where("tk.tag_id IN (?)", bun.In(tagIDs)).OrderExpr("tk.tag_id, tk.tag_key").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	return list, nil
}

// KeysOfCompany lists the keys of every tag of a company, by tag name and
// key.
func KeysOfCompany(ctx context.Context, idb bun.IDB, companyID int64) ([]nodes.Key, error) {
	list := []nodes.Key{}
	if err := keyQuery(idb, &list).Where("tag.company_id = ?", companyID).OrderExpr("tag.name, tag.id, tk.tag_key").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list keys of company %d: %w", companyID, err)
	}
	return list, nil
}

// Key loads the key of a tag by name; an unknown one is not found.
func Key(ctx context.Context, idb bun.IDB, tagID int64, key string) (*nodes.Key, error) {
	k := new(nodes.Key)
	if err := keyQuery(idb, k).Where("tk.tag_id = ? AND tk.tag_key = ?", tagID, key).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load key %q of tag %d", key, tagID)
	}
	return k, nil
}

func keyConflict() error {
	v := errs.Validation{}
	v.Add("key", nodes.IDKeyTaken)
	return v.Err()
}

// InsertKey stores a new key and sets its id; a key the tag has already is
// a validation error.
func InsertKey(ctx context.Context, idb bun.IDB, k *nodes.Key) error {
	k.CreatedAt = Now()
	if _, err := idb.NewInsert().Model(k).Returning("id").Exec(ctx); err != nil {
		if db.IsUniqueViolation(err) {
			return keyConflict()
		}
		return fmt.Errorf("insert key: %w", err)
	}
	return nil
}

// EnsureKey registers a key of a tag unless it is known already.
func EnsureKey(ctx context.Context, idb bun.IDB, tagID int64, name string) error {
	k := &nodes.Key{TagID: tagID, Key: name, CreatedAt: Now()}
	_, err := idb.NewInsert().Model(k).
		On("CONFLICT (tag_id, tag_key) DO NOTHING").Returning("NULL").Exec(ctx)
	if err != nil && !db.IsUniqueViolation(err) {
		return fmt.Errorf("register key %q of tag %d: %w", name, tagID, err)
	}
	return nil
}

// UpdateKey stores how people see a key: its label, unit, decimals and
// default flag.
func UpdateKey(ctx context.Context, idb bun.IDB, k *nodes.Key) error {
	if _, err := idb.NewUpdate().Model(k).Column("label", "unit", "decimals", "is_default").WherePK().Exec(ctx); err != nil {
		return fmt.Errorf("update key %d: %w", k.ID, err)
	}
	return nil
}

// ClearDefault makes no key of a tag but keep its default.
func ClearDefault(ctx context.Context, idb bun.IDB, tagID, keep int64) error {
	_, err := idb.NewUpdate().Model((*nodes.Key)(nil)).Set("is_default = ?", false).
		Where("tag_id = ? AND id <> ? AND is_default = ?", tagID, keep, true).Exec(ctx)
	if err != nil {
		return fmt.Errorf("clear default key of tag %d: %w", tagID, err)
	}
	return nil
}

// DeleteKey removes a key by id.
func DeleteKey(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*nodes.Key)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete key %d: %w", id, err)
	}
	return nil
}
