package logs_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/logs"
)

// record writes entries through Service.Record and waits until the last
// is listed.
func (e *env) record(t *testing.T, entries ...logs.Entry) {
	t.Helper()
	for _, en := range entries {
		e.logs.Record(en)
	}
	last := entries[len(entries)-1]
	query := ""
	if last.CompanyID != nil {
		query = fmt.Sprintf("companyId=%d&", *last.CompanyID)
	}
	e.await(t, e.Super, query+"limit=1000", func(en entry) bool { return has(en, "message", last.Message) })
}

func messages(entries []entry) string {
	var out []string
	for _, en := range entries {
		out = append(out, fmt.Sprint(en["message"]))
	}
	return strings.Join(out, ",")
}

// TestList checks the query of GET /api/logs: newest first, by type,
// node, window and number, and a 400 naming the parameter for bad input.
func TestList(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, nil)
		acme := e.ID["acme"]
		t0 := time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
		at := func(minutes int) time.Time { return t0.Add(time.Duration(minutes) * time.Minute) }
		e.record(t,
			logs.Entry{CompanyID: &acme, Type: logs.TypeApp, Message: "e1", DevEUI: devEUI["acme"], CreatedAt: at(1)},
			logs.Entry{CompanyID: &acme, Type: logs.TypeError, Message: "e2", DevEUI: "70b3d57ed0000009", CreatedAt: at(2)},
			logs.Entry{CompanyID: &acme, Type: logs.TypeWarning, Message: "e3", DevEUI: devEUI["acme"], CreatedAt: at(3), Data: map[string]any{"n": 3}},
			logs.Entry{CompanyID: &acme, Type: logs.TypeSMS, Message: "e4", CreatedAt: at(4)},
			logs.Entry{CompanyID: &acme, Type: logs.TypeUserEvent, Message: "e5", CreatedAt: at(5)},
		)
		cases := []struct {
			name, query, want string
		}{
			{"one type", "type=ERROR", "e2"},
			{"several types, any case", "type=warning,Error", "e3,e2"},
			{"a node, spelt lower case with colons", "deveui=70:b3:d5:7e:d0:00:00:01", "e3,e1"},
			{"a window: from included, to not", "from=" + url.QueryEscape(at(2).Format(time.RFC3339)) + "&to=" + url.QueryEscape(at(4).Format(time.RFC3339)), "e3,e2"},
			{"a limit keeps the newest", "limit=2&type=APP,ERROR,WARNING,SMS", "e4,e3"},
			{"a User does not get the audit trail", "type=USEREVENT", ""},
			{"a node and a type together", "deveui=" + devEUI["acme"] + "&type=APP", "e1"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				got := e.list(t, e.User["acme"], tc.query)
				var mine []entry
				for _, en := range got {
					if m := fmt.Sprint(en["message"]); len(m) == 2 && m[0] == 'e' {
						mine = append(mine, en)
					}
				}
				if messages(mine) != tc.want {
					t.Errorf("got %s, want %s", messages(mine), tc.want)
				}
			})
		}

		t.Run("an entry as listed", func(t *testing.T) {
			en := e.await(t, e.User["acme"], "type=WARNING", func(en entry) bool { return has(en, "message", "e3") })
			data, _ := en["data"].(map[string]any)
			if en["id"] == nil || en["companyId"] != float64(acme) || en["userId"] != nil || en["deveui"] != devEUI["acme"] ||
				en["createdAt"] != at(3).Format(time.RFC3339) || data["n"] != 3.0 {
				t.Errorf("entry %v", en)
			}
		})

		refusals := []struct {
			name, query, field, id string
		}{
			{"an unknown type", "type=DEBUG", "type", "logs.type.invalid"},
			{"a time that is not RFC 3339", "from=yesterday", "from", "logs.time.invalid"},
			{"a window that ends before it starts", "from=2024-05-02T00:00:00Z&to=2024-05-01T00:00:00Z", "from", "logs.range.invalid"},
			{"a DevEUI of 15 digits", "deveui=70B3D57ED000000", "deveui", "logs.deveui.invalid"},
			{"a limit of 0", "limit=0", "limit", "logs.limit.invalid"},
			{"a limit over 1000", "limit=1001", "limit", "logs.limit.invalid"},
			{"a limit that is no number", "limit=all", "limit", "logs.limit.invalid"},
		}
		for _, tc := range refusals {
			t.Run("refuses "+tc.name, func(t *testing.T) {
				r := e.c.Call(t, "GET", "/api/logs?"+tc.query, e.User["acme"], nil)
				if r.Status != http.StatusBadRequest || r.FieldError(tc.field) == "" {
					t.Fatalf("%d %s; want 400 with an error on %s", r.Status, r.Body, tc.field)
				}
				if !strings.Contains(string(r.Body), tc.id) && r.FieldError(tc.field) == tc.id {
					t.Errorf("error %s", r.Body)
				}
			})
		}

		t.Run("a long message is cut, large data dropped, a bad DevEUI left out", func(t *testing.T) {
			long := strings.Repeat("é", logs.MaxMessage+10)
			e.logs.Record(logs.Entry{CompanyID: &acme, Type: logs.TypeApp, Message: long, DevEUI: "not-a-deveui",
				Data: map[string]any{"blob": strings.Repeat("x", logs.MaxData)}})
			en := e.await(t, e.User["acme"], "", func(en entry) bool {
				m, _ := en["message"].(string)
				return strings.HasPrefix(m, "éé")
			})
			if m := en["message"].(string); len([]rune(m)) != logs.MaxMessage {
				t.Errorf("message of %d characters", len([]rune(m)))
			}
			if data, _ := en["data"].(map[string]any); len(data) != 0 || en["deveui"] != nil {
				t.Errorf("entry %v", en)
			}
		})

		t.Run("an entry of an unknown type or without a message is not recorded", func(t *testing.T) {
			e.logs.Record(logs.Entry{CompanyID: &acme, Type: "DEBUG", Message: "unknown type"})
			e.logs.Record(logs.Entry{CompanyID: &acme, Type: logs.TypeApp, Message: "  "})
			e.record(t, logs.Entry{CompanyID: &acme, Type: logs.TypeApp, Message: "after the refused ones"})
			for _, en := range e.list(t, e.Admin["acme"], "limit=1000") {
				if en["message"] == "unknown type" || en["type"] == "DEBUG" || en["message"] == "  " {
					t.Errorf("recorded %v", en)
				}
			}
		})
	})
}

