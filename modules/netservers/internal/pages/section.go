// Package pages holds the netservers module's parts of the pages of the
// nodes module. On the application page, the network server setup
// (ingest.go, a nodes.ApplicationSection). On the node details page, the
// downlink section of /tagdetails/{deveui} (a nodes.PageSection:
// the node's downlinks, the form that queues one and the taking back of a
// queued one, above the confirmation it asks first) and its page routes,
// POST /tagdetails/{deveui}/downlinks and GET and POST
// /tagdetails/{deveui}/downlinks/{downlinkId}/delete.
package pages

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/queue"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Section is the downlink section; it satisfies nodes.PageSection.
type Section struct {
	host  *kernel.Host
	ui    *ui.Env
	pages netservers.TagPages
	queue *queue.Queue
}

// New returns the section; register it with the node details pages.
func New(host *kernel.Host, env *ui.Env, pages netservers.TagPages, queue *queue.Queue) *Section {
	return &Section{host: host, ui: env, pages: pages, queue: queue}
}

// Routes registers the steps of the section.
func (s *Section) Routes(r *web.ModuleRoutes) {
	r.Page("POST /tagdetails/{deveui}/downlinks", auth.AdminOrCompanyAdmin, s.downlinkSubmit)
	r.Page("GET /tagdetails/{deveui}/downlinks/{downlinkId}/delete", auth.AdminOrCompanyAdmin, s.downlinkDeletePage)
	r.Page("POST /tagdetails/{deveui}/downlinks/{downlinkId}/delete", auth.AdminOrCompanyAdmin, s.downlinkDeleteSubmit)
}

// TagSection draws the section on t's page with a fresh form; see
// nodes.PageSection.
func (s *Section) TagSection(r *http.Request, t *nodes.Tag) (templ.Component, error) {
	list, err := s.queue.OfTag(r.Context(), t)
	if err != nil {
		return nil, err
	}
	return downlinkSection(t, list, downlinkForm(t, url.Values{"port": {"1"}, "payloadType": {"hex"}}, ui.NoErrors)), nil
}

// t translates id in the language of the page being answered.
func (s *Section) t(r *http.Request, id string) string {
	return s.host.Catalogs.T(web.ViewerFrom(r.Context()).Lang, id, map[string]any{})
}

// tagPath is the path of a node's details page, with rest after it.
func tagPath(deveui, rest string) string { return "/tagdetails/" + deveui + rest }

// isoTime is the machine-readable form of a time, for <time datetime>.
func isoTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// shownTime is how the node details page writes a time: in the viewer's
// time zone, to the second, with the zone named.
func shownTime(ctx context.Context, t time.Time) string { return ui.DateTime(ctx, t) }

// downlinkInputFrom reads the downlink form. A port that is not a number
// counts as none, which is refused with "Port must be greater than 0".
func downlinkInputFrom(vals url.Values) queue.Input {
	port, err := strconv.Atoi(strings.TrimSpace(vals.Get("port")))
	if err != nil {
		port = 0
	}
	payload, _ := json.Marshal(vals.Get("payload"))
	return queue.Input{Port: port, Payload: payload, PayloadType: vals.Get("payloadType"), Confirmed: vals.Get("confirmed") == "true"}
}

// downlinkSubmit queues a downlink from the section's form; a refused
// form comes back with its messages, alone for htmx, else on the whole
// page.
func (s *Section) downlinkSubmit(w http.ResponseWriter, r *http.Request) error {
	t, err := s.pages.PageTag(r)
	if err != nil {
		return err
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	if _, err := s.queue.Add(r.Context(), t, downlinkInputFrom(vals)); err != nil {
		page, perr := s.pages.TagPage(r, t, s)
		if perr != nil {
			return perr
		}
		list, lerr := s.queue.OfTag(r.Context(), t)
		if lerr != nil {
			return lerr
		}
		return s.ui.FormFailed(w, r, err, "page.tag.details.title", func(fe ui.FormErrors) templ.Component {
			return downlinkForm(t, vals, fe)
		}, func(form templ.Component) templ.Component {
			return page(downlinkSection(t, list, form))
		}, ui.Options{Islands: true})
	}
	web.Toast(w, r, "success", s.t(r, "page.tag.downlink.queued"))
	web.Redirect(w, r, tagPath(t.DevEUI, ""))
	return nil
}

// pageDownlink loads the path's downlink of t.
func (s *Section) pageDownlink(r *http.Request, t *nodes.Tag) (*netservers.Downlink, error) {
	id, err := web.PathID(r, "downlinkId")
	if err != nil {
		return nil, err
	}
	d, err := s.queue.Downlink(r.Context(), id)
	if err != nil {
		return nil, err
	}
	if d.TagID != t.ID {
		return nil, queue.ErrNotFound
	}
	return d, nil
}

// downlinkDeletePage asks before a queued downlink is taken back.
func (s *Section) downlinkDeletePage(w http.ResponseWriter, r *http.Request) error {
	t, err := s.pages.PageTag(r)
	if err != nil {
		return err
	}
	d, err := s.pageDownlink(r, t)
	if err != nil {
		return err
	}
	return s.ui.Render(w, r, http.StatusOK, "page.tag.downlink.delete", downlinkConfirm(t, d, ui.NoErrors))
}

// downlinkDeleteSubmit takes a queued downlink back.
func (s *Section) downlinkDeleteSubmit(w http.ResponseWriter, r *http.Request) error {
	t, err := s.pages.PageTag(r)
	if err != nil {
		return err
	}
	d, err := s.pageDownlink(r, t)
	if err != nil {
		return err
	}
	if err := s.queue.Remove(r.Context(), d.ID); err != nil {
		return s.ui.FormFailed(w, r, err, "page.tag.downlink.delete", func(fe ui.FormErrors) templ.Component {
			return downlinkConfirm(t, d, fe)
		}, nil)
	}
	web.Toast(w, r, "success", s.t(r, "page.tag.downlink.deleted"))
	web.Redirect(w, r, tagPath(t.DevEUI, ""))
	return nil
}

// downlinkStatusClass is the pill style of a downlink status.
func downlinkStatusClass(status string) string {
	switch status {
	case netservers.DownlinkSent:
		return "pill info"
	case netservers.DownlinkAcknowledged:
		return "pill ok"
	case netservers.DownlinkFailed:
		return "pill alarm"
	}
	return "pill"
}

// payloadTypes are the payload types of a downlink.
var payloadTypes = []ui.Option{
	{Value: "hex", LabelID: "page.tag.downlink.type.hex"},
	{Value: "base64", LabelID: "page.tag.downlink.type.base64"},
	{Value: "json", LabelID: "page.tag.downlink.type.json"},
}
