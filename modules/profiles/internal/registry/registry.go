// Package registry is the profiles module's logic behind its routes, pages
// and the nodes module's questions: who may see and change which profile,
// the checks of a profile, and what applying one to a node does.
package registry

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/profiles"
	"github.com/fieldhub/fieldhub/modules/profiles/internal/store"
)

// Deps is what the registry works with; Alarms and Dashboards may be nil
// (a profile's templates then make nothing).
type Deps struct {
	Accounts   profiles.Accounts
	Nodes      profiles.Nodes
	Decoders   profiles.Decoders
	Alarms     profiles.Alarms
	Dashboards profiles.Dashboards
}

// Registry is the module's logic.
type Registry struct {
	host *kernel.Host
	db   *bun.DB
	deps Deps
}

// New returns the registry.
func New(host *kernel.Host, deps Deps) *Registry {
	return &Registry{host: host, db: host.DB, deps: deps}
}

// Decoders are the decoders and device models the forms offer.
func (g *Registry) Decoders() profiles.Decoders { return g.deps.Decoders }

// canManage tells whether the caller keeps the profiles of company
// (0: the installation's, the SuperAdmin's alone).
func canManage(ctx context.Context, companyID int64) bool {
	c := auth.CallerFrom(ctx)
	if companyID == 0 {
		return c.Role == auth.SuperAdmin
	}
	return c.CanManageCompany(companyID)
}

// Company checks that the caller keeps the profiles of company (0: the
// installation's) and that it exists; another company is not found.
func (g *Registry) Company(ctx context.Context, companyID int64) error {
	if !canManage(ctx, companyID) {
		return store.ErrNotFound
	}
	if companyID == 0 {
		return nil
	}
	_, err := g.deps.Accounts.Company(ctx, companyID)
	return err
}

// List lists the profiles company may use, its own and the installation's,
// with how many of its nodes use each (company 0: the installation's, with
// all their nodes).
func (g *Registry) List(ctx context.Context, companyID int64) ([]*profiles.Profile, error) {
	if err := g.Company(ctx, companyID); err != nil {
		return nil, err
	}
	list, err := store.Usable(ctx, g.db, companyID)
	if err != nil {
		return nil, err
	}
	counts, err := store.Counts(ctx, g.db, companyID)
	if err != nil {
		return nil, err
	}
	for _, p := range list {
		p.Nodes = counts[p.ID]
	}
	return list, nil
}

// Profile returns profile id if the caller may read it (with manage:
// change it). A company's profile is its managers'; an installation-wide
// one every manager's to read and the SuperAdmin's to change.
func (g *Registry) Profile(ctx context.Context, id int64, manage bool) (*profiles.Profile, error) {
	p, err := store.Profile(ctx, g.db, id)
	if err != nil {
		return nil, err
	}
	c := auth.CallerFrom(ctx)
	switch {
	case p.CompanyID != 0 && !canManage(ctx, p.CompanyID):
		return nil, store.ErrNotFound
	case p.CompanyID == 0 && manage && c.Role != auth.SuperAdmin:
		return nil, errs.New(errs.Forbidden, errs.IDForbidden)
	case p.CompanyID == 0 && !c.Role.In(auth.AdminOrCompanyAdmin):
		return nil, store.ErrNotFound
	}
	counts, err := store.Counts(ctx, g.db, countScope(c, p))
	if err != nil {
		return nil, err
	}
	p.Nodes = counts[p.ID]
	return p, nil
}

// countScope is the company whose nodes of p the caller is told of: a
// company's manager hears of their own nodes alone.
func countScope(c auth.Caller, p *profiles.Profile) int64 {
	if p.CompanyID == 0 && c.Role != auth.SuperAdmin {
		return c.CompanyID
	}
	return p.CompanyID
}

// Create checks in and stores it as a profile of company (0: the
// installation's).
func (g *Registry) Create(ctx context.Context, companyID int64, in profiles.Input) (*profiles.Profile, error) {
	if err := g.Company(ctx, companyID); err != nil {
		return nil, err
	}
	p := &profiles.Profile{CompanyID: companyID}
	if err := g.check(ctx, p, in); err != nil {
		return nil, err
	}
	if err := store.Insert(ctx, g.db, p); err != nil {
		return nil, err
	}
	g.announce(ctx, p, profiles.AuditCreated)
	return p, nil
}

// Update checks in and stores it over profile id; the answer tells how
// many nodes use it, to whom a changed profile may be applied.
func (g *Registry) Update(ctx context.Context, id int64, in profiles.Input) (*profiles.Profile, error) {
	p, err := g.Profile(ctx, id, true)
	if err != nil {
		return nil, err
	}
	if err := g.check(ctx, p, in); err != nil {
		return nil, err
	}
	if err := store.Update(ctx, g.db, p); err != nil {
		return nil, err
	}
	g.announce(ctx, p, profiles.AuditUpdated)
	return p, nil
}

