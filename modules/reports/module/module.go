// Package module builds the reports module for the application package.
package module

import (
	"context"
	"time"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/reports"
	"github.com/fieldhub/fieldhub/modules/reports/internal/collect"
	"github.com/fieldhub/fieldhub/modules/reports/internal/delivery"
	"github.com/fieldhub/fieldhub/modules/reports/internal/httpapi"
	"github.com/fieldhub/fieldhub/modules/reports/internal/pages"
	"github.com/fieldhub/fieldhub/modules/reports/internal/render"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Deps is what the reports module needs beside the kernel; all but Logs
// are required.
type Deps struct {
	// Accounts gives a company's time zone and language.
	Accounts reports.Accounts
	// Nodes gives a company's nodes and their keys' labels and units; the
	// nodes module satisfies it.
	Nodes reports.Nodes
	// Series is the time-series store the values are read from.
	Series reports.Series
	// Logs, optional, records each send's outcome; the logs module
	// satisfies it.
	Logs reports.Logs
	// UI, optional, draws the pages (/report and its editor); without it
	// the module serves only its API.
	UI *ui.Env
}

// New builds the module. It panics when a required dependency is missing,
// so that a wiring mistake stops the program at start.
func New(host *kernel.Host, deps Deps) reports.Module {
	if deps.Accounts == nil || deps.Nodes == nil || deps.Series == nil {
		panic("reports module: Deps.Accounts, Deps.Nodes and Deps.Series are required")
	}
	rnd := &render.Renderer{Collector: &collect.Collector{Nodes: deps.Nodes, Series: deps.Series}, Catalogs: host.Catalogs}
	d := &delivery.Deliverer{DB: host.DB, Mail: host.Mail, Render: rnd, Accounts: deps.Accounts, Logs: deps.Logs,
		Catalogs: host.Catalogs, Log: host.Logger("reports")}
	m := &module{host: host, deliver: d, api: httpapi.New(host, deps.Accounts, rnd, d)}
	if deps.UI != nil {
		m.pages = pages.New(host, deps.UI, deps.Nodes, d)
	}
	return m
}

type module struct {
	host    *kernel.Host
	deliver *delivery.Deliverer
	api     *httpapi.API
	pages   *pages.Pages
}

// Name names the module.
func (m *module) Name() string { return "reports" }

// Routes registers the JSON routes, and the pages with the UI.
func (m *module) Routes(r *web.ModuleRoutes) {
	m.api.Routes(r)
	if m.pages != nil {
		m.pages.Routes(r)
	}
}

// Start schedules the job that sends due reports: every minute, on one
// instance at a time (the claim of each period makes a send once-only in
// any case).
func (m *module) Start(context.Context) error {
	return m.host.Scheduler.Every("reports", "send due", time.Minute, true, func(ctx context.Context) error {
		_, err := m.deliver.RunDue(ctx, time.Now())
		return err
	})
}

// RunDue is one run of the schedule as at now.
func (m *module) RunDue(ctx context.Context, now time.Time) (int, error) {
	return m.deliver.RunDue(ctx, now)
}
