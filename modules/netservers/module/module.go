// Package module builds the netservers module for the application package.
package module

import (
	"context"
	"fmt"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/dispatch"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/httpapi"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/mqtt"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/pages"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/queue"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/worker"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Deps is what the netservers module needs from the rest of the portal.
type Deps struct {
	// Config is the module's part of the configuration: the MQTT broker,
	// how old a message may be.
	Config netservers.Config
	// Nodes authenticates integration tokens, finds the tags and
	// applications that messages, routes and downlinks name. Required;
	// the nodes module satisfies it.
	Nodes netservers.Nodes
	// Ingest takes the messages about devices. Required; the ingest
	// module satisfies it.
	Ingest ingest.Service
	// UI and TagPages draw the downlink section on the node details page
	// and the network server setup on the application page, which New
	// registers there. Optional, both or neither: without them
	// there is no section and no page route of it (the JSON routes stay).
	// The nodes module satisfies TagPages.
	UI       *ui.Env
	TagPages netservers.TagPages
	// Encoder encodes JSON downlinks with the encodeDownlink of their
	// node's decoder when they are queued. Optional: without it they are
	// queued unencoded (and fail: no encoder). The decoders module
	// satisfies it.
	Encoder decoders.Encoder
}

// New builds the module. It panics when a required dependency is missing,
// so that a wiring mistake stops the program at start.
func New(host *kernel.Host, deps Deps) netservers.Module {
	if deps.Nodes == nil || deps.Ingest == nil {
		panic("netservers module: Deps.Nodes and Deps.Ingest are required")
	}
	if (deps.UI == nil) != (deps.TagPages == nil) {
		panic("netservers module: Deps.UI and Deps.TagPages go together")
	}
	q := queue.New(host, deps.Nodes, deps.Encoder)
	d := dispatch.New(deps.Ingest, q)
	client := mqtt.New(host, mqtt.Deps{Applications: deps.Nodes, Tags: deps.Nodes, Dispatcher: d, MaxAge: deps.Config.MaxAge()})
	m := &module{
		Queue:  q,
		config: deps.Config,
		mqtt:   client,
		worker: worker.New(host, worker.Deps{Queue: q, Applications: deps.Nodes, MQTT: client}),
		api:    httpapi.New(deps.Nodes, d, q, deps.Config.MaxAge()),
	}
	if deps.UI != nil {
		m.section = pages.New(host, deps.UI, deps.TagPages, q)
		deps.TagPages.RegisterPageSection(m.section)
		deps.TagPages.RegisterApplicationSection(pages.NewSetup(host, deps.Nodes))
	}
	return m
}

// module ties the queue, the MQTT client, the downlink worker, the routes
// and the node page section together as the kernel sees them; the queue
// answers netservers.Downlinks.
type module struct {
	*queue.Queue
	config  netservers.Config
	mqtt    *mqtt.Client
	worker  *worker.Worker
	api     *httpapi.API
	section *pages.Section // nil without the UI
}

// Name names the module.
func (m *module) Name() string { return "netservers" }

// Routes registers the JSON routes and the downlink section's pages.
func (m *module) Routes(r *web.ModuleRoutes) {
	m.api.Routes(r)
	if m.section != nil {
		m.section.Routes(r)
	}
}

// Start starts the MQTT subscriber (with MQTT_URL) and schedules the
// downlink worker. Both end when ctx is done.
func (m *module) Start(ctx context.Context) error {
	if err := m.mqtt.Start(ctx, m.config.MQTTURL, m.config.MQTTClientID); err != nil {
		return err
	}
	return m.worker.Schedule()
}

// Stop waits for the subscriber to disconnect (the kernel has cancelled
// the context of Start) and closes the publisher.
func (m *module) Stop(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		m.mqtt.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("stop the MQTT clients: %w", ctx.Err())
	}
}
