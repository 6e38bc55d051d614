// Package inbox is the notifications module's service: it stores
// notifications for users (in the caller's transaction), lists and marks
// them, and announces them to the live feed once they are committed.
package inbox

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/modules/notifications"
	"github.com/fieldhub/fieldhub/modules/notifications/internal/store"
)

// Inbox satisfies notifications.Service.
type Inbox struct {
	db       *bun.DB
	accounts notifications.Accounts
	bus      events.Bus
	log      *slog.Logger
	now      func() time.Time
	// nudge wakes the dispatcher when rows were stored here; they may not
	// be committed yet, so it looks again on a quick schedule.
	nudge chan struct{}
}

// New returns the inbox on db, which asks accounts who the users are and
// announces on bus.
func New(db *bun.DB, accounts notifications.Accounts, bus events.Bus, log *slog.Logger) *Inbox {
	return &Inbox{db: db, accounts: accounts, bus: bus, log: log, now: time.Now, nudge: make(chan struct{}, 1)}
}

// NotifyCompany adds n for the company's users (those with one of n.Roles
// when it names any) through idb.
func (x *Inbox) NotifyCompany(ctx context.Context, idb bun.IDB, companyID int64, n notifications.New) error {
	roles, err := check(n, true)
	if err != nil {
		return err
	}
	users, err := x.accounts.CompanyUsers(ctx, companyID)
	if err != nil {
		return err
	}
	var rows []notifications.Notification
	for _, u := range users {
		if len(roles) == 0 || slices.Contains(roles, u.Role) {
			rows = append(rows, x.row(u.ID, u.CompanyID, n))
		}
	}
	return x.insert(ctx, idb, rows)
}

// NotifyUsers adds n for each of the users through idb.
func (x *Inbox) NotifyUsers(ctx context.Context, idb bun.IDB, userIDs []int64, n notifications.New) error {
	if _, err := check(n, false); err != nil {
		return err
	}
	var rows []notifications.Notification
	seen := map[int64]bool{}
	for _, id := range userIDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		u, err := x.accounts.User(ctx, id)
		if err != nil {
			return err
		}
		rows = append(rows, x.row(u.ID, u.CompanyID, n))
	}
	return x.insert(ctx, idb, rows)
}

func (x *Inbox) row(user int64, company *int64, n notifications.New) notifications.Notification {
	return notifications.Notification{UserID: user, CompanyID: company, Label: strings.TrimSpace(n.Label),
		Message: strings.TrimSpace(n.Message), Route: strings.TrimSpace(n.Route), CreatedAt: x.now().UTC()}
}

func (x *Inbox) insert(ctx context.Context, idb bun.IDB, rows []notifications.Notification) error {
	if err := store.Insert(ctx, idb, rows); err != nil {
		return err
	}
	if len(rows) > 0 {
		select {
		case x.nudge <- struct{}{}:
		default:
		}
	}
	return nil
}

// Unread counts the user's unread notifications.
func (x *Inbox) Unread(ctx context.Context, userID int64) (int, error) {
	return store.CountUnread(ctx, x.db, userID)
}

// List returns the user's unread notifications (with all, the read ones
// too), newest first.
func (x *Inbox) List(ctx context.Context, userID int64, all bool) ([]notifications.Notification, error) {
	return store.List(ctx, x.db, userID, all, notifications.MaxList)
}

// MarkRead marks the user's notification id read, tells the user's other
// pages, and returns the unread count; a notification the user does not
// have is not found.
func (x *Inbox) MarkRead(ctx context.Context, userID, id int64) (int, error) {
	found, err := store.MarkRead(ctx, x.db, userID, id)
	if err != nil {
		return 0, err
	}
	if !found {
		return 0, errs.New(errs.NotFound, errs.IDNotFound)
	}
	x.tell(ctx, []int64{userID})
	return x.Unread(ctx, userID)
}

// MarkAllRead marks every notification of the user read, tells the user's
// other pages, and returns the unread count.
func (x *Inbox) MarkAllRead(ctx context.Context, userID int64) (int, error) {
	n, err := store.MarkAllRead(ctx, x.db, userID)
	if err != nil {
		return 0, err
	}
	if n > 0 {
		x.tell(ctx, []int64{userID})
	}
	return x.Unread(ctx, userID)
}

// PruneRead deletes the read notifications older than
// notifications.ReadRetention (the daily job PruneJob).
func (x *Inbox) PruneRead(ctx context.Context) error {
	n, err := store.PruneRead(ctx, x.db, x.now().UTC().Add(-notifications.ReadRetention))
	if err != nil {
		return err
	}
	if n > 0 {
		x.log.Info("old read notifications deleted", "count", n)
	}
	return nil
}

// message is the live feed's message to a user whose notifications changed.
var message = []byte(`{"type":"` + notifications.MessageNotification + `"}`)

// tell announces to users' open pages that their notifications changed.
func (x *Inbox) tell(ctx context.Context, users []int64) {
	slices.Sort(users)
	x.bus.Publish(ctx, events.ToUsers{UserIDs: slices.Compact(users), Message: message})
}

// check validates n and returns the roles it names (with roles, for
// NotifyCompany).
func check(n notifications.New, roles bool) ([]auth.Role, error) {
	var v errs.Validation
	text := func(field, value string, limit int) {
		switch value = strings.TrimSpace(value); {
		case value == "":
			v.Add(field, errs.IDRequired)
		case utf8.RuneCountInString(value) > limit:
			v.Add(field, errs.IDTooLong)
		}
	}
	text("label", n.Label, notifications.MaxLabel)
	text("message", n.Message, notifications.MaxMessage)
	if route := strings.TrimSpace(n.Route); route != "" && !ValidRoute(route) {
		v.Add("route", notifications.IDRouteInvalid)
	}
	var out []auth.Role
	if roles {
		for _, name := range n.Roles {
			r, ok := auth.ParseRole(name)
			if !ok {
				v.AddArgs("roles", notifications.IDRoleInvalid, map[string]any{"role": name})
				break
			}
			out = append(out, r)
		}
	}
	return out, v.Err()
}

// ValidRoute reports whether route is a path of the portal that a click may
// open: it starts with one slash (not //, which leaves the site, nor /\,
// which browsers read alike), is at most notifications.MaxRoute characters
// and holds no spaces or control characters.
func ValidRoute(route string) bool {
	if len(route) > notifications.MaxRoute || !strings.HasPrefix(route, "/") ||
		strings.HasPrefix(route, "//") || strings.HasPrefix(route, "/\\") {
		return false
	}
	return !strings.ContainsFunc(route, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) })
}
