package core

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Decoders is the list of device decoders a tag may name; see
// nodes.Decoders.
type Decoders interface {
	Has(ctx context.Context, company int64, key string) (bool, error)
	Catalog(ctx context.Context, company int64) ([]decoders.Entry, error)
}

// Series reads stored values of nodes; see nodes.Series.
type Series interface {
	Range(ctx context.Context, s tsdb.Series, from, to time.Time, maxPoints int) ([]tsdb.Point, error)
	Latest(ctx context.Context, s tsdb.Series) (tsdb.Point, bool, error)
	Aggregate(ctx context.Context, s tsdb.Series, from, to time.Time, bucket time.Duration) ([]tsdb.Bucket, error)
	Count(ctx context.Context, company int64, from, to time.Time) (int64, error)
	CountByNode(ctx context.Context, company int64, from, to time.Time) (map[string]int64, error)
}

// Accounts is the part of the accounts module that nodes asks.
type Accounts interface {
	Company(ctx context.Context, id int64) (*accounts.Company, error)
}

// Deps are the module's dependencies; see nodes.Deps.
type Deps struct {
	Accounts Accounts
	Decoders Decoders
	UI       *ui.Env // nil: no pages
	Series   Series  // nil: no stored values on the node details page
}

// Module is the nodes module.
type Module struct {
	host  *kernel.Host
	db    *bun.DB
	log   *slog.Logger
	deps  Deps
	ui    *ui.Env
	store store
	// tokens keeps recently presented integration tokens (tokens.go).
	tokens tokenCache
	// tagCache keeps the tags the ingest looks up (tagcache.go).
	tagCache tagCache
}

// New builds the module; with a UI it adds its side menu entries.
func New(host *kernel.Host, deps Deps) *Module {
	m := &Module{host: host, db: host.DB, log: host.Logger("nodes"), deps: deps, ui: deps.UI}
	if m.ui != nil {
		for _, item := range menuItems {
			host.Router.AddMenuItem(item)
		}
	}
	return m
}

// Name names the module.
func (m *Module) Name() string { return "nodes" }

// Routes registers SPEC.md section 7 "Applications", "Tags", the tag data
// keys, "Integration tokens" and "Downlinks".
func (m *Module) Routes(r *web.ModuleRoutes) {
	r.API("POST /applications/{companyId}", auth.AdminOrCompanyAdmin, m.createApplication)
	r.API("GET /applications/{applicationId}", auth.CompanyOrUser, m.getApplication)
	r.API("PUT /applications/{applicationId}", auth.AdminOrCompanyAdmin, m.updateApplication)
	r.API("DELETE /applications/{applicationId}", auth.AdminOrCompanyAdmin, m.deleteApplication)
	r.API("GET /companies/{companyId}/applications", auth.CompanyOrUser, m.companyApplications)
	r.API("GET /companies/{companyId}/tags", auth.CompanyOrUser, m.companyTags)

	r.API("GET /tag", auth.CompanyOrUser, m.listTags)
	r.API("POST /applications/{applicationId}/tag", auth.AdminOrCompanyAdmin, m.createTag)
	r.API("PUT /tag/{deveui}", auth.AdminOrCompanyAdmin, m.updateTag)
	r.API("GET /tag/{tagId}", auth.CompanyOrUser, m.getTag)
	r.API("DELETE /tag/{tagId}", auth.AdminOrCompanyAdmin, m.deleteTag)
	// GET /tag/company/{companyId}: Go's ServeMux refuses that pattern beside
	// GET /tag/{tagId}/keys (both match /tag/company/keys and neither is more
	// specific), so the first segment is a parameter that must read "company".
	r.API("GET /tag/{scope}/{companyId}", auth.CompanyOrUser, m.companyTagsByScope)
	r.API("GET /tag/{tagId}/keys", auth.CompanyOrUser, m.tagKeys)
	r.API("GET /tag/{tagId}/image", auth.CompanyOrUser, m.getTagImage)
	r.API("POST /tag/{tagId}/image", auth.AdminOrCompanyAdmin, m.putTagImage, web.MaxBody(web.ImageBodyLimit))
	r.API("DELETE /tag/{tagId}/image", auth.AdminOrCompanyAdmin, m.deleteTagImage)
	r.API("POST /tag/{tagId}/default/{key}", auth.AdminOrCompanyAdmin, m.setDefaultKey)

	r.API("POST /tag/key/add", auth.AdminOrCompanyAdmin, m.addKey)
	r.API("POST /tag/key/update", auth.AdminOrCompanyAdmin, m.updateKey)
	r.API("DELETE /tag/key/delete/{tagId}/{key}", auth.AdminOrCompanyAdmin, m.deleteKey)
	r.API("GET /tag/key/label/{tagId}/{key}", auth.CompanyOrUser, m.keyLabel)
	r.API("GET /tag/tagdata/keys/{companyId}", auth.CompanyOrUser, m.companyKeys)
	r.API("GET /tag/meta/{tagId}/tagdata", auth.CompanyOrUser, m.tagMeta)

	r.API("GET /tag/pool", auth.SuperAdminOnly, m.listPool)
	r.API("PUT /tag/pool/{poolId}", auth.SuperAdminOnly, m.updatePool)

	r.API("GET /integration/tokens/{companyId}", auth.AdminOrCompanyAdmin, m.listTokens)
	r.API("POST /integration/tokens/{companyId}", auth.AdminOrCompanyAdmin, m.createToken)
	r.API("DELETE /integration/tokens/{tokenId}", auth.AdminOrCompanyAdmin, m.deleteToken)

	r.API("GET /downlink/tag/{tagId}", auth.CompanyOrUser, m.listDownlinks)
	r.API("POST /downlink/{tagId}", auth.AdminOrCompanyAdmin, m.createDownlink)
	r.API("DELETE /downlink/{downlinkId}", auth.AdminOrCompanyAdmin, m.deleteDownlink)

	if m.deps.Series != nil {
		m.tagDataRoutes(r)
	}

	if m.ui != nil {
		m.pageRoutes(r)
	}
}

