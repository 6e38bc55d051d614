package pages

import (
	"net/http"
	"net/url"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// The integration token page, /company/tokens (AdminOrCompanyAdmin): the
// company's tokens for ChirpStack, The Things Stack and generic ingest,
// the form that makes one (shown once, with a copy button) and their
// removal.

// tokensView reads the viewed company's tokens and draws the token section
// around form; created is a token just made, shown this once.
func (pg *Pages) tokensView(r *http.Request, companyID int64, form templ.Component, created *nodes.Token) (templ.Component, error) {
	list, err := pg.reg.CompanyTokens(r.Context(), companyID)
	if err != nil {
		return nil, err
	}
	return tokensSection(list, form, created), nil
}

func (pg *Pages) tokensPage(w http.ResponseWriter, r *http.Request) error {
	const title = "page.tokens.title"
	id, err := managedCompany(r)
	if id == 0 {
		return pg.ui.Render(w, r, http.StatusOK, title, noCompany(title))
	}
	if err != nil {
		return err
	}
	section, err := pg.tokensView(r, id, tokenForm(url.Values{"isCompany": {"true"}}, ui.NoErrors), nil)
	if err != nil {
		return err
	}
	return pg.ui.Render(w, r, http.StatusOK, title, tokensPage(section))
}

// tokenCreateSubmit makes a token and answers with the section that shows
// it: it is never shown again, so the answer is not a redirect.
func (pg *Pages) tokenCreateSubmit(w http.ResponseWriter, r *http.Request) error {
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	id, err := managedCompany(r)
	var t *nodes.Token
	if err == nil {
		t, err = pg.reg.AddToken(r.Context(), id, registry.TokenInput{Label: vals.Get("label"), IsCompany: vals.Get("isCompany") == "true"})
	}
	if err != nil {
		fe, ok := pg.ui.ErrorsOf(web.ViewerFrom(r.Context()).Lang, err)
		if !ok {
			return err
		}
		section, serr := pg.tokensView(r, id, tokenForm(vals, fe), nil)
		if serr != nil {
			return serr
		}
		return pg.ui.RenderForm(w, r, ui.FormStatus(r, err), "page.tokens.title", section, tokensPage)
	}
	web.Toast(w, r, "success", pg.t(r, "page.tokens.created", "label", t.Label))
	section, err := pg.tokensView(r, id, tokenForm(url.Values{"isCompany": {"true"}}, ui.NoErrors), t)
	if err != nil {
		return err
	}
	return pg.ui.RenderForm(w, r, http.StatusOK, "page.tokens.title", section, tokensPage)
}

// pageToken loads the path's token if the viewer manages its company.
func (pg *Pages) pageToken(r *http.Request) (*nodes.Token, error) {
	id, err := web.PathID(r, "tokenId")
	if err != nil {
		return nil, err
	}
	return pg.reg.ManagedToken(r.Context(), id)
}

// tokenDeletePage asks before a token is deleted.
func (pg *Pages) tokenDeletePage(w http.ResponseWriter, r *http.Request) error {
	t, err := pg.pageToken(r)
	if err != nil {
		return err
	}
	return pg.ui.Render(w, r, http.StatusOK, "page.tokens.delete", tokenDeleteConfirm(t))
}

func (pg *Pages) tokenDeleteSubmit(w http.ResponseWriter, r *http.Request) error {
	t, err := pg.pageToken(r)
	if err != nil {
		return err
	}
	if err := pg.reg.RemoveToken(r.Context(), t); err != nil {
		return err
	}
	web.Toast(w, r, "success", pg.t(r, "page.tokens.deleted", "label", t.Label))
	web.Redirect(w, r, "/company/tokens")
	return nil
}
