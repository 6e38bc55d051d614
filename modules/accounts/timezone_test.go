package accounts_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// A company's time zone starts as its country's, follows a move of the
// country until the company chooses one, and must be an IANA name.
func TestCompanyTimeZone(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.Company(t, root, "Acme AB", "acme.example")
	path := fmt.Sprintf("/api/companies/%d", acme.CompanyID)
	zone := func() string { return ta.Call(t, "GET", path, acme.CompanyAdminToken, nil).Str("timezone") }
	steps := []struct {
		name string
		body map[string]any
		want string
	}{
		{"a Swedish company starts in Stockholm", nil, "Europe/Stockholm"},
		{"a move to Finland follows the country", map[string]any{"country": "FI"}, "Europe/Helsinki"},
		{"a chosen zone", map[string]any{"timezone": " Asia/Tokyo "}, "Asia/Tokyo"},
		{"a chosen zone stays when the country moves", map[string]any{"country": "NO"}, "Asia/Tokyo"},
		{"empty is the country's again", map[string]any{"timezone": ""}, "Europe/Oslo"},
		{"a country the form does not offer is UTC", map[string]any{"country": "JP"}, "UTC"},
	}
	for _, st := range steps {
		if st.body != nil {
			ta.Must(t, "PUT", path, acme.CompanyAdminToken, st.body, http.StatusOK)
		}
		if got := zone(); got != st.want {
			t.Errorf("%s: zone %q, want %q", st.name, got, st.want)
		}
	}
	for _, bad := range []string{"Mars/Olympus", "Local", "../../etc/passwd"} {
		r := ta.Call(t, "PUT", path, acme.CompanyAdminToken, map[string]any{"timezone": bad})
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "accounts.company.timezone.invalid") {
			t.Errorf("zone %q: %d %s", bad, r.Status, r.Body)
		}
	}

	ta.Must(t, "PUT", path, acme.CompanyAdminToken, map[string]any{"country": "SE", "timezone": "Europe/Stockholm"}, http.StatusOK)
	edit := ta.Page(t, "GET", "/company/edit", acme.CompanyAdminToken, nil)
	kerneltest.Contains(t, kerneltest.Main(edit.Body), []string{"Tidszon", `name="timezone"`, `value="Europe/Stockholm"`, `<option value="America/New_York">`}, nil)
	saved := ta.Page(t, "POST", "/company/edit", acme.CompanyAdminToken, url.Values{
		"name": {"Acme AB"}, "orgNumber": {"556677-8899"}, "invoiceAdress": {"billing@acme.example"}, "country": {"SE"}, "timezone": {"Europe/London"},
	})
	if saved.Redirect() != "/company" || zone() != "Europe/London" {
		t.Fatalf("save on /company/edit: %d to %q, zone %q: %.300s", saved.Status, saved.Redirect(), zone(), saved.Body)
	}
	kerneltest.Contains(t, kerneltest.Main(ta.Page(t, "GET", "/company", acme.CompanyAdminToken, nil).Body), []string{"Europe/London"}, nil)
}
