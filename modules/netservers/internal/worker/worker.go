// Package worker is the downlink worker: a job of the scheduler, run by one
// instance at a time every few seconds and whenever a downlink is queued,
// that hands queued downlinks to their application's network server,
// ChirpStack over MQTT (through the mqtt package's publisher) and The
// Things Stack over HTTPS (tts.go), and records each try's outcome in the
// queue (deliver.go).
package worker

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/egress"
	"github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/mqtt"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/queue"
)

// Deps are what the worker needs.
type Deps struct {
	// Queue is the downlink queue the worker takes from and records in;
	// it announces the outcomes too.
	Queue *queue.Queue
	// Applications gives a downlink's application and The Things Stack's
	// API key.
	Applications netservers.Applications
	// MQTT publishes ChirpStack downlinks, when a broker is configured.
	MQTT *mqtt.Client
}

// Worker delivers downlinks.
type Worker struct {
	host *kernel.Host
	log  *slog.Logger
	deps Deps
	now  func() time.Time
	http *http.Client // to The Things Stack
}

// New builds the worker; a downlink queued (netservers.DownlinkCreated)
// nudges it.
func New(host *kernel.Host, deps Deps) *Worker {
	w := &Worker{host: host, log: host.Logger("netservers"), deps: deps, now: time.Now}
	// Companies choose the downlink URLs: the client refuses loopback,
	// private and link-local addresses unless FIELDHUB_OUTBOUND_PRIVATE is
	// set, and follows no redirect (one would turn the POST into a GET, or
	// send the API key elsewhere: the downlink URL must be the push address
	// itself).
	w.http = egress.Client(host.Config.OutboundPrivate)
	w.http.Timeout = sendTimeout
	host.Bus.Subscribe(netservers.DownlinkCreated{}.Topic(), w.downlinkCreated)
	return w
}

// Schedule adds the worker's job to the scheduler; it runs until the
// scheduler stops.
func (w *Worker) Schedule() error {
	return w.host.Scheduler.Every("netservers", deliverJob, deliverEvery, true, w.deliverDownlinks)
}

// downlinkCreated nudges the downlink worker, so that a new downlink goes
// out now rather than at the worker's next round.
func (w *Worker) downlinkCreated(context.Context, events.Event) {
	if err := w.host.Scheduler.RunNow("netservers", deliverJob); err != nil {
		w.log.Debug("downlink worker not nudged; its next round takes the downlink", "err", err)
	}
}
