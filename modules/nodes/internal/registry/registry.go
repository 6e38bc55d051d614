// Package registry keeps the portal's nodes: applications, tags with their
// data keys and pictures, the pool of DevEUIs heard without a tag and the
// integration tokens. It is what other modules ask of the nodes module (the
// lookups, the batched state updates of the ingest, with the tag and token
// caches that spare the ingest a query per uplink) and what the JSON routes
// and the pages change the nodes through, so that the rules are the same
// for both.
package registry

import (
	"log/slog"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Registry is the nodes module's service.
type Registry struct {
	host     *kernel.Host
	db       *bun.DB
	log      *slog.Logger
	decoders nodes.Decoders
	accounts nodes.Accounts
	// series holds the nodes' stored data, which a node's move to another
	// company takes along; nil when there is none.
	series nodes.Series
	// now is the clock of the claim limits.
	now func() time.Time
	// tokens keeps recently presented integration tokens (tokencache.go).
	tokens tokenCache
	// tagCache keeps the tags the ingest looks up (tagcache.go).
	tagCache tagCache
	// alarms answers the tags' activeAlarm (alarms.go); nil leaves the
	// stored flag.
	alarms nodes.AlarmStates
	// profiles set up the nodes created with a device profile (setup.go);
	// nil when there are none.
	profiles nodes.Profiles
}

// New builds the registry on the host's database; decoders tells which
// decoders a tag may name, accounts names companies, and series (nil when
// there is none) holds the nodes' stored data.
func New(host *kernel.Host, decoders nodes.Decoders, accounts nodes.Accounts, series nodes.Series) *Registry {
	return &Registry{host: host, db: host.DB, log: host.Logger("nodes"), decoders: decoders, accounts: accounts, series: series,
		now: func() time.Time { return time.Now().UTC() }}
}

// seal seals a secret with the kernel's Box; nothing stays nothing.
func (g *Registry) seal(plain string) string {
	if plain == "" {
		return ""
	}
	return g.host.Box.Seal(plain)
}
