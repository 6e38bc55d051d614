package core

import (
	"net/http"
	"net/url"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// The integration token page, /company/tokens (AdminOrCompanyAdmin): the
// company's tokens for ChirpStack, The Things Stack and generic ingest,
// the form that makes one (shown once, with a copy button) and their
// removal.

// tokensView reads the viewed company's tokens and draws the token section
// around form; created is a token just made, shown this once.
func (m *Module) tokensView(r *http.Request, companyID int64, form templ.Component, created *Token) (templ.Component, error) {
	list, err := m.companyTokens(r.Context(), companyID)
	if err != nil {
		return nil, err
	}
	return tokensSection(list, form, created), nil
}

func (m *Module) tokensPage(w http.ResponseWriter, r *http.Request) error {
	const title = "page.tokens.title"
	id, err := managedCompany(r)
	if id == 0 {
		return m.ui.Render(w, r, http.StatusOK, title, noCompany(title))
	}
	if err != nil {
		return err
	}
	section, err := m.tokensView(r, id, tokenForm(url.Values{"isCompany": {"true"}}, ui.NoErrors), nil)
	if err != nil {
		return err
	}
	return m.ui.Render(w, r, http.StatusOK, title, tokensPage(section))
}

// tokenCreateSubmit makes a token and answers with the section that shows
// it: it is never shown again, so the answer is not a redirect.
func (m *Module) tokenCreateSubmit(w http.ResponseWriter, r *http.Request) error {
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	id, err := managedCompany(r)
	var t *Token
	if err == nil {
		t, err = m.addToken(r.Context(), id, tokenInput{Label: vals.Get("label"), IsCompany: vals.Get("isCompany") == "true"})
	}
	if err != nil {
		fe, ok := m.ui.ErrorsOf(web.ViewerFrom(r.Context()).Lang, err)
		if !ok {
			return err
		}
		section, serr := m.tokensView(r, id, tokenForm(vals, fe), nil)
		if serr != nil {
			return serr
		}
		status := web.StatusOf(err)
		if web.IsHTMX(r) && status != http.StatusBadRequest && status != http.StatusConflict {
			status = http.StatusUnprocessableEntity
		}
		return m.ui.RenderForm(w, r, status, "page.tokens.title", section, tokensPage)
	}
	web.Toast(w, r, "success", m.t(r, "page.tokens.created", "label", t.Label))
	section, err := m.tokensView(r, id, tokenForm(url.Values{"isCompany": {"true"}}, ui.NoErrors), t)
	if err != nil {
		return err
	}
	return m.ui.RenderForm(w, r, http.StatusOK, "page.tokens.title", section, tokensPage)
}

// pageToken loads the path's token if the viewer manages its company.
func (m *Module) pageToken(r *http.Request) (*Token, error) {
	id, err := web.PathID(r, "tokenId")
	if err != nil {
		return nil, err
	}
	return m.managedToken(r.Context(), id)
}

// tokenDeletePage asks before a token is deleted.
func (m *Module) tokenDeletePage(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pageToken(r)
	if err != nil {
		return err
	}
	return m.ui.Render(w, r, http.StatusOK, "page.tokens.delete", tokenDeleteConfirm(t))
}

func (m *Module) tokenDeleteSubmit(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pageToken(r)
	if err != nil {
		return err
	}
	if err := m.removeToken(r.Context(), t); err != nil {
		return err
	}
	web.Toast(w, r, "success", m.t(r, "page.tokens.deleted", "label", t.Label))
	web.Redirect(w, r, "/company/tokens")
	return nil
}
