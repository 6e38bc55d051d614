// Package pages holds the decoder pages: /decoders lists the viewed
// company's own decoders and its limits, /decoders/create and
// /decoders/{decoderId} hold the decoder-editor island (editor, test pane,
// versions), and the latter the nodes that use the decoder, the sections
// other modules register (the ingest's re-decoding) and the removal. The
// pages act on the viewer's company (a SuperAdmin's chosen one) through the
// decoding service, as the API does; docs/decisions.md, "Decoder pages".
package pages

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/decoding"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Pages draws the decoder pages; it satisfies decoders.Pages.
type Pages struct {
	host *kernel.Host
	ui   *ui.Env
	svc  *decoding.Service

	mu       sync.RWMutex
	sections []decoders.PageSection
}

// New returns the pages of svc, drawn with env.
func New(host *kernel.Host, env *ui.Env, svc *decoding.Service) *Pages {
	return &Pages{host: host, ui: env, svc: svc}
}

// menuItem is the side menu entry, after Nodes.
var menuItem = web.MenuItem{ID: "decoders", LabelID: "decoders.menu", Href: "/decoders", Icon: "mdi-code-braces",
	Roles: auth.AdminOrCompanyAdmin, Order: 85}

// Routes adds the menu entry and registers the pages.
func (p *Pages) Routes(r *web.ModuleRoutes) {
	p.host.Router.AddMenuItem(menuItem)
	r.Page("GET /decoders", auth.AdminOrCompanyAdmin, p.listPage)
	r.Page("POST /decoders/limits", auth.SuperAdminOnly, p.limitsSubmit)
	r.Page("POST /decoders/limits/reset", auth.SuperAdminOnly, p.limitsReset)
	r.Page("GET /decoders/create", auth.AdminOrCompanyAdmin, p.createPage)
	r.Page("GET /decoders/{decoderId}", auth.AdminOrCompanyAdmin, p.decoderPage)
	r.Page("GET /decoders/{decoderId}/delete", auth.AdminOrCompanyAdmin, p.deletePage)
	r.Page("POST /decoders/{decoderId}/delete", auth.AdminOrCompanyAdmin, p.deleteSubmit)
	r.Page("POST /decoders/{decoderId}/switch-on", auth.AdminOrCompanyAdmin, p.switchOnSubmit)
	p.host.Router.AddMenuItem(devicesMenuItem)
	r.Page("GET /devices", auth.AdminOrCompanyAdmin, p.devicesPage)
	r.Page("GET /devices/{vendorId}/{modelId}", auth.AdminOrCompanyAdmin, p.devicePage)
	r.Page("POST /devices/import", auth.SuperAdminOnly, p.devicesImport, web.MaxBody(decoding.MaxArchive))
}

func decoderPath(id int64, rest string) string { return fmt.Sprintf("/decoders/%d%s", id, rest) }

// t translates id in the language of the page being answered.
func (p *Pages) t(r *http.Request, id string, pairs ...any) string {
	args := map[string]any{}
	for i := 0; i+1 < len(pairs); i += 2 {
		args[fmt.Sprint(pairs[i])] = pairs[i+1]
	}
	return p.host.Catalogs.T(web.ViewerFrom(r.Context()).Lang, id, args)
}

// viewedCompany is the company the pages show: the caller's own, or the one
// a SuperAdmin chose; 0 for none.
func viewedCompany(r *http.Request) int64 { return web.ViewerFrom(r.Context()).CompanyID }

// kindLabel is the message id of a decoder kind.
func kindLabel(kind string) string {
	if kind == decoders.KindWASM {
		return "decoders.kind.wasm"
	}
	return "decoders.kind.js"
}

// builtinName is the name of a built-in decoder in the page's language:
// raw's is translated, the codecs' names are product names.
func builtinName(ctx context.Context, e decoders.Entry) string {
	if e.Key == decoders.Raw {
		return ui.T(ctx, decoders.IDRawName)
	}
	return e.Name
}

// formatTime shows a time in the viewer's zone, to the minute, the zone named.
func formatTime(ctx context.Context, t time.Time) string { return ui.DateTimeMinutes(ctx, t) }
