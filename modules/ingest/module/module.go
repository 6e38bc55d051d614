// Package module builds the ingest module for the application package.
package module

import (
	"context"
	"fmt"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/devicelog"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/httpapi"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/networkserver"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/pages"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/pipeline"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/redecode"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Deps is what the ingest module needs from the rest of the portal.
type Deps struct {
	// Nodes finds tags, authenticates integration tokens, keeps the nodes'
	// keys and state, takes unknown DevEUIs into the pool, holds the
	// downlink queue and tells which nodes use a decoder. Required; the
	// nodes module satisfies it.
	Nodes ingest.Nodes
	// Decoders decodes payloads and checks the decoder of a re-decode
	// job. Required; the decoders module satisfies it.
	Decoders ingest.Decoders
	// TSDB stores the values and the uplinks as they came. Required; the
	// application opens it.
	TSDB tsdb.Store
	// Accounts tells whether the company of a re-decode route exists.
	// Optional: without it an unknown company has no jobs (rather than
	// being not found). The accounts module satisfies it.
	Accounts ingest.Companies
	// UI and DecoderPages draw the re-decode section on the decoder page,
	// which New registers there. Optional, both or neither: without them
	// there is no section and no page route of it (the JSON routes stay).
	// The decoders module satisfies DecoderPages.
	UI           *ui.Env
	DecoderPages ingest.DecoderPages
}

// New builds the module. It panics when a required dependency is missing,
// so that a wiring mistake stops the program at start.
func New(host *kernel.Host, deps Deps) ingest.Module {
	if deps.Nodes == nil || deps.Decoders == nil || deps.TSDB == nil {
		panic("ingest module: Deps.Nodes, Deps.Decoders and Deps.TSDB are required")
	}
	if (deps.UI == nil) != (deps.DecoderPages == nil) {
		panic("ingest module: Deps.UI and Deps.DecoderPages go together")
	}
	events := devicelog.New(host)
	pipe := pipeline.New(host, pipeline.Deps{Tags: deps.Nodes, NodeData: deps.Nodes, Pool: deps.Nodes, Reports: deps.Nodes,
		Decoding: deps.Decoders, TSDB: deps.TSDB}, events)
	jobs := redecode.New(host, redecode.Deps{Users: deps.Nodes, Keys: deps.Decoders, Uplinks: pipe, Companies: deps.Accounts})
	m := &module{
		pipeline: pipe,
		servers: networkserver.New(host, networkserver.Deps{Applications: deps.Nodes, Tags: deps.Nodes, Queue: deps.Nodes,
			Processor: pipe, Events: events}),
		jobs: jobs,
		api:  httpapi.New(deps.Nodes, pipe, jobs),
	}
	if deps.UI != nil {
		m.section = pages.New(host, deps.UI, deps.DecoderPages, deps.Nodes, jobs)
		deps.DecoderPages.RegisterPageSection(m.section)
	}
	return m
}

// module ties the pipeline, the network servers' side, the re-decode jobs,
// the routes and the decoder page section together as the kernel sees
// them.
type module struct {
	pipeline *pipeline.Pipeline
	servers  *networkserver.Service
	jobs     *redecode.Jobs
	api      *httpapi.API
	section  *pages.Section // nil without the UI
}

// Name names the module.
func (m *module) Name() string { return "ingest" }

// Routes registers the JSON routes and the re-decode section's pages.
func (m *module) Routes(r *web.ModuleRoutes) {
	m.api.Routes(r)
	if m.section != nil {
		m.section.Routes(r)
	}
}

// Start runs the group committers, the MQTT subscriber (with MQTT_URL),
// and schedules the downlink worker and the re-decode job. All end when
// ctx is done.
func (m *module) Start(ctx context.Context) error {
	m.pipeline.Start(ctx)
	if err := m.servers.Start(ctx); err != nil {
		return err
	}
	return m.jobs.Schedule()
}

// Stop waits for the subscriber to disconnect (the kernel has cancelled
// the context of Start), closes the publisher and lets the committers
// finish the batch they are handling. The HTTP server has stopped taking
// requests by then; an uplink that still comes is handled alone.
func (m *module) Stop(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		m.servers.Wait()
		m.pipeline.Stop()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("stop the MQTT clients: %w", ctx.Err())
	}
}