// TestScope checks whose entries a caller gets: their company's, another
// company's only as a SuperAdmin, the installation's for a SuperAdmin who
// has chosen no company, nothing for a user without a company.
func TestScope(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, nil)
		acme, beta := e.ID["acme"], e.ID["beta"]
		e.record(t,
			logs.Entry{CompanyID: &acme, Type: logs.TypeApp, Message: "of acme"},
			logs.Entry{CompanyID: &beta, Type: logs.TypeApp, Message: "of beta"},
			logs.Entry{Type: logs.TypeWarning, Message: "of the installation"},
		)
		e.c.Must(t, "POST", "/api/users", "", person("loner@free.se"), http.StatusCreated)
		loner := e.c.Login(t, "loner@free.se", password)
		cookie := []string{"Cookie", fmt.Sprintf("%s=%d", accounts.CompanyCookie, beta)}
		cases := []struct {
			name    string
			token   string
			query   string
			headers []string
			want    string // the message of every entry listed, "" for none
		}{
			{"a User gets the company's", e.User["acme"], "", nil, "of acme"},
			{"a CompanyAdmin naming the company gets it", e.Admin["beta"], fmt.Sprintf("companyId=%d", beta), nil, "of beta"},
			{"a SuperAdmin naming a company gets it", e.Super, fmt.Sprintf("companyId=%d", acme), nil, "of acme"},
			{"a SuperAdmin gets the chosen company's", e.Super, "", cookie, "of beta"},
			{"a SuperAdmin without a chosen company gets the installation's", e.Super, "type=WARNING", nil, "of the installation"},
			{"a user without a company gets none", loner, "", nil, ""},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				for _, en := range e.list(t, tc.token, tc.query, tc.headers...) {
					if en["type"] == logs.TypeLogin || en["type"] == logs.TypeUserEvent {
						continue // the sign-ins and the audit trail of the test's set-up
					}
					if en["message"] != tc.want {
						t.Errorf("listed %v, want only %q", en, tc.want)
					}
				}
			})
		}
		refusals := []struct {
			name, token, query string
			status             int
		}{
			{"another company's id", e.User["acme"], fmt.Sprintf("companyId=%d", beta), http.StatusNotFound},
			{"another company's id, by an Admin", e.Admin["acme"], fmt.Sprintf("companyId=%d", beta), http.StatusNotFound},
			{"a company that does not exist", e.Super, "companyId=999999", http.StatusNotFound},
			{"a malformed company id", e.Super, "companyId=x", http.StatusBadRequest},
			{"no session", "", "", http.StatusUnauthorized},
		}
		for _, tc := range refusals {
			for _, path := range []string{"/api/logs", "/api/logs/activeusers", "/api/logs/datapoints"} {
				t.Run("refuses "+tc.name+" at "+path, func(t *testing.T) {
					if r := e.c.Call(t, "GET", path+"?"+tc.query, tc.token, nil); r.Status != tc.status {
						t.Errorf("%d %s, want %d", r.Status, r.Body, tc.status)
					}
				})
			}
		}
	})
}

