package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/modules/nodes"
)

// DevEUIOwner returns the company of the tag, other than except, that has
// deveui; found is false when there is none.
func DevEUIOwner(ctx context.Context, idb bun.IDB, deveui string, except int64) (company int64, found bool, err error) {
	var ids []int64
	err = idb.NewSelect().Model((*nodes.Tag)(nil)).Column("company_id").
		Where("deveui = ? AND id <> ?", deveui, except).Limit(1).Scan(ctx, &ids)
	if err != nil {
		return 0, false, fmt.Errorf("look up deveui: %w", err)
	}
	if len(ids) == 0 {
		return 0, false, nil
	}
	return ids[0], true, nil
}

// RecordClaim stores a refused claim and forgets those older than keep.
func RecordClaim(ctx context.Context, idb bun.IDB, c *nodes.Claim, keep time.Duration) error {
	if _, err := idb.NewInsert().Model(c).Exec(ctx); err != nil {
		return fmt.Errorf("record deveui claim: %w", err)
	}
	if _, err := idb.NewDelete().Model((*nodes.Claim)(nil)).Where("at < ?", c.At.Add(-keep)).Exec(ctx); err != nil {
		return fmt.Errorf("forget old deveui claims: %w", err)
	}
	return nil
}

// RecentClaims counts the refused claims of a company since a time and
// returns the time of the last.
func RecentClaims(ctx context.Context, idb bun.IDB, company int64, since time.Time) (int, time.Time, error) {
	var row struct {
		N    int        `bun:"n"`
		Last *time.Time `bun:"last"`
	}
	err := idb.NewSelect().Model((*nodes.Claim)(nil)).ColumnExpr("count(*) AS n").ColumnExpr("max(at) AS last").
		Where("company_id = ? AND at > ?", company, since).Scan(ctx, &row)
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("count deveui claims of company %d: %w", company, err)
	}
	if row.Last == nil {
		return row.N, time.Time{}, nil
	}
	return row.N, *row.Last, nil
}

// ClaimGroup is the refused claims of one company for one DevEUI.
type ClaimGroup struct {
	CompanyID int64     `bun:"company_id"`
	OwnerID   int64     `bun:"owner_id"`
	DevEUI    string    `bun:"deveui"`
	Count     int       `bun:"n"`
	Last      time.Time `bun:"last"`
}

// ClaimGroups lists the refused claims kept, grouped by company, owner and
// DevEUI, the most recent first.
func ClaimGroups(ctx context.Context, idb bun.IDB, limit int) ([]ClaimGroup, error) {
	list := []ClaimGroup{}
	err := idb.NewSelect().Model((*nodes.Claim)(nil)).
		Column("company_id", "owner_id", "deveui").ColumnExpr("count(*) AS n").ColumnExpr("max(at) AS last").
		Group("company_id", "owner_id", "deveui").OrderExpr("last DESC, deveui").Limit(int64(limit)).Scan(ctx, &list)
	if err != nil {
		return nil, fmt.Errorf("list deveui claims: %w", err)
	}
	return list, nil
}
