package accounts_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/accounts"
)

func TestRequestedCompany(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		caller  auth.Caller
		query   string
		cookie  string
		want    int64
		invalid bool
	}{
		{name: "a user acts for their own company, whatever they ask", caller: auth.Caller{UserID: 1, Role: auth.User, CompanyID: 7}, query: "?companyId=9", cookie: "9", want: 7},
		{name: "a SuperAdmin's ?companyId= first", caller: auth.Caller{UserID: 1, Role: auth.SuperAdmin}, query: "?companyId=9", cookie: "8", want: 9},
		{name: "then the company chosen in the switcher", caller: auth.Caller{UserID: 1, Role: auth.SuperAdmin}, cookie: "8", want: 8},
		{name: "then their own", caller: auth.Caller{UserID: 1, Role: auth.SuperAdmin, CompanyID: 3}, want: 3},
		{name: "none at all", caller: auth.Caller{UserID: 1, Role: auth.SuperAdmin}, want: 0},
		{name: "a malformed ?companyId=", caller: auth.Caller{UserID: 1, Role: auth.SuperAdmin}, query: "?companyId=x", invalid: true},
		{name: "a company id below 1", caller: auth.Caller{UserID: 1, Role: auth.SuperAdmin}, query: "?companyId=0", invalid: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/api/x"+tc.query, nil)
			if tc.cookie != "" {
				r.AddCookie(&http.Cookie{Name: accounts.CompanyCookie, Value: tc.cookie})
			}
			r = r.WithContext(auth.WithCaller(r.Context(), tc.caller))
			got, err := accounts.RequestedCompany(r)
			var e *errs.Error
			if tc.invalid != (err != nil && errors.As(err, &e) && e.Kind == errs.Invalid) {
				t.Fatalf("error %v, want invalid %v", err, tc.invalid)
			}
			if !tc.invalid && got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
}
