// Package dispatch hands what a network server or a device sent, once
// parsed, to what handles it: a message about a device to the ingest, a
// report about a downlink to the downlink queue. The routes and the MQTT
// subscriber share it.
package dispatch

import (
	"context"

	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/parse"
)

// Reports records what network servers report about downlinks: the queue.
type Reports interface {
	Report(ctx context.Context, company int64, r *netservers.DownlinkReport) error
}

// Dispatcher hands messages on.
type Dispatcher struct {
	ingest  ingest.Service
	reports Reports
}

// New returns a dispatcher to ingest and reports.
func New(ingest ingest.Service, reports Reports) *Dispatcher {
	return &Dispatcher{ingest: ingest, reports: reports}
}

// Dispatch does what msg reports, for company, and returns once the
// outcome is durable, with the result of an uplink (nil for other
// messages). A message of no use does nothing.
func (d *Dispatcher) Dispatch(ctx context.Context, company int64, msg parse.Message) (*ingest.UplinkResult, error) {
	switch {
	case msg.Device != nil:
		return d.ingest.Process(ctx, company, *msg.Device)
	case msg.Downlink != nil:
		return nil, d.reports.Report(ctx, company, msg.Downlink)
	}
	return nil, nil
}
