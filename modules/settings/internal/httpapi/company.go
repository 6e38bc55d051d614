package httpapi

import (
	"context"
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/settings/internal/store"
)

// field describes a company setting for the settings form.
type field struct {
	Key     string   `json:"key"`
	Label   string   `json:"label"`
	Type    int      `json:"type"`
	Options []string `json:"options"`
}

// companyFields answers GET /settings/company/fields, labelled in the
// caller's language.
func (a *API) companyFields(w http.ResponseWriter, r *http.Request) error {
	lang := a.host.Router.Lang(r)
	sc := a.values.CompanySchema()
	out := make([]field, 0, len(sc))
	for _, s := range sc {
		options := s.Options
		if options == nil {
			options = []string{}
		}
		out = append(out, field{Key: s.Name, Label: a.host.Catalogs.T(lang, s.Label, nil), Type: s.FieldType(), Options: options})
	}
	return web.OK(w, out)
}

// getCompany answers GET /settings/company/{companyId}.
func (a *API) getCompany(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, err := a.managedCompany(ctx, r)
	if err != nil {
		return err
	}
	stored, err := a.values.Load(ctx, store.CompanyScope(id))
	if err != nil {
		return err
	}
	return web.OK(w, a.values.CompanySchema().Render(stored, nil))
}

// putCompany answers PUT /settings/company/{companyId}.
func (a *API) putCompany(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, err := a.managedCompany(ctx, r)
	if err != nil {
		return err
	}
	body, err := decodeBody(r)
	if err != nil {
		return err
	}
	stored, err := a.values.Save(ctx, a.values.CompanySchema(), store.CompanyScope(id), body, nil)
	if err != nil {
		return err
	}
	return web.OK(w, a.values.CompanySchema().Render(stored, nil))
}

// managedCompany returns the path's company id if the caller may manage that
// company and it exists; otherwise it does not exist for the caller.
func (a *API) managedCompany(ctx context.Context, r *http.Request) (int64, error) {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return 0, err
	}
	if !auth.CallerFrom(ctx).CanManageCompany(id) {
		return 0, notFound
	}
	if _, err := a.accounts.Company(ctx, id); err != nil {
		return 0, err
	}
	return id, nil
}
