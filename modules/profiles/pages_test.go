package profiles_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestPages walks the screens: a profile made from a model on the create
// page, its form with the templates, the node create form that offers it,
// the offer to apply it to its nodes, and its deletion after a
// confirmation.
func TestPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite)
	c, tok := e.p.Client, e.own.CompanyAdminToken

	empty := c.Page(t, "GET", "/profiles", tok, nil)
	kerneltest.Contains(t, kerneltest.Main(empty.Body), []string{"No device profiles yet", `href="/profiles/create"`}, nil)
	if menu := empty.Body[:strings.Index(empty.Body, `<main id="main"`)]; !strings.Contains(menu, `href="/profiles"`) {
		t.Error("the menu lacks Device profiles")
	}
	if p := c.Page(t, "GET", "/profiles", e.own.UserToken, nil); p.Status != http.StatusSeeOther {
		t.Errorf("a User on /profiles: %d", p.Status)
	}

	create := c.Page(t, "GET", "/profiles/create", tok, nil)
	kerneltest.Contains(t, kerneltest.Main(create.Body), []string{"Create a profile from a device model", `data-model="acme/th1"`,
		"ttn/acme/th1-codec", `name="keys[0].key"`, `name="alarms[0].limitType"`, `name="dashboard[0].tagKey"`}, nil)

	made := c.NoRedirects().Post(t, "/profiles/from-model", tok, url.Values{"vendorId": {"acme"}, "modelId": {"th1"}})
	if made.Status != http.StatusSeeOther || !strings.HasPrefix(made.Header.Get("Location"), "/profiles/") {
		t.Fatalf("from model: %d %s", made.Status, made.Header.Get("Location"))
	}
	path := made.Header.Get("Location")

	form := url.Values{"name": {"TH1 office"}, "decoder": {"ttn/acme/th1-codec"}, "defaultKey": {"temperature"}, "uplinkInterval": {"900"},
		"vendorId": {"acme"}, "modelId": {"th1"},
		"keys[0].key": {"temperature"}, "keys[0].label": {"Air temperature"}, "keys[0].unit": {"°C"}, "keys[1].key": {""},
		"alarms[0].key": {"temperature"}, "alarms[0].limitType": {"HIGH"}, "alarms[0].limit": {"30"}, "alarms[0].priority": {"2"}, "alarms[0].delay": {"0"}, "alarms[0].message": {"Warm"},
		"dashboard[0].type": {"0"}, "dashboard[0].title": {"Temperature"}, "dashboard[0].tagKey": {"temperature"}}
	if r := c.NoRedirects().Post(t, path, tok, form); r.Status != http.StatusSeeOther {
		t.Fatalf("save: %d %s", r.Status, r.Body)
	}
	bad := url.Values{"name": {""}, "alarms[0].key": {"t"}, "alarms[0].limitType": {"LOW"}, "alarms[0].limit": {""}, "alarms[0].message": {"x"}}
	if r := c.Post(t, path, tok, bad, kerneltest.HTMX...); !strings.Contains(string(r.Body), "This field must be filled in") {
		t.Errorf("refused form: %.600s", r.Body)
	}

	node := c.Page(t, "GET", "/tag/create", tok, nil)
	kerneltest.Contains(t, kerneltest.Main(node.Body), []string{`name="profileId"`, ">TH1 office<", `name="model"`, `value="ttn/acme/th1-codec"`}, nil)
	pid := strings.TrimPrefix(path, "/profiles/")
	if r := c.NoRedirects().Post(t, "/tag/create", tok, url.Values{"name": {"Office TH1"}, "deveui": {"70B3D57ED0001234"},
		"applicationId": {fmt.Sprint(e.appID)}, "profileId": {pid}, "decoder": {""}}); r.Status != http.StatusSeeOther {
		t.Fatalf("node from the form: %d %s", r.Status, r.Body)
	}
	edit := c.Page(t, "GET", path, tok, nil)
	kerneltest.Contains(t, kerneltest.Main(edit.Body), []string{`value="Air temperature"`, "1 nodes were created with this profile", "/apply"}, nil)
	if r := c.NoRedirects().Post(t, path+"/apply", tok, nil); r.Status != http.StatusSeeOther {
		t.Errorf("apply: %d", r.Status)
	}

	confirm := c.Page(t, "GET", path+"/delete", tok, nil)
	kerneltest.Contains(t, kerneltest.Main(confirm.Body), []string{"Delete the profile TH1 office?", `role="alertdialog"`}, nil)
	if r := c.NoRedirects().Post(t, path+"/delete", tok, nil); r.Status != http.StatusSeeOther {
		t.Errorf("delete: %d", r.Status)
	}
	if p := c.Page(t, "GET", path, e.other.CompanyAdminToken, nil); p.Status != http.StatusNotFound {
		t.Errorf("another company's view of a deleted profile: %d", p.Status)
	}
}
