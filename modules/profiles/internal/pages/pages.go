// Package pages draws the profiles module's pages: /profiles (the list),
// /profiles/create (the form, and the imported device models to make a
// profile of in one step), /profiles/{id} (the form with the templates,
// and the offer to apply a change to the profile's nodes) and the
// confirmation of a deletion. They are forms without islands.
package pages

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/alarms"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/profiles"
	"github.com/fieldhub/fieldhub/modules/profiles/internal/registry"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// MenuItem is the Device profiles entry of the side menu: for those who
// manage a company, after Decoders.
var MenuItem = web.MenuItem{ID: "profiles", LabelID: "menu.profiles", Href: "/profiles", Icon: "mdi-card-bulleted-settings-outline",
	Roles: auth.AdminOrCompanyAdmin, Order: 87}

// spareRows is how many empty rows each template list offers beyond those
// filled in: the form works without scripts.
const spareRows = 3

// Pages draws the pages.
type Pages struct {
	reg *registry.Registry
	ui  *ui.Env
}

// New returns the pages over reg, drawn with env.
func New(reg *registry.Registry, env *ui.Env) *Pages { return &Pages{reg: reg, ui: env} }

// Routes registers the pages.
func (p *Pages) Routes(r *web.ModuleRoutes) {
	r.Page("GET /profiles", auth.AdminOrCompanyAdmin, p.listPage)
	r.Page("GET /profiles/create", auth.AdminOrCompanyAdmin, p.createPage)
	r.Page("POST /profiles/create", auth.AdminOrCompanyAdmin, p.createSubmit)
	r.Page("POST /profiles/from-model", auth.AdminOrCompanyAdmin, p.fromModel)
	r.Page("GET /profiles/{profileId}", auth.AdminOrCompanyAdmin, p.editPage)
	r.Page("POST /profiles/{profileId}", auth.AdminOrCompanyAdmin, p.editSubmit)
	r.Page("POST /profiles/{profileId}/apply", auth.AdminOrCompanyAdmin, p.apply)
	r.Page("GET /profiles/{profileId}/delete", auth.AdminOrCompanyAdmin, p.deletePage)
	r.Page("POST /profiles/{profileId}/delete", auth.AdminOrCompanyAdmin, p.deleteSubmit)
}

// companyOf is the company the viewer works in: their own, or the one a
// SuperAdmin chose; 0 (the installation) for a SuperAdmin without one.
func companyOf(r *http.Request) int64 { return web.ViewerFrom(r.Context()).CompanyID }

// canEdit tells whether the viewer may change p.
func canEdit(r *http.Request, p *profiles.Profile) bool {
	c := auth.CallerFrom(r.Context())
	if p.CompanyID == 0 {
		return c.Role == auth.SuperAdmin
	}
	return c.CanManageCompany(p.CompanyID)
}

func (p *Pages) listPage(w http.ResponseWriter, r *http.Request) error {
	list, err := p.reg.List(r.Context(), companyOf(r))
	if err != nil {
		return err
	}
	return p.ui.Render(w, r, http.StatusOK, "profiles.page.title", listView(list))
}

// view is what the form shows: the profile as written, the lists to
// choose from, and whether it may be changed.
type view struct {
	ID       int64
	Profile  *profiles.Profile
	Decoders []ui.Option
	Models   []modelRow
	CanEdit  bool
	// Global offers the SuperAdmin a profile for the whole installation.
	Global     bool
	GlobalOnly bool
}

// modelRow is an imported device model the create page offers.
type modelRow struct {
	Vendor, VendorID, Name, ModelID, Codec string
}

func (p *Pages) view(r *http.Request, pr *profiles.Profile) (*view, error) {
	v := &view{ID: pr.ID, Profile: pr, CanEdit: pr.ID == 0 || canEdit(r, pr),
		Global: pr.ID == 0 && auth.CallerFrom(r.Context()).Role == auth.SuperAdmin, GlobalOnly: companyOf(r) == 0}
	entries, err := p.reg.Decoders().Catalog(r.Context(), pr.CompanyID)
	if err != nil {
		return nil, err
	}
	v.Decoders = []ui.Option{{Value: "", LabelID: "profiles.form.noDecoder"}}
	for _, e := range entries {
		v.Decoders = append(v.Decoders, ui.Option{Value: e.Key, Label: e.Name})
	}
	if pr.ID == 0 {
		cat, err := p.reg.Decoders().DeviceCatalog(r.Context())
		if err != nil {
			return nil, err
		}
		v.Models = models(cat)
	}
	return v, nil
}

