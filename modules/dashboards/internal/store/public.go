package store

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/modules/dashboards"
)

func publicQuery(idb bun.IDB, dst any) *bun.SelectQuery {
	return idb.NewSelect().Model(dst).
		ColumnExpr("pub.*").
		ColumnExpr("dash.name AS dashboard_name").
		Join("JOIN dashboards AS dash ON dash.id = pub.dashboard_id")
}

// PublicLink loads a public link with its dashboard's name.
func PublicLink(ctx context.Context, idb bun.IDB, id int64) (*dashboards.PublicLink, error) {
	p := new(dashboards.PublicLink)
	if err := publicQuery(idb, p).Where("pub.id = ?", id).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load public link %d", id)
	}
	return p, nil
}

// PublicLinkByToken loads the public link of a token.
func PublicLinkByToken(ctx context.Context, idb bun.IDB, token string) (*dashboards.PublicLink, error) {
	p := new(dashboards.PublicLink)
	if err := publicQuery(idb, p).Where("pub.token = ?", token).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load public link")
	}
	return p, nil
}

// PublicLinks lists a company's links, newest first.
func PublicLinks(ctx context.Context, idb bun.IDB, companyID int64) ([]*dashboards.PublicLink, error) {
	list := []*dashboards.PublicLink{}
	if err := publicQuery(idb, &list).Where("pub.company_id = ?", companyID).OrderExpr("pub.created_at DESC, pub.id DESC").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list public links of company %d: %w", companyID, err)
	}
	return list, nil
}

// InsertPublicLink adds p and sets its id.
func InsertPublicLink(ctx context.Context, idb bun.IDB, p *dashboards.PublicLink) error {
	p.CreatedAt = now()
	if _, err := idb.NewInsert().Model(p).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert public link: %w", err)
	}
	return nil
}

// DeletePublicLink removes a public link.
func DeletePublicLink(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*dashboards.PublicLink)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete public link %d: %w", id, err)
	}
	return nil
}
