package core

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// TreeNode is a node of the category tree the viewer draws (SPEC.md
// section 3 "Tree node").
type TreeNode struct {
	Title    string      `json:"title"`
	IsLeaf   bool        `json:"isLeaf"`
	Data     TreeData    `json:"data"`
	Children []*TreeNode `json:"children"`
}

// TreeData is what a tree node carries.
type TreeData struct {
	Icon                string  `json:"icon"`
	Color               string  `json:"color"`
	DashboardCategoryID *int64  `json:"dashboardCategoryId"`
	DashboardID         *int64  `json:"dashboardId,omitempty"`
	GUID                *string `json:"guid,omitempty"`
	Index               int     `json:"index"`
}

// DashboardIcon is the icon of dashboard leaves.
const DashboardIcon = "mdi-view-dashboard"

var (
	colorPattern = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)
	iconPattern  = regexp.MustCompile(`^mdi-[a-z0-9]+(-[a-z0-9]+)*$`)
)

// categoryTree answers GET /dashboards/categories/{companyId}.
func (m *Module) categoryTree(w http.ResponseWriter, r *http.Request) error {
	id, err := m.pathCompany(r, false)
	if err != nil {
		return err
	}
	tree, err := m.tree(r.Context(), id)
	if err != nil {
		return err
	}
	return web.OK(w, tree)
}

// tree builds a company's tree: categories by index, then the dashboards
// of each category by index; dashboards without a category follow the
// root categories.
func (m *Module) tree(ctx context.Context, companyID int64) ([]*TreeNode, error) {
	cats, err := m.store.categories(ctx, m.db, companyID)
	if err != nil {
		return nil, err
	}
	dashes, err := m.store.dashboards(ctx, m.db, companyID)
	if err != nil {
		return nil, err
	}
	nodes := make(map[int64]*TreeNode, len(cats))
	for _, c := range cats {
		id, guid := c.ID, c.GUID
		nodes[c.ID] = &TreeNode{Title: c.Title, Children: []*TreeNode{},
			Data: TreeData{Icon: c.Icon, Color: c.Color, DashboardCategoryID: &id, GUID: &guid, Index: c.Index}}
	}
	root := []*TreeNode{}
	for _, c := range cats { // ordered by position, so children come in order
		n := nodes[c.ID]
		if c.ParentID != nil && nodes[*c.ParentID] != nil {
			p := nodes[*c.ParentID]
			p.Children = append(p.Children, n)
		} else {
			root = append(root, n)
		}
	}
	var loose []*TreeNode
	for _, d := range dashes { // ordered by category and position
		id := d.ID
		leaf := &TreeNode{Title: d.Name, IsLeaf: true, Children: []*TreeNode{},
			Data: TreeData{Icon: DashboardIcon, Color: DefaultColor, DashboardCategoryID: d.CategoryID, DashboardID: &id, Index: d.Index}}
		if d.CategoryID != nil && nodes[*d.CategoryID] != nil {
			p := nodes[*d.CategoryID]
			p.Children = append(p.Children, leaf)
		} else {
			loose = append(loose, leaf)
		}
	}
	return append(root, loose...), nil
}

// categoryInput is the body of POST and PUT /dashboards/categories.
type categoryInput struct {
	Title      *string `json:"title"`
	Icon       *string `json:"icon"`
	Color      *string `json:"color"`
	ParentGUID *string `json:"parentGuid"`
}

// apply validates in and sets its values on c; a missing icon or colour
// keeps c's (the defaults for a new category).
func (in *categoryInput) apply(c *Category) error {
	v := errs.Validation{}
	title := ""
	if in.Title != nil {
		title = strings.TrimSpace(*in.Title)
	}
	switch {
	case title == "":
		v.Add("title", errs.IDRequired)
	case utf8.RuneCountInString(title) > 255:
		v.Add("title", errs.IDMaxChars255)
	}
	c.Title = title
	if in.Icon != nil && *in.Icon != "" {
		if !iconPattern.MatchString(*in.Icon) || len(*in.Icon) > 64 {
			v.Add("icon", msgIcon)
		}
		c.Icon = *in.Icon
	}
	if in.Color != nil && *in.Color != "" {
		if !colorPattern.MatchString(*in.Color) {
			v.Add("color", msgColor)
		}
		c.Color = strings.ToUpper(*in.Color)
	}
	return v.Err()
}

// createCategory answers POST /dashboards/categories/{companyId}.
func (m *Module) createCategory(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	companyID, err := m.pathCompany(r, true)
	if err != nil {
		return err
	}
	var in categoryInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	c := &Category{CompanyID: companyID, GUID: uuid.NewString(), Icon: DefaultIcon, Color: DefaultColor}
	if err := in.apply(c); err != nil {
		return err
	}
	err = m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if in.ParentGUID != nil && *in.ParentGUID != "" {
			p, err := m.store.categoryByGUID(ctx, tx, *in.ParentGUID)
			if err != nil || p.CompanyID != companyID {
				return fieldError("parentGuid", msgParentUnknown, err)
			}
			c.ParentID, c.ParentGUID = &p.ID, &p.GUID
		}
		if c.Index, err = nextPosition(ctx, tx, "dashboard_categories", "company_id", companyID, "parent_id", c.ParentID); err != nil {
			return err
		}
		return m.store.insertCategory(ctx, tx, c)
	})
	if err != nil {
		return err
	}
	return web.Created(w, c)
}

