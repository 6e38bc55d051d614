// Package httpapi answers the JSON routes of the nodes module under /api:
// applications, tags with their keys and pictures, the node pool and
// integration tokens. Each handler checks the caller's reach
// (internal/access) and leaves the rules to the registry, which the pages
// use too. The tag data routes over the
// time series are in internal/tagdata.
package httpapi

import (
	"context"
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/bulk"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
)

// API holds the JSON route handlers.
type API struct {
	reg      *registry.Registry
	accounts nodes.Accounts
	// series counts the tags' data points; nil leaves dataPoints24h 0.
	series nodes.Series
	// bulk imports and exports a company's nodes as a file, whose report
	// speaks the caller's language (router, catalogs).
	bulk     *bulk.Service
	router   *web.Router
	catalogs *i18n.Catalogs
}

// New builds the handlers; series may be nil.
func New(reg *registry.Registry, accounts nodes.Accounts, series nodes.Series, imports *bulk.Service, router *web.Router, catalogs *i18n.Catalogs) *API {
	return &API{reg: reg, accounts: accounts, series: series, bulk: imports, router: router, catalogs: catalogs}
}

// Routes registers the routes of applications, tags, their keys and
// pictures, the node pool and integration tokens.
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("POST /applications/{companyId}", auth.AdminOrCompanyAdmin, a.createApplication)
	r.API("GET /applications/{applicationId}", auth.CompanyOrUser, a.getApplication)
	r.API("PUT /applications/{applicationId}", auth.AdminOrCompanyAdmin, a.updateApplication)
	r.API("DELETE /applications/{applicationId}", auth.AdminOrCompanyAdmin, a.deleteApplication)
	r.API("GET /companies/{companyId}/applications", auth.CompanyOrUser, a.companyApplications)
	r.API("GET /companies/{companyId}/tags", auth.CompanyOrUser, a.companyTags)
	r.API("POST /companies/{companyId}/nodes/import", auth.AdminOrCompanyAdmin, a.importNodes, web.MaxBody(bulk.BodyLimit))
	r.API("GET /companies/{companyId}/nodes/export", auth.AdminOrCompanyAdmin, a.exportNodes)

	r.API("GET /tag", auth.CompanyOrUser, a.listTags)
	r.API("POST /applications/{applicationId}/tag", auth.AdminOrCompanyAdmin, a.createTag)
	r.API("PUT /tag/{deveui}", auth.AdminOrCompanyAdmin, a.updateTag)
	r.API("GET /tag/{tagId}", auth.CompanyOrUser, a.getTag)
	r.API("DELETE /tag/{tagId}", auth.AdminOrCompanyAdmin, a.deleteTag)
	// GET /tag/company/{companyId}: Go's ServeMux refuses that pattern beside
	// GET /tag/{tagId}/keys (both match /tag/company/keys and neither is more
	// specific), so the first segment is a parameter that must read "company".
	r.API("GET /tag/{scope}/{companyId}", auth.CompanyOrUser, a.companyTagsByScope)
	r.API("GET /tag/{tagId}/keys", auth.CompanyOrUser, a.tagKeys)
	r.API("GET /tag/{tagId}/image", auth.CompanyOrUser, a.getTagImage)
	r.API("POST /tag/{tagId}/image", auth.AdminOrCompanyAdmin, a.putTagImage, web.MaxBody(web.ImageBodyLimit))
	r.API("DELETE /tag/{tagId}/image", auth.AdminOrCompanyAdmin, a.deleteTagImage)
	r.API("POST /tag/{tagId}/default/{key}", auth.AdminOrCompanyAdmin, a.setDefaultKey)
	r.API("POST /tag/{tagId}/move", auth.SuperAdminOnly, a.moveTag)

	r.API("POST /tag/key/add", auth.AdminOrCompanyAdmin, a.addKey)
	r.API("POST /tag/key/update", auth.AdminOrCompanyAdmin, a.updateKey)
	r.API("DELETE /tag/key/delete/{tagId}/{key}", auth.AdminOrCompanyAdmin, a.deleteKey)
	r.API("GET /tag/key/label/{tagId}/{key}", auth.CompanyOrUser, a.keyLabel)
	r.API("GET /tag/tagdata/keys/{companyId}", auth.CompanyOrUser, a.companyKeys)
	r.API("GET /tag/meta/{tagId}/tagdata", auth.CompanyOrUser, a.tagMeta)

	r.API("GET /tag/pool", auth.SuperAdminOnly, a.listPool)
	r.API("PUT /tag/pool/{poolId}", auth.SuperAdminOnly, a.updatePool)

	r.API("GET /integration/tokens/{companyId}", auth.AdminOrCompanyAdmin, a.listTokens)
	r.API("POST /integration/tokens/{companyId}", auth.AdminOrCompanyAdmin, a.createToken)
	r.API("DELETE /integration/tokens/{tokenId}", auth.AdminOrCompanyAdmin, a.deleteToken)
}

// pathTag loads the tag of the path's tagId within the caller's reach.
func (a *API) pathTag(ctx context.Context, r *http.Request, manage bool) (*nodes.Tag, error) {
	id, err := web.PathID(r, "tagId")
	if err != nil {
		return nil, err
	}
	return a.reg.ScopedTag(ctx, id, manage)
}

// pathApplication loads the application of the path's applicationId within
// the caller's reach.
func (a *API) pathApplication(ctx context.Context, r *http.Request, manage bool) (*nodes.Application, error) {
	id, err := web.PathID(r, "applicationId")
	if err != nil {
		return nil, err
	}
	return a.reg.ScopedApplication(ctx, id, manage)
}
