package core

import (
	"context"
	"fmt"
	"net/http"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
)

type companyImage struct {
	bun.BaseModel `bun:"table:company_images"`
	CompanyID     int64  `bun:"company_id,pk"`
	ContentType   string `bun:"content_type"`
	Data          []byte `bun:"data"`
	Version       string `bun:"version"`
}

func (m *Module) putImage(w http.ResponseWriter, r *http.Request) error {
	c, err := m.managedCompany(r.Context(), r)
	if err != nil {
		return err
	}
	data, _, err := web.ReadImage(r)
	if err != nil {
		return err
	}
	c, err = m.storeImage(r.Context(), c, data)
	if err != nil {
		return err
	}
	return web.OK(w, c)
}

// storeImage makes data the logo of c, a company the caller manages, and
// returns the company with its new image URL. The API and the /company/edit
// page both use it.
func (m *Module) storeImage(ctx context.Context, c *Company, data []byte) (*Company, error) {
	if !auth.CallerFrom(ctx).CanManageCompany(c.ID) {
		return nil, errs.New(errs.Forbidden, errs.IDForbidden)
	}
	ct, err := web.ImageType(data)
	if err != nil {
		return nil, err
	}
	img := &companyImage{CompanyID: c.ID, ContentType: ct, Data: data, Version: web.ImageVersion(data)}
	_, err = m.db.NewInsert().Model(img).
		On("CONFLICT (company_id) DO UPDATE").
		Set("content_type = EXCLUDED.content_type, data = EXCLUDED.data, version = EXCLUDED.version").
		Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("store company image: %w", err)
	}
	return m.store.companyByID(ctx, m.db, c.ID)
}

func (m *Module) deleteImage(w http.ResponseWriter, r *http.Request) error {
	c, err := m.managedCompany(r.Context(), r)
	if err != nil {
		return err
	}
	if err := m.removeImage(r.Context(), c); err != nil {
		return err
	}
	return web.NoContent(w)
}

// removeImage deletes the logo of c, a company the caller manages.
func (m *Module) removeImage(ctx context.Context, c *Company) error {
	if !auth.CallerFrom(ctx).CanManageCompany(c.ID) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	if _, err := m.db.NewDelete().Model((*companyImage)(nil)).Where("company_id = ?", c.ID).Exec(ctx); err != nil {
		return fmt.Errorf("delete company image: %w", err)
	}
	return nil
}

// getImage serves the logo. Its URL carries the version, so it may be cached.
func (m *Module) getImage(w http.ResponseWriter, r *http.Request) error {
	c, err := m.visibleCompany(r.Context(), r)
	if err != nil {
		return err
	}
	img, err := m.image(r.Context(), c.ID)
	if err != nil {
		return err
	}
	web.ServeImage(w, r, img.ContentType, img.Version, c.UpdatedAt, img.Data)
	return nil
}

func (m *Module) image(ctx context.Context, companyID int64) (*companyImage, error) {
	img := new(companyImage)
	if err := m.db.NewSelect().Model(img).Where("company_id = ?", companyID).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, errs.New(errs.NotFound, errs.IDNotFound)
		}
		return nil, fmt.Errorf("load company image: %w", err)
	}
	return img, nil
}
