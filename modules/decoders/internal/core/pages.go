package core

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// The decoder pages (SPEC.md names none; docs/decisions.md "Decoder
// pages"): /decoders lists the viewed company's own decoders and its limits,
// /decoders/create and /decoders/{decoderId} hold the decoder-editor island
// (editor, test pane, versions), and the latter the nodes that use the
// decoder, re-decoding with its jobs' progress, and the removal. They act on
// the viewer's company (a SuperAdmin's chosen one) through the same methods
// as the API.

// menuItem is the side menu entry, after Nodes.
var menuItem = web.MenuItem{ID: "decoders", LabelID: "decoders.menu", Href: "/decoders", Icon: "mdi-code-braces",
	Roles: auth.AdminOrCompanyAdmin, Order: 85}

func (m *Module) pageRoutes(r *web.ModuleRoutes) {
	m.host.Router.AddMenuItem(menuItem)
	r.Page("GET /decoders", auth.AdminOrCompanyAdmin, m.listPage)
	r.Page("POST /decoders/limits", auth.SuperAdminOnly, m.limitsSubmit)
	r.Page("POST /decoders/limits/reset", auth.SuperAdminOnly, m.limitsReset)
	r.Page("GET /decoders/create", auth.AdminOrCompanyAdmin, m.createPage)
	r.Page("GET /decoders/{decoderId}", auth.AdminOrCompanyAdmin, m.decoderPage)
	r.Page("GET /decoders/{decoderId}/delete", auth.AdminOrCompanyAdmin, m.deletePage)
	r.Page("POST /decoders/{decoderId}/delete", auth.AdminOrCompanyAdmin, m.deleteSubmit)
	if m.canRedecode() {
		r.Page("POST /decoders/{decoderId}/redecode", auth.AdminOrCompanyAdmin, m.redecodeSubmit)
		r.Page("GET /decoders/{decoderId}/jobs", auth.AdminOrCompanyAdmin, m.jobsFragment)
		r.Page("POST /decoders/{decoderId}/jobs/{jobId}/cancel", auth.AdminOrCompanyAdmin, m.cancelSubmit)
	}
}

func decoderPath(id int64, rest string) string { return fmt.Sprintf("/decoders/%d%s", id, rest) }

// t translates id in the language of the page being answered.
func (m *Module) t(r *http.Request, id string, pairs ...any) string {
	args := map[string]any{}
	for i := 0; i+1 < len(pairs); i += 2 {
		args[fmt.Sprint(pairs[i])] = pairs[i+1]
	}
	return m.host.Catalogs.T(web.ViewerFrom(r.Context()).Lang, id, args)
}

// viewedCompany is the company the pages show: the caller's own, or the one
// a SuperAdmin chose; 0 for none.
func viewedCompany(r *http.Request) int64 { return web.ViewerFrom(r.Context()).CompanyID }

// listRow is a line of /decoders.
type listRow struct {
	Decoder
	NodeCount int
}

// listView is what /decoders shows.
type listView struct {
	Rows     []listRow
	Limits   LimitsView
	Builtins []Entry
	CanLimit bool // a SuperAdmin may change the limits
	Errors   ui.FormErrors
	Values   url.Values // of a refused limits form
}

func (m *Module) listView(r *http.Request, company int64) (*listView, error) {
	ctx := r.Context()
	list, err := m.store.decoders(ctx, m.db, company)
	if err != nil {
		return nil, err
	}
	v := &listView{Rows: make([]listRow, len(list)), Builtins: m.catalog, CanLimit: auth.CallerFrom(ctx).Role == auth.SuperAdmin, Errors: ui.NoErrors}
	nodes := m.nodes()
	for i, d := range list {
		v.Rows[i].Decoder = d
		if nodes != nil {
			users, err := nodes.DecoderNodes(ctx, company, d.Key)
			if err != nil {
				return nil, fmt.Errorf("nodes of decoder %d: %w", d.ID, err)
			}
			v.Rows[i].NodeCount = len(users)
		}
	}
	if v.Limits, err = m.limitsView(ctx, company); err != nil {
		return nil, err
	}
	v.Values = url.Values{"timeMs": {strconv.Itoa(v.Limits.TimeMS)}, "memoryMiB": {strconv.Itoa(v.Limits.MemoryMiB)}}
	return v, nil
}

// listPage is /decoders.
func (m *Module) listPage(w http.ResponseWriter, r *http.Request) error {
	const title = "decoders.page.title"
	company := viewedCompany(r)
	if company == 0 {
		return m.ui.Render(w, r, http.StatusOK, title, noCompany(title))
	}
	v, err := m.listView(r, company)
	if err != nil {
		return err
	}
	return m.ui.Render(w, r, http.StatusOK, title, listPage(v))
}

