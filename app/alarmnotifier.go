package app

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/modules/alarms"
	"github.com/fieldhub/fieldhub/modules/logs"
)

// logNotifier tells of an alarm's firing with an APP entry in the
// company's log. The notifications module (the bell, per-user
// notifications) replaces it at the merge: alarms.Notifier is then its
// Service.NotifyCompany through a one-line adapter of Notification to
// notifications.New.
type logNotifier struct{ logs logs.Service }

func (n logNotifier) NotifyCompany(_ context.Context, _ bun.IDB, companyID int64, note alarms.Notification) error {
	n.logs.Record(logs.Entry{CompanyID: &companyID, Type: logs.TypeApp, Message: note.Label + ": " + note.Message,
		Data: map[string]any{"route": note.Route}})
	return nil
}