// TestActiveUsers checks the counts of GET /api/logs/activeusers: a
// sign-in logs a LOGIN entry and counts the user as seen, a session
// renewal counts them again without an entry, and each window counts the
// users seen within it.
func TestActiveUsers(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, nil)
		// Acme's CompanyAdmin and User signed in while the test was set up.
		login := e.await(t, e.User["acme"], "type=LOGIN", func(en entry) bool { return has(en, "message", "Ada user signed in") })
		if login["userId"] == nil || login["companyId"] != float64(e.ID["acme"]) || login["messageId"] != "logs.entry.login" {
			t.Errorf("LOGIN entry %v", login)
		}
		if data, _ := login["data"].(map[string]any); data["user"] != "Ada user" || data["role"] != "User" {
			t.Errorf("LOGIN data %v", login["data"])
		}
		for _, extra := range []string{"week", "month", "gone"} {
			e.c.Must(t, "POST", "/api/users", e.Admin["acme"], person(extra+"@acme.se"), http.StatusCreated)
			e.c.Login(t, extra+"@acme.se", password)
			e.await(t, e.Admin["acme"], "type=LOGIN", func(en entry) bool { return has(en, "message", "Ada "+extra+" signed in") })
		}
		bdb := e.p.Host().DB
		age := func(email string, ago time.Duration) {
			t.Helper()
			if _, err := bdb.NewRaw("UPDATE log_user_activity SET last_seen_at = ? WHERE user_id = (SELECT id FROM users WHERE email = ?)",
				time.Now().UTC().Add(-ago), email).Exec(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		age("user@acme.se", 3*24*time.Hour)
		age("week@acme.se", 6*24*time.Hour)
		age("month@acme.se", 20*24*time.Hour)
		age("gone@acme.se", 40*24*time.Hour)
		counts := func(token, query string) string {
			r := e.c.Must(t, "GET", "/api/logs/activeusers?"+query, token, nil, http.StatusOK)
			return fmt.Sprintf("%v/%v/%v", r.Obj()["last24Hours"], r.Obj()["last7Days"], r.Obj()["last30Days"])
		}
		if got := counts(e.User["acme"], ""); got != "1/3/4" {
			t.Errorf("Acme: %s, want 1/3/4 (the CompanyAdmin today; the User and one more this week; one more this month)", got)
		}
		if got := counts(e.Super, fmt.Sprintf("companyId=%d", e.ID["beta"])); got != "2/2/2" {
			t.Errorf("Beta: %s, want 2/2/2", got)
		}

		// The User renews their session: seen today again, no new LOGIN.
		// The set-up's sign-in already made an entry with the same message,
		// so wait for one newer than every entry there was.
		var newest float64
		for _, en := range e.list(t, e.Admin["acme"], "type=LOGIN&limit=1000") {
			newest = max(newest, en["id"].(float64))
		}
		ans := e.c.Must(t, "POST", "/api/users/authenticate", "", map[string]string{"email": "user@acme.se", "password": password}, http.StatusOK)
		e.await(t, e.Admin["acme"], "type=LOGIN", func(en entry) bool {
			return has(en, "message", "Ada user signed in") && en["id"].(float64) > newest
		})
		logins := len(e.list(t, e.Admin["acme"], "type=LOGIN&limit=1000"))
		age("user@acme.se", 3*24*time.Hour)
		e.c.Must(t, "POST", "/api/users/refresh", "", map[string]string{"refreshToken": ans.Str("refreshToken")}, http.StatusOK)
		deadline := time.Now().Add(15 * time.Second)
		for counts(e.User["acme"], "") != "2/3/4" {
			if time.Now().After(deadline) {
				t.Fatalf("after the renewal: %s, want 2/3/4", counts(e.User["acme"], ""))
			}
			time.Sleep(20 * time.Millisecond)
		}
		if n := len(e.list(t, e.Admin["acme"], "type=LOGIN&limit=1000")); n != logins {
			t.Errorf("%d LOGIN entries after a renewal, want %d", n, logins)
		}

		// The SuperAdmin's own sign-in belongs to the installation, which
		// counts every user: today the SuperAdmin, Acme's CompanyAdmin and
		// User and Beta's two; this week one more; this month another.
		e.await(t, e.Super, "type=LOGIN", func(en entry) bool { return en["companyId"] == nil })
		if got := counts(e.Super, ""); got != "5/6/7" {
			t.Errorf("installation: %s, want 5/6/7", got)
		}
	})
}

