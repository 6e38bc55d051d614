package core

import (
	"context"
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
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
func (m *Module) companyFields(w http.ResponseWriter, r *http.Request) error {
	lang := m.host.Router.Lang(r)
	out := make([]field, 0, len(companySchema))
	for _, s := range companySchema {
		options := s.options
		if options == nil {
			options = []string{}
		}
		out = append(out, field{Key: s.name, Label: m.host.Catalogs.T(lang, s.label, nil), Type: s.fieldType(), Options: options})
	}
	return web.OK(w, out)
}

// getCompany answers GET /settings/company/{companyId}.
func (m *Module) getCompany(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, err := m.managedCompany(ctx, r)
	if err != nil {
		return err
	}
	stored, err := m.store.load(ctx, m.db, companyScope(id))
	if err != nil {
		return err
	}
	return web.OK(w, companySchema.render(stored, nil))
}

// putCompany answers PUT /settings/company/{companyId}.
func (m *Module) putCompany(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, err := m.managedCompany(ctx, r)
	if err != nil {
		return err
	}
	body, err := decodeBody(r)
	if err != nil {
		return err
	}
	stored, err := m.save(ctx, companySchema, companyScope(id), body, nil)
	if err != nil {
		return err
	}
	return web.OK(w, companySchema.render(stored, nil))
}

// managedCompany returns the path's company id if the caller may manage that
// company and it exists; otherwise it does not exist for the caller.
func (m *Module) managedCompany(ctx context.Context, r *http.Request) (int64, error) {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return 0, err
	}
	if !auth.CallerFrom(ctx).CanManageCompany(id) {
		return 0, notFound
	}
	if _, err := m.deps.Accounts.Company(ctx, id); err != nil {
		return 0, err
	}
	return id, nil
}
