package pages

import (
	"context"
	"strconv"

	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// UseModels makes m the imported device models the create form offers.
func (pg *Pages) UseModels(m nodes.DeviceModels) { pg.models = m }

// createChoices are the device profiles company may use (when the
// registered profiles list them) and the imported device models with a
// codec, each with its prompt first; a list with nothing to choose is nil.
func (pg *Pages) createChoices(ctx context.Context, company int64) (profiles, models []ui.Option, err error) {
	if list, ok := pg.reg.Profiles().(nodes.ProfileChoices); ok {
		refs, err := list.CompanyProfiles(ctx, company)
		if err != nil {
			return nil, nil, err
		}
		for _, p := range refs {
			profiles = append(profiles, ui.Option{Value: strconv.FormatInt(p.ID, 10), Label: p.Name})
		}
	}
	if pg.models != nil {
		cat, err := pg.models.DeviceCatalog(ctx)
		if err != nil {
			return nil, nil, err
		}
		for _, v := range cat.Vendors {
			for i := range v.Models {
				if key := v.Models[i].Codec(); key != "" {
					models = append(models, ui.Option{Value: key, Label: v.Name + " " + v.Models[i].Name})
				}
			}
		}
	}
	if profiles != nil {
		profiles = append([]ui.Option{{Value: "", LabelID: "nodes.form.noProfile"}}, profiles...)
	}
	if models != nil {
		models = append([]ui.Option{{Value: "", LabelID: "nodes.form.noModel"}}, models...)
	}
	return profiles, models, nil
}
