package pages

import (
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// devicesMenuItem is the SuperAdmin's entry of the device repository page.
var devicesMenuItem = web.MenuItem{ID: "devices", LabelID: "devices.menu", Href: "/devices", Icon: "mdi-package-variant",
	Roles: auth.SuperAdminOnly, Order: 86}

// devicesView is what /devices shows: the upload form, the report of the
// import just made, and the imported codecs.
type devicesView struct {
	Catalog *decoders.DeviceCatalog
	Report  *decoders.ImportReport
	Models  int
	Errors  ui.FormErrors
}

func (p *Pages) devicesView(r *http.Request) (*devicesView, error) {
	cat, err := p.svc.DeviceCatalog(r.Context())
	if err != nil {
		return nil, err
	}
	v := &devicesView{Catalog: cat, Errors: ui.NoErrors}
	for _, vendor := range cat.Vendors {
		v.Models += len(vendor.Models)
	}
	return v, nil
}

// devicesPage is /devices (SuperAdmin).
func (p *Pages) devicesPage(w http.ResponseWriter, r *http.Request) error {
	v, err := p.devicesView(r)
	if err != nil {
		return err
	}
	return p.ui.Render(w, r, http.StatusOK, "devices.page.title", devicesPage(v))
}

// devicesImport takes the uploaded archive (field "archive") and imports
// it; the page then shows the report above the codecs.
func (p *Pages) devicesImport(w http.ResponseWriter, r *http.Request) error {
	report, err := p.importUpload(r)
	if err != nil {
		v, verr := p.devicesView(r)
		if verr != nil {
			return verr
		}
		return p.ui.FormFailed(w, r, err, "devices.page.title", func(fe ui.FormErrors) templ.Component {
			v.Errors = fe
			return devicesPage(v)
		}, nil)
	}
	v, err := p.devicesView(r)
	if err != nil {
		return err
	}
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

// codecStatus is the message id of a codec's state.
func codecStatus(c decoders.DeviceCodec) string {
	if c.Active != nil && c.Active.Failed > 0 {
		return "devices.codec.failing"
	}
	return "devices.codec.passing"
}

func itoa(n int) string { return strconv.Itoa(n) }
