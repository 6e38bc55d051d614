package notifications_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/notifications"
)

// env is a portal with the companies Acme and Beta, each with a
// CompanyAdmin and a User.
type env struct {
	*kerneltest.Tenants
	p      *kerneltest.Portal[*app.App]
	c      *kerneltest.Client
	db     *bun.DB
	notify notifications.Service
}

func newEnv(t *testing.T, d db.Dialect) *env {
	t.Helper()
	p := kerneltest.Start(t, d, nil, app.Build)
	specs := []kerneltest.CompanySpec{{Key: "acme", User: true}, {Key: "beta", User: true}}
	return &env{p: p, c: p.Client, db: p.Host().DB, notify: p.App.Notifications(),
		Tenants: kerneltest.Companies(t, p.Client, p.App, specs...).Tenants(t)}
}

// userID is the id of the account of email.
func (e *env) userID(t *testing.T, email string) int64 {
	t.Helper()
	var id int64
	if err := e.db.NewRaw("SELECT id FROM users WHERE email = ?", email).Scan(context.Background(), &id); err != nil {
		t.Fatalf("user %s: %v", email, err)
	}
	return id
}

// list is GET /api/notification/{user} as token.
func (e *env) list(t *testing.T, token string, user int64, query string) []map[string]any {
	t.Helper()
	r := e.c.Must(t, "GET", fmt.Sprintf("/api/notification/%d%s", user, query), token, nil, http.StatusOK)
	var out []map[string]any
	for _, v := range r.List() {
		out = append(out, v.(map[string]any))
	}
	return out
}

func labels(list []map[string]any) string {
	var out []string
	for _, n := range list {
		out = append(out, fmt.Sprint(n["label"]))
	}
	return strings.Join(out, ",")
}

// inTx runs f in a transaction of the portal's database, committed when f
// returns nil.
func (e *env) inTx(t *testing.T, f func(tx bun.Tx) error) error {
	t.Helper()
	return e.db.RunInTx(context.Background(), nil, func(ctx context.Context, tx bun.Tx) error { return f(tx) })
}

