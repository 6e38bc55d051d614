package pages

import (
	"encoding/json"
	"net/http"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/decoding"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

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
func (p *Pages) createPage(w http.ResponseWriter, r *http.Request) error {
	const title = "decoders.create.title"
	company := viewedCompany(r)
	if company == 0 {
		return p.ui.Render(w, r, http.StatusOK, title, noCompany(title))
	}
	if err := decoding.Scoped(r.Context(), company, true); err != nil {
		return err
	}
	props := editorProps{CompanyID: company, MaxSource: decoding.MaxSource, MaxModule: decoding.MaxModule}
	return p.ui.Render(w, r, http.StatusOK, title, createPage(props.String()), ui.Options{Islands: true})
}

// PageDecoder loads the path's decoder if the viewer manages its company; a
// malformed id, like another company's decoder, is not found.
func (p *Pages) PageDecoder(r *http.Request) (*decoders.Decoder, error) { return p.svc.PageDecoder(r) }

// decoderView is what /decoders/{decoderId} shows beside the island.
type decoderView struct {
	D     *decoders.Decoder
	Props string
	// Sections are what other modules draw on the page (PageSection).
	Sections []templ.Component
}

// RegisterPageSection adds s to every decoder page; see decoders.Pages.
func (p *Pages) RegisterPageSection(s decoders.PageSection) {
	p.mu.Lock()
	p.sections = append(p.sections, s)
	p.mu.Unlock()
}

// decoderPageView is the view of d's page; the section of replace, when
// set, is left to the caller (nil in Sections, at its place).
func (p *Pages) decoderPageView(r *http.Request, d *decoders.Decoder, replace decoders.PageSection) (*decoderView, int, error) {
	full, err := p.svc.View(r.Context(), d.ID)
	if err != nil {
		return nil, -1, err
	}
	v := &decoderView{D: full, Props: editorProps{CompanyID: d.CompanyID, DecoderID: d.ID, MaxSource: decoding.MaxSource, MaxModule: decoding.MaxModule}.String()}
	p.mu.RLock()
	sections := p.sections
	p.mu.RUnlock()
	at := -1
	for _, s := range sections {
		if replace != nil && s == replace {
			at = len(v.Sections)
			v.Sections = append(v.Sections, nil)
			continue
		}
		c, err := s.DecoderSection(r, d)
		if err != nil {
			return nil, -1, err
		}
		if c != nil {
			v.Sections = append(v.Sections, c)
		}
	}
	return v, at, nil
}

// decoderPage is /decoders/{decoderId}.
func (p *Pages) decoderPage(w http.ResponseWriter, r *http.Request) error {
	d, err := p.svc.PageDecoder(r)
	if err != nil {
		return err
	}
	v, _, err := p.decoderPageView(r, d, nil)
	if err != nil {
		return err
	}
	return p.ui.Render(w, r, http.StatusOK, "decoders.edit.title", decoderPage(v), ui.Options{Islands: true})
}

// DecoderPage returns what draws d's page with section in place of s's
// own; see decoders.Pages.
func (p *Pages) DecoderPage(r *http.Request, d *decoders.Decoder, s decoders.PageSection) (func(section templ.Component) templ.Component, error) {
	v, at, err := p.decoderPageView(r, d, s)
	if err != nil {
		return nil, err
	}
	return func(section templ.Component) templ.Component {
		if at >= 0 {
			v.Sections[at] = section
		}
		return decoderPage(v)
	}, nil
}

// deletePage asks before a decoder is deleted.
func (p *Pages) deletePage(w http.ResponseWriter, r *http.Request) error {
	d, err := p.svc.PageDecoder(r)
	if err != nil {
		return err
	}
	return p.ui.Render(w, r, http.StatusOK, "decoders.delete.title", deleteConfirm(d, ui.NoErrors))
}

// deleteSubmit deletes a decoder no node uses; otherwise the confirmation
// shows why not.
func (p *Pages) deleteSubmit(w http.ResponseWriter, r *http.Request) error {
	d, err := p.svc.PageDecoder(r)
	if err != nil {
		return err
	}
	if err := p.svc.Delete(r.Context(), d); err != nil {
		return p.ui.FormFailed(w, r, err, "decoders.delete.title", func(fe ui.FormErrors) templ.Component {
			return deleteConfirm(d, fe)
		}, nil)
	}
	web.Toast(w, r, "success", p.t(r, "decoders.deleted", "name", d.Name))
	web.Redirect(w, r, "/decoders")
	return nil
}

// switchOnSubmit switches a decoder on again that was switched off for
// breaking its limits again and again.
func (p *Pages) switchOnSubmit(w http.ResponseWriter, r *http.Request) error {
	d, err := p.svc.PageDecoder(r)
	if err != nil {
		return err
	}
	if err := p.svc.SwitchOn(r.Context(), d); err != nil {
		return err
	}
	web.Toast(w, r, "success", p.t(r, "decoders.switchedOn", "name", d.Name))
	web.Redirect(w, r, decoderPath(d.ID, ""))
	return nil
}
