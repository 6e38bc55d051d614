package values

import (
	"context"
	"encoding/json"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/settings"
	"github.com/fieldhub/fieldhub/modules/settings/internal/schema"
	"github.com/fieldhub/fieldhub/modules/settings/internal/store"
)

// SaveGlobal stores global settings for the API and the
// /superadmin/settings form alike. Branding may change only under a
// white-label license; sending its current value (or, never set, its
// default) back is not a change.
func (s *Service) SaveGlobal(ctx context.Context, body map[string]json.RawMessage) (map[string]string, error) {
	sc := s.GlobalSchema()
	check := func(stored, values map[string]string) error {
		if s.whiteLabel() {
			return nil
		}
		for _, name := range schema.BrandingNames {
			current, ok := stored[name]
			if !ok {
				current = sc.Get(name).Default
			}
			if value, ok := values[name]; ok && value != current {
				return errs.New(errs.Forbidden, settings.IDWhiteLabel)
			}
		}
		return nil
	}
	return s.Save(ctx, sc, store.GlobalScope, body, check)
}