// models lists the catalog's models that have a codec.
func models(cat *decoders.DeviceCatalog) []modelRow {
	var out []modelRow
	for _, vd := range cat.Vendors {
		for i := range vd.Models {
			m := &vd.Models[i]
			if key := m.Codec(); key != "" {
				out = append(out, modelRow{Vendor: vd.Name, VendorID: m.VendorID, Name: m.Name, ModelID: m.ModelID, Codec: key})
			}
		}
	}
	return out
}

func (p *Pages) createPage(w http.ResponseWriter, r *http.Request) error {
	if err := p.reg.Company(r.Context(), companyOf(r)); err != nil {
		return err
	}
	v, err := p.view(r, &profiles.Profile{CompanyID: companyOf(r)})
	if err != nil {
		return err
	}
	return p.ui.Render(w, r, http.StatusOK, "profiles.create.title", createView(v, ui.NoErrors))
}

func (p *Pages) createSubmit(w http.ResponseWriter, r *http.Request) error {
	company := companyOf(r)
	if r.PostFormValue("global") == "true" && auth.CallerFrom(r.Context()).Role == auth.SuperAdmin {
		company = 0
	}
	in := readForm(r)
	pr, err := p.reg.Create(r.Context(), company, in)
	if err != nil {
		return p.formFailed(w, r, err, "profiles.create.title", &profiles.Profile{CompanyID: company}, in)
	}
	web.Toast(w, r, "success", p.t(r, profiles.IDCreated, nil))
	web.Redirect(w, r, fmt.Sprintf("/profiles/%d", pr.ID))
	return nil
}

func (p *Pages) fromModel(w http.ResponseWriter, r *http.Request) error {
	in := profiles.FromModel{CompanyID: companyOf(r), VendorID: r.PostFormValue("vendorId"), ModelID: r.PostFormValue("modelId")}
	pr, err := p.reg.FromModel(r.Context(), in)
	if err != nil {
		fe, ok := p.ui.ErrorsOf(web.ViewerFrom(r.Context()).Lang, err)
		if !ok {
			return err
		}
		web.Toast(w, r, "error", formMessage(fe))
		web.Redirect(w, r, "/profiles/create")
		return nil
	}
	web.Toast(w, r, "success", p.t(r, profiles.IDCreated, nil))
	web.Redirect(w, r, fmt.Sprintf("/profiles/%d", pr.ID))
	return nil
}

// t words message id in the viewer's language.
func (p *Pages) t(r *http.Request, id string, args map[string]any) string {
	return p.ui.Catalogs.T(web.ViewerFrom(r.Context()).Lang, id, args)
}

// formMessage is the first message of a refused form.
func formMessage(fe ui.FormErrors) string {
	if fe.Form != "" {
		return fe.Form
	}
	for _, m := range fe.Fields {
		return m
	}
	return ""
}

func (p *Pages) profile(r *http.Request, manage bool) (*profiles.Profile, error) {
	id, err := web.PathID(r, "profileId")
	if err != nil {
		return nil, err
	}
	return p.reg.Profile(r.Context(), id, manage)
}

func (p *Pages) editPage(w http.ResponseWriter, r *http.Request) error {
	pr, err := p.profile(r, false)
	if err != nil {
		return err
	}
	v, err := p.view(r, pr)
	if err != nil {
		return err
	}
	return p.ui.Render(w, r, http.StatusOK, "profiles.edit.title", editView(v, ui.NoErrors))
}

func (p *Pages) editSubmit(w http.ResponseWriter, r *http.Request) error {
	pr, err := p.profile(r, true)
	if err != nil {
		return err
	}
	in := readForm(r)
	if _, err := p.reg.Update(r.Context(), pr.ID, in); err != nil {
		return p.formFailed(w, r, err, "profiles.edit.title", pr, in)
	}
	web.Toast(w, r, "success", p.t(r, profiles.IDUpdated, nil))
	web.Redirect(w, r, fmt.Sprintf("/profiles/%d", pr.ID))
	return nil
}

