package registry

import (
	"context"
	"math"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// The limit of refused DevEUI claims (nodes.ClaimWait): AddTag and SaveTag
// ask checkClaims before they look a new DevEUI up, and refuseClaim when
// another company's node has it.

// checkClaims refuses, with 429, a node registration (or a DevEUI change)
// of company while the company must wait after refused claims. A
// SuperAdmin is not limited.
func (g *Registry) checkClaims(ctx context.Context, company int64) error {
	if auth.CallerFrom(ctx).Role == auth.SuperAdmin {
		return nil
	}
	now := g.now()
	n, last, err := store.RecentClaims(ctx, g.db, company, now.Add(-nodes.ClaimWindow))
	if err != nil {
		return err
	}
	wait, blocked := nodes.ClaimWait(n, last, now)
	if wait <= 0 {
		return nil
	}
	seconds := int(math.Ceil(wait.Seconds()))
	if blocked {
		minutes := (seconds + 59) / 60
		return errs.New(errs.TooMany, nodes.IDClaimsBlocked).With("minutes", minutes).With("retryAfter", seconds)
	}
	return errs.New(errs.TooMany, nodes.IDClaimsSlowed).With("seconds", seconds).With("retryAfter", seconds)
}

// claimDevEUI fails with the DevEUI conflict when a tag other than except
// has deveui, and returns that tag's company as owner, for refuseClaim
// once the transaction is over.
func claimDevEUI(ctx context.Context, tx bun.IDB, deveui string, except int64, owner *int64) error {
	o, taken, err := store.DevEUIOwner(ctx, tx, deveui, except)
	if err != nil {
		return err
	}
	if taken {
		*owner = o
		return store.DevEUIConflict()
	}
	return nil
}

// refuseClaim notes that company tried to register deveui, which owner's
// node has: counted for the limit (unless a SuperAdmin tried) and
// announced for the SuperAdmin's log. A failure to note it is logged, not
// returned: the caller answers the conflict either way.
func (g *Registry) refuseClaim(ctx context.Context, company, owner int64, deveui string) {
	if company == owner {
		return
	}
	now := g.now()
	if auth.CallerFrom(ctx).Role != auth.SuperAdmin {
		c := &nodes.Claim{CompanyID: company, OwnerID: owner, DevEUI: deveui, At: now}
		if err := store.RecordClaim(ctx, g.db, c, nodes.ClaimKeep); err != nil {
			g.log.Error("deveui claim not recorded", "err", err, "company", company, "deveui", deveui)
		}
	}
	g.host.Bus.Publish(ctx, nodes.DevEUIClaimRefused{DevEUI: deveui, CompanyID: company, OwnerID: owner,
		CompanyName: g.companyName(ctx, company), OwnerName: g.companyName(ctx, owner), Time: now})
}

// companyName is the name of a company, "" when it cannot be read.
func (g *Registry) companyName(ctx context.Context, id int64) string {
	c, err := g.accounts.Company(ctx, id)
	if err != nil {
		return ""
	}
	return c.Name
}

// ClaimGroup is the refused claims of one company for one DevEUI, with
// the companies' names, for the node pool page.
type ClaimGroup struct {
	store.ClaimGroup
	CompanyName, OwnerName string
	// Holder is the company whose node has the DevEUI now: the owner's
	// (which the SuperAdmin may move), the claimant's (once moved),
	// another's, or 0 when no node has it.
	Holder int64
}

// maxClaimGroups bounds the node pool page's list of refused claims.
const maxClaimGroups = 200

// ClaimGroups lists the refused claims kept (nodes.ClaimKeep), by company
// and DevEUI, the most recent first.
func (g *Registry) ClaimGroups(ctx context.Context) ([]ClaimGroup, error) {
	groups, err := store.ClaimGroups(ctx, g.db, maxClaimGroups)
	if err != nil {
		return nil, err
	}
	names := map[int64]string{}
	name := func(id int64) string {
		n, ok := names[id]
		if !ok {
			n = g.companyName(ctx, id)
			names[id] = n
		}
		return n
	}
	out := make([]ClaimGroup, len(groups))
	for i, c := range groups {
		out[i] = ClaimGroup{ClaimGroup: c, CompanyName: name(c.CompanyID), OwnerName: name(c.OwnerID)}
		if t, err := store.TagByDevEUI(ctx, g.db, c.DevEUI); err == nil {
			out[i].Holder = t.CompanyID
		} else if !errs.Is(err, errs.NotFound) {
			return nil, err
		}
	}
	return out, nil
}
