// Package store reads and writes the gateways module's tables: the
// registered gateways, and the statistics the instances add from the
// uplinks (gateway_seen, gateway_uplinks, gateway_samples).
package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/gateways"
)

// ErrNotFound is the answer for a gateway that does not exist.
var ErrNotFound = errs.New(errs.NotFound, errs.IDNotFound)

// Now is the time stored as created_at: UTC, to the microsecond both
// databases keep.
func Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// Gateway loads a gateway by id.
func Gateway(ctx context.Context, idb bun.IDB, id int64) (*gateways.Gateway, error) {
	g := new(gateways.Gateway)
	if err := idb.NewSelect().Model(g).Where("id = ?", id).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("load gateway %d: %w", id, err)
	}
	return g, nil
}

// CompanyGateways lists a company's gateways by name.
func CompanyGateways(ctx context.Context, idb bun.IDB, companyID int64) ([]*gateways.Gateway, error) {
	list := []*gateways.Gateway{}
	if err := idb.NewSelect().Model(&list).Where("company_id = ?", companyID).Order("name", "id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list gateways of company %d: %w", companyID, err)
	}
	return list, nil
}

// Insert stores a new gateway; an EUI the company has registered already
// is a conflict.
func Insert(ctx context.Context, idb bun.IDB, g *gateways.Gateway) error {
	g.CreatedAt = Now()
	if _, err := idb.NewInsert().Model(g).Returning("id").Exec(ctx); err != nil {
		if db.IsUniqueViolation(err) {
			return errs.New(errs.Conflict, gateways.IDDuplicateEUI).With("eui", g.MacAddress).Wrap(err)
		}
		return fmt.Errorf("insert gateway %s: %w", g.MacAddress, err)
	}
	return nil
}

// Delete removes a gateway; its statistics stay, so that it shows as an
// unknown gateway while uplinks still name it.
func Delete(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*gateways.Gateway)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete gateway %d: %w", id, err)
	}
	return nil
}

// Move stores a gateway's new position.
func Move(ctx context.Context, idb bun.IDB, id int64, lat, lng float64) error {
	if _, err := idb.NewUpdate().Model((*gateways.Gateway)(nil)).Set("latitude = ?", lat).Set("longitude = ?", lng).
		Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("move gateway %d: %w", id, err)
	}
	return nil
}
