// Package httpapi answers the notifications module's JSON routes under
// /api/notification: a user's list, and marking one or all read.
package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/notifications"
	"github.com/fieldhub/fieldhub/modules/notifications/internal/inbox"
)

// API is the module's JSON routes.
type API struct{ inbox *inbox.Inbox }

// New returns the routes on the inbox.
func New(x *inbox.Inbox) *API { return &API{inbox: x} }

// Routes registers the routes, open to every signed-in staff role for their
// own notifications.
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("GET /notification/{userId}", auth.CompanyOrUser, a.list)
	r.API("PUT /notification/deactivate/{notificationId}", auth.CompanyOrUser, a.markRead)
	r.API("PUT /notification/deactivate/all/{userId}", auth.CompanyOrUser, a.markAllRead)
}

// ownUser reads the {userId} of the path, which must be the caller's own:
// anyone else's notifications are not found, as another company's things
// are.
func ownUser(r *http.Request) (int64, error) {
	id, err := web.PathID(r, "userId")
	if err != nil {
		return 0, err
	}
	if id != auth.CallerFrom(r.Context()).UserID {
		return 0, errs.New(errs.NotFound, errs.IDNotFound)
	}
	return id, nil
}

// list answers GET /notification/{userId}[?all=true].
func (a *API) list(w http.ResponseWriter, r *http.Request) error {
	user, err := ownUser(r)
	if err != nil {
		return err
	}
	all := false
	switch v := r.URL.Query().Get("all"); v {
	case "", "false":
	case "true":
		all = true
	default:
		var bad errs.Validation
		bad.Add("all", notifications.IDAllInvalid)
		return bad.Err()
	}
	list, err := a.inbox.List(r.Context(), user, all)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

// markRead answers PUT /notification/deactivate/{notificationId}.
func (a *API) markRead(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "notificationId")
	if err != nil {
		return err
	}
	n, err := a.inbox.MarkRead(r.Context(), auth.CallerFrom(r.Context()).UserID, id)
	if err != nil {
		return err
	}
	return web.OK(w, notifications.Unread{Unread: n})
}

// markAllRead answers PUT /notification/deactivate/all/{userId}.
func (a *API) markAllRead(w http.ResponseWriter, r *http.Request) error {
	user, err := ownUser(r)
	if err != nil {
		return err
	}
	n, err := a.inbox.MarkAllRead(r.Context(), user)
	if err != nil {
		return err
	}
	return web.OK(w, notifications.Unread{Unread: n})
}
