package pages

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// devicesMenuItem is the entry of the device catalog, for everyone who
// creates nodes.
var devicesMenuItem = web.MenuItem{ID: "devices", LabelID: "devices.menu", Href: "/devices", Icon: "mdi-package-variant",
	Roles: auth.AdminOrCompanyAdmin, Order: 86}

// modelsPerPage bounds the models of one page of the catalog: the
// repository has about 400, which one table would make slow to read.
const modelsPerPage = 50

// devicesView is what /devices shows: the SuperAdmin's upload form and the
// report of the import just made, the search, the page of models it found
// grouped by vendor, and the codecs it found.
type devicesView struct {
	CanImport bool
	Report    *decoders.ImportReport
	Errors    ui.FormErrors
	Results   *deviceResults
}

// deviceResults is the part of /devices that the search replaces.
type deviceResults struct {
	Query   string
	Empty   bool // nothing imported at all
	Vendors int  // in the whole catalog
	Models  int
	Codecs  int
	Found   int // models that match the query
	Page    int // 1-based
	Pages   int
	Groups  []vendorGroup
	// FoundCodecs are the codecs of the models found, and those whose
	// key matches the query, failing ones included.
	FoundCodecs []decoders.DeviceCodec
	CanImport   bool
}

// vendorGroup is a vendor's models on one page.
type vendorGroup struct {
	Vendor decoders.Vendor
	Models []modelRow
}

// modelRow is a model with the codecs its profiles name.
type modelRow struct {
	Vendor decoders.Vendor
	Model  decoders.DeviceModel
	Codecs []decoders.DeviceCodec
}

func (p *Pages) deviceResults(r *http.Request) (*deviceResults, error) {
	cat, err := p.svc.DeviceCatalog(r.Context())
	if err != nil {
		return nil, err
	}
	q := r.URL.Query().Get("q")
	res := &deviceResults{Query: q, Vendors: len(cat.Vendors), Codecs: len(cat.Codecs), Page: 1,
		CanImport: web.ViewerFrom(r.Context()).Caller.Role == auth.SuperAdmin}
	var rows []modelRow
	for _, v := range cat.Vendors {
		res.Models += len(v.Models)
	}
	res.Empty = res.Vendors == 0 && res.Codecs == 0
	found := cat.Search(q)
	res.FoundCodecs = found.Codecs
	for _, v := range found.Vendors {
		for _, m := range v.Models {
			row := modelRow{Vendor: v, Model: m}
			for _, k := range m.DecoderKeys() {
				if c := cat.Codec(k); c != nil {
					row.Codecs = append(row.Codecs, *c)
				}
			}
			rows = append(rows, row)
		}
	}
	res.Found = len(rows)
	res.Pages = max(1, (len(rows)+modelsPerPage-1)/modelsPerPage)
	if n, err := strconv.Atoi(r.URL.Query().Get("page")); err == nil && n > 1 {
		res.Page = min(n, res.Pages)
	}
	from := (res.Page - 1) * modelsPerPage
	for _, row := range rows[from:min(len(rows), from+modelsPerPage)] {
		if len(res.Groups) == 0 || res.Groups[len(res.Groups)-1].Vendor.ID != row.Vendor.ID {
			res.Groups = append(res.Groups, vendorGroup{Vendor: row.Vendor})
		}
		g := &res.Groups[len(res.Groups)-1]
		g.Models = append(g.Models, row)
	}
	return res, nil
}

// devicesPage is /devices; an htmx search (target device-results) gets the
// results alone.
func (p *Pages) devicesPage(w http.ResponseWriter, r *http.Request) error {
	res, err := p.deviceResults(r)
	if err != nil {
		return err
	}
	if web.IsHTMX(r) && r.Header.Get("HX-Target") == "device-results" {
		return p.ui.Fragment(w, r, http.StatusOK, deviceResultsList(res))
	}
	return p.ui.Render(w, r, http.StatusOK, "devices.page.title", devicesPage(p.devicesView(res)))
}

func (p *Pages) devicesView(res *deviceResults) *devicesView {
	return &devicesView{CanImport: res.CanImport, Results: res, Errors: ui.NoErrors}
}

// devicesImport takes the uploaded archive (field "archive") and imports
// it; the page then shows the report above the catalog.
func (p *Pages) devicesImport(w http.ResponseWriter, r *http.Request) error {
	report, err := p.importUpload(r)
	if err != nil {
		res, rerr := p.deviceResults(r)
		if rerr != nil {
			return rerr
		}
		v := p.devicesView(res)
		return p.ui.FormFailed(w, r, err, "devices.page.title", func(fe ui.FormErrors) templ.Component {
			v.Errors = fe
			return devicesPage(v)
		}, nil)
	}
	res, err := p.deviceResults(r)
	if err != nil {
		return err
	}
	v := p.devicesView(res)
	v.Report = report
	return p.ui.Render(w, r, http.StatusOK, "devices.page.title", devicesPage(v))
}

func (p *Pages) importUpload(r *http.Request) (*decoders.ImportReport, error) {
	if err := r.ParseMultipartForm(32 << 20); err != nil {
		return nil, archiveRefused()
	}
	f, _, err := r.FormFile("archive")
	if err != nil {
		return nil, archiveRefused()
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("read the archive: %w", err)
	}
	return p.svc.ImportArchive(r.Context(), data)
}

func archiveRefused() error {
	v := &errs.Validation{}
	v.Add("archive", decoders.IDRepoArchive)
	return v.Err()
}

// devicePage is /devices/{vendorId}/{modelId}: one model with its
// firmware versions, profiles and codecs with every example's result.
func (p *Pages) devicePage(w http.ResponseWriter, r *http.Request) error {
	d, err := p.svc.DeviceDetails(r.Context(), r.PathValue("vendorId"), r.PathValue("modelId"))
	if err != nil {
		return err
	}
	return p.ui.Render(w, r, http.StatusOK, "devices.model.title", devicePage(d))
}

// codecStatus is the message id of a codec's state.
func codecStatus(c decoders.DeviceCodec) string {
	if c.Active != nil && c.Active.Failed > 0 {
		return "devices.codec.failing"
	}
	return "devices.codec.passing"
}

func failing(c decoders.DeviceCodec) bool { return c.Active != nil && c.Active.Failed > 0 }

// modelPath is the model's details page.
func modelPath(vendorID, modelID string) string {
	return "/devices/" + url.PathEscape(vendorID) + "/" + url.PathEscape(modelID)
}

// modelAnchor is the stable id of a model's row in the catalog (vendor
// and model ids are the repository's and stay across imports), which
// other modules' per-model actions and tests find it by.
func modelAnchor(vendorID, modelID string) string { return "model-" + vendorID + "-" + modelID }

// codecAnchor is the id of a codec's section on a model's page.
func codecAnchor(key string) string { return "codec-" + key }

// resultsPath is the catalog at page n of query q.
func resultsPath(q string, n int) string {
	v := url.Values{}
	if q != "" {
		v.Set("q", q)
	}
	if n > 1 {
		v.Set("page", strconv.Itoa(n))
	}
	if len(v) == 0 {
		return "/devices"
	}
	return "/devices?" + v.Encode()
}

// regions lists the regions of a firmware version's profiles.
func regions(f decoders.FirmwareVersion) string {
	names := make([]string, 0, len(f.Profiles))
	for _, p := range f.Profiles {
		names = append(names, p.Region)
	}
	return strings.Join(names, ", ")
}

func itoa(n int) string { return strconv.Itoa(n) }
