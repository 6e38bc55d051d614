// Package module builds the events module for the application package.
package module

import (
	"time"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/events"
	"github.com/fieldhub/fieldhub/modules/events/internal/feed"
)

// Deps tunes the module; the zero value but Config is what production
// uses. The feed needs no other module: it hears the uplinks and log
// entries on the kernel's bus.
type Deps struct {
	// Config is the module's part of the configuration: the caps on
	// connections per user and per company (zero values: the defaults).
	Config events.Config
	// QueueSize is how many messages may wait for one connection before it
	// is dropped as too slow. Optional: 256 without it.
	QueueSize int
	// PingInterval is how often the server pings each connection.
	// Optional: 30 s without it.
	PingInterval time.Duration
}

// New builds the module. It subscribes to ingest.UplinkReceived and
// logs.EntryWritten on the host's bus.
func New(host *kernel.Host, deps Deps) events.Module {
	return feed.New(host, feed.Options{QueueSize: deps.QueueSize, PingInterval: deps.PingInterval,
		MaxPerUser: deps.Config.MaxPerUser, MaxPerCompany: deps.Config.MaxPerCompany})
}
