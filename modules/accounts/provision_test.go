package accounts_test

import (
	"context"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestProvisioning checks what an embedding program that signs its users
// in itself relies on: a company and its members are made once, found
// again by name and address, refused when they would cross companies, and
// members cannot sign in with a password.
func TestProvisioning(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		p := kerneltest.Start(t, d, nil, app.Build)
		acc, ctx := p.App.Accounts(), context.Background()
		co, err := acc.EnsureCompany(ctx, " Partner Fleet AB ", "se")
		if err != nil || co.ID == 0 || co.Name != "Partner Fleet AB" || co.Country != "SE" {
			t.Fatalf("first EnsureCompany: %+v, %v", co, err)
		}
		again, err := acc.EnsureCompany(ctx, "Partner Fleet AB", "NO")
		if err != nil || again.ID != co.ID || again.Country != "SE" {
			t.Errorf("second EnsureCompany: %+v, %v; want company %d unchanged", again, err, co.ID)
		}
		for _, bad := range []struct{ name, country string }{{"", "SE"}, {"Fine AB", "Sweden"}} {
			if _, err := acc.EnsureCompany(ctx, bad.name, bad.country); !errs.Is(err, errs.Invalid) {
				t.Errorf("EnsureCompany(%q, %q): %v, want invalid", bad.name, bad.country, err)
			}
		}
		u, err := acc.EnsureMember(ctx, co.ID, "Ops@Partner.example", "Olle", "Ops", auth.CompanyAdmin)
		if err != nil || u.ID == 0 || u.Email != "ops@partner.example" || u.Role != auth.CompanyAdmin || u.CompanyID == nil || *u.CompanyID != co.ID {
			t.Fatalf("first EnsureMember: %+v, %v", u, err)
		}
		if again, err := acc.EnsureMember(ctx, co.ID, "ops@partner.example", "Olle", "Ops", auth.CompanyAdmin); err != nil || again.ID != u.ID {
			t.Errorf("second EnsureMember: %+v, %v; want user %d", again, err, u.ID)
		}
		other, err := acc.EnsureCompany(ctx, "Other AB", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := acc.EnsureMember(ctx, other.ID, "ops@partner.example", "Olle", "Ops", auth.User); !errs.Is(err, errs.Conflict) {
			t.Errorf("a member of another company: %v, want conflict", err)
		}
		for _, role := range []auth.Role{auth.SuperAdmin, auth.Guest, auth.PublicDashboard} {
			if _, err := acc.EnsureMember(ctx, co.ID, "x@partner.example", "X", "Y", role); !errs.Is(err, errs.Invalid) {
				t.Errorf("role %s: %v, want invalid", role, err)
			}
		}
		if _, err := acc.EnsureMember(ctx, co.ID+1000, "y@partner.example", "Y", "Z", auth.User); !errs.Is(err, errs.NotFound) {
			t.Errorf("unknown company: %v, want not found", err)
		}
		if r := p.Call(t, "POST", "/api/users/authenticate", "", map[string]string{"email": "ops@partner.example", "password": ""}); r.Status == 200 {
			t.Errorf("a provisioned member signed in without a password: %s", r.Body)
		}
	})
}
