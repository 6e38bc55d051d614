package values

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/settings"
	"github.com/fieldhub/fieldhub/modules/settings/internal/store"
)

// LogoURL is where the installation's logo is served; the frame adds its
// version, so that browsers may keep it.
const LogoURL = "/api/settings/global/logo"

// SaveLogo makes data (a PNG, JPEG, GIF or WebP picture) the installation's
// logo, which only a white-label license allows, and returns its version.
func (s *Service) SaveLogo(ctx context.Context, data []byte) (string, error) {
	if !s.whiteLabel() {
		return "", errs.New(errs.Forbidden, settings.IDWhiteLabel)
	}
	ct, err := web.ImageType(data)
	if err != nil {
		return "", err
	}
	l := &store.Logo{ContentType: ct, Data: data, Version: web.ImageVersion(data)}
	if err := store.PutLogo(ctx, s.db, l); err != nil {
		return "", err
	}
	audit.Announce(ctx, s.host.Bus, audit.Change{MessageID: settings.AuditLogo})
	return l.Version, nil
}

// RemoveLogo deletes the installation's logo; the brand icon shows again.
// It is allowed without white-label too, so that a logo never outlives the
// license that allowed it.
func (s *Service) RemoveLogo(ctx context.Context) error {
	if err := store.DeleteLogo(ctx, s.db); err != nil {
		return err
	}
	audit.Announce(ctx, s.host.Bus, audit.Change{MessageID: settings.AuditNoLogo})
	return nil
}

// Logo returns the installation's logo; none is an errs.NotFound error.
func (s *Service) Logo(ctx context.Context) (*store.Logo, error) { return store.LoadLogo(ctx, s.db) }

// LogoVersion is the logo's version, "" when there is none or the license
// does not allow white-label (the frame then shows the brand icon).
func (s *Service) LogoVersion(ctx context.Context) (string, error) {
	if !s.whiteLabel() {
		return "", nil
	}
	return store.LogoVersion(ctx, s.db)
}
