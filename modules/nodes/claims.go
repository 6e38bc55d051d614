package nodes

import (
	"time"

	"github.com/uptrace/bun"
)

// A DevEUI is unique in the installation, so a company that registers a
// node whose DevEUI another company's node has is refused, and learns that
// the DevEUI exists. These limits keep a company from finding out many
// DevEUIs that way, or from trying to register other companies' devices
// first: its refused claims are counted over ClaimWindow. Up to ClaimsFree
// of them cost nothing; from then on each must wait ClaimFirstWait,
// doubled with each further refusal; at ClaimsBlocked the company may add
// no node, nor change a node's DevEUI, for ClaimBlockFor after the last
// refusal. Only claims of another company's DevEUI count (a company that
// repeats one of its own learns nothing), and a SuperAdmin, who sees every
// node, is not limited.
const (
	ClaimWindow    = time.Hour
	ClaimsFree     = 5
	ClaimsBlocked  = 10
	ClaimFirstWait = 10 * time.Second
	ClaimBlockFor  = time.Hour
	// ClaimKeep is how long refused claims are kept for the node pool
	// page's list.
	ClaimKeep = 30 * 24 * time.Hour
)

// ClaimWait is how long a company whose last refused claim was at last,
// with refused claims within ClaimWindow, must wait at now before it may
// register a node again; blocked tells that the limit of ClaimsBlocked is
// reached. Zero lets it through.
func ClaimWait(refused int, last, now time.Time) (wait time.Duration, blocked bool) {
	var until time.Time
	switch {
	case refused >= ClaimsBlocked:
		until, blocked = last.Add(ClaimBlockFor), true
	case refused >= ClaimsFree:
		until = last.Add(ClaimFirstWait << (refused - ClaimsFree))
	default:
		return 0, false
	}
	if wait = until.Sub(now); wait <= 0 {
		return 0, false
	}
	return wait, blocked
}

// Claim is a node registration refused because another company's node
// has its DevEUI: CompanyID tried to register DevEUI, which OwnerID's node
// has.
type Claim struct {
	bun.BaseModel `bun:"table:deveui_claims,alias:claim" json:"-"`

	ID        int64     `bun:"id,pk,autoincrement" json:"id"`
	CompanyID int64     `bun:"company_id" json:"companyId"`
	OwnerID   int64     `bun:"owner_id" json:"ownerId"`
	DevEUI    string    `bun:"deveui" json:"deveui"`
	At        time.Time `bun:"at" json:"at"`
}
