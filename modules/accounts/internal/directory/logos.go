package directory

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/store"
)

// StoreImage makes data the logo of c, a company the caller manages, and
// returns the company with its new image URL. The API and the /company/edit
// page both use it.
func (d *Directory) StoreImage(ctx context.Context, c *accounts.Company, data []byte) (*accounts.Company, error) {
	if !auth.CallerFrom(ctx).CanManageCompany(c.ID) {
		return nil, errs.New(errs.Forbidden, errs.IDForbidden)
	}
	ct, err := web.ImageType(data)
	if err != nil {
		return nil, err
	}
	img := &store.CompanyImage{CompanyID: c.ID, ContentType: ct, Data: data, Version: web.ImageVersion(data)}
	if err := store.PutImage(ctx, d.db, img); err != nil {
		return nil, err
	}
	d.announce(ctx, c.ID, accounts.AuditCompanyLogo, map[string]any{"name": c.Name}, nil, nil)
	return store.CompanyByID(ctx, d.db, c.ID)
}

// RemoveImage deletes the logo of c, a company the caller manages.
func (d *Directory) RemoveImage(ctx context.Context, c *accounts.Company) error {
	if !auth.CallerFrom(ctx).CanManageCompany(c.ID) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	if err := store.DeleteImage(ctx, d.db, c.ID); err != nil {
		return err
	}
	d.announce(ctx, c.ID, accounts.AuditCompanyLogoGone, map[string]any{"name": c.Name}, nil, nil)
	return nil
}

// Image returns the logo of a company; none is an errs.NotFound error.
func (d *Directory) Image(ctx context.Context, companyID int64) (*store.CompanyImage, error) {
	return store.Image(ctx, d.db, companyID)
}