var errNotFound = errs.New(errs.NotFound, errs.IDNotFound)

// visibleCompanyID returns the path's companyId if the caller may see that
// company and it exists; another company's id is reported as not found, so
// that ids reveal nothing.
func (m *Module) visibleCompanyID(ctx context.Context, r *http.Request) (int64, error) {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return 0, err
	}
	if !auth.CallerFrom(ctx).CanSeeCompany(id) {
		return 0, errNotFound
	}
	if _, err := m.deps.Accounts.Company(ctx, id); err != nil {
		return 0, err
	}
	return id, nil
}

// managedCompanyID returns the path's companyId if the caller may change
// that company's nodes.
func (m *Module) managedCompanyID(ctx context.Context, r *http.Request) (int64, error) {
	id, err := m.visibleCompanyID(ctx, r)
	if err != nil {
		return 0, err
	}
	if !auth.CallerFrom(ctx).CanManageCompany(id) {
		return 0, errs.New(errs.Forbidden, errs.IDForbidden)
	}
	return id, nil
}

// scoped checks that the caller may see (and, with manage, change) what
// belongs to companyID.
func scoped(ctx context.Context, companyID int64, manage bool) error {
	c := auth.CallerFrom(ctx)
	if !c.CanSeeCompany(companyID) {
		return errNotFound
	}
	if manage && !c.CanManageCompany(companyID) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	return nil
}

// pathTag loads the tag of the path's tagId within the caller's reach.
func (m *Module) pathTag(ctx context.Context, r *http.Request, manage bool) (*Tag, error) {
	id, err := web.PathID(r, "tagId")
	if err != nil {
		return nil, err
	}
	return m.scopedTag(ctx, id, manage)
}

func (m *Module) scopedTag(ctx context.Context, id int64, manage bool) (*Tag, error) {
	t, err := m.store.tagByID(ctx, m.db, id)
	if err != nil {
		return nil, err
	}
	if err := scoped(ctx, t.CompanyID, manage); err != nil {
		return nil, err
	}
	if err := m.fill(ctx, m.db, t); err != nil {
		return nil, err
	}
	return t, nil
}

// pathApplication loads the application of the path's applicationId within
// the caller's reach.
func (m *Module) pathApplication(ctx context.Context, r *http.Request, manage bool) (*Application, error) {
	id, err := web.PathID(r, "applicationId")
	if err != nil {
		return nil, err
	}
	a, err := m.store.applicationByID(ctx, m.db, id)
	if err != nil {
		return nil, err
	}
	if err := scoped(ctx, a.CompanyID, manage); err != nil {
		return nil, err
	}
	return a, nil
}
