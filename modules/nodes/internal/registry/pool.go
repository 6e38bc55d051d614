package registry

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// ValidPoolStatus reports whether s is a pool status.
func ValidPoolStatus(s string) bool {
	return s == nodes.PoolHidden || s == nodes.PoolShown || s == nodes.PoolTaken
}

func badPoolStatus() error {
	v := errs.Validation{}
	v.Add("status", nodes.IDPoolStatus)
	return v.Err()
}

// PoolEntries lists the pool entries of a status ("" for shown, "all" for
// every one), the most recently heard first. The API and the /tag/pool page
// both use it.
func (g *Registry) PoolEntries(ctx context.Context, status string) ([]nodes.PoolEntry, error) {
	if status == "" {
		status = nodes.PoolShown
	}
	if status != "all" && !ValidPoolStatus(status) {
		return nil, badPoolStatus()
	}
	return store.PoolEntries(ctx, g.db, status)
}

// SetPoolStatus hides, shows or takes pool entry id. The API and the
// /tag/pool page both use it.
func (g *Registry) SetPoolStatus(ctx context.Context, id int64, status string) (*nodes.PoolEntry, error) {
	status = strings.ToLower(strings.TrimSpace(status))
	if !ValidPoolStatus(status) {
		return nil, badPoolStatus()
	}
	e, err := store.SetPoolStatus(ctx, g.db, id, status)
	if err != nil {
		return nil, err
	}
	g.announce(ctx, 0, nodes.AuditPoolStatus, map[string]any{"deveui": e.DevEUI, "status": status}, nil, nil)
	return e, nil
}

// AddToPool records a DevEUI that reached the portal without a tag, or
// notes that it was heard again. A DevEUI that has a tag is left alone; one
// whose entry was taken while its tag has since gone is shown again.
func (g *Registry) AddToPool(ctx context.Context, deveui, source string) error {
	deveui = nodes.NormaliseEUI(deveui)
	if !nodes.ValidDevEUI(deveui) {
		return badDevEUI()
	}
	source = strings.TrimSpace(source)
	if len(source) > 64 || !cleanText(source) {
		source = ""
	}
	return g.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if taken, err := store.DevEUITaken(ctx, tx, deveui, 0); err != nil || taken {
			return err
		}
		return store.HearInPool(ctx, tx, deveui, source)
	})
}
