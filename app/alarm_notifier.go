package app

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/modules/alarms"
	"github.com/fieldhub/fieldhub/modules/notifications"
)

// alarmNotifier tells a company's users of an alarm that fired, through
// the notifications module, in the alarm's own transaction.
type alarmNotifier struct{ notifications notifications.Service }

func (n alarmNotifier) NotifyCompany(ctx context.Context, idb bun.IDB, companyID int64, note alarms.Notification) error {
	return n.notifications.NotifyCompany(ctx, idb, companyID,
		notifications.New{Label: note.Label, Message: note.Message, Route: note.Route, Roles: note.Roles})
}
