// Package store reads and writes the profiles module's tables: the
// profiles (device_profiles) and the profile each node was created with
// (profile_nodes).
package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/profiles"
)

// ErrNotFound is the answer for a profile that does not exist.
var ErrNotFound = errs.New(errs.NotFound, errs.IDNotFound)

// Now is the time stored: UTC, to the microsecond both databases keep.
func Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// usable limits q to the profiles company may use: its own and the
// installation's; company 0 is the installation's alone.
func usable(q *bun.SelectQuery, companyID int64) *bun.SelectQuery {
	if companyID == 0 {
		return q.Where("dp.company_id IS NULL")
	}
	return q.Where("dp.company_id = ? OR dp.company_id IS NULL", companyID)
}

// Profile loads a profile by id.
func Profile(ctx context.Context, idb bun.IDB, id int64) (*profiles.Profile, error) {
	p := new(profiles.Profile)
	if err := idb.NewSelect().Model(p).Where("dp.id = ?", id).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("load profile %d: %w", id, err)
	}
	return p, nil
}

// Usable lists the profiles a company may use, by name, the company's
// before the installation's of the same name.
func Usable(ctx context.Context, idb bun.IDB, companyID int64) ([]*profiles.Profile, error) {
	list := []*profiles.Profile{}
	q := usable(idb.NewSelect().Model(&list), companyID).OrderExpr("dp.name, dp.company_id IS NULL, dp.id")
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("list profiles of company %d: %w", companyID, err)
	}
	return list, nil
}

// ByName finds the profile of a name that a company may use, its own
// before the installation's.
func ByName(ctx context.Context, idb bun.IDB, companyID int64, name string) (*profiles.Profile, error) {
	p := new(profiles.Profile)
	q := usable(idb.NewSelect().Model(p), companyID).Where("dp.name = ?", name).OrderExpr("dp.company_id IS NULL").Limit(1)
	if err := q.Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("find profile %q: %w", name, err)
	}
	return p, nil
}

// nameTaken is the conflict of a name the owner has a profile of.
func nameTaken(err error, name string) error {
	if db.IsUniqueViolation(err) {
		v := errs.Validation{}
		v.AddArgs("name", profiles.IDNameTaken, map[string]any{"name": name})
		return v.Err()
	}
	return err
}

// Insert stores a new profile.
func Insert(ctx context.Context, idb bun.IDB, p *profiles.Profile) error {
	p.CreatedAt, p.UpdatedAt = Now(), Now()
	if _, err := idb.NewInsert().Model(p).Returning("id").Exec(ctx); err != nil {
		return nameTaken(err, p.Name)
	}
	return nil
}

// Update stores what people edit of a profile.
func Update(ctx context.Context, idb bun.IDB, p *profiles.Profile) error {
	p.UpdatedAt = Now()
	_, err := idb.NewUpdate().Model(p).Column("name", "vendor_id", "model_id", "decoder", "key_labels", "default_key",
		"uplink_interval", "alarms", "dashboard", "updated_at").WherePK().Exec(ctx)
	return nameTaken(err, p.Name)
}

// Delete removes a profile; its nodes keep what it gave them.
func Delete(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*profiles.Profile)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete profile %d: %w", id, err)
	}
	return nil
}

// nodeProfile is a row of profile_nodes.
type nodeProfile struct {
	bun.BaseModel `bun:"table:profile_nodes"`

	NodeID    int64 `bun:"node_id,pk"`
	ProfileID int64 `bun:"profile_id"`
}

// Record notes that node nodeID was created with profile profileID.
func Record(ctx context.Context, idb bun.IDB, nodeID, profileID int64) error {
	row := &nodeProfile{NodeID: nodeID, ProfileID: profileID}
	if _, err := idb.NewInsert().Model(row).On("CONFLICT (node_id) DO UPDATE").Set("profile_id = EXCLUDED.profile_id").Exec(ctx); err != nil {
		return fmt.Errorf("record profile of node %d: %w", nodeID, err)
	}
	return nil
}

// Nodes lists the ids of the nodes created with a profile; with company
// set, only that company's.
func Nodes(ctx context.Context, idb bun.IDB, profileID, companyID int64) ([]int64, error) {
	ids := []int64{}
	q := idb.NewSelect().Table("profile_nodes").Column("node_id").Where("profile_id = ?", profileID).Order("node_id")
	if companyID != 0 {
		q = q.Where("node_id IN (SELECT id FROM tags WHERE company_id = ?)", companyID)
	}
	if err := q.Scan(ctx, &ids); err != nil {
		return nil, fmt.Errorf("nodes of profile %d: %w", profileID, err)
	}
	return ids, nil
}

// Counts counts the nodes of each profile; with company set, only that
// company's.
func Counts(ctx context.Context, idb bun.IDB, companyID int64) (map[int64]int, error) {
	var rows []struct {
		ProfileID int64 `bun:"profile_id"`
		N         int   `bun:"n"`
	}
	q := idb.NewSelect().Table("profile_nodes").Column("profile_id").ColumnExpr("COUNT(*) AS n").Group("profile_id")
	if companyID != 0 {
		q = q.Where("node_id IN (SELECT id FROM tags WHERE company_id = ?)", companyID)
	}
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("count nodes of profiles: %w", err)
	}
	out := make(map[int64]int, len(rows))
	for _, r := range rows {
		out[r.ProfileID] = r.N
	}
	return out, nil
}

// OfNodes tells the profile of each node of a company that has one.
func OfNodes(ctx context.Context, idb bun.IDB, companyID int64) (map[int64]nodes.ProfileRef, error) {
	var rows []struct {
		NodeID int64  `bun:"node_id"`
		ID     int64  `bun:"id"`
		Name   string `bun:"name"`
	}
	err := idb.NewSelect().TableExpr("profile_nodes AS pn").ColumnExpr("pn.node_id, dp.id, dp.name").
		Join("JOIN device_profiles AS dp ON dp.id = pn.profile_id").
		Where("pn.node_id IN (SELECT id FROM tags WHERE company_id = ?)", companyID).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("profiles of the nodes of company %d: %w", companyID, err)
	}
	out := make(map[int64]nodes.ProfileRef, len(rows))
	for _, r := range rows {
		out[r.NodeID] = nodes.ProfileRef{ID: r.ID, Name: r.Name}
	}
	return out, nil
}
