package core

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// The server pages of SPEC.md section 2 for applications, nodes, the node
// pool and integration tokens. They act on the viewer's company (the
// caller's own, or the one a SuperAdmin chose) and reach the data through
// the same methods as the API, so that the rules are the API's.

// menuItems are this module's side menu entries (SPEC.md section 2).
var menuItems = []web.MenuItem{
	{ID: "application", LabelID: "menu.application", Href: "/application", Icon: "mdi-apps", Roles: auth.AdminOrCompanyAdmin, Order: 70},
	{ID: "tag", LabelID: "menu.tag", Href: "/tag", Icon: "mdi-access-point", Roles: auth.AdminOrCompanyAdmin, Order: 80},
	{ID: "tagPool", LabelID: "menu.tagPool", Href: "/tag/pool", Icon: "mdi-tray-full", Roles: auth.SuperAdminOnly, Order: 130},
}

// pageRoutes registers the pages with the access of SPEC.md section 2's
// table; the steps under a page (its forms, confirmations) share its access.
func (m *Module) pageRoutes(r *web.ModuleRoutes) {
	r.Page("GET /application", auth.CompanyOrUser, m.applicationsPage)
	r.Page("GET /company/applications", auth.CompanyOrUser, m.companyApplicationsPage)
	r.Page("GET /application/create", auth.AdminOrCompanyAdmin, m.applicationCreatePage)
	r.Page("POST /application/create", auth.AdminOrCompanyAdmin, m.applicationCreateSubmit)
	r.Page("GET /application/{applicationId}", auth.AdminOrCompanyAdmin, m.applicationPage)
	r.Page("POST /application/{applicationId}", auth.AdminOrCompanyAdmin, m.applicationSubmit)
	r.Page("GET /application/{applicationId}/delete", auth.AdminOrCompanyAdmin, m.applicationDeletePage)
	r.Page("POST /application/{applicationId}/delete", auth.AdminOrCompanyAdmin, m.applicationDeleteSubmit)

	r.Page("GET /tag", auth.CompanyOrUser, m.tagsPage)
	r.Page("GET /tag/create", auth.AdminOrCompanyAdmin, m.tagCreatePage)
	r.Page("GET /tag/create/{deveui}", auth.AdminOrCompanyAdmin, m.tagCreatePage)
	r.Page("POST /tag/create", auth.AdminOrCompanyAdmin, m.tagCreateSubmit)
	r.Page("POST /tag/create/{deveui}", auth.AdminOrCompanyAdmin, m.tagCreateSubmit)

	r.Page("GET /tagdetails/{deveui}", auth.AdminOrCompanyAdmin, m.tagDetailsPage)
	r.Page("POST /tagdetails/{deveui}", auth.AdminOrCompanyAdmin, m.tagEditSubmit)
	r.Page("POST /tagdetails/{deveui}/image", auth.AdminOrCompanyAdmin, m.tagImageUpload, web.MaxBody(web.ImageBodyLimit))
	r.Page("GET /tagdetails/{deveui}/image/delete", auth.AdminOrCompanyAdmin, m.tagImageDeletePage)
	r.Page("POST /tagdetails/{deveui}/image/delete", auth.AdminOrCompanyAdmin, m.tagImageDeleteSubmit)
	r.Page("POST /tagdetails/{deveui}/keys", auth.AdminOrCompanyAdmin, m.keySubmit)
	r.Page("POST /tagdetails/{deveui}/keys/default", auth.AdminOrCompanyAdmin, m.keyDefaultSubmit)
	r.Page("POST /tagdetails/{deveui}/downlinks", auth.AdminOrCompanyAdmin, m.downlinkSubmit)
	r.Page("GET /tagdetails/{deveui}/downlinks/{downlinkId}/delete", auth.AdminOrCompanyAdmin, m.downlinkDeletePage)
	r.Page("POST /tagdetails/{deveui}/downlinks/{downlinkId}/delete", auth.AdminOrCompanyAdmin, m.downlinkDeleteSubmit)
	r.Page("GET /tagdetails/{deveui}/delete", auth.AdminOrCompanyAdmin, m.tagDeletePage)
	r.Page("POST /tagdetails/{deveui}/delete", auth.AdminOrCompanyAdmin, m.tagDeleteSubmit)

	r.Page("GET /tag/pool", auth.SuperAdminOnly, m.poolPage)
	r.Page("POST /tag/pool/{poolId}", auth.SuperAdminOnly, m.poolSubmit)

	r.Page("GET /company/tokens", auth.AdminOrCompanyAdmin, m.tokensPage)
	r.Page("POST /company/tokens", auth.AdminOrCompanyAdmin, m.tokenCreateSubmit)
	r.Page("GET /company/tokens/{tokenId}/delete", auth.AdminOrCompanyAdmin, m.tokenDeletePage)
	r.Page("POST /company/tokens/{tokenId}/delete", auth.AdminOrCompanyAdmin, m.tokenDeleteSubmit)
}

