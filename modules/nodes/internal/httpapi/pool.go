package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/web"
)

// listPool answers GET /tag/pool: the entries shown in the default list,
// newest first; ?status=hidden, taken or all lists others.
func (a *API) listPool(w http.ResponseWriter, r *http.Request) error {
	list, err := a.reg.PoolEntries(r.Context(), r.URL.Query().Get("status"))
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

// updatePool answers PUT /tag/pool/{poolId} with {"status": ...}.
func (a *API) updatePool(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "poolId")
	if err != nil {
		return err
	}
	var in struct {
		Status string `json:"status"`
	}
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	e, err := a.reg.SetPoolStatus(r.Context(), id, in.Status)
	if err != nil {
		return err
	}
	return web.OK(w, e)
}
