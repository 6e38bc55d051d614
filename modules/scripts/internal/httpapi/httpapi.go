// Package httpapi serves the scripts module's JSON routes under /api/script
// (SPEC.md section 7, "Scripts", and the run history).
package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/scripts"
	"github.com/fieldhub/fieldhub/modules/scripts/internal/engine"
	"github.com/fieldhub/fieldhub/modules/scripts/internal/library"
	"github.com/fieldhub/fieldhub/modules/scripts/internal/runner"
)

// bodyLimit takes a compiled script of scripts.MaxModule bytes in base64.
const bodyLimit = scripts.MaxModule/3*4 + 2*scripts.MaxContent

// API answers the routes.
type API struct {
	lib *library.Library
	run *runner.Runner
}

// New returns the routes of lib and run.
func New(lib *library.Library, run *runner.Runner) *API { return &API{lib: lib, run: run} }

// Routes registers the routes, for those who manage the company.
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("GET /script/company/{companyId}", auth.AdminOrCompanyAdmin, a.list)
	r.API("POST /script/{companyId}", auth.AdminOrCompanyAdmin, a.create, web.MaxBody(bodyLimit))
	r.API("POST /script/test/{companyId}", auth.AdminOrCompanyAdmin, a.test, web.MaxBody(bodyLimit))
	r.API("GET /script/run/{scriptId}", auth.AdminOrCompanyAdmin, a.runNow)
	r.API("GET /script/history/{scriptId}", auth.AdminOrCompanyAdmin, a.history)
	r.API("GET /script/{scriptId}", auth.AdminOrCompanyAdmin, a.get)
	r.API("PUT /script/{scriptId}", auth.AdminOrCompanyAdmin, a.update, web.MaxBody(bodyLimit))
	r.API("DELETE /script/{scriptId}", auth.AdminOrCompanyAdmin, a.remove)
}

func (a *API) list(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return err
	}
	list, err := a.lib.List(r.Context(), id)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

func (a *API) get(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "scriptId")
	if err != nil {
		return err
	}
	s, err := a.lib.Get(r.Context(), id)
	if err != nil {
		return err
	}
	return web.OK(w, s)
}

func (a *API) create(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return err
	}
	if err := library.Scoped(r.Context(), id); err != nil {
		return err
	}
	var in scripts.Input
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	s, err := a.lib.Create(r.Context(), id, in)
	if err != nil {
		return err
	}
	return web.Created(w, s)
}

func (a *API) update(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "scriptId")
	if err != nil {
		return err
	}
	if _, err := a.lib.Get(r.Context(), id); err != nil {
		return err
	}
	var in scripts.Input
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	s, err := a.lib.Update(r.Context(), id, in)
	if err != nil {
		return err
	}
	return web.OK(w, s)
}

func (a *API) remove(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "scriptId")
	if err != nil {
		return err
	}
	if err := a.lib.Delete(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *API) history(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "scriptId")
	if err != nil {
		return err
	}
	list, err := a.lib.Runs(r.Context(), id)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

// test answers POST /script/test/{companyId}: the content run once against
// the company's data, its writes and sends answered, not done.
func (a *API) test(w http.ResponseWriter, r *http.Request) error {
	company, err := web.PathID(r, "companyId")
	if err != nil {
		return err
	}
	if err := library.Scoped(r.Context(), company); err != nil {
		return err
	}
	var in scripts.TestInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	v := errs.Validation{}
	if len(in.Content) > scripts.MaxContent {
		v.AddArgs("content", scripts.IDContentTooLong, map[string]any{"max": scripts.MaxContent})
	}
	if len(in.Module) > scripts.MaxModule {
		v.AddArgs("module", scripts.IDModuleTooLarge, map[string]any{"max": scripts.MaxModule})
	}
	if err := v.Err(); err != nil {
		return err
	}
	var trig *engine.Trigger
	if in.BoundTag != nil && *in.BoundTag != 0 {
		if trig, err = a.run.TriggerOf(r.Context(), company, *in.BoundTag); err != nil {
			if errs.Is(err, errs.NotFound) {
				v := errs.Validation{}
				v.Add("boundTag", scripts.IDBoundTagUnknown)
				return v.Err()
			}
			return err
		}
	}
	out, err := a.run.Test(r.Context(), company, in.Content, in.Module, trig)
	if err != nil {
		return err
	}
	return web.OK(w, out)
}

// runNow answers GET /script/run/{scriptId}: the script run now, for real,
// whatever its type; a triggered one sees its node's latest uplink.
func (a *API) runNow(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "scriptId")
	if err != nil {
		return err
	}
	s, err := a.lib.Get(r.Context(), id)
	if err != nil {
		return err
	}
	var trig *engine.Trigger
	if s.Type == scripts.TypeTriggered && s.BoundTag != nil {
		if trig, err = a.run.TriggerOf(r.Context(), s.CompanyID, *s.BoundTag); err != nil && !errs.Is(err, errs.NotFound) {
			return err
		}
	}
	out, err := a.run.Run(r.Context(), s, scripts.CauseInvoke, trig)
	if err != nil {
		return err
	}
	return web.OK(w, out)
}
