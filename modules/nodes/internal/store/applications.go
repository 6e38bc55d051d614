package store

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// ApplicationByID loads an application; an unknown id is not found.
func ApplicationByID(ctx context.Context, idb bun.IDB, id int64) (*nodes.Application, error) {
	a := new(nodes.Application)
	if err := idb.NewSelect().Model(a).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load application %d", id)
	}
	a.TTSAPIKeySet = a.SealedTTSAPIKey != ""
	return a, nil
}

// Applications lists the applications of a company, by name.
func Applications(ctx context.Context, idb bun.IDB, companyID int64) ([]nodes.Application, error) {
	list := []nodes.Application{}
	if err := idb.NewSelect().Model(&list).Where("company_id = ?", companyID).Order("name", "id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list applications of company %d: %w", companyID, err)
	}
	for i := range list {
		list[i].TTSAPIKeySet = list[i].SealedTTSAPIKey != ""
	}
	return list, nil
}

// OtherApplications lists the applications of every company but one, by
// company and name.
func OtherApplications(ctx context.Context, idb bun.IDB, except int64) ([]nodes.Application, error) {
	list := []nodes.Application{}
	if err := idb.NewSelect().Model(&list).Where("company_id <> ?", except).Order("company_id", "name", "id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list applications of other companies: %w", err)
	}
	return list, nil
}

// ApplicationsByChirpStackID lists the applications that name a ChirpStack
// application id, given in lower case, oldest first.
func ApplicationsByChirpStackID(ctx context.Context, idb bun.IDB, id string) ([]nodes.Application, error) {
	list := []nodes.Application{}
	if err := idb.NewSelect().Model(&list).Where("chirpstack_application_id = ?", id).Order("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("find applications of ChirpStack application %s: %w", id, err)
	}
	for i := range list {
		list[i].TTSAPIKeySet = list[i].SealedTTSAPIKey != ""
	}
	return list, nil
}

// InsertApplication stores a new application and sets its id.
func InsertApplication(ctx context.Context, idb bun.IDB, a *nodes.Application) error {
	a.CreatedAt, a.UpdatedAt = Now(), Now()
	if _, err := idb.NewInsert().Model(a).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert application: %w", err)
	}
	a.TTSAPIKeySet = a.SealedTTSAPIKey != ""
	return nil
}

// UpdateApplication stores what may change of an application: all but its
// id, company and creation time.
func UpdateApplication(ctx context.Context, idb bun.IDB, a *nodes.Application) error {
	a.UpdatedAt = Now()
	if _, err := idb.NewUpdate().Model(a).ExcludeColumn("id", "company_id", "created_at").WherePK().Exec(ctx); err != nil {
		return fmt.Errorf("update application %d: %w", a.ID, err)
	}
	a.TTSAPIKeySet = a.SealedTTSAPIKey != ""
	return nil
}

// DeleteApplication removes an application that has no tags. Should a tag
// be added meanwhile, the foreign key of tags refuses the delete.
func DeleteApplication(ctx context.Context, idb bun.IDB, id int64) error {
	n, err := idb.NewSelect().Model((*nodes.Tag)(nil)).Where("application_id = ?", id).Count(ctx)
	if err != nil {
		return fmt.Errorf("count tags of application %d: %w", id, err)
	}
	if n > 0 {
		return errs.New(errs.Conflict, nodes.IDAppHasTags)
	}
	if _, err := idb.NewDelete().Model((*nodes.Application)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete application %d: %w", id, err)
	}
	return nil
}

// TagCounts counts the tags of each application of a company.
func TagCounts(ctx context.Context, idb bun.IDB, companyID int64) (map[int64]int, error) {
	var rows []struct {
		ApplicationID int64 `bun:"application_id"`
		N             int   `bun:"n"`
	}
	err := idb.NewSelect().Model((*nodes.Tag)(nil)).ColumnExpr("tag.application_id, COUNT(*) AS n").
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
