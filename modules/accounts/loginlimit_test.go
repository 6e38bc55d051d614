package accounts_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestLoginSlowsDownPerAccountAndClient checks the login rate limit: failed
// passwords slow down the client that sent them for that account, more
// with every failure, while the account's owner, from another client, gets
// in with the right password at once.
func TestLoginSlowsDownPerAccountAndClient(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		ta := kerneltest.Start(t, d, map[string]string{"FIELDHUB_TRUSTED_PROXIES": "127.0.0.1/32, ::1"}, app.Build)
		root := ta.SuperAdmin(t)
		ta.Company(t, root, "Acme AB", "acme.example")
		login := func(email, password, client string) kerneltest.Response {
			return ta.Call(t, "POST", "/api/users/authenticate", "", map[string]any{"email": email, "password": password}, "X-Forwarded-For", client)
		}
		attacker, owner := "203.0.113.9", "198.51.100.7"
		// Case variants of the address are one account, so one counter.
		variants := []string{"worker@acme.example", "WORKER@acme.example", "Worker@Acme.Example "}
		for i := 0; i < 20; i++ {
			want := http.StatusUnauthorized
			if i >= 5 {
				want = http.StatusTooManyRequests
				failedJustNow(t, ta.Host().DB, attacker)
			}
			r := login(variants[i%len(variants)], "wrong password", attacker)
			if r.Status != want {
				t.Fatalf("attempt %d of the attacker: %d, want %d: %s", i+1, r.Status, want, r.Body)
			}
			if want == http.StatusTooManyRequests {
				after, err := strconv.Atoi(r.Header.Get("Retry-After"))
				if err != nil || after < 1 || after > 2 {
					t.Fatalf("attempt %d: Retry-After %q, want the 1 or 2 seconds of the first step", i+1, r.Header.Get("Retry-After"))
				}
				if !strings.Contains(r.Str("message"), strconv.Itoa(after)+" s") {
					t.Errorf("message %q does not say how long to wait", r.Str("message"))
				}
			}
		}
		failedJustNow(t, ta.Host().DB, attacker)
		if r := login("worker@acme.example", kerneltest.Password, attacker); r.Status != http.StatusTooManyRequests {
			t.Errorf("the right password from the client that failed, within its wait: %d", r.Status)
		}
		if r := login("worker@acme.example", kerneltest.Password, owner); r.Status != http.StatusOK {
			t.Fatalf("the owner, from a client without failures: %d %s", r.Status, r.Body)
		}
		if r := login("boss@acme.example", kerneltest.Password, attacker); r.Status != http.StatusOK {
			t.Errorf("another account from the attacker's client: %d %s", r.Status, r.Body)
		}

		// Once the wait is over the client may try again: slowed, not locked.
		if _, err := ta.Host().DB.NewUpdate().Table("login_failures").Set("at = ?", time.Now().UTC().Add(-time.Minute)).
			Where("ip = ?", attacker).Exec(t.Context()); err != nil {
			t.Fatal(err)
		}
		if r := login("worker@acme.example", "wrong again", attacker); r.Status != http.StatusUnauthorized {
			t.Fatalf("after the wait: %d %s", r.Status, r.Body)
		}
		failedJustNow(t, ta.Host().DB, attacker)
		if r := login("worker@acme.example", kerneltest.Password, attacker); r.Status != http.StatusTooManyRequests {
			t.Fatalf("right after a sixth failure: %d %s", r.Status, r.Body)
		}
	})

	t.Run("a forwarded address counts only from a trusted proxy", func(t *testing.T) {
		direct := kerneltest.Start(t, db.SQLite, nil, app.Build)
		direct.Company(t, direct.SuperAdmin(t), "Acme AB", "acme.example")
		for i := 0; i < 5; i++ {
			direct.Must(t, "POST", "/api/users/authenticate", "", map[string]any{"email": "worker@acme.example", "password": "wrong"},
				http.StatusUnauthorized, "X-Forwarded-For", fmt.Sprintf("192.0.2.%d", i))
		}
		failedJustNow(t, direct.Host().DB, "127.0.0.1")
		r := direct.Call(t, "POST", "/api/users/authenticate", "", map[string]any{"email": "worker@acme.example", "password": "wrong"},
			"X-Forwarded-For", "192.0.2.99")
		if r.Status != http.StatusTooManyRequests {
			t.Errorf("a made-up X-Forwarded-For gave a fresh client: %d", r.Status)
		}
	})
}

// failedJustNow moves the noted login failures of client to now, so that a
// check of the wait that follows does not depend on how long the password
// checks before it took (the first wait is a second).
func failedJustNow(t *testing.T, bdb *bun.DB, client string) {
	t.Helper()
	if _, err := bdb.NewUpdate().Table("login_failures").Set("at = ?", time.Now().UTC()).Where("ip = ?", client).Exec(t.Context()); err != nil {
		t.Fatal(err)
	}
}
