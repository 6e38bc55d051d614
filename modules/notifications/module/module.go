// Package module builds the notifications module for the application
// package.
package module

import (
	"context"
	"net/http"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/notifications"
	"github.com/fieldhub/fieldhub/modules/notifications/internal/httpapi"
	"github.com/fieldhub/fieldhub/modules/notifications/internal/inbox"
)

// Deps is what the notifications module needs beside the kernel.
type Deps struct {
	// Accounts tells who a company's users are and a user's company; the
	// accounts module satisfies it. Required.
	Accounts notifications.Accounts
}

// New builds the module and fills the unread count of every page's bell
// (web.Viewer.Notifications) through a viewer enricher, so that the frame
// needs no import of the module. It panics when a dependency is missing, so
// that a wiring mistake stops the program at start.
func New(host *kernel.Host, deps Deps) notifications.Module {
	if deps.Accounts == nil {
		panic("notifications module: Deps.Accounts is required")
	}
	log := host.Logger("notifications")
	m := &module{Inbox: inbox.New(host.DB, deps.Accounts, host.Bus, log), host: host}
	m.api = httpapi.New(m.Inbox)
	host.Router.AddViewerEnricher(func(r *http.Request, v *web.Viewer) error {
		if !v.Caller.SignedIn() || v.Caller.UserID == 0 {
			return nil
		}
		n, err := m.Unread(r.Context(), v.Caller.UserID)
		if err != nil {
			// The page is still worth drawing: the bell loads the list
			// itself and shows what failed.
			log.Warn("unread notifications not counted", "user_id", v.Caller.UserID, "err", err)
			return nil
		}
		v.Notifications = n
		return nil
	})
	return m
}

// module is the module: the inbox, which other modules call and whose
// dispatcher Start runs, and the JSON routes.
type module struct {
	*inbox.Inbox
	api  *httpapi.API
	host *kernel.Host
}

// Name names the module.
func (m *module) Name() string { return "notifications" }

// Routes registers the JSON routes.
func (m *module) Routes(r *web.ModuleRoutes) { m.api.Routes(r) }

// Start runs the dispatcher until ctx ends, and schedules the daily
// deletion of old read notifications (at 03:40, on one instance).
func (m *module) Start(ctx context.Context) error {
	go m.Run(ctx)
	return m.host.Scheduler.Daily("notifications", notifications.PruneJob, 3, 40, true, m.PruneRead)
}