// formFailed draws the form again as written, with its messages.
func (p *Pages) formFailed(w http.ResponseWriter, r *http.Request, err error, titleID string, pr *profiles.Profile, in profiles.Input) error {
	if errs.Is(err, errs.NotFound) || errs.Is(err, errs.Forbidden) {
		return err
	}
	written := *pr
	written.Name, written.VendorID, written.ModelID, written.Decoder = in.Name, in.VendorID, in.ModelID, in.Decoder
	written.Keys, written.DefaultKey, written.UplinkInterval = in.Keys, in.DefaultKey, in.UplinkInterval
	written.Alarms, written.Dashboard = in.Alarms, in.Dashboard
	v, verr := p.view(r, &written)
	if verr != nil {
		return verr
	}
	return p.ui.FormFailed(w, r, err, titleID, func(fe ui.FormErrors) templ.Component { return profileForm(v, fe) },
		func(c templ.Component) templ.Component { return formPage(titleID, v, c) })
}

func (p *Pages) apply(w http.ResponseWriter, r *http.Request) error {
	pr, err := p.profile(r, true)
	if err != nil {
		return err
	}
	n, err := p.reg.Apply(r.Context(), pr.ID)
	if err != nil {
		return err
	}
	web.Toast(w, r, "success", p.t(r, profiles.IDApplied, map[string]any{"count": n.Nodes}))
	web.Redirect(w, r, fmt.Sprintf("/profiles/%d", pr.ID))
	return nil
}

func (p *Pages) deletePage(w http.ResponseWriter, r *http.Request) error {
	pr, err := p.profile(r, true)
	if err != nil {
		return err
	}
	return p.ui.Render(w, r, http.StatusOK, "profiles.delete.title", deleteConfirm(pr))
}

func (p *Pages) deleteSubmit(w http.ResponseWriter, r *http.Request) error {
	pr, err := p.profile(r, true)
	if err != nil {
		return err
	}
	if err := p.reg.Delete(r.Context(), pr.ID); err != nil {
		return err
	}
	web.Toast(w, r, "success", p.t(r, profiles.IDDeleted, nil))
	web.Redirect(w, r, "/profiles")
	return nil
}

// readForm reads the form's fields; the template lists are rows named
// keys[i].key and so on, and a row left empty is no row.
func readForm(r *http.Request) profiles.Input {
	_ = r.ParseForm()
	f := func(name string) string { return strings.TrimSpace(r.PostFormValue(name)) }
	in := profiles.Input{Name: f("name"), Decoder: f("decoder"), DefaultKey: f("defaultKey"),
		VendorID: f("vendorId"), ModelID: f("modelId"), UplinkInterval: number(f("uplinkInterval"))}
	for i := 0; r.PostForm.Has(fmt.Sprintf("keys[%d].key", i)); i++ {
		k := profiles.KeyLabel{Key: f(fmt.Sprintf("keys[%d].key", i)), Label: f(fmt.Sprintf("keys[%d].label", i)), Unit: f(fmt.Sprintf("keys[%d].unit", i))}
		if k != (profiles.KeyLabel{}) {
			in.Keys = append(in.Keys, k)
		}
	}
	for i := 0; r.PostForm.Has(fmt.Sprintf("alarms[%d].key", i)); i++ {
		row := func(name string) string { return f(fmt.Sprintf("alarms[%d].%s", i, name)) }
		if row("key") == "" && row("limit") == "" && row("message") == "" {
			continue
		}
		t := alarms.Template{Key: row("key"), LimitType: row("limitType"), Priority: number(row("priority")),
			Delay: number(row("delay")), Message: row("message")}
		if v, err := strconv.ParseFloat(row("limit"), 64); err == nil {
			if strings.EqualFold(t.LimitType, alarms.LimitLow) {
				t.LimitLow = &v
			} else {
				t.LimitHigh = &v
			}
		}
		in.Alarms = append(in.Alarms, t)
	}
	for i := 0; r.PostForm.Has(fmt.Sprintf("dashboard[%d].tagKey", i)); i++ {
		row := func(name string) string { return f(fmt.Sprintf("dashboard[%d].%s", i, name)) }
		if row("tagKey") == "" && row("title") == "" {
			continue
		}
		in.Dashboard = append(in.Dashboard, profiles.DashboardModule{Type: number(row("type")), Title: row("title"), TagKey: row("tagKey")})
	}
	return in
}

// number reads a whole number; what is not one is -1, which the checks
// refuse.
func number(s string) int {
	if s == "" {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}