// dial opens the caller's live feed with ?only=user.
func (e *env) dial(t *testing.T, token string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	u := "ws" + strings.TrimPrefix(e.p.URL, "http") + "/api/events?only=user"
	conn, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
	if err != nil {
		t.Fatalf("dial the feed: %v", err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	return conn
}

// wantMessage reads the next message of the feed, which must be the
// notifications' one.
func wantMessage(t *testing.T, conn *websocket.Conn) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_, raw, err := conn.Read(ctx)
	if err != nil {
		t.Fatalf("no message: %v", err)
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil || m["type"] != notifications.MessageNotification || len(m) != 1 {
		t.Fatalf("message %s, want {\"type\":\"Notification\"}", raw)
	}
}

// TestNotify checks what Service stores: a company's users, by role, or
// chosen users; what it refuses; and that a notification stored in a
// transaction that rolls back is neither kept nor announced, while one that
// commits reaches the user's open pages.
func TestNotify(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		ctx := context.Background()
		admin, user, betaUser := e.userID(t, "admin@acme.se"), e.userID(t, "user@acme.se"), e.userID(t, "user@beta.se")
		live := e.dial(t, e.User["acme"])
		// Only a user-only connection of Acme's admin: the company's uplinks
		// and log entries (its sign-ins) would otherwise come first.
		adminLive := e.dial(t, e.Admin["acme"])

		t.Run("a transaction that rolls back leaves nothing, one that commits is announced", func(t *testing.T) {
			boom := errors.New("the alarm's own write failed")
			err := e.inTx(t, func(tx bun.Tx) error {
				if err := e.notify.NotifyCompany(ctx, tx, e.ID["acme"], notifications.New{Label: "Rolled back", Message: "never"}); err != nil {
					return err
				}
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("transaction: %v", err)
			}
			if err := e.inTx(t, func(tx bun.Tx) error {
				return e.notify.NotifyCompany(ctx, tx, e.ID["acme"], notifications.New{Label: "Freezer", Message: "Too warm: -12 °C", Route: "/alarm/7"})
			}); err != nil {
				t.Fatal(err)
			}
			// The feed is in order: a message of the rolled-back one would
			// have come first, and the list would show it.
			wantMessage(t, live)
			wantMessage(t, adminLive)
			if got := labels(e.list(t, e.User["acme"], user, "?all=true")); got != "Freezer" {
				t.Errorf("Acme's user has %q, want only Freezer", got)
			}
			if got := labels(e.list(t, e.User["beta"], betaUser, "")); got != "" {
				t.Errorf("Beta's user has %q", got)
			}
		})

		t.Run("as listed", func(t *testing.T) {
			n := e.list(t, e.User["acme"], user, "")[0]
			created, _ := time.Parse(time.RFC3339, fmt.Sprint(n["createdAt"]))
			if n["notificationId"] == nil || n["label"] != "Freezer" || n["message"] != "Too warm: -12 °C" || n["route"] != "/alarm/7" ||
				n["read"] != false || time.Since(created) > time.Minute || len(n) != 6 {
				t.Errorf("notification %v", n)
			}
			if c, err := e.notify.Unread(ctx, user); err != nil || c != 1 {
				t.Errorf("Unread: %d %v", c, err)
			}
		})

		t.Run("by role, and to chosen users", func(t *testing.T) {
			if err := e.notify.NotifyCompany(ctx, e.db, e.ID["acme"], notifications.New{Label: "Admins only", Message: "m", Roles: []string{"CompanyAdmin", "Admin"}}); err != nil {
				t.Fatal(err)
			}
			if err := e.notify.NotifyUsers(ctx, e.db, []int64{user, user, betaUser}, notifications.New{Label: "Chosen", Message: "m"}); err != nil {
				t.Fatal(err)
			}
			wantMessage(t, adminLive)
			wantMessage(t, live)
			if got := labels(e.list(t, e.Admin["acme"], admin, "")); got != "Admins only,Freezer" {
				t.Errorf("Acme's admin has %q", got)
			}
			if got := labels(e.list(t, e.User["acme"], user, "")); got != "Chosen,Freezer" {
				t.Errorf("Acme's user has %q (once each)", got)
			}
			if got := labels(e.list(t, e.User["beta"], betaUser, "")); got != "Chosen" {
				t.Errorf("Beta's user has %q", got)
			}
		})

		refusals := []struct {
			name  string
			n     notifications.New
			field string
		}{
			{"no label", notifications.New{Message: "m"}, "label"},
			{"a blank message", notifications.New{Label: "l", Message: "  "}, "message"},
			{"a label over 255 characters", notifications.New{Label: strings.Repeat("é", 256), Message: "m"}, "label"},
			{"a route to another site", notifications.New{Label: "l", Message: "m", Route: "//evil.example/x"}, "route"},
			{"a route with a scheme", notifications.New{Label: "l", Message: "m", Route: "javascript:alert(1)"}, "route"},
			{"a route with a backslash", notifications.New{Label: "l", Message: "m", Route: "/\\evil.example"}, "route"},
			{"an unknown role", notifications.New{Label: "l", Message: "m", Roles: []string{"Janitor"}}, "roles"},
		}
		for _, tc := range refusals {
			t.Run("refuses "+tc.name, func(t *testing.T) {
				err := e.notify.NotifyCompany(ctx, e.db, e.ID["acme"], tc.n)
				var de *errs.Error
				if !errors.As(err, &de) || de.Kind != errs.Invalid || len(de.Fields) == 0 || de.Fields[0].Field != tc.field {
					t.Errorf("error %v, want one on %s", err, tc.field)
				}
			})
		}
		t.Run("refuses an unknown user", func(t *testing.T) {
			if err := e.notify.NotifyUsers(ctx, e.db, []int64{user, 999999}, notifications.New{Label: "l", Message: "m"}); !errs.Is(err, errs.NotFound) {
				t.Errorf("error %v", err)
			}
		})
	})
}

// TestRoutes checks the three calls: a user lists and marks only their own
// notifications, and the page's bell counts the unread ones.
func TestRoutes(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		ctx := context.Background()
		admin, user := e.userID(t, "admin@acme.se"), e.userID(t, "user@acme.se")
		for _, label := range []string{"One", "Two", "Three"} {
			if err := e.notify.NotifyCompany(ctx, e.db, e.ID["acme"], notifications.New{Label: label, Message: "m", Route: "/tag"}); err != nil {
				t.Fatal(err)
			}
		}
		mine := e.list(t, e.User["acme"], user, "")
		if labels(mine) != "Three,Two,One" {
			t.Fatalf("list %q, want newest first", labels(mine))
		}
		theirs := e.list(t, e.Admin["acme"], admin, "")
		id := func(n map[string]any) int64 { return int64(n["notificationId"].(float64)) }

		t.Run("the page's bell counts the unread", func(t *testing.T) {
			page := e.c.Page(t, "GET", "/company", e.User["acme"], nil)
			kerneltest.Contains(t, page.Body, []string{`data-unread="3"`, `aria-label="Notiser, 3 olästa"`, `<span class="badge" aria-hidden="true">3</span>`}, nil)
		})

		steps := []struct {
			name, method, path, token string
			status                    int
		}{
			{"another user's list", "GET", fmt.Sprintf("/api/notification/%d", admin), e.User["acme"], http.StatusNotFound},
			{"another user's notification", "PUT", fmt.Sprintf("/api/notification/deactivate/%d", id(theirs[0])), e.User["acme"], http.StatusNotFound},
			{"all of another user's", "PUT", fmt.Sprintf("/api/notification/deactivate/all/%d", admin), e.User["acme"], http.StatusNotFound},
			{"a notification that does not exist", "PUT", "/api/notification/deactivate/999999", e.User["acme"], http.StatusNotFound},
			{"a bad id", "PUT", "/api/notification/deactivate/x", e.User["acme"], http.StatusBadRequest},
			{"a bad all", "GET", fmt.Sprintf("/api/notification/%d?all=yes", user), e.User["acme"], http.StatusBadRequest},
			{"a SuperAdmin reading a user's", "GET", fmt.Sprintf("/api/notification/%d", user), e.Super, http.StatusNotFound},
			{"no session", "GET", fmt.Sprintf("/api/notification/%d", user), "", http.StatusUnauthorized},
		}
		for _, s := range steps {
			t.Run("refuses "+s.name, func(t *testing.T) {
				if r := e.c.Call(t, s.method, s.path, s.token, nil); r.Status != s.status {
					t.Errorf("%d %s, want %d", r.Status, r.Body, s.status)
				}
			})
		}
		if got := labels(e.list(t, e.Admin["acme"], admin, "")); got != "Three,Two,One" {
			t.Errorf("the admin's after the refusals: %q", got)
		}

		t.Run("marks one read", func(t *testing.T) {
			r := e.c.Must(t, "PUT", fmt.Sprintf("/api/notification/deactivate/%d", id(mine[1])), e.User["acme"], nil, http.StatusOK)
			if r.Obj()["unread"] != 2.0 {
				t.Errorf("answer %s", r.Body)
			}
			if got := labels(e.list(t, e.User["acme"], user, "")); got != "Three,One" {
				t.Errorf("unread %q", got)
			}
			all := e.list(t, e.User["acme"], user, "?all=true")
			if labels(all) != "Three,Two,One" || all[1]["read"] != true {
				t.Errorf("all %v", all)
			}
			// Again: still the user's, still read.
			e.c.Must(t, "PUT", fmt.Sprintf("/api/notification/deactivate/%d", id(mine[1])), e.User["acme"], nil, http.StatusOK)
		})

		t.Run("marks all read", func(t *testing.T) {
			r := e.c.Must(t, "PUT", fmt.Sprintf("/api/notification/deactivate/all/%d", user), e.User["acme"], nil, http.StatusOK)
			if r.Obj()["unread"] != 0.0 {
				t.Errorf("answer %s", r.Body)
			}
			if got := labels(e.list(t, e.User["acme"], user, "")); got != "" {
				t.Errorf("unread %q", got)
			}
			page := e.c.Page(t, "GET", "/company", e.User["acme"], nil)
			kerneltest.Contains(t, page.Body, []string{`data-unread="0"`, `aria-label="Notiser, 0 olästa"`, `<span class="badge" aria-hidden="true" hidden>`}, nil)
			if got := labels(e.list(t, e.Admin["acme"], admin, "")); got != "Three,Two,One" {
				t.Errorf("the admin's: %q", got)
			}
		})

		t.Run("read ones are deleted after 90 days, unread ones kept", func(t *testing.T) {
			// The admin's three are unread; the user's, read. Make all old.
			old := time.Now().UTC().Add(-notifications.ReadRetention - time.Hour)
			if _, err := e.db.NewRaw("UPDATE notifications SET created_at = ?", old).Exec(ctx); err != nil {
				t.Fatal(err)
			}
			if err := e.p.Host().Scheduler.RunNow("notifications", notifications.PruneJob); err != nil {
				t.Fatal(err)
			}
			count := func(user int64) (n int) {
				if err := e.db.NewRaw("SELECT count(*) FROM notifications WHERE user_id = ?", user).Scan(ctx, &n); err != nil {
					t.Fatal(err)
				}
				return n
			}
			kerneltest.WaitFor(t, 15*time.Second, func() bool { return count(user) == 0 },
				func() string { return fmt.Sprintf("%d read notifications left", count(user)) })
			if n := count(admin); n != 3 {
				t.Errorf("the admin's unread: %d left", n)
			}
		})

		t.Run("a deleted user's notifications go with them", func(t *testing.T) {
			if err := e.notify.NotifyUsers(ctx, e.db, []int64{user}, notifications.New{Label: "Last", Message: "m"}); err != nil {
				t.Fatal(err)
			}
			e.c.Must(t, "DELETE", fmt.Sprintf("/api/users/%d", user), e.Admin["acme"], nil, http.StatusNoContent)
			var n int
			if err := e.db.NewRaw("SELECT count(*) FROM notifications WHERE user_id = ?", user).Scan(ctx, &n); err != nil || n != 0 {
				t.Errorf("%d notifications left (%v)", n, err)
			}
		})
	})
}
