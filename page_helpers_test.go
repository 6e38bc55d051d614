package main

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// The page helpers of the root tests not moved to their modules yet. They
// lived in accounts_pages_test.go until the accounts tests moved to
// modules/accounts; they go when the last root page test moves.

// pageAnswer is a page response (kerneltest.Page); Body is unescaped, so
// that texts can be compared as the catalogs write them.
type pageAnswer struct{ kerneltest.Page }

// htmx marks a request as sent by htmx.
var htmx = kerneltest.HTMX

// page sends a request to a page without following redirects. form, when
// not nil, is posted urlencoded; headers are name, value pairs.
func (ta *testApp) page(t *testing.T, method, path, token string, form url.Values, headers ...string) pageAnswer {
	t.Helper()
	return pageAnswer{ta.Page(t, method, path, token, form, headers...)}
}

// redirect returns where an answer sends the browser: Location of a 303,
// HX-Redirect of an htmx answer.
func (p pageAnswer) redirect() string { return p.Redirect() }

// fullPage reports whether the answer is a whole document rather than an
// htmx fragment.
func (p pageAnswer) fullPage() bool { return p.FullPage() }

// toast is the text of the snackbar message the answer carries.
func (p pageAnswer) toast() string { return p.Toast() }

// englishCompany makes a company through the API, as company does, in the
// United Kingdom: a company's country sets its users' language, and these
// tests compare the English texts.
func (ta *testApp) englishCompany(t *testing.T, superToken, name, domain string) people {
	t.Helper()
	p := ta.company(t, superToken, name, domain)
	if r := ta.Call(t, "PUT", fmt.Sprintf("/api/companies/%d", p.companyID), superToken, map[string]any{"country": "GB"}); r.Status != http.StatusOK {
		t.Fatalf("move %s to GB: %d %s", name, r.Status, r.Body)
	}
	return p
}
