package nodes

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/modules/decoders"
)

// NodeSetup is what a device profile sets on a node: its decoder, the
// labels and units of its keys, its default key and its expected uplink
// interval.
type NodeSetup struct {
	// Decoder is the node's decoder key; empty leaves it as it is.
	Decoder string
	// Keys are registered when the node has not got them, and given
	// their label and unit.
	Keys []KeySetup
	// DefaultKey, when set, becomes the node's only default key.
	DefaultKey string
	// UplinkInterval is how often the node is expected to send, in whole
	// seconds; 0 none. The node always takes it, 0 included, so that it
	// follows its profile: the inactivity alarm counts a node with one
	// silent after a few missed uplinks (Silence), one without after the
	// installation's default silence.
	UplinkInterval time.Duration
}

// KeySetup is a data key with its label and unit.
type KeySetup struct {
	Key   string
	Label string
	Unit  string
}

// Setups sets nodes up as their device profiles describe (the profiles
// module asks it, inside the transaction that creates the node or that
// applies a changed profile to its nodes).
type Setups interface {
	// SetUpNode gives node tagID, read and written in db, what s
	// describes, and returns the node as stored (without its AppKey). A
	// decoder the node's company may not name is an errs.Invalid error on
	// "decoder"; an unknown node errs.NotFound.
	SetUpNode(ctx context.Context, db bun.IDB, tagID int64, s NodeSetup) (*Tag, error)
}

// ProfileChoices is what the node create form asks of the device profiles
// beside Profiles, when the registered profiles answer it: the profiles a
// company may use, by name.
type ProfileChoices interface {
	CompanyProfiles(ctx context.Context, companyID int64) ([]ProfileRef, error)
}

// DeviceModels lists the imported device models, which the node create
// form offers (a model chosen without a profile gives the node its codec);
// the decoders module satisfies it.
type DeviceModels interface {
	DeviceCatalog(ctx context.Context) (*decoders.DeviceCatalog, error)
}

// IDProfileUnknown is the field error of a node created with a device
// profile its company may not use.
const IDProfileUnknown = "nodes.profile.unknown"
