package core

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/kernel/egress"
	"github.com/fieldhub/fieldhub/kernel/events"
)

// background is the module's work beside its routes: the MQTT subscriber
// (with MQTT_URL) and the publisher the downlink worker sends ChirpStack
// downlinks through.
type background struct {
	wg   sync.WaitGroup
	pub  *publisher   // nil without MQTT_URL
	http *http.Client // to The Things Stack
}

// Start runs the group committers of the uplinks (commit.go),
// schedules the downlink worker and, when MQTT_URL is set, starts the MQTT
// subscriber. All end when ctx is done.
func (m *Module) Start(ctx context.Context) error {
	m.batches.start(ctx, committers)
	// Companies choose the downlink URLs: the client refuses loopback,
	// private and link-local addresses unless FIELDHUB_OUTBOUND_PRIVATE is
	// set, and follows no redirect (one would turn the POST into a GET, or
	// send the API key elsewhere: the downlink URL must be the push address
	// itself).
	m.bg.http = egress.Client(m.host.Config.OutboundPrivate)
	m.bg.http.Timeout = sendTimeout
	if url := m.host.Config.MQTTURL; url != "" {
		cfg, err := parseMQTTURL(url, m.host.Config.MQTTClientID)
		if err != nil {
			return fmt.Errorf("MQTT_URL: %w", err)
		}
		m.bg.pub = newPublisher(ctx, cfg, m.log)
		m.bg.wg.Add(1)
		go func() {
			defer m.bg.wg.Done()
			if err := m.runSubscriber(ctx, cfg); err != nil {
				m.log.Error("MQTT subscriber stopped", "err", err)
			}
		}()
	}
	return m.host.Scheduler.Every("ingest", deliverJob, deliverEvery, true, m.deliverDownlinks)
}

// Stop waits for the subscriber to disconnect (the kernel has cancelled
// the context of Start), closes the publisher and lets the committers
// finish the batch they are handling. The HTTP server has stopped taking
// requests by then; an uplink that still comes is handled alone.
func (m *Module) Stop(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		m.bg.wg.Wait()
		if m.bg.pub != nil {
			m.bg.pub.close()
		}
		m.batches.shut()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("stop the MQTT clients: %w", ctx.Err())
	}
}

// downlinkCreated nudges the downlink worker, so that a new downlink goes
// out now rather than at the worker's next round.
func (m *Module) downlinkCreated(context.Context, events.Event) {
	if err := m.host.Scheduler.RunNow("ingest", deliverJob); err != nil {
		m.log.Debug("downlink worker not nudged; its next round takes the downlink", "err", err)
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