// TestDataPoints checks GET /api/logs/datapoints: the company's points of
// the last 24 hours, per clock hour.
func TestDataPoints(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, nil)
		for i := range 3 {
			e.post(t, "acme", "/api/ingest/generic", fmt.Sprintf(`{"devEui":%q,"values":{"a":%d,"b":1}}`, devEUI["acme"], i))
		}
		old := time.Now().UTC().Add(-30 * time.Hour).Format(time.RFC3339)
		e.post(t, "acme", "/api/ingest/generic", fmt.Sprintf(`{"devEui":%q,"time":%q,"values":{"a":9}}`, devEUI["acme"], old))
		e.post(t, "beta", "/api/ingest/generic", fmt.Sprintf(`{"devEui":%q,"values":{"a":1}}`, devEUI["beta"]))

		cases := []struct {
			name, token, query string
			total              float64
		}{
			{"Acme's User", e.User["acme"], "", 6},
			{"Beta's CompanyAdmin", e.Admin["beta"], "", 1},
			{"a SuperAdmin naming Acme", e.Super, fmt.Sprintf("companyId=%d", e.ID["acme"]), 6},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				r := e.c.Must(t, "GET", "/api/logs/datapoints?"+tc.query, tc.token, nil, http.StatusOK)
				o := r.Obj()
				from, _ := time.Parse(time.RFC3339Nano, o["from"].(string))
				to, _ := time.Parse(time.RFC3339Nano, o["to"].(string))
				if o["total"] != tc.total || to.Sub(from) != 24*time.Hour {
					t.Fatalf("%s", r.Body)
				}
				hours := o["hours"].([]any)
				sum, at := 0.0, from
				for i, h := range hours {
					h := h.(map[string]any)
					start, _ := time.Parse(time.RFC3339Nano, h["start"].(string))
					if !start.Equal(at) || i > 0 && start.Minute()+start.Second()+start.Nanosecond() != 0 {
						t.Errorf("hour %d starts at %s, want %s on the hour", i, start, at)
					}
					at = start.Truncate(time.Hour).Add(time.Hour)
					sum += h["count"].(float64)
				}
				if sum != tc.total || len(hours) < 24 || len(hours) > 25 {
					t.Errorf("%d hours holding %v points", len(hours), sum)
				}
			})
		}
		t.Run("the installation has no data points of its own", func(t *testing.T) {
			r := e.c.Call(t, "GET", "/api/logs/datapoints", e.Super, nil)
			if r.Status != http.StatusBadRequest || r.Str("id") != "logs.company.required" {
				t.Errorf("%d %s", r.Status, r.Body)
			}
		})
	})
}

// TestRetentionJob checks that the daily job, run now, deletes the entries
// older than FIELDHUB_LOG_RETENTION_DAYS and keeps the others.
func TestRetentionJob(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, map[string]string{"FIELDHUB_LOG_RETENTION_DAYS": "30"})
		acme := e.ID["acme"]
		now := time.Now().UTC()
		e.record(t,
			logs.Entry{CompanyID: &acme, Type: logs.TypeApp, Message: "40 days old", CreatedAt: now.AddDate(0, 0, -40)},
			logs.Entry{CompanyID: &acme, Type: logs.TypeApp, Message: "29 days old", CreatedAt: now.AddDate(0, 0, -29)},
			logs.Entry{Type: logs.TypeApp, Message: "31 days old, of the installation", CreatedAt: now.AddDate(0, 0, -31)},
		)
		if err := e.p.Host().Scheduler.RunNow("logs", "retention"); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(15 * time.Second)
		for {
			var left []string
			for _, q := range []string{"", fmt.Sprintf("companyId=%d", acme)} {
				for _, en := range e.list(t, e.Super, q+"&limit=1000") {
					if strings.Contains(fmt.Sprint(en["message"]), "days old") {
						left = append(left, fmt.Sprint(en["message"]))
					}
				}
			}
			if strings.Join(left, ",") == "29 days old" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("left %v, want only the entry of 29 days", left)
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

// TestBurst checks that many entries recorded at once are all written, in
// batches, and listed newest first.
func TestBurst(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, nil)
		acme := e.ID["acme"]
		const n = 1500
		var batch []logs.Entry
		for i := range n {
			batch = append(batch, logs.Entry{CompanyID: &acme, Type: logs.TypeUserEvent, Message: fmt.Sprintf("burst %04d", i)})
		}
		e.record(t, batch...)
		got := e.list(t, e.Admin["acme"], "type=USEREVENT&limit=1000")
		if len(got) != 1000 || got[0]["message"] != fmt.Sprintf("burst %04d", n-1) || got[999]["message"] != fmt.Sprintf("burst %04d", n-1000) {
			t.Fatalf("%d entries from %v to %v", len(got), got[0]["message"], got[len(got)-1]["message"])
		}
		var count int
		if err := e.p.Host().DB.NewRaw("SELECT count(*) FROM log_entries WHERE message LIKE 'burst %'").Scan(context.Background(), &count); err != nil || count != n {
			t.Errorf("%d entries stored (%v), want %d", count, err, n)
		}
	})
}
