package nodes

import (
	"context"
	"errors"

	"github.com/uptrace/bun"
)

// Profiles is what nodes asks of the device profiles (modules/profiles), which the application registers
// with Module.UseProfiles: a node created with a profile gets the profile's settings, and the bulk import
// and export name a node's profile.
type Profiles interface {
	// ProfileByName finds a profile the company may use (its own, or an installation-wide one) by its
	// name. It answers ErrProfileNotFound when there is none.
	ProfileByName(ctx context.Context, companyID int64, name string) (ProfileRef, error)
	// ProfilesOfNodes tells the profile each of the company's nodes was created with; a node without
	// one is absent from the map.
	ProfilesOfNodes(ctx context.Context, companyID int64) (map[int64]ProfileRef, error)
	// ApplyProfile gives a node just created in db (the creating transaction) the profile's decoder, key
	// labels, units, default key, expected uplink interval, alarms and dashboard, and records the node's
	// profile.
	ApplyProfile(ctx context.Context, db bun.IDB, companyID, nodeID, profileID int64) error
}

// ProfileRef names a device profile.
type ProfileRef struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// ErrProfileNotFound is ProfileByName's answer for a name the company has no profile of.
var ErrProfileNotFound = errors.New("nodes: no such device profile")
