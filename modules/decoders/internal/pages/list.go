package pages

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/decoding"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// listRow is a line of /decoders.
type listRow struct {
	decoders.Decoder
	NodeCount int
}

// listView is what /decoders shows.
type listView struct {
	Rows     []listRow
	Limits   decoders.LimitsView
	Builtins []decoders.Entry
	CanLimit bool // a SuperAdmin may change the limits
	Errors   ui.FormErrors
	Values   url.Values // of a refused limits form
}

func (p *Pages) listView(r *http.Request, company int64) (*listView, error) {
	ctx := r.Context()
	list, err := p.svc.Decoders(ctx, company)
	if err != nil {
		return nil, err
	}
	v := &listView{Rows: make([]listRow, len(list)), Builtins: p.svc.Builtins(), CanLimit: auth.CallerFrom(ctx).Role == auth.SuperAdmin, Errors: ui.NoErrors}
	for i, d := range list {
		v.Rows[i].Decoder = d
		users, err := p.svc.DecoderNodes(ctx, company, d.Key)
		if err != nil {
			return nil, fmt.Errorf("nodes of decoder %d: %w", d.ID, err)
		}
		v.Rows[i].NodeCount = len(users)
	}
	if v.Limits, err = p.svc.LimitsView(ctx, company); err != nil {
		return nil, err
	}
	v.Values = url.Values{"timeMs": {strconv.Itoa(v.Limits.TimeMS)}, "memoryMiB": {strconv.Itoa(v.Limits.MemoryMiB)}}
	return v, nil
}

// listPage is /decoders.
func (p *Pages) listPage(w http.ResponseWriter, r *http.Request) error {
	const title = "decoders.page.title"
	company := viewedCompany(r)
	if company == 0 {
		return p.ui.Render(w, r, http.StatusOK, title, noCompany(title))
	}
	v, err := p.listView(r, company)
	if err != nil {
		return err
	}
	return p.ui.Render(w, r, http.StatusOK, title, listPage(v))
}

// limitsSubmit saves the limits form of /decoders (SuperAdmin).
func (p *Pages) limitsSubmit(w http.ResponseWriter, r *http.Request) error {
	company := viewedCompany(r)
	if company == 0 {
		return errs.New(errs.NotFound, errs.IDNotFound)
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	in := decoding.LimitsInput{TimeMS: formInt(vals, "timeMs"), MemoryMiB: formInt(vals, "memoryMiB")}
	if err := p.svc.SetLimits(r.Context(), company, in); err != nil {
		v, verr := p.listView(r, company)
		if verr != nil {
			return verr
		}
		v.Values = vals
		return p.ui.FormFailed(w, r, err, "decoders.page.title", func(fe ui.FormErrors) templ.Component {
			v.Errors = fe
			return limitsSection(v)
		}, func(templ.Component) templ.Component { return listPage(v) })
	}
	web.Toast(w, r, "success", p.t(r, "decoders.limits.saved"))
	web.Redirect(w, r, "/decoders")
	return nil
}

// limitsReset gives the viewed company the default limits again.
func (p *Pages) limitsReset(w http.ResponseWriter, r *http.Request) error {
	company := viewedCompany(r)
	if company == 0 {
		return errs.New(errs.NotFound, errs.IDNotFound)
	}
	if err := p.svc.ResetLimits(r.Context(), company); err != nil {
		return err
	}
	web.Toast(w, r, "success", p.t(r, "decoders.limits.saved"))
	web.Redirect(w, r, "/decoders")
	return nil
}

// formInt reads an integer form field; nil when absent or not a number
// (SetLimits then says the field is required or out of range).
func formInt(vals url.Values, name string) *int {
	raw := strings.TrimSpace(vals.Get(name))
	if raw == "" {
		return nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil {
		n = -1
	}
	return &n
}