// fieldError reports a field error for a lookup that failed with not
// found (another company's id included); other failures pass through.
func fieldError(field, id string, cause error) error {
	if cause != nil && !errs.Is(cause, errs.NotFound) {
		return cause
	}
	v := errs.Validation{}
	v.Add(field, id)
	return v.Err()
}

// updateCategory answers PUT /dashboards/categories/{categoryId}. The
// parent changes through PUT /dashboards/categories/indexes.
func (m *Module) updateCategory(w http.ResponseWriter, r *http.Request) error {
	c, err := m.pathCategory(r, true)
	if err != nil {
		return err
	}
	var in categoryInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if err := in.apply(c); err != nil {
		return err
	}
	if err := m.store.updateCategory(r.Context(), m.db, c); err != nil {
		return err
	}
	return web.OK(w, c)
}

// deleteCategory answers DELETE /dashboards/categories/{categoryId}: only
// an empty category goes.
func (m *Module) deleteCategory(w http.ResponseWriter, r *http.Request) error {
	c, err := m.pathCategory(r, true)
	if err != nil {
		return err
	}
	err = m.db.RunInTx(r.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		empty, err := m.store.categoryEmpty(ctx, tx, c.ID)
		if err != nil {
			return err
		}
		if !empty {
			return errs.New(errs.Invalid, msgCategoryNotEmpty)
		}
		return m.store.deleteCategory(ctx, tx, c.ID)
	})
	if err != nil {
		return err
	}
	return web.NoContent(w)
}

// indexesInput is the body of PUT /dashboards/categories/indexes.
type indexesInput struct {
	Categories []struct {
		ID         int64   `json:"dashboardCategoryId"`
		Index      int     `json:"index"`
		ParentGUID *string `json:"parentGuid"`
	} `json:"categories"`
	Dashboards []struct {
		ID         int64  `json:"dashboardId"`
		CategoryID *int64 `json:"dashboardCategoryId"`
		Index      int    `json:"index"`
	} `json:"dashboards"`
}

// saveIndexes answers PUT /dashboards/categories/indexes: the tree's new
// order and parents, all or nothing.
func (m *Module) saveIndexes(w http.ResponseWriter, r *http.Request) error {
	var in indexesInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	v := errs.Validation{}
	for _, c := range in.Categories {
		if c.Index < 0 || c.Index > 1_000_000 {
			v.Add("categories.index", msgIndex)
			break
		}
	}
	for _, d := range in.Dashboards {
		if d.Index < 0 || d.Index > 1_000_000 {
			v.Add("dashboards.index", msgIndex)
			break
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	err := m.db.RunInTx(r.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		company := int64(0)
		// sameCompany checks that everything named is of one company the
		// caller manages; anything else is not found.
		sameCompany := func(id int64) error {
			if err := scoped(ctx, id, true); err != nil {
				return err
			}
			if company != 0 && company != id {
				return errNotFound
			}
			company = id
			return nil
		}
		parents := map[int64]*int64{}
		for _, in := range in.Categories {
			c, err := m.store.category(ctx, tx, in.ID)
			if err != nil {
				return err
			}
			if err := sameCompany(c.CompanyID); err != nil {
				return err
			}
			var parent *int64
			if in.ParentGUID != nil && *in.ParentGUID != "" {
				p, err := m.store.categoryByGUID(ctx, tx, *in.ParentGUID)
				if err != nil {
					return err
				}
				if err := sameCompany(p.CompanyID); err != nil {
					return err
				}
				parent = &p.ID
			}
			parents[c.ID] = parent
		}
		for _, in := range in.Dashboards {
			d, err := m.store.dashboard(ctx, tx, in.ID)
			if err != nil {
				return err
			}
			if err := sameCompany(d.CompanyID); err != nil {
				return err
			}
			if in.CategoryID != nil {
				c, err := m.store.category(ctx, tx, *in.CategoryID)
				if err != nil {
					return err
				}
				if err := sameCompany(c.CompanyID); err != nil {
					return err
				}
			}
		}
		if len(parents) > 0 {
			if err := m.checkNoCycle(ctx, tx, company, parents); err != nil {
				return err
			}
		}
		for _, in := range in.Categories {
			if err := m.store.moveCategory(ctx, tx, in.ID, parents[in.ID], in.Index); err != nil {
				return err
			}
		}
		for _, in := range in.Dashboards {
			d := &Dashboard{ID: in.ID}
			if _, err := tx.NewUpdate().Model(d).Set("category_id = ?", in.CategoryID).Set("position = ?", in.Index).
				Set("updated_at = ?", now()).WherePK().Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return web.NoContent(w)
}

// checkNoCycle refuses new parents that would make a category its own
// ancestor.
func (m *Module) checkNoCycle(ctx context.Context, idb bun.IDB, companyID int64, moved map[int64]*int64) error {
	cats, err := m.store.categories(ctx, idb, companyID)
	if err != nil {
		return err
	}
	parent := make(map[int64]*int64, len(cats))
	for _, c := range cats {
		parent[c.ID] = c.ParentID
	}
	for id, p := range moved {
		parent[id] = p
	}
	for id := range moved {
		seen := map[int64]bool{id: true}
		for p := parent[id]; p != nil; p = parent[*p] {
			if seen[*p] {
				v := errs.Validation{}
				v.Add("parentGuid", msgParentCycle)
				return v.Err()
			}
			seen[*p] = true
		}
	}
	return nil
}
