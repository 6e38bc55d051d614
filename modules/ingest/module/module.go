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
	"github.com/fieldhub/fieldhub/modules/ingest/internal/pages"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/pipeline"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/redecode"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Deps is what the ingest module needs from the rest of the portal.
type Deps struct {
	// Nodes finds tags, keeps the nodes' keys and state, takes unknown
	// DevEUIs into the pool and tells which nodes use a decoder. Required;
	// the nodes module satisfies it.
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
	pipe := pipeline.New(host, pipeline.Deps{Tags: deps.Nodes, NodeData: deps.Nodes, Pool: deps.Nodes,
		Decoding: deps.Decoders, TSDB: deps.TSDB}, devicelog.New(host))
	jobs := redecode.New(host, redecode.Deps{Users: deps.Nodes, Keys: deps.Decoders, Uplinks: pipe, Companies: deps.Accounts})
	m := &module{Pipeline: pipe, jobs: jobs, api: httpapi.New(jobs, deps.Nodes, pipe)}
	if deps.UI != nil {
		m.section = pages.New(host, deps.UI, deps.DecoderPages, deps.Nodes, jobs)
		deps.DecoderPages.RegisterPageSection(m.section)
	}
	return m
}

// module ties the pipeline, the re-decode jobs, their routes and the
// decoder page section together as the kernel and the other modules see
// them; the pipeline answers ingest.Service.
type module struct {
	*pipeline.Pipeline
	jobs    *redecode.Jobs
	api     *httpapi.API
	section *pages.Section // nil without the UI
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

// Start runs the group committers and schedules the re-decode job. Both
// end when ctx is done.
func (m *module) Start(ctx context.Context) error {
	m.Pipeline.Start(ctx)
	return m.jobs.Schedule()
}

// Stop lets the committers finish the batch they are handling (the
// kernel has cancelled the context of Start). The network servers' routes
// and subscriber have stopped by then; a message that still comes is
// handled alone.
func (m *module) Stop(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		m.Pipeline.Stop()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("stop the group committers: %w", ctx.Err())
	}
}
