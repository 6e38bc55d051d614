package kerneltest

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"testing"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/config"
	"github.com/fieldhub/fieldhub/kernel/db"
)

// App is a portal as a test builds it: app.App, the whole portal, satisfies
// it. The kernel never imports a module, so tests hand the builder in.
type App interface {
	Kernel() *kernel.Kernel
	// CreateSuperAdmin adds a SuperAdmin (the accounts module does).
	CreateSuperAdmin(ctx context.Context, email, password string) error
	Close() error
}

// Builder builds a portal on a configuration, as app.Build does.
type Builder[A App] func(ctx context.Context, cfg *config.Config, log *slog.Logger) (A, error)

// Portal is a portal running for one test: what the builder made, the
// address of its HTTP server and a client for it.
type Portal[A App] struct {
	*Client
	App A
	// URL is the server's base address, http://127.0.0.1:port.
	URL string

	stop func()
}

// Start builds a portal with build on a fresh database of dialect d, env's
// options over the test defaults (names as in the README), and serves it
// until the test ends:
//
//	p := kerneltest.Start(t, d, nil, app.Build)
func Start[A App](tb testing.TB, d db.Dialect, env map[string]string, build Builder[A]) *Portal[A] {
	tb.Helper()
	return StartConfig(tb, Config(tb, d, env), build)
}

// StartConfig is Start on a configuration the test made (for example two
// portals on one database).
func StartConfig[A App](tb testing.TB, cfg *config.Config, build Builder[A]) *Portal[A] {
	tb.Helper()
	a, err := build(context.Background(), cfg, Logger(tb))
	if err != nil {
		tb.Fatalf("build the portal: %v", err)
	}
	tb.Cleanup(func() { a.Close() })
	url, stop := serve(tb, a.Kernel())
	return &Portal[A]{Client: NewClient(url), App: a, URL: url, stop: stop}
}

// Stop shuts the portal down before the test ends, as a stopping server
// does: its HTTP server, then its modules.
func (p *Portal[A]) Stop() { p.stop() }

// Host is the kernel's Host: the database, scheduler, router and the rest.
func (p *Portal[A]) Host() *kernel.Host { return p.App.Kernel().Host() }

// Password is the password of every account the fixtures make.
const Password = "correct horse"

// People are the accounts most tests need: a SuperAdmin and, in one
// company, an Admin, a CompanyAdmin and a User, with their tokens.
type People struct {
	SuperToken, AdminToken, CompanyAdminToken, UserToken string
	CompanyID, AdminID, CompanyAdminID, UserID           int64
}

// SuperAdmin makes the SuperAdmin root@example.com and returns a token of
// theirs.
func (p *Portal[A]) SuperAdmin(tb testing.TB) string {
	tb.Helper()
	if err := p.App.CreateSuperAdmin(context.Background(), "root@example.com", Password); err != nil {
		tb.Fatalf("create superadmin: %v", err)
	}
	return p.Login(tb, "root@example.com", Password)
}

// Company makes a company through the API (in Sweden, so its users read
// Swedish unless they choose otherwise) with a CompanyAdmin boss@domain, an
// Admin admin@domain and a User worker@domain.
func (c *Client) Company(tb testing.TB, superToken, name, domain string) People {
	tb.Helper()
	r := c.Call(tb, "POST", "/api/users/create/company", superToken, map[string]any{
		"company": map[string]any{"name": name, "orgNumber": "556677-8899", "invoiceAdress": "billing@" + domain, "country": "SE"},
		"user":    UserBody("boss@" + domain),
	})
	if r.Status != http.StatusCreated {
		tb.Fatalf("create company %s: %d %s", name, r.Status, r.Body)
	}
	p := People{SuperToken: superToken}
	p.CompanyID = int64(r.Obj()["company"].(map[string]any)["companyId"].(float64))
	p.CompanyAdminID = int64(r.Obj()["user"].(map[string]any)["userId"].(float64))
	p.CompanyAdminToken = c.Login(tb, "boss@"+domain, Password)
	p.UserID = c.CreateUser(tb, p.CompanyAdminToken, "worker@"+domain, "")
	p.UserToken = c.Login(tb, "worker@"+domain, Password)
	p.AdminID = c.CreateUser(tb, superToken, "admin@"+domain, "Admin", "companyId", p.CompanyID)
	p.AdminToken = c.Login(tb, "admin@"+domain, Password)
	return p
}

// EnglishCompany is Company in the United Kingdom: a company's country sets
// its users' language, and tests that compare English texts use it.
func (c *Client) EnglishCompany(tb testing.TB, superToken, name, domain string) People {
	tb.Helper()
	p := c.Company(tb, superToken, name, domain)
	if r := c.Call(tb, "PUT", fmt.Sprintf("/api/companies/%d", p.CompanyID), superToken, map[string]any{"country": "GB"}); r.Status != http.StatusOK {
		tb.Fatalf("move %s to GB: %d %s", name, r.Status, r.Body)
	}
	return p
}

// UserBody is a valid body of POST /api/users for email, changed by name,
// value pairs.
func UserBody(email string, extra ...any) map[string]any {
	b := map[string]any{"firstName": "Ada", "lastName": "Lovelace", "email": email, "phoneNumber": "+46 70-123 45 67", "password": Password}
	for i := 0; i+1 < len(extra); i += 2 {
		b[extra[i].(string)] = extra[i+1]
	}
	return b
}

// CreateUser adds a user through the API as token's owner (role "" leaves
// the default) and returns the user's id.
func (c *Client) CreateUser(tb testing.TB, token, email, role string, extra ...any) int64 {
	tb.Helper()
	body := UserBody(email, extra...)
	if role != "" {
		body["role"] = role
	}
	r := c.Call(tb, "POST", "/api/users", token, body)
	if r.Status != http.StatusCreated {
		tb.Fatalf("create user %s: %d %s", email, r.Status, r.Body)
	}
	return r.Num("userId")
}

// NoRedirects makes the portal's client report redirects instead of
// following them, so that guards and post-redirect-get can be checked.
func (p *Portal[A]) NoRedirects() *Portal[A] {
	p.Client.NoRedirects()
	return p
}
