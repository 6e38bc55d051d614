package accounts

import (
	"net/http"
	"strconv"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
)

// RequestedCompany is the company a call without one in its path acts
// for: the caller's own; a SuperAdmin's ?companyId=, else the company
// chosen in the switcher (CompanyCookie), else their own. It is 0 when
// there is none; the caller's module says so in its own words and checks
// that the company exists. A malformed ?companyId= is errs.Invalid.
func RequestedCompany(r *http.Request) (int64, error) {
	c := auth.CallerFrom(r.Context())
	id := c.CompanyID
	if c.Role != auth.SuperAdmin {
		return id, nil
	}
	raw := r.URL.Query().Get("companyId")
	if raw == "" {
		if ck, err := r.Cookie(CompanyCookie); err == nil {
			raw = ck.Value
		}
	}
	if raw == "" {
		return id, nil
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || n <= 0 {
		return 0, errs.New(errs.Invalid, errs.IDBadID).With("id", raw)
	}
	return n, nil
}
