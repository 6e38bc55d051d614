package httpapi

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/modules/dashboards"
)

// announce puts a change to a company's dashboards on the audit trail.
func (a *API) announce(ctx context.Context, company int64, id string, args, before, after map[string]any) {
	audit.Announce(ctx, a.host.Bus, audit.Change{CompanyID: company, MessageID: id, Args: args, Before: before, After: after})
}

// categoryFields are the fields of a category the audit trail shows.
func categoryFields(c *dashboards.Category) map[string]any {
	return map[string]any{"title": c.Title, "icon": c.Icon, "color": c.Color}
}

// dashboardFields are the fields of a dashboard the audit trail shows.
func dashboardFields(d *dashboards.Dashboard) map[string]any {
	category := any(nil)
	if d.CategoryID != nil {
		category = *d.CategoryID
	}
	return map[string]any{"name": d.Name, "categoryId": category}
}

// announceDiff announces the fields that differ between was and now;
// nothing when none does.
func (a *API) announceDiff(ctx context.Context, company int64, id string, args, was, now map[string]any) {
	if before, after := audit.Diff(was, now); !audit.Empty(after) {
		a.announce(ctx, company, id, args, before, after)
	}
}
