package core

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
)

// store holds the module's queries. Each method takes the bun.IDB to run on,
// so that the caller chooses the transaction.
type store struct{}

// notFoundOr turns "no rows" into the domain's not found and wraps the rest.
func notFoundOr(err error, what string, args ...any) error {
	if db.IsNoRows(err) {
		return errNotFound
	}
	return fmt.Errorf(what+": %w", append(args, err)...)
}

func now() time.Time { return time.Now().UTC() }

// Applications.

func (store) applicationByID(ctx context.Context, idb bun.IDB, id int64) (*Application, error) {
	a := new(Application)
	if err := idb.NewSelect().Model(a).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load application %d", id)
	}
	a.TTSAPIKeySet = a.SealedTTSAPIKey != ""
	return a, nil
}

func (store) applications(ctx context.Context, idb bun.IDB, companyID int64) ([]Application, error) {
	list := []Application{}
	if err := idb.NewSelect().Model(&list).Where("company_id = ?", companyID).Order("name", "id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list applications of company %d: %w", companyID, err)
	}
	for i := range list {
		list[i].TTSAPIKeySet = list[i].SealedTTSAPIKey != ""
	}
	return list, nil
}

func (store) insertApplication(ctx context.Context, idb bun.IDB, a *Application) error {
	a.CreatedAt, a.UpdatedAt = now(), now()
	if _, err := idb.NewInsert().Model(a).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert application: %w", err)
	}
	a.TTSAPIKeySet = a.SealedTTSAPIKey != ""
	return nil
}

func (store) updateApplication(ctx context.Context, idb bun.IDB, a *Application) error {
	a.UpdatedAt = now()
	if _, err := idb.NewUpdate().Model(a).ExcludeColumn("id", "company_id", "created_at").WherePK().Exec(ctx); err != nil {
		return fmt.Errorf("update application %d: %w", a.ID, err)
	}
	a.TTSAPIKeySet = a.SealedTTSAPIKey != ""
	return nil
}

// deleteApplication removes an application that has no tags. Should a tag
// be added meanwhile, the foreign key of tags refuses the delete.
func (store) deleteApplication(ctx context.Context, idb bun.IDB, id int64) error {
	n, err := idb.NewSelect().Model((*Tag)(nil)).Where("application_id = ?", id).Count(ctx)
	if err != nil {
		return fmt.Errorf("count tags of application %d: %w", id, err)
	}
	if n > 0 {
		return errs.New(errs.Conflict, msgAppHasTags)
	}
	if _, err := idb.NewDelete().Model((*Application)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete application %d: %w", id, err)
	}
	return nil
}

// Tags.

func tagQuery(idb bun.IDB, dst any) *bun.SelectQuery {
	return idb.NewSelect().Model(dst).
		ColumnExpr("tag.*").
		ColumnExpr("ti.version AS image_version").
		Join("LEFT JOIN tag_images AS ti ON ti.tag_id = tag.id")
}

func (store) tagByID(ctx context.Context, idb bun.IDB, id int64) (*Tag, error) {
	t := new(Tag)
	if err := tagQuery(idb, t).Where("tag.id = ?", id).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load tag %d", id)
	}
	return t, nil
}

func (store) tagByDevEUI(ctx context.Context, idb bun.IDB, deveui string) (*Tag, error) {
	t := new(Tag)
	if err := tagQuery(idb, t).Where("tag.deveui = ?", deveui).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load tag %s", deveui)
	}
	return t, nil
}

// tags lists the tags of one company, or of all when companyID is 0.
func (store) tags(ctx context.Context, idb bun.IDB, companyID int64) ([]*Tag, error) {
	list := []*Tag{}
	q := tagQuery(idb, &list).OrderExpr("tag.name, tag.id")
	if companyID != 0 {
		q = q.Where("tag.company_id = ?", companyID)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("list tags: %w", err)
	}
	return list, nil
}

// devEUITaken reports whether a tag other than except has deveui.
func (store) devEUITaken(ctx context.Context, idb bun.IDB, deveui string, except int64) (bool, error) {
	ok, err := idb.NewSelect().Model((*Tag)(nil)).Where("deveui = ? AND id <> ?", deveui, except).Exists(ctx)
	if err != nil {
		return false, fmt.Errorf("look up deveui: %w", err)
	}
	return ok, nil
}

func devEUIConflict() error {
	v := errs.Validation{}
	v.Add("Deveui", msgDevEUITaken)
	return v.Err()
}

func (store) insertTag(ctx context.Context, idb bun.IDB, t *Tag) error {
	t.CreatedAt, t.UpdatedAt = now(), now()
	if t.LatestData == "" {
		t.LatestData = "{}"
	}
	if _, err := idb.NewInsert().Model(t).Returning("id").Exec(ctx); err != nil {
		if db.IsUniqueViolation(err) {
			return devEUIConflict()
		}
		return fmt.Errorf("insert tag: %w", err)
	}
	return nil
}