// Delete removes profile id; its nodes keep what it gave them.
func (g *Registry) Delete(ctx context.Context, id int64) error {
	p, err := g.Profile(ctx, id, true)
	if err != nil {
		return err
	}
	if err := store.Delete(ctx, g.db, id); err != nil {
		return err
	}
	g.announce(ctx, p, profiles.AuditDeleted)
	return nil
}

// Apply gives the nodes created with profile id its decoder, key labels,
// units, default key and expected uplink interval again, in one transaction, and answers how many
// there were. Their alarms and dashboards are left alone: they were made
// once, and people may have changed them since.
func (g *Registry) Apply(ctx context.Context, id int64) (profiles.Applied, error) {
	p, err := g.Profile(ctx, id, true)
	if err != nil {
		return profiles.Applied{}, err
	}
	var n int
	err = g.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		ids, err := store.Nodes(ctx, tx, p.ID, p.CompanyID)
		if err != nil {
			return err
		}
		for _, node := range ids {
			if _, err := g.deps.Nodes.SetUpNode(ctx, tx, node, setup(p)); err != nil {
				return err
			}
		}
		n = len(ids)
		return nil
	})
	return profiles.Applied{Nodes: n}, err
}

// ApplyProfile gives a node just created in idb what profile profileID
// describes; see nodes.Profiles. The nodes module has checked that the
// caller manages the node's company.
func (g *Registry) ApplyProfile(ctx context.Context, idb bun.IDB, companyID, nodeID, profileID int64) error {
	p, err := store.Profile(ctx, idb, profileID)
	if errs.Is(err, errs.NotFound) || (err == nil && p.CompanyID != 0 && p.CompanyID != companyID) {
		return nodes.ErrProfileNotFound
	}
	if err != nil {
		return err
	}
	t, err := g.deps.Nodes.SetUpNode(ctx, idb, nodeID, setup(p))
	if err != nil {
		return err
	}
	if err := store.Record(ctx, idb, nodeID, p.ID); err != nil {
		return err
	}
	if g.deps.Alarms != nil {
		for _, a := range p.Alarms {
			if _, err := g.deps.Alarms.CreateFromTemplate(ctx, idb, companyID, nodeID, a); err != nil {
				return err
			}
		}
	}
	if g.deps.Dashboards == nil || len(p.Dashboard) == 0 {
		return nil
	}
	_, _, err = g.deps.Dashboards.SeedNode(ctx, idb, dashboard(p, t), t.DevEUI)
	return err
}

// ProfileByName finds a profile the company may use; see nodes.Profiles.
func (g *Registry) ProfileByName(ctx context.Context, companyID int64, name string) (nodes.ProfileRef, error) {
	p, err := store.ByName(ctx, g.db, companyID, name)
	if errs.Is(err, errs.NotFound) {
		return nodes.ProfileRef{}, nodes.ErrProfileNotFound
	}
	if err != nil {
		return nodes.ProfileRef{}, err
	}
	return nodes.ProfileRef{ID: p.ID, Name: p.Name}, nil
}

// ProfilesOfNodes tells the profile of each node of a company.
func (g *Registry) ProfilesOfNodes(ctx context.Context, companyID int64) (map[int64]nodes.ProfileRef, error) {
	return store.OfNodes(ctx, g.db, companyID)
}

// CompanyProfiles lists the profiles a company may use, by name.
func (g *Registry) CompanyProfiles(ctx context.Context, companyID int64) ([]nodes.ProfileRef, error) {
	list, err := store.Usable(ctx, g.db, companyID)
	if err != nil {
		return nil, err
	}
	out := make([]nodes.ProfileRef, len(list))
	for i, p := range list {
		out[i] = nodes.ProfileRef{ID: p.ID, Name: p.Name}
	}
	return out, nil
}

// setup is what p sets on a node.
func setup(p *profiles.Profile) nodes.NodeSetup {
	s := nodes.NodeSetup{Decoder: p.Decoder, DefaultKey: p.DefaultKey, UplinkInterval: time.Duration(p.UplinkInterval) * time.Second}
	for _, k := range p.Keys {
		s.Keys = append(s.Keys, nodes.KeySetup{Key: k.Key, Label: k.Label, Unit: k.Unit})
	}
	return s
}

// dashboard is the dashboard p's template makes for node t: named after
// the node, in the root category of the nodes' dashboards.
func dashboard(p *profiles.Profile, t *nodes.Tag) dashboards.SeedDashboard {
	s := dashboards.SeedDashboard{CompanyID: t.CompanyID, Category: profiles.DashboardName, Name: t.Name}
	for _, m := range p.Dashboard {
		s.Modules = append(s.Modules, dashboards.SeedModule{Title: m.Title, Type: m.Type, Tag: t.DevEUI,
			SizeSmall: "md", SizeMid: "md", Attributes: map[string]string{"tagkey": m.TagKey}})
	}
	return s
}

// announce puts a change of p on the audit trail.
func (g *Registry) announce(ctx context.Context, p *profiles.Profile, id string) {
	audit.Announce(ctx, g.host.Bus, audit.Change{CompanyID: p.CompanyID, MessageID: id, Args: map[string]any{"name": p.Name}})
}
