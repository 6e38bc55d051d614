// Package notifications is the contract of the notifications module: each
// user's notifications (a label, a message and the page they lead to), the
// bell of the top bar that counts and lists the unread ones, and their routes
// (SPEC.md section 7, "Logs and notifications"):
//
//   - GET /api/notification/{userId} lists the user's unread notifications,
//     newest first (at most MaxList); ?all=true lists the read ones too.
//   - PUT /api/notification/deactivate/{notificationId} marks one read.
//   - PUT /api/notification/deactivate/all/{userId} marks all of them read.
//
// The routes are open to every signed-in staff role (auth.CompanyOrUser), and
// only for the caller's own notifications: another user's id, or one of
// their notifications, is not found (404), whatever the caller's role. The
// marking answers the caller's unread count, {"unread": 2}.
//
// Other modules (alarms, scripts) add notifications through Service, in
// their own transaction: a notification is stored with the fact that caused
// it, and a rolled-back transaction leaves none. Once the rows are committed
// the module's dispatcher finds them and announces them on the kernel's bus
// as events.ToUsers, which the live feed (GET /api/events) pushes to the
// users' open pages as {"type":"Notification"}; the page then reloads the
// list. Marking read announces the same, so that a user's other tabs follow.
// A notification goes with its user and with its company; a read one is
// deleted after ReadRetention. Package module
// builds the module; the implementation lives in internal/.
package notifications

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/accounts"
)

// MessageNotification is the type of the live feed's message that tells a
// user's pages that their notifications changed: {"type":"Notification"}.
const MessageNotification = "Notification"

// Limits of a notification and of the list.
const (
	MaxLabel   = 255  // characters of a label
	MaxMessage = 2000 // characters of a message
	MaxRoute   = 2048 // characters of a route
	MaxList    = 200  // notifications GET /notification/{userId} lists
)

// ReadRetention is how long a read notification is kept: a daily job
// (PruneJob) deletes older ones, so that the table does not grow with
// every alarm for good. Unread ones are kept until read.
const ReadRetention = 90 * 24 * time.Hour

// PruneJob names the daily job that deletes old read notifications.
const PruneJob = "prune read"

// Message ids of the module's refusals; each is a key of the locale
// catalogs.
const (
	// IDRouteInvalid: a route that is not a path of the portal (/alarm/7).
	IDRouteInvalid = "notifications.route.invalid"
	// IDRoleInvalid: New.Roles names a role that does not exist.
	IDRoleInvalid = "notifications.role.invalid"
	// IDAllInvalid: ?all= of the list is neither true nor false.
	IDAllInvalid = "notifications.all.invalid"
)

// New is a notification to add: Label and Message are required, Route is a
// path of the portal that clicking the notification opens ("" for none).
type New struct {
	Label, Message, Route string
	// Roles, for NotifyCompany: empty reaches every user of the company;
	// else only the users with one of these roles (e.g. "Admin",
	// "CompanyAdmin"). NotifyUsers ignores it.
	Roles []string
}

// Notification is one stored notification of a user, as GET
// /notification/{userId} lists it.
type Notification struct {
	bun.BaseModel `bun:"table:notifications,alias:n" json:"-"`

	ID     int64 `bun:"id,pk,autoincrement" json:"notificationId"`
	UserID int64 `bun:"user_id" json:"-"`
	// CompanyID is the user's company when it was stored, nil for a user
	// without one.
	CompanyID *int64    `bun:"company_id" json:"-"`
	Label     string    `bun:"label" json:"label"`
	Message   string    `bun:"message" json:"message"`
	Route     string    `bun:"route" json:"route"`
	Read      bool      `bun:"read" json:"read"`
	CreatedAt time.Time `bun:"created_at" json:"createdAt"`
	// Announced tells whether the dispatcher has told the live feed.
	Announced bool `bun:"announced" json:"-"`
}

// Unread is the answer of the marking routes: the caller's unread count.
type Unread struct {
	Unread int `json:"unread"`
}

// Service is what other modules may ask of notifications.
type Service interface {
	// NotifyCompany adds n for the company's users through idb, which may be the caller's transaction.
	NotifyCompany(ctx context.Context, idb bun.IDB, companyID int64, n New) error
	// NotifyUsers adds n for each of the users through idb, which may be
	// the caller's transaction; an unknown user is an errs.NotFound error.
	NotifyUsers(ctx context.Context, idb bun.IDB, userIDs []int64, n New) error
	// Unread counts the user's unread notifications.
	Unread(ctx context.Context, userID int64) (int, error)
}

// Accounts is the part of accounts.Service that notifications uses: the
// users of a company (NotifyCompany) and a user's company (NotifyUsers);
// User returns an errs.NotFound error for an unknown id.
type Accounts interface {
	User(ctx context.Context, id int64) (*accounts.User, error)
	CompanyUsers(ctx context.Context, companyID int64) ([]accounts.User, error)
}

// Module is the notifications module as the kernel and the application see
// it. Start begins the dispatcher that announces stored notifications (it
// ends with Start's context) and schedules PruneJob.
type Module interface {
	kernel.Module
	kernel.Router
	kernel.Starter
	Service
}
