package settings_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestTimeZoneSetting: a user may see times in a zone of their own; left
// empty, the pages use the company's, which /settings names.
func TestTimeZoneSetting(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build).NoRedirects()
	root := ta.SuperAdmin(t)
	acme := ta.Company(t, root, "Acme AB", "acme.example")
	token := acme.UserToken

	page := ta.Call(t, "GET", "/settings", token, nil)
	if tag := kerneltest.HTMLTag(t, page); !strings.Contains(tag, `data-time-zone="Europe/Stockholm"`) {
		t.Errorf("the company's zone: %s", tag)
	}
	kerneltest.WantContains(t, "settings page", page, `name="timezone"`, `placeholder="Europe/Stockholm"`,
		"Lämna tomt för att använda företagets tidszon (Europe/Stockholm).")

	refused := ta.Post(t, "/settings", token, url.Values{"theme": {"Colors"}, "language": {"sv"}, "timezone": {"Europe/Atlantis"}})
	if refused.Status != http.StatusBadRequest {
		t.Fatalf("an unknown zone: %d", refused.Status)
	}
	kerneltest.WantContains(t, "refused zone", refused, "Okänd tidszon: ange ett IANA-namn, till exempel Europe/Stockholm, eller lämna tomt för företagets",
		`value="Europe/Atlantis"`)

	saved := ta.Post(t, "/settings", token, url.Values{"theme": {"Colors"}, "language": {"sv"}, "timezone": {"Asia/Tokyo"}})
	kerneltest.WantRedirect(t, "save a zone", saved, "/settings", url.Values{})
	page = ta.Call(t, "GET", "/settings", token, nil)
	if tag := kerneltest.HTMLTag(t, page); !strings.Contains(tag, `data-time-zone="Asia/Tokyo"`) {
		t.Errorf("the user's zone: %s", tag)
	}
	kerneltest.WantContains(t, "settings page with a zone", page, `name="timezone" type="text" value="Asia/Tokyo"`)
	if got := ta.Call(t, "GET", "/api/settings", token, nil).Str("timezone"); got != "Asia/Tokyo" {
		t.Errorf("GET /api/settings timezone %q", got)
	}
}
