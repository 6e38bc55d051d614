// Package module builds the alarms module for the application package.
package module

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/alarms"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/engine"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/httpapi"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/pages"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/rules"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/store"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Deps is what the alarms module needs beside the kernel. Accounts, Tags
// and Settings are required.
type Deps struct {
	Config alarms.Config
	// Accounts names companies (their time zones) and users (who
	// acknowledged); the accounts module satisfies it.
	Accounts alarms.Accounts
	// Tags names the rules' nodes and finds silent ones; the nodes module
	// satisfies it.
	Tags alarms.Tags
	// Settings holds each company's inactivity contact; the settings
	// module satisfies it.
	Settings alarms.Settings
	// Notifier, optional, tells the company's users of a firing.
	Notifier alarms.Notifier
	// AlarmStates, optional, takes the module as the source of the nodes'
	// activeAlarm; the nodes module satisfies it.
	AlarmStates nodes.AlarmRegistry
	// UI, optional, draws the alarm screens (/alarm and below); without
	// it the module serves its API alone.
	UI *ui.Env
	// TagPages, optional with UI, takes the section of a node's alarms on
	// its details page; the nodes module satisfies it.
	TagPages nodes.Pages
}

// New builds the module, subscribes it to ingest.UplinkReceived and
// registers it with the nodes as the source of their activeAlarm. It
// panics when a required dependency is missing.
func New(host *kernel.Host, deps Deps) alarms.Module {
	if deps.Accounts == nil || deps.Tags == nil || deps.Settings == nil {
		panic("alarms module: Deps.Accounts, Deps.Tags and Deps.Settings are required")
	}
	eng := engine.New(host, engine.Deps{Config: deps.Config, Accounts: deps.Accounts, Tags: deps.Tags, Settings: deps.Settings, Notifier: deps.Notifier})
	m := &module{host: host, cfg: deps.Config, engine: eng, api: httpapi.New(host, deps.Accounts, deps.Tags, eng)}
	host.Bus.SubscribeBatch(ingest.UplinkReceived{}.Topic(), engine.BatchSize, func(ctx context.Context, batch []events.Event) {
		uplinks := make([]ingest.UplinkReceived, 0, len(batch))
		for _, e := range batch {
			if u, ok := e.(ingest.UplinkReceived); ok {
				uplinks = append(uplinks, u)
			}
		}
		eng.OnUplinks(ctx, uplinks)
	})
	if deps.UI != nil {
		m.pages = pages.New(host, deps.UI, deps.Accounts, deps.Tags, eng)
		if deps.TagPages != nil {
			deps.TagPages.RegisterPageSection(m.pages)
		}
	}
	if deps.AlarmStates != nil {
		deps.AlarmStates.RegisterAlarmStates(m)
	}
	return m
}

type module struct {
	host   *kernel.Host
	cfg    alarms.Config
	engine *engine.Engine
	api    *httpapi.API
	pages  *pages.Pages // nil without a UI
}

// Name names the module.
func (*module) Name() string { return "alarms" }

// Routes registers the JSON routes and the pages.
func (m *module) Routes(r *web.ModuleRoutes) {
	m.api.Routes(r)
	if m.pages != nil {
		m.pages.Routes(r)
	}
}

// Start schedules the sweep and the inactivity job, each once across
// instances, and catches up on the uplinks stored before the start.
func (m *module) Start(ctx context.Context) error {
	sweep := func(ctx context.Context) error { return m.engine.Sweep(ctx, time.Now()) }
	if err := m.host.Scheduler.Every("alarms", "sweep", m.cfg.SweepInterval, true, sweep); err != nil {
		return err
	}
	scan := func(ctx context.Context) error { return m.engine.ScanInactivity(ctx, time.Now()) }
	if err := m.host.Scheduler.Every("alarms", "inactivity", m.cfg.InactivityInterval, true, scan); err != nil {
		return err
	}
	log := m.host.Logger("alarms")
	go m.engine.RunFlush(ctx)
	go func() {
		if err := m.engine.CatchUp(ctx); err != nil && ctx.Err() == nil {
			log.Error("catch up on stored uplinks", "err", err)
		}
	}()
	return nil
}

// OpenAlarmTags answers which nodes have open firings.
func (m *module) OpenAlarmTags(ctx context.Context, tagIDs []int64) (map[int64]bool, error) {
	return store.OpenTags(ctx, m.host.DB, tagIDs)
}

// States answers the states of the company's alarms among ids.
func (m *module) States(ctx context.Context, companyID int64, ids []int64) (map[int64]alarms.State, error) {
	return store.States(ctx, m.host.DB, companyID, ids)
}

// Sweep fires, re-notifies and escalates what is due by now.
func (m *module) Sweep(ctx context.Context, now time.Time) error { return m.engine.Sweep(ctx, now) }

// ScanInactivity mails about the nodes silent by now.
func (m *module) ScanInactivity(ctx context.Context, now time.Time) error {
	return m.engine.ScanInactivity(ctx, now)
}

// CreateFromTemplate makes the rule of a device profile's template on a
// node, in the caller's transaction; see alarms.Templates.
func (m *module) CreateFromTemplate(ctx context.Context, idb bun.IDB, companyID, tagID int64, t alarms.Template) (int64, error) {
	a, err := rules.FromTemplate(companyID, tagID, t)
	if err != nil {
		return 0, err
	}
	a.CreatedAt, a.UpdatedAt = time.Now().UTC(), time.Now().UTC()
	if err := store.Insert(ctx, idb, a); err != nil {
		return 0, err
	}
	m.engine.RulesChanged()
	return a.ID, nil
}
