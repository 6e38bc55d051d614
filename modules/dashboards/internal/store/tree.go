package store

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/modules/dashboards"
)

// Tree reads a company's categories and dashboards as the category tree.
func Tree(ctx context.Context, idb bun.IDB, companyID int64) ([]*dashboards.TreeNode, error) {
	cats, err := Categories(ctx, idb, companyID)
	if err != nil {
		return nil, err
	}
	dashes, err := Dashboards(ctx, idb, companyID)
	if err != nil {
		return nil, err
	}
	return dashboards.Tree(cats, dashes), nil
}
