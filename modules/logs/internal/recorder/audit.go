package recorder

import (
	"context"
	"strconv"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel/audit"
	kevents "github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/modules/logs"
)

// maxAuditValue is the characters of one before or after value an entry
// keeps, so that a long text (a description, a URL) cannot push the
// entry's data past logs.MaxData and lose all of it.
const maxAuditValue = 200

// onChange writes a change a person made as a USEREVENT entry in the
// change's company (the installation's for none), its message in English
// from the catalog; its data holds who made it (email and id), the
// company's name, the message's arguments and the values before and
// after.
func (rec *Recorder) onChange(ctx context.Context, ev kevents.Event) {
	c, ok := ev.(audit.Change)
	if !ok || c.MessageID == "" {
		return
	}
	who := "#" + strconv.FormatInt(c.UserID, 10)
	if u, err := rec.people.User(ctx, c.UserID); err == nil {
		who = u.Email
	}
	args := map[string]any{}
	for k, v := range c.Args {
		args[k] = v
	}
	args["user"] = who
	data := map[string]any{}
	for k, v := range args {
		data[k] = v
	}
	// The entry's own keys win over a message argument of the same name.
	data["kind"], data["userId"] = logs.KindAudit, c.UserID
	// Who made the change is in the data, not in the entry's user, which
	// goes with its user: the trail outlives the people it names, for as
	// long as entries are kept.
	e := logs.Entry{Type: logs.TypeUserEvent, MessageID: c.MessageID,
		Message: rec.host.Catalogs.T(i18n.Default, c.MessageID, args), CreatedAt: c.At}
	if c.CompanyID > 0 {
		company := c.CompanyID
		e.CompanyID = &company
		data["companyId"] = company
		if co, err := rec.people.Company(ctx, company); err == nil {
			data["company"] = co.Name
		}
	}
	if len(c.Before) > 0 || len(c.After) > 0 {
		data["before"], data["after"] = clipValues(c.Before), clipValues(c.After)
	}
	e.Data = data
	rec.Record(e)
}

// clipValues returns m with each text cut to maxAuditValue characters.
func clipValues(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if s, ok := v.(string); ok && utf8.RuneCountInString(s) > maxAuditValue {
			v = clip(s, maxAuditValue) + "…"
		}
		out[k] = v
	}
	return out
}
