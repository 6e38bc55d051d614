package values

import (
	"context"
	"encoding/json"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/modules/settings/internal/store"
)

// SaveUser validates and stores settings of the caller, all or nothing, and
// returns what is stored afterwards.
func (s *Service) SaveUser(ctx context.Context, c auth.Caller, body map[string]json.RawMessage) (map[string]string, error) {
	// A token outlives a deleted account; its settings have no row to hang on.
	if _, err := s.accounts.User(ctx, c.UserID); err != nil {
		if errs.Is(err, errs.NotFound) {
			return nil, errs.New(errs.Unauthorized, errs.IDUnauthorized)
		}
		return nil, err
	}
	return s.Save(ctx, s.users, store.UserScope(c.UserID), body, nil)
}

// DefaultLanguage is the language of a caller who never chose one: that of
// their company's country (a Swedish company's users read Swedish), or the
// default language without a company.
func (s *Service) DefaultLanguage(ctx context.Context, c auth.Caller) (string, error) {
	lang, ok, err := s.CompanyLanguage(ctx, c)
	if err != nil || !ok {
		return i18n.Default, err
	}
	return lang, nil
}

// CompanyLanguage is the language of the caller's company's country; ok is
// false for a caller without a company.
func (s *Service) CompanyLanguage(ctx context.Context, c auth.Caller) (lang string, ok bool, err error) {
	if c.CompanyID == 0 {
		return "", false, nil
	}
	company, err := s.accounts.Company(ctx, c.CompanyID)
	switch {
	case errs.Is(err, errs.NotFound):
		return "", false, nil
	case err != nil:
		return "", false, err
	}
	return company.Language(), true, nil
}

// CompanyZone is the IANA name of a company's time zone, which its users see
// times in unless they choose their own; "UTC" without a company.
func (s *Service) CompanyZone(ctx context.Context, companyID int64) (string, error) {
	if companyID == 0 {
		return "UTC", nil
	}
	company, err := s.accounts.Company(ctx, companyID)
	switch {
	case errs.Is(err, errs.NotFound):
		return "UTC", nil
	case err != nil:
		return "", err
	}
	return company.Zone(), nil
}
