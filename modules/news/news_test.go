package news_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// The news module: the /news page and GET /api/news for visitors and every
// role, the configured feed (working and failing), and the SuperAdmin's
// local entries through the API and the page.

// feedServer serves the RSS fixture, or status 500 when failing is set.
func feedServer(t *testing.T, failing bool) string {
	t.Helper()
	rss, err := os.ReadFile("internal/feed/testdata/rss.xml")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if failing {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/rss+xml")
		w.Write(rss)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/feed.xml"
}

func TestNewsWithWorkingFeed(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		ta := kerneltest.Start(t, d, map[string]string{"FIELDHUB_NEWS_FEED_URL": feedServer(t, false)}, app.Build).NoRedirects()
		root := ta.SuperAdmin(t)
		acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")

		// A visitor: the empty local section, the feed loaded after the page.
		page := ta.Call(t, "GET", "/news", "", nil, "Accept-Language", "en")
		kerneltest.WantContains(t, "visitor's /news", page, "There is no news from this portal yet.", `hx-get="/news/feed"`,
			"Loading the provider&#39;s news…", `href="/news"`)
		kerneltest.WantAbsent(t, "visitor's /news", page, "data-news-form")
		part := ta.Call(t, "GET", "/news/feed", "", nil, "Accept-Language", "en", "HX-Request", "true")
		kerneltest.WantContains(t, "feed part", part, "Fieldhub &amp; friends", "New LoRaWAN node", "The new node is here.",
			"Older gateway firmware", `rel="noopener noreferrer external"`,
			"<time datetime=\"2026-11-27T08:30:00Z\">2026-11-27 08:30 UTC</time>")
		kerneltest.WantAbsent(t, "feed part", part, "<script", "<b>", "onerror", "javascript:", "Could not fetch")
		api := ta.Must(t, "GET", "/api/news", "", nil, http.StatusOK)
		feed := api.Obj()["feed"].(map[string]any)
		if feed["configured"] != true || feed["failed"] != false || len(feed["items"].([]any)) != 4 || len(api.Obj()["entries"].([]any)) != 0 {
			t.Errorf("GET /api/news: %s", api.Body)
		}

		// Only a SuperAdmin writes.
		body := map[string]any{"title": "  Maintenance\ttonight ", "body": "Line one\nline two\n\n<script>alert(1)</script>", "publishedAt": "2026-07-01T12:00:00Z"}
		ta.Must(t, "POST", "/api/news", "", body, http.StatusUnauthorized)
		ta.Must(t, "POST", "/api/news", acme.AdminToken, body, http.StatusForbidden)
		bad := ta.Must(t, "POST", "/api/news", root, map[string]any{"title": "", "body": "", "publishedAt": "yesterday"}, http.StatusBadRequest)
		for _, f := range []string{"title", "body", "publishedAt"} {
			if bad.FieldError(f) == "" {
				t.Errorf("no error for %s: %s", f, bad.Body)
			}
		}
		created := ta.Must(t, "POST", "/api/news", root, body, http.StatusCreated)
		id := created.Num("id")
		if created.Str("title") != "Maintenance tonight" || created.Str("publishedAt") != "2026-07-01T12:00:00Z" {
			t.Errorf("created: %s", created.Body)
		}

		// The User sees it in their zone (the company is in GB), as text.
		page = ta.Call(t, "GET", "/news", acme.UserToken, nil)
		kerneltest.WantContains(t, "User's /news", page, "Maintenance tonight", "2026-07-01 13:00 BST", "Line one<br> line two",
			"&lt;script&gt;alert(1)&lt;/script&gt;")
		kerneltest.WantAbsent(t, "User's /news", page, "data-news-form", "/edit", "There is no news from this portal yet.")

		// Edit and delete through the API.
		upd := ta.Must(t, "PUT", "/api/news/"+itoa(id), root, map[string]any{"title": "Maintenance moved", "body": "Tomorrow"}, http.StatusOK)
		if upd.Str("title") != "Maintenance moved" || upd.Str("publishedAt") != "2026-07-01T12:00:00Z" {
			t.Errorf("updated: %s", upd.Body)
		}
		ta.Must(t, "PUT", "/api/news/"+itoa(id), acme.UserToken, map[string]any{"title": "x", "body": "y"}, http.StatusForbidden)
		ta.Must(t, "DELETE", "/api/news/"+itoa(id), acme.AdminToken, nil, http.StatusForbidden)
		ta.Must(t, "DELETE", "/api/news/"+itoa(id), root, nil, http.StatusNoContent)
		ta.Must(t, "DELETE", "/api/news/"+itoa(id), root, nil, http.StatusNotFound)
		ta.Must(t, "PUT", "/api/news/"+itoa(id), root, map[string]any{"title": "x", "body": "y"}, http.StatusNotFound)
	})
}

