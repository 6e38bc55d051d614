// Package core implements the settings module: user, company and global
// settings stored as name/value strings, with provider credentials sealed.
package core

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Accounts is the part of the accounts module that settings asks.
type Accounts interface {
	User(ctx context.Context, id int64) (*accounts.User, error)
	Company(ctx context.Context, id int64) (*accounts.Company, error)
}

// Deps are the module's dependencies; see settings.Deps.
type Deps struct {
	WhiteLabel func() bool
	Accounts   Accounts
	UI         *ui.Env // nil: no /settings and /superadmin/settings pages
}

// Module is the settings module.
type Module struct {
	host  *kernel.Host
	db    *bun.DB
	deps  Deps
	users schema
	store store
}

// New builds the module and hooks it into the page frame: every page is
// drawn in the viewer's language and theme.
func New(host *kernel.Host, deps Deps) *Module {
	m := &Module{host: host, db: host.DB, deps: deps, users: userSchema(host.Catalogs.Languages())}
	host.Router.AddViewerEnricher(m.enrichViewer)
	if deps.UI != nil {
		host.Router.AddMenuItem(settingsMenuItem)
	}
	return m
}

// Name names the module.
func (m *Module) Name() string { return "settings" }

// Routes registers SPEC.md section 7 "Settings".
func (m *Module) Routes(r *web.ModuleRoutes) {
	r.API("GET /settings", auth.CompanyOrUser, m.getUserSettings)
	r.API("POST /settings", auth.CompanyOrUser, m.postUserSettings)
	r.API("GET /settings/global", auth.CompanyOrUser, m.getGlobal)
	r.API("POST /settings/global", auth.SuperAdminOnly, m.postGlobal)
	r.API("GET /settings/company/fields", auth.AdminOrCompanyAdmin, m.companyFields)
	r.API("GET /settings/company/{companyId}", auth.AdminOrCompanyAdmin, m.getCompany)
	r.API("PUT /settings/company/{companyId}", auth.AdminOrCompanyAdmin, m.putCompany)
	if m.deps.UI != nil {
		r.Page("GET /settings", auth.CompanyOrUser, m.settingsPage)
		r.Page("POST /settings", auth.CompanyOrUser, m.settingsSubmit)
		r.Page("GET /superadmin/settings", auth.SuperAdminOnly, m.globalPage)
		r.Page("POST /superadmin/settings", auth.SuperAdminOnly, m.globalSubmit)
	}
}

// Global returns the global settings with secrets opened.
func (m *Module) Global(ctx context.Context) (map[string]string, error) {
	return m.opened(ctx, globalSchema, globalScope)
}

// Company returns a company's settings with secrets opened.
func (m *Module) Company(ctx context.Context, companyID int64) (map[string]string, error) {
	return m.opened(ctx, companySchema, companyScope(companyID))
}

func (m *Module) opened(ctx context.Context, sc schema, s scope) (map[string]string, error) {
	stored, err := m.store.load(ctx, m.db, s)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, st := range sc {
		value := stored[st.name]
		if st.kind == secret && value != "" {
			if value, err = m.host.Box.Open(value); err != nil {
				return nil, fmt.Errorf("open %s %s: %w", s.table, st.name, err)
			}
		}
		out[st.name] = value
	}
	return out, nil
}

// decodeBody reads a request body that must be a JSON object of settings.
func decodeBody(r *http.Request) (map[string]json.RawMessage, error) {
	var body map[string]json.RawMessage
	if err := web.Decode(r, &body); err != nil {
		return nil, err
	}
	return body, nil
}

// seal replaces the non-empty secrets of values with their sealed form.
func (m *Module) seal(sc schema, values map[string]string) {
	for name, value := range values {
		if sc.get(name).kind == secret && value != "" {
			values[name] = m.host.Box.Seal(value)
		}
	}
}

// save validates body against sc and stores it in scope s, all or nothing,
// after check has approved the values against what is stored. It returns
// what is stored afterwards.
func (m *Module) save(ctx context.Context, sc schema, s scope, body map[string]json.RawMessage,
	check func(stored, values map[string]string) error) (map[string]string, error) {
	values, err := sc.parse(body)
	if err != nil {
		return nil, err
	}
	var stored map[string]string
	err = m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if stored, err = m.store.load(ctx, tx, s); err != nil {
			return err
		}
		if check != nil {
			if err := check(stored, values); err != nil {
				return err
			}
		}
		m.seal(sc, values)
		if err := m.store.put(ctx, tx, s, values); err != nil {
			return err
		}
		for name, value := range values {
			stored[name] = value
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return stored, nil
}

// notFound is the answer for a company the caller may not see, so that ids
// of other companies reveal nothing.
var notFound = errs.New(errs.NotFound, errs.IDNotFound)
