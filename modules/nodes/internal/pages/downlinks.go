package pages

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/downlinks"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// The downlink queue's part of the node details page: the node's downlinks,
// the form that queues one and the taking back of a queued one. It is kept
// apart with the queue (internal/downlinks).

// downlinkRoutes registers the steps of the page's downlink section.
func (pg *Pages) downlinkRoutes(r *web.ModuleRoutes) {
	r.Page("POST /tagdetails/{deveui}/downlinks", auth.AdminOrCompanyAdmin, pg.downlinkSubmit)
	r.Page("GET /tagdetails/{deveui}/downlinks/{downlinkId}/delete", auth.AdminOrCompanyAdmin, pg.downlinkDeletePage)
	r.Page("POST /tagdetails/{deveui}/downlinks/{downlinkId}/delete", auth.AdminOrCompanyAdmin, pg.downlinkDeleteSubmit)
}

// downlinkInputFrom reads the downlink form. A port that is not a number
// counts as none, which is refused with "Port must be greater than 0".
func downlinkInputFrom(vals url.Values) downlinks.Input {
	port, err := strconv.Atoi(strings.TrimSpace(vals.Get("port")))
	if err != nil {
		port = 0
	}
	payload, _ := json.Marshal(vals.Get("payload"))
	return downlinks.Input{Port: port, Payload: payload, PayloadType: vals.Get("payloadType"), Confirmed: vals.Get("confirmed") == "true"}
}

func (pg *Pages) downlinkSubmit(w http.ResponseWriter, r *http.Request) error {
	t, err := pg.pageTag(r)
	if err != nil {
		return err
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	if _, err := pg.queue.Add(r.Context(), t, downlinkInputFrom(vals)); err != nil {
		return pg.failed(w, r, t, err, func(fe ui.FormErrors) templ.Component {
			return downlinkForm(t, vals, fe)
		}, func(d *tagDetails, c templ.Component) { d.Downlink = c })
	}
	web.Toast(w, r, "success", pg.t(r, "page.tag.downlink.queued"))
	web.Redirect(w, r, tagPath(t.DevEUI, ""))
	return nil
}

// pageDownlink loads the path's downlink of t.
func (pg *Pages) pageDownlink(r *http.Request, t *nodes.Tag) (*nodes.Downlink, error) {
	id, err := web.PathID(r, "downlinkId")
	if err != nil {
		return nil, err
	}
	d, err := pg.queue.Downlink(r.Context(), id)
	if err != nil {
		return nil, err
	}
	if d.TagID != t.ID {
		return nil, access.ErrNotFound
	}
	return d, nil
}

// downlinkDeletePage asks before a queued downlink is taken back.
func (pg *Pages) downlinkDeletePage(w http.ResponseWriter, r *http.Request) error {
	t, err := pg.pageTag(r)
	if err != nil {
		return err
	}
	d, err := pg.pageDownlink(r, t)
	if err != nil {
		return err
	}
	return pg.ui.Render(w, r, http.StatusOK, "page.tag.downlink.delete", downlinkConfirm(t, d, ui.NoErrors))
}

func (pg *Pages) downlinkDeleteSubmit(w http.ResponseWriter, r *http.Request) error {
	t, err := pg.pageTag(r)
	if err != nil {
		return err
	}
	d, err := pg.pageDownlink(r, t)
	if err != nil {
		return err
	}
	if err := pg.queue.Remove(r.Context(), d.ID); err != nil {
		return pg.ui.FormFailed(w, r, err, "page.tag.downlink.delete", func(fe ui.FormErrors) templ.Component {
			return downlinkConfirm(t, d, fe)
		}, nil)
	}
	web.Toast(w, r, "success", pg.t(r, "page.tag.downlink.deleted"))
	web.Redirect(w, r, tagPath(t.DevEUI, ""))
	return nil
}

// downlinkStatusClass is the pill style of a downlink status.
func downlinkStatusClass(status string) string {
	switch status {
	case nodes.DownlinkSent:
		return "pill info"
	case nodes.DownlinkAcknowledged:
		return "pill ok"
	case nodes.DownlinkFailed:
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
