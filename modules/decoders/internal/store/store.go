// Package store holds the decoders module's queries on its tables:
// decoders, decoder_versions and decoder_limits. Each function takes the
// bun.IDB to run on, the database or a transaction.
package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/decoders"
)

// activeVersion is the column expression of a decoder's active version.
const activeVersion = "(SELECT v.version FROM decoder_versions v WHERE v.decoder_id = d.id AND v.active) AS active_version"

// Decoders lists a company's decoders by name, with their active version.
func Decoders(ctx context.Context, idb bun.IDB, company int64) ([]decoders.Decoder, error) {
	list := []decoders.Decoder{}
	err := idb.NewSelect().Model(&list).
		ColumnExpr("d.*").
		ColumnExpr(activeVersion).
		Where("d.company_id = ?", company).OrderExpr("lower(d.name), d.id").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("list decoders of company %d: %w", company, err)
	}
	for i := range list {
		list[i].Key = decoders.CustomKey(list[i].ID)
	}
	return list, nil
}

// Decoder loads a decoder with its active version; an unknown id is an
// errs.NotFound error.
func Decoder(ctx context.Context, idb bun.IDB, id int64) (*decoders.Decoder, error) {
	d := new(decoders.Decoder)
	err := idb.NewSelect().Model(d).
		ColumnExpr("d.*").
		ColumnExpr(activeVersion).
		Where("d.id = ?", id).Scan(ctx)
	if db.IsNoRows(err) {
		return nil, errs.New(errs.NotFound, errs.IDNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("load decoder %d: %w", id, err)
	}
	d.Key = decoders.CustomKey(d.ID)
	return d, nil
}

// IsCompanys tells whether decoder id is one of company's.
func IsCompanys(ctx context.Context, idb bun.IDB, id, company int64) (bool, error) {
	n, err := idb.NewSelect().Model((*decoders.Decoder)(nil)).Where("id = ? AND company_id = ?", id, company).Count(ctx)
	if err != nil {
		return false, fmt.Errorf("look up decoder %d: %w", id, err)
	}
	return n > 0, nil
}

// NameTaken tells whether another decoder of the company than except has
// the name, compared without regard to case.
func NameTaken(ctx context.Context, idb bun.IDB, company int64, name string, except int64) (bool, error) {
	n, err := idb.NewSelect().Model((*decoders.Decoder)(nil)).
		Where("company_id = ? AND lower(name) = lower(?) AND id <> ?", company, name, except).Count(ctx)
	if err != nil {
		return false, fmt.Errorf("check decoder name: %w", err)
	}
	return n > 0, nil
}

// InsertDecoder adds d and sets its id.
func InsertDecoder(ctx context.Context, idb bun.IDB, d *decoders.Decoder) error {
	if _, err := idb.NewInsert().Model(d).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert decoder: %w", err)
	}
	return nil
}

// Rename gives decoder id its name.
func Rename(ctx context.Context, idb bun.IDB, id int64, name string) error {
	_, err := idb.NewUpdate().Model((*decoders.Decoder)(nil)).Set("name = ?, updated_at = ?", name, time.Now().UTC()).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("rename decoder %d: %w", id, err)
	}
	return nil
}

// DeleteDecoder deletes decoder id with its versions.
func DeleteDecoder(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*decoders.Decoder)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete decoder %d: %w", id, err)
	}
	return nil
}