func TestNewsPagesForSuperAdmin(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, map[string]string{"FIELDHUB_NEWS_FEED_URL": ""}, app.Build).NoRedirects()
	root := ta.SuperAdmin(t)
	page := ta.Call(t, "GET", "/news", root, nil, "Accept-Language", "en")
	kerneltest.WantContains(t, "SuperAdmin's /news", page, "data-news-form", `name="title"`, `name="body"`, `type="datetime-local"`)
	kerneltest.WantAbsent(t, "/news without a feed", page, `hx-get="/news/feed"`)

	// A refused form comes back with its messages (htmx: 200 and the form).
	r := ta.Post(t, "/news", root, url.Values{"title": {""}, "body": {"x"}}, "HX-Request", "true", "Accept-Language", "en")
	kerneltest.WantContains(t, "refused form", r, "Give the news a title", `aria-invalid="true"`)

	// Posted in the viewer's zone (UTC for a SuperAdmin without a company).
	r = ta.Post(t, "/news", root, url.Values{"title": {"Spring release"}, "body": {"New pages."}, "publishedAt": {"2026-03-01T09:00"}})
	kerneltest.WantRedirect(t, "post", r, "/news", nil)
	api := ta.Must(t, "GET", "/api/news", "", nil, http.StatusOK)
	entries := api.Obj()["entries"].([]any)
	if len(entries) != 1 || entries[0].(map[string]any)["publishedAt"] != "2026-03-01T09:00:00Z" {
		t.Fatalf("after the form: %s", api.Body)
	}
	id := int64(entries[0].(map[string]any)["id"].(float64))

	edit := ta.Call(t, "GET", "/news/"+itoa(id)+"/edit", root, nil, "Accept-Language", "en")
	kerneltest.WantContains(t, "edit page", edit, `value="Spring release"`, `value="2026-03-01T09:00"`, "Edit news")
	r = ta.Post(t, "/news/"+itoa(id), root, url.Values{"title": {"Spring release 2"}, "body": {"New pages."}, "publishedAt": {"2026-03-01T09:00"}})
	kerneltest.WantRedirect(t, "edit", r, "/news", nil)

	confirm := ta.Call(t, "GET", "/news/"+itoa(id)+"/delete", root, nil, "Accept-Language", "en")
	kerneltest.WantContains(t, "delete confirmation", confirm, `role="alertdialog"`, "Delete the news “Spring release 2”?", "Yes, delete")
	r = ta.Post(t, "/news/"+itoa(id)+"/delete", root, nil)
	kerneltest.WantRedirect(t, "delete", r, "/news", nil)
	if r := ta.Call(t, "GET", "/news/"+itoa(id)+"/edit", root, nil); r.Status != http.StatusNotFound {
		t.Errorf("edit page of a deleted entry: %d", r.Status)
	}
}

func TestNewsWithFailingFeed(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, map[string]string{"FIELDHUB_NEWS_FEED_URL": feedServer(t, true)}, app.Build)
	root := ta.SuperAdmin(t)
	ta.Must(t, "POST", "/api/news", root, map[string]any{"title": "Local still shows", "body": "Yes."}, http.StatusCreated)

	part := ta.Call(t, "GET", "/news/feed", "", nil, "Accept-Language", "en", "HX-Request", "true")
	kerneltest.WantContains(t, "failing feed", part, `role="alert"`, "Could not fetch the news from the provider.")
	kerneltest.WantAbsent(t, "failing feed", part, "The provider has no news right now.")
	kerneltest.WantContains(t, "page with a failing feed", ta.Call(t, "GET", "/news", "", nil), "Local still shows")
	api := ta.Must(t, "GET", "/api/news", "", nil, http.StatusOK, "Accept-Language", "sv")
	feed := api.Obj()["feed"].(map[string]any)
	if feed["failed"] != true || feed["message"] != "Det gick inte att hämta nyheterna från leverantören." || len(api.Obj()["entries"].([]any)) != 1 {
		t.Errorf("GET /api/news with a failing feed: %s", api.Body)
	}
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }
