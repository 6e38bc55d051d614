package core

import (
	"net/http"
	"net/url"

	"github.com/fieldhub/fieldhub/kernel/web"
)

// The node pool page of SPEC.md section 2, /tag/pool (SuperAdmin): the
// DevEUIs heard without a node, filtered by status, with the actions that
// hide, show or take an entry and the way to create its node.

// poolStatuses are the filter's choices, the default first.
var poolStatuses = []string{PoolShown, PoolHidden, PoolTaken, "all"}

// poolFilter reads the status filter; "" is the default list.
func poolFilter(raw string) string {
	if raw == "" {
		return PoolShown
	}
	return raw
}

func (m *Module) poolPage(w http.ResponseWriter, r *http.Request) error {
	status := poolFilter(r.URL.Query().Get("status"))
	list, err := m.poolEntries(r.Context(), status)
	if err != nil {
		return err
	}
	body := poolList(list, status)
	if web.IsHTMX(r) && r.Header.Get("HX-Target") == "pool-list" {
		return m.ui.Fragment(w, r, http.StatusOK, body)
	}
	return m.ui.Render(w, r, http.StatusOK, "page.pool.title", poolPage(status, body))
}

// poolSubmit changes an entry's status and goes back to the list it came
// from.
func (m *Module) poolSubmit(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "poolId")
	if err != nil {
		return err
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	e, err := m.setPoolStatus(r.Context(), id, vals.Get("status"))
	if err != nil {
		return err
	}
	web.Toast(w, r, "success", m.t(r, "page.pool.updated", "deveui", e.DevEUI, "status", m.t(r, "page.pool.status."+e.Status)))
	back := "/tag/pool"
	if from := vals.Get("from"); from != "" && from != PoolShown && validFilter(from) {
		back += "?status=" + url.QueryEscape(from)
	}
	web.Redirect(w, r, back)
	return nil
}

func validFilter(s string) bool { return s == "all" || validPoolStatus(s) }

// poolStatusClass is the pill style of a pool status.
func poolStatusClass(status string) string {
	switch status {
	case PoolShown:
		return "pill info"
	case PoolTaken:
		return "pill ok"
	}
	return "pill"
}
