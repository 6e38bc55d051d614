package registry

import (
	"context"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/profiles"
)

// FromModel makes a profile of an imported device model in one step: its
// name (unless in names it) and its codec as the decoder.
func (g *Registry) FromModel(ctx context.Context, in profiles.FromModel) (*profiles.Profile, error) {
	if err := g.Company(ctx, in.CompanyID); err != nil {
		return nil, err
	}
	m, err := g.deps.Decoders.DeviceModel(ctx, strings.TrimSpace(in.VendorID), strings.TrimSpace(in.ModelID))
	if errs.Is(err, errs.NotFound) {
		v := errs.Validation{}
		v.Add("modelId", profiles.IDModelUnknown)
		return nil, v.Err()
	}
	if err != nil {
		return nil, err
	}
	key := m.Codec()
	if key == "" {
		v := errs.Validation{}
		v.Add("modelId", profiles.IDModelNoCodec)
		return nil, v.Err()
	}
	name := strings.TrimSpace(in.Name)
	if name == "" {
		name = m.Name
	}
	return g.Create(ctx, in.CompanyID, profiles.Input{Name: name, VendorID: m.VendorID, ModelID: m.ModelID, Decoder: key})
}
