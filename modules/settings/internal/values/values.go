// Package values reads and saves the settings of every scope: a body is
// checked against its schema and stored all or nothing with its secrets
// sealed, and what other modules read comes back with them opened. The JSON
// routes and the pages both save through it, so that they follow the same
// rules.
package values

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/settings"
	"github.com/fieldhub/fieldhub/modules/settings/internal/schema"
	"github.com/fieldhub/fieldhub/modules/settings/internal/store"
)

// Service is the settings of every scope; it satisfies settings.Service.
type Service struct {
	host       *kernel.Host
	db         *bun.DB
	accounts   settings.Accounts
	whiteLabel func() bool
	users      schema.Schema
}

// New returns the service. whiteLabel reports whether the license allows
// white-label branding; accounts tells which company a caller belongs to.
func New(host *kernel.Host, accounts settings.Accounts, whiteLabel func() bool) *Service {
	return &Service{host: host, db: host.DB, accounts: accounts, whiteLabel: whiteLabel,
		users: schema.User(host.Catalogs.Languages())}
}

// Users is the schema of a user's settings, whose languages are those with
// a catalog.
func (s *Service) Users() schema.Schema { return s.users }

// WhiteLabel reports whether the license allows white-label branding.
func (s *Service) WhiteLabel() bool { return s.whiteLabel() }

// GlobalSchema is the global settings' schema, with the SMS providers the
// plugin host offers now.
func (s *Service) GlobalSchema() schema.Schema { return schema.Global(s.host.SMSPlugins.Providers()) }

// CompanySchema is a company's settings' schema, with the SMS providers
// the plugin host offers now.
func (s *Service) CompanySchema() schema.Schema { return schema.Company(s.host.SMSPlugins.Providers()) }

// Global returns the global settings with secrets opened.
func (s *Service) Global(ctx context.Context) (map[string]string, error) {
	return s.opened(ctx, s.GlobalSchema(), store.GlobalScope)
}

// Company returns a company's settings with secrets opened.
func (s *Service) Company(ctx context.Context, companyID int64) (map[string]string, error) {
	return s.opened(ctx, s.CompanySchema(), store.CompanyScope(companyID))
}

func (s *Service) opened(ctx context.Context, sc schema.Schema, scope store.Scope) (map[string]string, error) {
	stored, err := store.Load(ctx, s.db, scope)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, st := range sc {
		value := stored[st.Name]
		if st.Kind == schema.Secret && value != "" {
			if value, err = s.host.Box.Open(value); err != nil {
				return nil, fmt.Errorf("open %s %s: %w", scope.Table, st.Name, err)
			}
		}
		out[st.Name] = value
	}
	return out, nil
}

// Load returns the stored values of a scope, secrets sealed.
func (s *Service) Load(ctx context.Context, scope store.Scope) (map[string]string, error) {
	return store.Load(ctx, s.db, scope)
}

// LoadFrame returns a user's stored settings (none for userID 0, a visitor)
// and the named global settings, in one query: every page's frame needs
// them.
func (s *Service) LoadFrame(ctx context.Context, userID int64, globals []string) (user, global map[string]string, err error) {
	return store.LoadFrame(ctx, s.db, userID, globals)
}

// seal replaces the non-empty secrets of values with their sealed form.
func (s *Service) seal(sc schema.Schema, values map[string]string) {
	for name, value := range values {
		if sc.Get(name).Kind == schema.Secret && value != "" {
			values[name] = s.host.Box.Seal(value)
		}
	}
}

// Save validates body against sc and stores it in scope, all or nothing,
// after check (nil for none) has approved the values against what is
// stored. It returns what is stored afterwards, and puts what changed on
// the audit trail.
func (s *Service) Save(ctx context.Context, sc schema.Schema, scope store.Scope, body map[string]json.RawMessage,
	check func(stored, values map[string]string) error) (map[string]string, error) {
	values, err := sc.Parse(body)
	if err != nil {
		return nil, err
	}
	var stored map[string]string
	var before, after map[string]any
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if stored, err = store.Load(ctx, tx, scope); err != nil {
			return err
		}
		if check != nil {
			if err := check(stored, values); err != nil {
				return err
			}
		}
		before, after = s.changes(sc, stored, values)
		s.seal(sc, values)
		if err := store.Put(ctx, tx, scope, values); err != nil {
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
	s.announce(ctx, scope, before, after)
	return stored, nil
}