// updateTag stores what people edit of a tag; the reported state (battery,
// latest data and so on) is left to the uplinks.
func (store) updateTag(ctx context.Context, idb bun.IDB, t *Tag) error {
	t.UpdatedAt = now()
	_, err := idb.NewUpdate().Model(t).
		Column("company_id", "application_id", "name", "deveui", "app_key", "app_eui", "profile",
			"latitude", "longitude", "location", "type", "decoder", "updated_at").
		WherePK().Exec(ctx)
	if err != nil {
		if db.IsUniqueViolation(err) {
			return devEUIConflict()
		}
		return fmt.Errorf("update tag %d: %w", t.ID, err)
	}
	return nil
}

func (store) deleteTag(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*Tag)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete tag %d: %w", id, err)
	}
	return nil
}

// Keys.

func keyQuery(idb bun.IDB, dst any) *bun.SelectQuery {
	return idb.NewSelect().Model(dst).
		ColumnExpr("tk.*").
		ColumnExpr("tag.name AS tag_name, tag.deveui AS tag_deveui").
		Join("JOIN tags AS tag ON tag.id = tk.tag_id")
}

func (store) keysOfTags(ctx context.Context, idb bun.IDB, tagIDs []int64) ([]Key, error) {
	list := []Key{}
	if len(tagIDs) == 0 {
		return list, nil
	}
	if err := keyQuery(idb, &list).Where("tk.tag_id IN (?)", bun.In(tagIDs)).OrderExpr("tk.tag_id, tk.tag_key").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	return list, nil
}

func (store) keysOfCompany(ctx context.Context, idb bun.IDB, companyID int64) ([]Key, error) {
	list := []Key{}
	if err := keyQuery(idb, &list).Where("tag.company_id = ?", companyID).OrderExpr("tag.name, tag.id, tk.tag_key").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list keys of company %d: %w", companyID, err)
	}
	return list, nil
}

func (store) key(ctx context.Context, idb bun.IDB, tagID int64, key string) (*Key, error) {
	k := new(Key)
	if err := keyQuery(idb, k).Where("tk.tag_id = ? AND tk.tag_key = ?", tagID, key).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load key %q of tag %d", key, tagID)
	}
	return k, nil
}

func keyConflict() error {
	v := errs.Validation{}
	v.Add("key", msgKeyTaken)
	return v.Err()
}

func (store) insertKey(ctx context.Context, idb bun.IDB, k *Key) error {
	k.CreatedAt = now()
	if _, err := idb.NewInsert().Model(k).Returning("id").Exec(ctx); err != nil {
		if db.IsUniqueViolation(err) {
			return keyConflict()
		}
		return fmt.Errorf("insert key: %w", err)
	}
	return nil
}

func (store) updateKey(ctx context.Context, idb bun.IDB, k *Key) error {
	if _, err := idb.NewUpdate().Model(k).Column("label", "unit", "decimals", "is_default").WherePK().Exec(ctx); err != nil {
		return fmt.Errorf("update key %d: %w", k.ID, err)
	}
	return nil
}

// clearDefault makes no key of a tag but keep its default.
func (store) clearDefault(ctx context.Context, idb bun.IDB, tagID, keep int64) error {
	_, err := idb.NewUpdate().Model((*Key)(nil)).Set("is_default = ?", false).
		Where("tag_id = ? AND id <> ? AND is_default = ?", tagID, keep, true).Exec(ctx)
	if err != nil {
		return fmt.Errorf("clear default key of tag %d: %w", tagID, err)
	}
	return nil
}

func (store) deleteKey(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*Key)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete key %d: %w", id, err)
	}
	return nil
}

// Downlinks.

func downlinkQuery(idb bun.IDB, dst any) *bun.SelectQuery {
	return idb.NewSelect().Model(dst).
		ColumnExpr("dl.*").
		ColumnExpr("tag.deveui AS deveui, tag.application_id AS application_id, tag.company_id AS company_id").
		Join("JOIN tags AS tag ON tag.id = dl.tag_id")
}

func (store) downlink(ctx context.Context, idb bun.IDB, id int64) (*Downlink, error) {
	d := new(Downlink)
	if err := downlinkQuery(idb, d).Where("dl.id = ?", id).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load downlink %d", id)
	}
	return d, nil
}

// tagCounts counts the tags of each application of a company.
func (store) tagCounts(ctx context.Context, idb bun.IDB, companyID int64) (map[int64]int, error) {
	var rows []struct {
		ApplicationID int64 `bun:"application_id"`
		N             int   `bun:"n"`
	}
	err := idb.NewSelect().Model((*Tag)(nil)).ColumnExpr("tag.application_id, COUNT(*) AS n").
		Where("tag.company_id = ?", companyID).Group("tag.application_id").Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("count tags of company %d: %w", companyID, err)
	}
	out := make(map[int64]int, len(rows))
	for _, r := range rows {
		out[r.ApplicationID] = r.N
	}
	return out, nil
}
