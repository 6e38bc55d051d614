package decoding

import (
	"context"
	"net/http"
	"strconv"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/store"
)

// Scoped lets the caller at company id: another company's things are not
// found; manage asks for the right to change them.
func Scoped(ctx context.Context, id int64, manage bool) error {
	c := auth.CallerFrom(ctx)
	if !c.CanSeeCompany(id) {
		return errs.New(errs.NotFound, errs.IDNotFound)
	}
	if manage && !c.CanManageCompany(id) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	return nil
}

// QueryCompany is the company a call acts for: the caller's own, or for a
// SuperAdmin the ?companyId= given (0 without one). A company the caller
// may not see is not found; manage asks for the right to change it.
func QueryCompany(r *http.Request, manage bool) (int64, error) {
	c := auth.CallerFrom(r.Context())
	id := c.CompanyID
	if raw := r.URL.Query().Get("companyId"); raw != "" {
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || n <= 0 {
			return 0, errs.New(errs.Invalid, errs.IDBadID).With("id", raw)
		}
		id = n
	}
	if id == 0 {
		return 0, nil
	}
	return id, Scoped(r.Context(), id, manage)
}

// PathCompany is the path's {companyId} if the caller may see (manage) it
// and, with the accounts module, it exists.
func (s *Service) PathCompany(r *http.Request, manage bool) (int64, error) {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return 0, err
	}
	if err := Scoped(r.Context(), id, manage); err != nil {
		return 0, err
	}
	if s.accounts != nil {
		if _, err := s.accounts.Company(r.Context(), id); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// PathDecoder loads the path's {decoderId} if the caller manages its
// company.
func (s *Service) PathDecoder(r *http.Request) (*decoders.Decoder, error) {
	id, err := web.PathID(r, "decoderId")
	if err != nil {
		return nil, err
	}
	d, err := store.Decoder(r.Context(), s.db, id)
	if err != nil {
		return nil, err
	}
	if err := Scoped(r.Context(), d.CompanyID, true); err != nil {
		return nil, err
	}
	return d, nil
}

// PageDecoder is PathDecoder for a page: a malformed id, like another
// company's decoder, is not found.
func (s *Service) PageDecoder(r *http.Request) (*decoders.Decoder, error) {
	d, err := s.PathDecoder(r)
	if errs.Is(err, errs.Invalid) {
		return nil, errs.New(errs.NotFound, errs.IDNotFound)
	}
	return d, err
}