// t translates id in the language of the page being answered.
func (m *Module) t(r *http.Request, id string, pairs ...any) string {
	args := map[string]any{}
	for i := 0; i+1 < len(pairs); i += 2 {
		args[fmt.Sprint(pairs[i])] = pairs[i+1]
	}
	return m.host.Catalogs.T(web.ViewerFrom(r.Context()).Lang, id, args)
}

// viewedCompany is the company the pages show: the caller's own, or the one
// a SuperAdmin chose; 0 when the viewer has none, for the empty state.
func viewedCompany(r *http.Request) int64 { return web.ViewerFrom(r.Context()).CompanyID }

// managedCompany is the viewed company when the caller may change its
// nodes; without one the answer is SPEC.md section 5's "You must register a
// company first to create applications".
func managedCompany(r *http.Request) (int64, error) {
	id := viewedCompany(r)
	if id == 0 {
		return 0, errs.New(errs.Invalid, msgAppNoCompany)
	}
	return id, scoped(r.Context(), id, true)
}

// canManage tells whether the viewer may change the nodes of companyID.
func canManage(ctx context.Context, companyID int64) bool {
	return auth.CallerFrom(ctx).CanManageCompany(companyID)
}

// fallbackDecoders is the built-in list the tag forms offer when the
// decoder catalog cannot be read (SPEC.md section 3 "Decoder list").
var fallbackDecoders = []decoders.Entry{{Key: DefaultDecoder, Name: DefaultDecoder}}

// decoderOptions are the choices of the decoder select for a node of
// company: the empty prompt (the default decoder), then the catalog with
// the company's own decoders, and current when it is another. ok is false
// when the catalog could not be read.
func (m *Module) decoderOptions(ctx context.Context, company int64, current string) (opts []ui.Option, ok bool) {
	list, err := m.deps.Decoders.Catalog(ctx, company)
	if err != nil {
		m.log.Warn("decoder list could not be read", "company_id", company, "err", err)
	}
	ok = err == nil && len(list) > 0
	if !ok {
		list = fallbackDecoders
	}
	opts = []ui.Option{{Value: "", LabelID: "page.tag.decoder.prompt"}}
	known := current == ""
	for _, e := range list {
		name := e.Name
		if name == "" {
			name = e.Key
		}
		if e.Custom {
			name = m.host.Catalogs.T(web.ViewerFrom(ctx).Lang, "decoders.option.custom", map[string]any{"name": name})
		}
		opts = append(opts, ui.Option{Value: e.Key, Label: name})
		known = known || e.Key == current
	}
	if !known {
		opts = append(opts, ui.Option{Value: current, Label: current})
	}
	return opts, ok
}

// formatNumber shows a value with the key's decimals when they are set.
func formatNumber(v float64, decimals *int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	if decimals != nil {
		return strconv.FormatFloat(v, 'f', *decimals, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// formatValue shows a reported value: numbers as numbers, texts as they
// are, anything else as JSON would write it.
func formatValue(v any, decimals *int) string {
	switch x := v.(type) {
	case nil:
		return ""
	case float64:
		return formatNumber(x, decimals)
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

// optNumber shows an optional reading, "" when there is none.
func optNumber(v *float64) string {
	if v == nil {
		return ""
	}
	return formatNumber(*v, nil)
}

// isoTime is the machine-readable form of a time, for <time datetime>.
func isoTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// shownTime is how the pages write a time: in UTC, to the second.
func shownTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") + " UTC" }

// age writes how long ago t was, in the page's language.
func age(ctx context.Context, t time.Time) string {
	d := time.Since(t)
	switch {
	case d < time.Minute:
		return ui.T(ctx, "page.tag.age.now")
	case d < time.Hour:
		return ui.Tf(ctx, "page.tag.age.minutes", "n", int(d/time.Minute))
	case d < 48*time.Hour:
		return ui.Tf(ctx, "page.tag.age.hours", "n", int(d/time.Hour))
	}
	return ui.Tf(ctx, "page.tag.age.days", "n", int(d/(24*time.Hour)))
}
