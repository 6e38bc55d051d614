package pages

import (
	"net/http"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/store"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// chooser is what the /dashboard page shows.
type chooser struct {
	CompanyID int64
	Props     string
	Tree      []*dashboards.TreeNode
	Default   *dashboards.Dashboard
	PoweredBy string
}

// chooserPage draws /dashboard: the viewer's company's category tree, a
// link to their default dashboard, and the powered-by footer.
func (p *Pages) chooserPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	v := web.ViewerFrom(ctx)
	c := chooser{CompanyID: v.CompanyID}
	if c.CompanyID != 0 && v.Caller.CanSeeCompany(c.CompanyID) {
		company, err := p.accounts.Company(ctx, c.CompanyID)
		if err != nil {
			return err
		}
		c.PoweredBy = company.Name
		if p.settings != nil {
			global, err := p.settings.Global(ctx)
			if err != nil {
				return err
			}
			if by := strings.TrimSpace(global["powered_by"]); by != "" {
				c.PoweredBy = by
			}
		}
		if c.Tree, err = store.Tree(ctx, p.db, c.CompanyID); err != nil {
			return err
		}
		c.Props = props(treeProps{CompanyID: c.CompanyID, CanEdit: v.Caller.CanManageCompany(c.CompanyID), Mode: "page"})
		id, err := store.DefaultOf(ctx, p.db, v.Caller.UserID, c.CompanyID)
		if err != nil {
			return err
		}
		if id != 0 {
			if c.Default, err = store.Dashboard(ctx, p.db, id); err != nil {
				return err
			}
		}
	} else {
		c.CompanyID = 0
	}
	return p.ui.Render(w, r, http.StatusOK, "dashboards.page.chooser.title", chooserView(c), ui.Options{Islands: true})
}
