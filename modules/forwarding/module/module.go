// Package module builds the forwarding module for the application package.
package module

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/forwarding"
	"github.com/fieldhub/fieldhub/modules/forwarding/internal/forwarder"
	"github.com/fieldhub/fieldhub/modules/forwarding/internal/httpapi"
	"github.com/fieldhub/fieldhub/modules/forwarding/internal/pages"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

// Deps is what the forwarding module needs from the rest of the portal.
type Deps struct {
	// Applications finds the application of a route. Required; the nodes
	// module satisfies it.
	Applications forwarding.Applications
	// Ingest takes the module's ingest.Recorder, which queues the stored
	// uplinks. Required; the ingest module satisfies it.
	Ingest ingest.Recorders
	// Notifier tells the administrators of a target switched off.
	// Optional; the notifications module satisfies it.
	Notifier forwarding.Notifier
	// Pages takes the forwarding section of the application page.
	// Optional: without it (no UI) there is no section. The nodes module
	// satisfies it.
	Pages forwarding.ApplicationPages
}

// New builds the module and registers its recorder with the ingest. It
// panics when a required dependency is missing, so that a wiring mistake
// stops the program at start.
func New(host *kernel.Host, deps Deps) forwarding.Module {
	if deps.Applications == nil || deps.Ingest == nil {
		panic("forwarding module: Deps.Applications and Deps.Ingest are required")
	}
	f := forwarder.New(host, forwarder.Deps{Applications: deps.Applications, Notifier: deps.Notifier})
	// The cache of enabled targets is read before the kernel starts any
	// module, so that no uplink is stored before it is (the network
	// servers' subscriber may start before this module).
	if err := f.Refresh(context.Background()); err != nil {
		host.Logger("forwarding").Error("read the forwarding targets", "err", err)
	}
	m := &module{Forwarder: f, api: httpapi.New(f), done: make(chan struct{})}
	deps.Ingest.RegisterRecorder(f)
	if deps.Pages != nil {
		deps.Pages.RegisterApplicationSection(pages.New(f))
	}
	return m
}

type module struct {
	*forwarder.Forwarder
	api  *httpapi.API
	done chan struct{} // closed when the worker has stopped
}

// Name names the module.
func (m *module) Name() string { return "forwarding" }

// Routes registers the JSON routes.
func (m *module) Routes(r *web.ModuleRoutes) { m.api.Routes(r) }

// Start runs the worker until ctx is done.
func (m *module) Start(ctx context.Context) error {
	go func() {
		defer close(m.done)
		m.Run(ctx)
	}()
	return nil
}

// Stop waits for the deliveries under way to record what they sent (the
// kernel has cancelled the context of Start).
func (m *module) Stop(ctx context.Context) error {
	select {
	case <-m.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
