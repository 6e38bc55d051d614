// Package module builds the scripts module for the application package.
package module

import (
	"context"
	"time"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/scripts"
	"github.com/fieldhub/fieldhub/modules/scripts/internal/httpapi"
	"github.com/fieldhub/fieldhub/modules/scripts/internal/library"
	"github.com/fieldhub/fieldhub/modules/scripts/internal/pages"
	"github.com/fieldhub/fieldhub/modules/scripts/internal/runner"
	"github.com/fieldhub/fieldhub/modules/scripts/internal/store"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Deps is what the scripts module needs beside the kernel.
type Deps struct {
	// Nodes finds the nodes scripts name and lists a company's for the
	// editor; the nodes module satisfies it. Required.
	Nodes scripts.Nodes
	// Series is the time series scripts read. Required.
	Series scripts.Series
	// Values writes scripts' values through the ingest; the ingest module
	// satisfies it. Required.
	Values scripts.Values
	// Downlinks queues scripts' downlinks; the netservers module
	// satisfies it. Optional: without it a downlink fails the run.
	Downlinks scripts.Downlinks
	// Notifier adds notifications (a script's own, and the switch-off
	// notice); the notifications module satisfies it. Optional.
	Notifier scripts.Notifier
	// Logs records scripts' log entries and switch-offs; the logs module
	// satisfies it. Optional.
	Logs scripts.Logs
	// UI draws the pages (/script and the editor). Optional: without it
	// only the JSON routes are served.
	UI *ui.Env
}

// New builds the module and subscribes it to ingest.UplinkReceived for
// the triggered scripts. It panics when a required dependency is missing.
func New(host *kernel.Host, deps Deps) scripts.Module {
	if deps.Nodes == nil || deps.Series == nil || deps.Values == nil {
		panic("scripts module: Deps.Nodes, Deps.Series and Deps.Values are required")
	}
	run := runner.New(host, runner.Deps{Tags: deps.Nodes, Series: deps.Series, Values: deps.Values,
		Downlinks: deps.Downlinks, Notifier: deps.Notifier, Logs: deps.Logs})
	disp := runner.NewDispatcher(run)
	lib := library.New(host, deps.Nodes, disp.Refresh)
	m := &module{host: host, run: run, disp: disp, lib: lib, api: httpapi.New(lib, run)}
	if deps.UI != nil {
		m.pages = pages.New(host, deps.UI, deps.Nodes, lib)
	}
	host.Bus.Subscribe(ingest.UplinkReceived{}.Topic(), func(_ context.Context, e events.Event) {
		if u, ok := e.(ingest.UplinkReceived); ok {
			disp.OnUplink(u)
		}
	})
	return m
}

type module struct {
	host *kernel.Host
	run  *runner.Runner
	disp *runner.Dispatcher
	lib  *library.Library
	api  *httpapi.API
	// pages is nil without the UI.
	pages *pages.Pages
}

// Name names the module.
func (m *module) Name() string { return "scripts" }

// Routes registers the JSON routes, and the pages with the UI.
func (m *module) Routes(r *web.ModuleRoutes) {
	m.api.Routes(r)
	if m.pages != nil {
		m.pages.Routes(r)
	}
}

// Start starts the sandbox, the dispatcher of triggered scripts and the
// looping job (once across instances).
func (m *module) Start(ctx context.Context) error {
	m.run.Engine.Start(ctx)
	m.run.Start()
	m.disp.Start(ctx)
	return m.host.Scheduler.Every("scripts", "loop", runner.Tick, true, func(ctx context.Context) error {
		return m.run.RunDue(ctx, time.Now().UTC())
	})
}

// Stop waits for the triggered runs under way, records the runs not
// recorded yet and closes the sandbox.
func (m *module) Stop(context.Context) error {
	m.disp.Wait()
	m.run.Stop()
	return m.run.Engine.Stop()
}

// InvokedScripts lists the company's invoked scripts, for the function
// buttons.
func (m *module) InvokedScripts(ctx context.Context, companyID int64) ([]scripts.Ref, error) {
	list, err := store.OfCompany(ctx, m.host.DB, companyID)
	if err != nil {
		return nil, err
	}
	out := []scripts.Ref{}
	for _, s := range list {
		if s.Type == scripts.TypeInvoked {
			out = append(out, scripts.Ref{ID: s.ID, Name: s.Name})
		}
	}
	return out, nil
}

// RunScript runs one of the company's invoked scripts now, for real.
func (m *module) RunScript(ctx context.Context, companyID, scriptID int64) (scripts.RunOutcome, error) {
	s, err := store.Get(ctx, m.host.DB, scriptID)
	if err != nil {
		return scripts.RunOutcome{}, err
	}
	if s.CompanyID != companyID || s.Type != scripts.TypeInvoked {
		return scripts.RunOutcome{}, errs.New(errs.NotFound, errs.IDNotFound)
	}
	out, err := m.run.Run(ctx, s, scripts.CauseInvoke, nil)
	if err != nil {
		return scripts.RunOutcome{}, err
	}
	res := scripts.RunOutcome{Error: out.Error}
	if out.Error == "" {
		res.Result = runner.ResultText(out.Result)
	}
	return res, nil
}
