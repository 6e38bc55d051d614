package web_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestAccessLogMasksSecrets checks that public dashboard tokens, password
// reset ids and the address a reset is asked for never reach the access
// log, whatever the answer.
func TestAccessLogMasksSecrets(t *testing.T) {
	var out syncBuffer
	cfg := kerneltest.Config(t, db.SQLite, map[string]string{"FIELDHUB_ACCESS_LOG": "true"})
	p := kerneltest.StartConfig(t, cfg, logTo(&out))
	root := p.SuperAdmin(t)
	acme := p.Company(t, root, "Acme AB", "acme.example")
	token := publicDashboard(t, p.Client, acme.CompanyAdminToken, acme.CompanyID)
	const guid = "0b7c9d4e-1f2a-4b3c-8d9e-0f1a2b3c4d5e"
	secrets := []string{token, guid, "worker@acme.example", "worker%40acme.example", "pd_unknownTOKENunknownTOKENunknownTOKEN00000"}
	p.Page(t, "GET", "/public/"+token, "", nil)
	p.Page(t, "GET", "/public/pd_unknownTOKENunknownTOKENunknownTOKEN00000", "", nil)
	p.Call(t, "GET", "/api/dashboards/public/"+token, "", nil)
	p.Call(t, "GET", "/api/dashboards/public/"+token+"/modules/1/tagdata/latest", "", nil)
	p.Page(t, "GET", "/forgot/"+guid, "", nil)
	p.Page(t, "POST", "/forgot/"+guid, "", url.Values{"password": {"x"}})
	p.Call(t, "PUT", "/api/users/forgot/"+guid, "", map[string]any{"password": "x"})
	p.Call(t, "GET", "/api/users/forgot/"+guid, "", nil) // 405
	p.Call(t, "POST", "/api/users/forgot/worker@acme.example", "", nil)
	p.Call(t, "POST", "/api/users/forgot/worker%40acme.example", "", nil)
	p.Call(t, "GET", "/api/users/42", acme.UserToken, nil)

	wants := []string{
		`"path":"/public/***"`, `"path":"/api/dashboards/public/***"`, `"path":"/api/dashboards/public/***/modules/1/tagdata/latest"`,
		`"path":"/forgot/***"`, `"path":"/api/users/forgot/***"`, `"path":"/api/users/42"`, `"route":"GET /public/{token}"`,
		`"route":"PUT /api/users/forgot/{guid}"`, `"route":"POST /api/users/forgot/{email}"`, `"route":"POST /forgot/{guid}"`,
	}
	accessLog := func() string {
		var lines []string
		for _, l := range strings.Split(out.String(), "\n") {
			if strings.Contains(l, `"msg":"request"`) {
				lines = append(lines, l)
			}
		}
		return strings.Join(lines, "\n")
	}
	kerneltest.WaitFor(t, 5*time.Second, func() bool {
		log := accessLog()
		for _, w := range wants {
			if !strings.Contains(log, w) {
				return false
			}
		}
		return strings.Count(log, `"path":"/api/users/forgot/***"`) >= 4
	}, func() string { return "the access log lacks requests:\n" + accessLog() })
	log := accessLog()
	for _, s := range secrets {
		if strings.Contains(log, s) {
			t.Errorf("the access log holds %q:\n%s", s, log)
		}
	}
}
