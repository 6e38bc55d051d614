package pages

import (
	"net/http"
	"net/url"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
)

// The node pool page, /tag/pool (SuperAdmin): the DevEUIs heard without a
// node, filtered by status, with the actions that hide, show or take an
// entry and the way to create its node; and the node registrations refused
// because another company's node has the DevEUI, with the way to the
// node's move.

// poolStatuses are the filter's choices, the default first.
var poolStatuses = []string{nodes.PoolShown, nodes.PoolHidden, nodes.PoolTaken, "all"}

// poolFilter reads the status filter; "" is the default list.
func poolFilter(raw string) string {
	if raw == "" {
		return nodes.PoolShown
	}
	return raw
}

func (pg *Pages) poolPage(w http.ResponseWriter, r *http.Request) error {
	status := poolFilter(r.URL.Query().Get("status"))
	list, err := pg.reg.PoolEntries(r.Context(), status)
	if err != nil {
		return err
	}
	body := poolList(list, status)
	if web.IsHTMX(r) && r.Header.Get("HX-Target") == "pool-list" {
		return pg.ui.Fragment(w, r, http.StatusOK, body)
	}
	claims, err := pg.reg.ClaimGroups(r.Context())
	if err != nil {
		return err
	}
	return pg.ui.Render(w, r, http.StatusOK, "page.pool.title", poolPage(status, body, claims))
}

// poolSubmit changes an entry's status and goes back to the list it came
// from.
func (pg *Pages) poolSubmit(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "poolId")
	if err != nil {
		return err
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	e, err := pg.reg.SetPoolStatus(r.Context(), id, vals.Get("status"))
	if err != nil {
		return err
	}
	web.Toast(w, r, "success", pg.t(r, "page.pool.updated", "deveui", e.DevEUI, "status", pg.t(r, "page.pool.status."+e.Status)))
	back := "/tag/pool"
	if from := vals.Get("from"); from != "" && from != nodes.PoolShown && validFilter(from) {
		back += "?status=" + url.QueryEscape(from)
	}
	web.Redirect(w, r, back)
	return nil
}

// validFilter reports whether s is a choice of the status filter.
func validFilter(s string) bool { return s == "all" || registry.ValidPoolStatus(s) }

// poolStatusClass is the pill style of a pool status.
func poolStatusClass(status string) string {
	switch status {
	case nodes.PoolShown:
		return "pill info"
	case nodes.PoolTaken:
		return "pill ok"
	}
	return "pill"
}
