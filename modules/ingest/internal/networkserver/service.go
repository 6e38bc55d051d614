// Package networkserver is the ingest's side of the network servers beyond
// the routes they post to: the MQTT subscriber of ChirpStack's device events
// (subscriber.go, holding the subscription on one instance at a time:
// lead.go) and the downlink worker, which hands queued downlinks to
// ChirpStack over MQTT (publisher.go) and to The Things Stack over HTTPS
// (deliver.go). What an event reports is done by the pipeline, through
// Processor.
package networkserver

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/egress"
	"github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/devicelog"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/parse"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Processor does what a message reports, for a company, and returns once
// the outcome is durable: the pipeline.
type Processor interface {
	Process(ctx context.Context, company int64, msg parse.Message) (*ingest.UplinkResult, error)
}

// Deps are what the subscriber and the worker need.
type Deps struct {
	// Applications and Tags tell the company of a ChirpStack event.
	Applications ingest.ChirpStackApplications
	Tags         ingest.Tags
	// Queue is the downlink queue the worker takes from.
	Queue ingest.DownlinkQueue
	// Processor handles the events.
	Processor Processor
	// Events tells the log what became of the downlinks.
	Events *devicelog.Reporter
}

// Service runs the subscriber and the worker.
type Service struct {
	host *kernel.Host
	log  *slog.Logger
	deps Deps
	now  func() time.Time

	wg   sync.WaitGroup
	pub  *publisher   // nil without MQTT_URL
	http *http.Client // to The Things Stack
}

// New builds the service; a downlink queued by the nodes module
// (nodes.DownlinkCreated) nudges the worker.
func New(host *kernel.Host, deps Deps) *Service {
	s := &Service{host: host, log: host.Logger("ingest"), deps: deps, now: time.Now}
	host.Bus.Subscribe(nodes.DownlinkCreated{}.Topic(), s.downlinkCreated)
	return s
}

// Start schedules the downlink worker and, when MQTT_URL is set, starts
// the MQTT subscriber. Both end when ctx is done.
func (s *Service) Start(ctx context.Context) error {
	// Companies choose the downlink URLs: the client refuses loopback,
	// private and link-local addresses unless FIELDHUB_OUTBOUND_PRIVATE is
	// set, and follows no redirect (one would turn the POST into a GET, or
	// send the API key elsewhere: the downlink URL must be the push address
	// itself).
	s.http = egress.Client(s.host.Config.OutboundPrivate)
	s.http.Timeout = sendTimeout
	if url := s.host.Config.MQTTURL; url != "" {
		cfg, err := parseMQTTURL(url, s.host.Config.MQTTClientID)
		if err != nil {
			return fmt.Errorf("MQTT_URL: %w", err)
		}
		s.pub = newPublisher(ctx, cfg, s.log)
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			if err := s.runSubscriber(ctx, cfg); err != nil {
				s.log.Error("MQTT subscriber stopped", "err", err)
			}
		}()
	}
	return s.host.Scheduler.Every("ingest", deliverJob, deliverEvery, true, s.deliverDownlinks)
}

// Wait waits for the subscriber to disconnect (the kernel has cancelled
// the context of Start) and closes the publisher.
func (s *Service) Wait() {
	s.wg.Wait()
	if s.pub != nil {
		s.pub.close()
	}
}

// downlinkCreated nudges the downlink worker, so that a new downlink goes
// out now rather than at the worker's next round.
func (s *Service) downlinkCreated(context.Context, events.Event) {
	if err := s.host.Scheduler.RunNow("ingest", deliverJob); err != nil {
		s.log.Debug("downlink worker not nudged; its next round takes the downlink", "err", err)
	}
}

// retryDelay is the wait after n+1 failed tries: first, doubling with each
// further one, at most limit.
func retryDelay(n int, first, limit time.Duration) time.Duration {
	d := first
	for i := 0; i < n && d < limit; i++ {
		d *= 2
	}
	return min(d, limit)
}
