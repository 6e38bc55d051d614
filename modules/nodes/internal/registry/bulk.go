package registry

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// The bulk import of nodes (internal/bulk) validates each row with
// ApplyTagWith, as the forms do, and writes the whole file with Import, in
// one transaction of a few statements per 500 rows.

// CompanyNodes is a company's nodes as the bulk import and export compare
// them with a file: the tags by DevEUI, their AppKeys opened, each tag's
// keys by name, and the company's applications.
type CompanyNodes struct {
	Tags         []*nodes.Tag
	ByDevEUI     map[string]*nodes.Tag
	Keys         map[int64]map[string]nodes.Key
	Applications []nodes.Application
}

// CompanyNodes reads the nodes of a company for the bulk import and export.
func (g *Registry) CompanyNodes(ctx context.Context, companyID int64) (*CompanyNodes, error) {
	tags, err := store.Tags(ctx, g.db, companyID)
	if err != nil {
		return nil, err
	}
	c := &CompanyNodes{Tags: tags, ByDevEUI: make(map[string]*nodes.Tag, len(tags)), Keys: map[int64]map[string]nodes.Key{}}
	for _, t := range tags {
		if t.SealedAppKey != "" {
			if t.AppKey, err = g.host.Box.Open(t.SealedAppKey); err != nil {
				return nil, fmt.Errorf("open app key of tag %d: %w", t.ID, err)
			}
		}
		c.ByDevEUI[t.DevEUI] = t
	}
	keys, err := store.KeysOfCompany(ctx, g.db, companyID)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		if c.Keys[k.TagID] == nil {
			c.Keys[k.TagID] = map[string]nodes.Key{}
		}
		c.Keys[k.TagID][k.Key] = k
	}
	if c.Applications, err = store.Applications(ctx, g.db, companyID); err != nil {
		return nil, err
	}
	return c, nil
}

// DevEUIOwners tells the companies whose nodes have any of deveuis
// (normalised), by DevEUI.
func (g *Registry) DevEUIOwners(ctx context.Context, deveuis []string) (map[string]int64, error) {
	return store.DevEUIOwners(ctx, g.db, deveuis)
}

// KeyLabel is the label a bulk import gives a key of a tag, which the
// import registers when the tag does not have it yet.
type KeyLabel struct {
	Tag   *nodes.Tag
	Key   string
	Label string
}

// ImportBatch is what a bulk import writes into a company's nodes.
type ImportBatch struct {
	CompanyID int64
	// Create are new tags, validated (ApplyTagWith), AppKeys plain; they
	// get their ids.
	Create []*nodes.Tag
	// Update are the company's tags with their validated changes.
	Update []*nodes.Tag
	Labels []KeyLabel
	// Then runs in the transaction once the tags have their ids: the
	// profiles the rows give.
	Then func(ctx context.Context, tx bun.IDB) error
}

// Import writes b in one transaction: all of it or, on any error, nothing.
// New DevEUIs are claimed as AddTag claims them: within the limit of
// refused claims, and a DevEUI that another company's node got meanwhile
// refuses the import (counted as a refused claim). The created DevEUIs
// leave the node pool; the import is announced as one audit entry, and
// each created node as nodes.TagCreated.
func (g *Registry) Import(ctx context.Context, b ImportBatch) error {
	deveuis := make([]string, len(b.Create))
	for i, t := range b.Create {
		deveuis[i] = t.DevEUI
	}
	if len(deveuis) > 0 {
		if err := g.checkClaims(ctx, b.CompanyID); err != nil {
			return err
		}
	}
	for _, t := range b.Create {
		t.CompanyID = b.CompanyID
		t.SealedAppKey = g.seal(t.AppKey)
	}
	for _, t := range b.Update {
		t.SealedAppKey = g.seal(t.AppKey)
	}
	var taken map[string]int64
	err := g.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if taken, err = store.DevEUIOwners(ctx, tx, deveuis); err != nil {
			return err
		}
		if len(taken) > 0 {
			return store.DevEUIConflict()
		}
		if err := store.InsertTags(ctx, tx, b.Create); err != nil {
			return err
		}
		if err := store.UpdateTags(ctx, tx, b.Update); err != nil {
			return err
		}
		keys := make([]nodes.Key, len(b.Labels))
		for i, l := range b.Labels {
			keys[i] = nodes.Key{TagID: l.Tag.ID, Key: l.Key, Label: l.Label}
		}
		if err := store.SetKeyLabels(ctx, tx, keys); err != nil {
			return err
		}
		if err := store.TakeManyFromPool(ctx, tx, deveuis); err != nil {
			return err
		}
		if b.Then != nil {
			return b.Then(ctx, tx)
		}
		return nil
	})
	if err != nil {
		for deveui, owner := range taken {
			g.refuseClaim(ctx, b.CompanyID, owner, deveui)
		}
		return err
	}
	for _, t := range b.Create {
		g.host.Bus.Publish(ctx, nodes.TagCreated{TagID: t.ID, CompanyID: t.CompanyID, ApplicationID: t.ApplicationID, DevEUI: t.DevEUI})
	}
	if len(b.Create)+len(b.Update)+len(b.Labels) > 0 {
		g.announce(ctx, b.CompanyID, nodes.AuditTagsImported, map[string]any{"created": len(b.Create), "changed": changedTags(b)}, nil, nil)
	}
	return nil
}

// changedTags counts the existing tags an import changes: those updated
// and those only given labels.
func changedTags(b ImportBatch) int {
	seen := map[*nodes.Tag]bool{}
	for _, t := range b.Update {
		seen[t] = true
	}
	created := map[*nodes.Tag]bool{}
	for _, t := range b.Create {
		created[t] = true
	}
	for _, l := range b.Labels {
		if !created[l.Tag] {
			seen[l.Tag] = true
		}
	}
	return len(seen)
}

// FreeClaims is how many DevEUIs of other companies' nodes a bulk import of
// company may name and be told so, under the limit of refused claims that
// holds node by node (claims.go): -1 for no limit (a SuperAdmin), else at
// least one; a company that must wait is refused as AddTag refuses it.
func (g *Registry) FreeClaims(ctx context.Context, company int64) (int, error) {
	if auth.CallerFrom(ctx).Role == auth.SuperAdmin {
		return -1, nil
	}
	if err := g.checkClaims(ctx, company); err != nil {
		return 0, err
	}
	n, _, err := store.RecentClaims(ctx, g.db, company, g.now().Add(-nodes.ClaimWindow))
	if err != nil {
		return 0, err
	}
	return max(nodes.ClaimsFree-n, 1), nil
}

// RefuseClaims notes the refused claims of a bulk import: company named
// DevEUIs that their owners' nodes have (by DevEUI).
func (g *Registry) RefuseClaims(ctx context.Context, company int64, owners map[string]int64) {
	for deveui, owner := range owners {
		g.refuseClaim(ctx, company, owner, deveui)
	}
}
