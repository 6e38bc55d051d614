package core

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// getUserSettings answers GET /settings: the caller's own settings.
func (m *Module) getUserSettings(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	c := auth.CallerFrom(ctx)
	stored, err := m.store.load(ctx, m.db, userScope(c.UserID))
	if err != nil {
		return err
	}
	return m.answerUser(ctx, w, c, stored)
}

// postUserSettings answers POST /settings: it stores the given settings of
// the caller and answers all of them.
func (m *Module) postUserSettings(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	c := auth.CallerFrom(ctx)
	body, err := decodeBody(r)
	if err != nil {
		return err
	}
	stored, err := m.saveUser(ctx, c, body)
	if err != nil {
		return err
	}
	return m.answerUser(ctx, w, c, stored)
}

// saveUser validates and stores settings of the caller, all or nothing, and
// returns what is stored afterwards. The API and the /settings page both
// save through it.
func (m *Module) saveUser(ctx context.Context, c auth.Caller, body map[string]json.RawMessage) (map[string]string, error) {
	// A token outlives a deleted account; its settings have no row to hang on.
	if _, err := m.deps.Accounts.User(ctx, c.UserID); err != nil {
		if errs.Is(err, errs.NotFound) {
			return nil, errs.New(errs.Unauthorized, errs.IDUnauthorized)
		}
		return nil, err
	}
	return m.save(ctx, m.users, userScope(c.UserID), body, nil)
}

func (m *Module) answerUser(ctx context.Context, w http.ResponseWriter, c auth.Caller, stored map[string]string) error {
	if _, ok := stored["language"]; !ok {
		lang, err := m.defaultLanguage(ctx, c)
		if err != nil {
			return err
		}
		stored["language"] = lang
	}
	return web.OK(w, m.users.render(stored, nil))
}

// defaultLanguage is the language of the caller's company's country (SPEC.md
// section 1), or the default language without a company.
func (m *Module) defaultLanguage(ctx context.Context, c auth.Caller) (string, error) {
	lang, ok, err := m.companyLanguage(ctx, c)
	if err != nil || !ok {
		return i18n.Default, err
	}
	return lang, nil
}

// companyLanguage is the language of the caller's company's country; ok is
// false for a caller without a company.
func (m *Module) companyLanguage(ctx context.Context, c auth.Caller) (lang string, ok bool, err error) {
	if c.CompanyID == 0 {
		return "", false, nil
	}
	company, err := m.deps.Accounts.Company(ctx, c.CompanyID)
	switch {
	case errs.Is(err, errs.NotFound):
		return "", false, nil
	case err != nil:
		return "", false, err
	}
	return company.Language(), true, nil
}
