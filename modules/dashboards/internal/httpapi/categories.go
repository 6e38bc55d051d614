package httpapi

import (
	"context"
	"net/http"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/access"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/store"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/validate"
)

// categoryTree answers GET /dashboards/categories/{companyId}.
func (a *API) categoryTree(w http.ResponseWriter, r *http.Request) error {
	id, err := a.guard.PathCompany(r, false)
	if err != nil {
		return err
	}
	tree, err := store.Tree(r.Context(), a.db, id)
	if err != nil {
		return err
	}
	return web.OK(w, tree)
}

// createCategory answers POST /dashboards/categories/{companyId}.
func (a *API) createCategory(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	companyID, err := a.guard.PathCompany(r, true)
	if err != nil {
		return err
	}
	var in validate.CategoryInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	c := &dashboards.Category{CompanyID: companyID, GUID: uuid.NewString(), Icon: dashboards.DefaultIcon, Color: dashboards.DefaultColor}
	if err := in.Apply(c); err != nil {
		return err
	}
	err = a.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if in.ParentGUID != nil && *in.ParentGUID != "" {
			p, err := store.CategoryByGUID(ctx, tx, *in.ParentGUID)
			if err != nil || p.CompanyID != companyID {
				return validate.FieldError("parentGuid", dashboards.IDParentUnknown, err)
			}
			c.ParentID, c.ParentGUID = &p.ID, &p.GUID
		}
		if c.Index, err = store.NextPosition(ctx, tx, "dashboard_categories", "company_id", companyID, "parent_id", c.ParentID); err != nil {
			return err
		}
		return store.InsertCategory(ctx, tx, c)
	})
	if err != nil {
		return err
	}
	a.announce(ctx, companyID, dashboards.AuditCategoryCreated, map[string]any{"title": c.Title}, nil, nil)
	return web.Created(w, c)
}

// updateCategory answers PUT /dashboards/categories/{categoryId}. The
// parent changes through PUT /dashboards/categories/indexes.
func (a *API) updateCategory(w http.ResponseWriter, r *http.Request) error {
	c, err := a.guard.PathCategory(r, true)
	if err != nil {
		return err
	}
	var in validate.CategoryInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	was := categoryFields(c)
	if err := in.Apply(c); err != nil {
		return err
	}
	if err := store.UpdateCategory(r.Context(), a.db, c); err != nil {
		return err
	}
	a.announceDiff(r.Context(), c.CompanyID, dashboards.AuditCategoryEdited, map[string]any{"title": c.Title}, was, categoryFields(c))
	return web.OK(w, c)
}

// deleteCategory answers DELETE /dashboards/categories/{categoryId}: only
// an empty category goes.
func (a *API) deleteCategory(w http.ResponseWriter, r *http.Request) error {
	c, err := a.guard.PathCategory(r, true)
	if err != nil {
		return err
	}
	err = a.db.RunInTx(r.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		empty, err := store.CategoryEmpty(ctx, tx, c.ID)
		if err != nil {
			return err
		}
		if !empty {
			return errs.New(errs.Invalid, dashboards.IDCategoryNotEmpty)
		}
		return store.DeleteCategory(ctx, tx, c.ID)
	})
	if err != nil {
		return err
	}
	a.announce(r.Context(), c.CompanyID, dashboards.AuditCategoryDeleted, map[string]any{"title": c.Title}, nil, nil)
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
func (a *API) saveIndexes(w http.ResponseWriter, r *http.Request) error {
	var in indexesInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	v := errs.Validation{}
	for _, c := range in.Categories {
		if c.Index < 0 || c.Index > 1_000_000 {
			v.Add("categories.index", dashboards.IDIndex)
			break
		}
	}
	for _, d := range in.Dashboards {
		if d.Index < 0 || d.Index > 1_000_000 {
			v.Add("dashboards.index", dashboards.IDIndex)
			break
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	company := int64(0)
	err := a.db.RunInTx(r.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		// sameCompany checks that everything named is of one company the
		// caller manages; anything else is not found.
		sameCompany := func(id int64) error {
			if err := access.Scoped(ctx, id, true); err != nil {
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
			c, err := store.Category(ctx, tx, in.ID)
			if err != nil {
				return err
			}
			if err := sameCompany(c.CompanyID); err != nil {
				return err
			}
			var parent *int64
			if in.ParentGUID != nil && *in.ParentGUID != "" {
				p, err := store.CategoryByGUID(ctx, tx, *in.ParentGUID)
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
			d, err := store.Dashboard(ctx, tx, in.ID)
			if err != nil {
				return err
			}
			if err := sameCompany(d.CompanyID); err != nil {
				return err
			}
			if in.CategoryID != nil {
				c, err := store.Category(ctx, tx, *in.CategoryID)
				if err != nil {
					return err
				}
				if err := sameCompany(c.CompanyID); err != nil {
					return err
				}
			}
		}
		if len(parents) > 0 {
			if err := checkNoCycle(ctx, tx, company, parents); err != nil {
				return err
			}
		}
		for _, in := range in.Categories {
			if err := store.MoveCategory(ctx, tx, in.ID, parents[in.ID], in.Index); err != nil {
				return err
			}
		}
		for _, in := range in.Dashboards {
			if err := store.MoveDashboard(ctx, tx, in.ID, in.CategoryID, in.Index); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if company != 0 {
		a.announce(r.Context(), company, dashboards.AuditTreeOrdered,
			map[string]any{"categories": len(in.Categories), "dashboards": len(in.Dashboards)}, nil, nil)
	}
	return web.NoContent(w)
}

// checkNoCycle refuses new parents that would make a category its own
// ancestor.
func checkNoCycle(ctx context.Context, idb bun.IDB, companyID int64, moved map[int64]*int64) error {
	cats, err := store.Categories(ctx, idb, companyID)
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
				v.Add("parentGuid", dashboards.IDParentCycle)
				return v.Err()
			}
			seen[*p] = true
		}
	}
	return nil
}
