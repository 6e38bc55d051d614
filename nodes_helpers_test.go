package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// The helpers of the nodes pages' tests, which moved to modules/nodes, that
// the root tests not moved yet (decoders, dashboards, ingest) still use.

// nodeFixture is one company's application and node, made through the API.
type nodeFixture struct {
	appID, tagID int64
	deveui       string
}

func (ta *testApp) nodeFixture(t *testing.T, token string, companyID int64, appName, tagName, deveui string) nodeFixture {
	t.Helper()
	app := ta.Call(t, "POST", fmt.Sprintf("/api/applications/%d", companyID), token, map[string]any{"name": appName})
	if app.Status != http.StatusCreated {
		t.Fatalf("create application: %d %s", app.Status, app.Body)
	}
	f := nodeFixture{appID: app.Num("id"), deveui: deveui}
	if tagName != "" {
		tag := ta.Call(t, "POST", fmt.Sprintf("/api/applications/%d/tag", f.appID), token, map[string]any{"name": tagName, "deveui": deveui})
		if tag.Status != http.StatusCreated {
			t.Fatalf("create tag: %d %s", tag.Status, tag.Body)
		}
		f.tagID = tag.Num("id")
	}
	return f
}

// contains reports what of want a page lacks and what of not it shows.
func contains(t *testing.T, body string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("lacks %q", w)
		}
	}
	for _, n := range not {
		if strings.Contains(body, n) {
			t.Errorf("shows %q", n)
		}
	}
}

// mainOf is the page without its frame (the side menu names pages too).
func mainOf(body string) string {
	if i := strings.Index(body, `<main id="main"`); i >= 0 {
		return body[i:]
	}
	return body
}
