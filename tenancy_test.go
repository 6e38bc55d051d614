package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tenancytest"
)

// TestTenancy walks every /api route as each role of one company with the
// ids of another, on both databases. A module that adds routes adds its
// path parameters, bodies and tables here.
func TestTenancy(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		ta := newTestApp(t, d, nil)
		root := ta.superAdmin(t)
		own := ta.company(t, root, "Own Widgets AB", "own.example")
		foreign := ta.company(t, root, "Foreign Widgets AB", "foreign.example")
		png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 32)...)
		if r := ta.Call(t, "POST", fmt.Sprintf("/api/companies/%d/image", foreign.companyID), root, png); r.Status != 200 {
			t.Fatalf("foreign logo: %d %s", r.Status, r.Body)
		}
		if r := ta.Call(t, "PUT", fmt.Sprintf("/api/settings/company/%d", foreign.companyID), root, map[string]any{"INACTIVITY_EMAIL": "alarms@foreign.example"}); r.Status != 200 {
			t.Fatalf("foreign company settings: %d %s", r.Status, r.Body)
		}
		if r := ta.Call(t, "POST", "/api/settings", foreign.userToken, map[string]any{"theme": "Scientific"}); r.Status != 200 {
			t.Fatalf("foreign user settings: %d %s", r.Status, r.Body)
		}
		if r := ta.Call(t, "POST", "/api/users", "", newUserBody("loner@free.example")); r.Status != 201 {
			t.Fatalf("register loner: %d %s", r.Status, r.Body)
		}
		loner := ta.Login(t, "loner@free.example", testPassword)

		bdb := ta.kernel.Host().DB
		fid := foreign.companyID
		tenancytest.Walk(t, ta.base, ta.kernel.Host().Router.Routes(), tenancytest.Fixture{
			Callers: []tenancytest.Caller{
				{Name: "User", Token: own.userToken},
				{Name: "CompanyAdmin", Token: own.companyAdminToken},
				{Name: "Admin", Token: own.adminToken},
				{Name: "user without a company", Token: loner},
				{Name: "visitor"},
			},
			Params: map[string]string{
				"companyId": fmt.Sprint(fid),
				"userId":    fmt.Sprint(foreign.userID),
				"role":      "CompanyAdmin",
				"email":     "worker@foreign.example",
				"guid":      "0b7e6c1e-5d4f-4a51-9d2a-7d1f3c9e2b10",
			},
			Bodies: map[string]any{
				"PUT /api/companies/{companyId}":        map[string]any{"name": "Hijacked"},
				"PUT /api/users/{userId}":               map[string]any{"firstName": "Hijacked", "email": "hijack@own.example"},
				"POST /api/companies/{companyId}/user":  map[string]any{"email": "loner@free.example"},
				"POST /api/companies/{companyId}/image": png,
				"PUT /api/settings/company/{companyId}": map[string]any{"INACTIVITY_EMAIL": "hijack@own.example"},
				"POST /api/users":                       newUserBody("planted@own.example", "companyId", fid),
				"POST /api/users/authenticate":          map[string]any{"email": "worker@foreign.example", "password": "guess"},
				"POST /api/users/create/company":        map[string]any{"company": map[string]any{"name": "X"}},
			},
			Markers: []string{"Foreign Widgets", "foreign.example"},
			Exempt: map[string]string{
				"POST /api/users/forgot/{email}": "answers the same for every address; the link goes only to the address's owner",
				"PUT /api/users/forgot/{guid}":   "the GUID is the capability: whoever holds the mailed link may use it",
			},
			Snapshot: func(tb testing.TB) string {
				return strings.Join([]string{
					dumpRows(tb, bdb, "SELECT * FROM companies WHERE id = ?", fid),
					dumpRows(tb, bdb, "SELECT company_id, version FROM company_images WHERE company_id = ?", fid),
					dumpRows(tb, bdb, "SELECT * FROM users WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT id, user_id FROM sessions WHERE user_id IN (SELECT id FROM users WHERE company_id = ?) ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT * FROM company_settings WHERE company_id = ? ORDER BY name", fid),
					dumpRows(tb, bdb, "SELECT * FROM user_settings WHERE user_id IN (SELECT id FROM users WHERE company_id = ?) ORDER BY user_id, name", fid),
				}, "\n")
			},
		})
	})
}

// dumpRows renders a query's rows as text, for before-and-after comparisons.
func dumpRows(tb testing.TB, bdb *bun.DB, query string, args ...any) string {
	tb.Helper()
	rows, err := bdb.QueryContext(context.Background(), query, args...)
	if err != nil {
		tb.Fatalf("snapshot %q: %v", query, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var b strings.Builder
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			tb.Fatalf("snapshot scan: %v", err)
		}
		for i, v := range vals {
			if raw, ok := v.([]byte); ok {
				v = string(raw)
			}
			fmt.Fprintf(&b, "%s=%v ", cols[i], v)
		}
		b.WriteString("\n")
	}
	return b.String()
}