// limitsSubmit saves the limits form of /decoders (SuperAdmin).
func (m *Module) limitsSubmit(w http.ResponseWriter, r *http.Request) error {
	company := viewedCompany(r)
	if company == 0 {
		return errs.New(errs.NotFound, errs.IDNotFound)
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	in := limitsInput{TimeMS: formInt(vals, "timeMs"), MemoryMiB: formInt(vals, "memoryMiB")}
	if err := m.setLimits(r.Context(), company, in); err != nil {
		v, verr := m.listView(r, company)
		if verr != nil {
			return verr
		}
		v.Values = vals
		return m.ui.FormFailed(w, r, err, "decoders.page.title", func(fe ui.FormErrors) templ.Component {
			v.Errors = fe
			return limitsSection(v)
		}, func(templ.Component) templ.Component { return listPage(v) })
	}
	web.Toast(w, r, "success", m.t(r, "decoders.limits.saved"))
	web.Redirect(w, r, "/decoders")
	return nil
}

// limitsReset gives the viewed company the default limits again.
func (m *Module) limitsReset(w http.ResponseWriter, r *http.Request) error {
	company := viewedCompany(r)
	if company == 0 {
		return errs.New(errs.NotFound, errs.IDNotFound)
	}
	if _, err := m.db.NewDelete().Model((*LimitsRow)(nil)).Where("company_id = ?", company).Exec(r.Context()); err != nil {
		return fmt.Errorf("delete decoder limits of company %d: %w", company, err)
	}
	m.limits.drop(company)
	web.Toast(w, r, "success", m.t(r, "decoders.limits.saved"))
	web.Redirect(w, r, "/decoders")
	return nil
}

// formInt reads an integer form field; nil when absent or not a number
// (setLimits then says the field is required or out of range).
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

// editorProps are the decoder-editor island's props.
type editorProps struct {
	CompanyID int64 `json:"companyId"`
	DecoderID int64 `json:"decoderId,omitempty"`
	// MaxSource and MaxModule are the size limits, in bytes, for the
	// island to check an upload before sending it.
	MaxSource int `json:"maxSource"`
	MaxModule int `json:"maxModule"`
}

func (p editorProps) String() string {
	b, _ := json.Marshal(p)
	return string(b)
}

// createPage is /decoders/create: the editor for a new decoder.
func (m *Module) createPage(w http.ResponseWriter, r *http.Request) error {
	const title = "decoders.create.title"
	company := viewedCompany(r)
	if company == 0 {
		return m.ui.Render(w, r, http.StatusOK, title, noCompany(title))
	}
	if err := scoped(r.Context(), company, true); err != nil {
		return err
	}
	props := editorProps{CompanyID: company, MaxSource: maxSource, MaxModule: maxModule}
	return m.ui.Render(w, r, http.StatusOK, title, createPage(props.String()), ui.Options{Islands: true})
}

// pageDecoder loads the path's decoder if the viewer manages its company; a
// malformed id, like another company's decoder, is not found.
func (m *Module) pageDecoder(r *http.Request) (*Decoder, error) {
	d, err := m.pathDecoder(r)
	if errs.Is(err, errs.Invalid) {
		return nil, errs.New(errs.NotFound, errs.IDNotFound)
	}
	return d, err
}

// decoderView is what /decoders/{decoderId} shows beside the island.
type decoderView struct {
	D        *Decoder
	Props    string
	Redecode *redecodeForm // nil without re-decoding
	Jobs     []Job
}

// redecodeForm is the re-decode form: the nodes to choose from and the
// values shown.
type redecodeForm struct {
	Vals   url.Values
	Errors ui.FormErrors
}

func (m *Module) decoderPageView(r *http.Request, d *Decoder) (*decoderView, error) {
	full, err := m.decoderView(r.Context(), d.ID)
	if err != nil {
		return nil, err
	}
	v := &decoderView{D: full, Props: editorProps{CompanyID: d.CompanyID, DecoderID: d.ID, MaxSource: maxSource, MaxModule: maxModule}.String()}
	if m.canRedecode() {
		today := time.Now().UTC()
		v.Redecode = &redecodeForm{Errors: ui.NoErrors, Vals: url.Values{
			"from": {today.AddDate(0, 0, -30).Format(time.DateOnly)}, "to": {today.Format(time.DateOnly)}}}
		if v.Jobs, err = m.jobs(r.Context(), d.CompanyID, d.Key); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// decoderPage is /decoders/{decoderId}.
func (m *Module) decoderPage(w http.ResponseWriter, r *http.Request) error {
	d, err := m.pageDecoder(r)
	if err != nil {
		return err
	}
	v, err := m.decoderPageView(r, d)
	if err != nil {
		return err
	}
	return m.ui.Render(w, r, http.StatusOK, "decoders.edit.title", decoderPage(v), ui.Options{Islands: true})
}

// deletePage asks before a decoder is deleted.
func (m *Module) deletePage(w http.ResponseWriter, r *http.Request) error {
	d, err := m.pageDecoder(r)
	if err != nil {
		return err
	}
	return m.ui.Render(w, r, http.StatusOK, "decoders.delete.title", deleteConfirm(d, ui.NoErrors))
}

// deleteSubmit deletes a decoder no node uses; otherwise the confirmation
// shows why not.
func (m *Module) deleteSubmit(w http.ResponseWriter, r *http.Request) error {
	d, err := m.pageDecoder(r)
	if err != nil {
		return err
	}
	if err := m.deleteDecoder(r.Context(), d); err != nil {
		return m.ui.FormFailed(w, r, err, "decoders.delete.title", func(fe ui.FormErrors) templ.Component {
			return deleteConfirm(d, fe)
		}, nil)
	}
	web.Toast(w, r, "success", m.t(r, "decoders.deleted", "name", d.Name))
	web.Redirect(w, r, "/decoders")
	return nil
}

// redecodeSubmit starts a re-decode job from the form of the decoder page:
// whole UTC days from the from date to the to date.
func (m *Module) redecodeSubmit(w http.ResponseWriter, r *http.Request) error {
	d, err := m.pageDecoder(r)
	if err != nil {
		return err
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	in, verr := redecodeInput(d.Key, vals)
	if verr == nil {
		_, verr = m.createRedecode(r.Context(), d.CompanyID, in)
	}
	if verr != nil {
		v, err := m.decoderPageView(r, d)
		if err != nil {
			return err
		}
		v.Redecode.Vals = vals
		return m.ui.FormFailed(w, r, verr, "decoders.edit.title", func(fe ui.FormErrors) templ.Component {
			v.Redecode.Errors = fe
			return redecodeSection(v)
		}, func(templ.Component) templ.Component { return decoderPage(v) }, ui.Options{Islands: true})
	}
	web.Toast(w, r, "success", m.t(r, "decoders.redecode.started"))
	web.Redirect(w, r, decoderPath(d.ID, "#redecode"))
	return nil
}

// redecodeInput reads the re-decode form.
func redecodeInput(key string, vals url.Values) (jobInput, error) {
	in := jobInput{Decoder: &key}
	v := errs.Validation{}
	if raw := vals.Get("tagId"); raw != "" {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || id <= 0 {
			v.Add("tagId", msgTagNotUsing)
		} else {
			in.TagID = &id
		}
	}
	for _, f := range []struct {
		name string
		dst  **time.Time
		next bool
	}{{"from", &in.From, false}, {"to", &in.To, true}} {
		raw := strings.TrimSpace(vals.Get(f.name))
		if raw == "" {
			v.Add(f.name, errs.IDRequired)
			continue
		}
		day, err := time.Parse(time.DateOnly, raw)
		if err != nil {
			v.Add(f.name, msgRangeInvalid)
			continue
		}
		if f.next { // the to date is included: the window ends at its midnight
			day = day.AddDate(0, 0, 1)
		}
		*f.dst = &day
	}
	return in, v.Err()
}

// jobsFragment is the list of the decoder's jobs, which polls itself while
// one is under way.
func (m *Module) jobsFragment(w http.ResponseWriter, r *http.Request) error {
	d, err := m.pageDecoder(r)
	if err != nil {
		return err
	}
	jobs, err := m.jobs(r.Context(), d.CompanyID, d.Key)
	if err != nil {
		return err
	}
	return m.ui.Fragment(w, r, http.StatusOK, jobList(d, jobs))
}

// cancelSubmit cancels a job of the decoder.
func (m *Module) cancelSubmit(w http.ResponseWriter, r *http.Request) error {
	d, err := m.pageDecoder(r)
	if err != nil {
		return err
	}
	j, err := m.pathJob(r)
	if err != nil {
		return err
	}
	if j.DecoderKey != d.Key {
		return errs.New(errs.NotFound, errs.IDNotFound)
	}
	if err := m.cancel(r.Context(), j.ID); err != nil {
		return err
	}
	if web.IsHTMX(r) {
		return m.jobsFragment(w, r)
	}
	web.Redirect(w, r, decoderPath(d.ID, "#redecode"))
	return nil
}

// jobsRunning tells whether a job of the list is under way.
func jobsRunning(jobs []Job) bool {
	for _, j := range jobs {
		if j.Status == jobQueued || j.Status == jobRunning {
			return true
		}
	}
	return false
}

// percent shows a job's progress.
func percent(p float64) string { return strconv.Itoa(int(p*100+0.5)) + " %" }

// kindLabel is the message id of a decoder kind.
func kindLabel(kind string) string {
	if kind == kindWASM {
		return "decoders.kind.wasm"
	}
	return "decoders.kind.js"
}

// formatTime shows a time in UTC, to the minute.
func formatTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") + " UTC" }

func optTime(t *time.Time) string {
	if t == nil {
		return "–"
	}
	return formatTime(*t)
}

// nodeOptions are the choices of the re-decode form's node select.
func nodeOptions(ctx context.Context, d *Decoder) []ui.Option {
	opts := []ui.Option{{Value: "", Label: ui.Tf(ctx, "decoders.redecode.allNodes", "count", len(d.Nodes))}}
	for _, n := range d.Nodes {
		opts = append(opts, ui.Option{Value: strconv.FormatInt(n.ID, 10), Label: n.Name + " (" + n.DevEUI + ")"})
	}
	return opts
}
