package ui

import (
	"context"
	"encoding/json"
	"html"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
)

func TestTopBarDashboardTreeFollowsTheDashboardMenuRoles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		caller    auth.Caller
		companyID int64
		shown     bool
		canEdit   bool
	}{
		{name: "visitor", caller: auth.Caller{Role: auth.Guest}},
		{name: "public dashboard link", caller: auth.Caller{Role: auth.PublicDashboard, DashboardToken: "pd_x"}},
		{name: "user", caller: auth.Caller{UserID: 1, Role: auth.User, CompanyID: 7}, companyID: 7, shown: true},
		{name: "company admin", caller: auth.Caller{UserID: 2, Role: auth.CompanyAdmin, CompanyID: 7}, companyID: 7, shown: true, canEdit: true},
		{name: "admin", caller: auth.Caller{UserID: 3, Role: auth.Admin, CompanyID: 7}, companyID: 7, shown: true, canEdit: true},
		{name: "super admin on a chosen company", caller: auth.Caller{UserID: 4, Role: auth.SuperAdmin}, companyID: 9, shown: true, canEdit: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v := &web.Viewer{Caller: tc.caller, CompanyID: tc.companyID}
			if got := showsDashboardTree(v); got != tc.shown {
				t.Fatalf("showsDashboardTree = %v, want %v", got, tc.shown)
			}
			if !tc.shown {
				return
			}
			var props struct {
				CompanyID int64  `json:"companyId"`
				CanEdit   bool   `json:"canEdit"`
				Mode      string `json:"mode"`
			}
			raw := dashboardTreeProps(v)
			if err := json.Unmarshal([]byte(raw), &props); err != nil {
				t.Fatalf("props %s: %v", raw, err)
			}
			if props.CompanyID != tc.companyID || props.CanEdit != tc.canEdit || props.Mode != "dialog" {
				t.Fatalf("props = %+v, want companyId %d, canEdit %v, mode dialog", props, tc.companyID, tc.canEdit)
			}

			var b strings.Builder
			if err := dashboardTree(v).Render(context.Background(), &b); err != nil {
				t.Fatal(err)
			}
			page := b.String()
			for _, want := range []string{
				`data-island="category-tree"`, `data-island-defer`, `data-props="` + html.EscapeString(raw) + `"`,
				`data-category-tree-trigger`, `aria-haspopup="dialog"`, `aria-expanded="false"`, `aria-label="tree.open"`,
			} {
				if !strings.Contains(page, want) {
					t.Errorf("the button lacks %s:\n%s", want, page)
				}
			}
		})
	}
}
