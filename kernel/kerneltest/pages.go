package kerneltest

import (
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// Page is the answer of a server page; Body is unescaped, so that texts can
// be compared as the catalogs write them.
type Page struct {
	Status int
	Header http.Header
	Body   string
}

// HTMX marks a request as sent by htmx (HX-Request: true): the answer is a
// fragment or an HX-Redirect.
var HTMX = []string{"HX-Request", "true"}

// Page sends a request to a page without following redirects. form, when not
// nil, is posted urlencoded; headers are name, value pairs.
func (c *Client) Page(tb testing.TB, method, path, token string, form url.Values, headers ...string) Page {
	tb.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, c.Base+path, body)
	if err != nil {
		tb.Fatalf("request %s %s: %v", method, path, err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	return c.SendPage(tb, req, token, headers...)
}

// SendPage sends a request the test made, as Page does.
func (c *Client) SendPage(tb testing.TB, req *http.Request, token string, headers ...string) Page {
	tb.Helper()
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		tb.Fatalf("read %s: %v", req.URL.Path, err)
	}
	return Page{Status: res.StatusCode, Header: res.Header, Body: html.UnescapeString(string(raw))}
}

// Redirect returns where an answer sends the browser: Location of a 303,
// HX-Redirect of an htmx answer.
func (p Page) Redirect() string {
	if p.Status == http.StatusSeeOther {
		return p.Header.Get("Location")
	}
	return p.Header.Get("HX-Redirect")
}

// FullPage reports whether the answer is a whole document rather than an
// htmx fragment.
func (p Page) FullPage() bool { return strings.Contains(p.Body, "<!doctype html>") }

// Toast is the text of the snackbar message the answer carries in its
// cookie, "" when none.
func (p Page) Toast() string {
	for _, c := range p.Header.Values("Set-Cookie") {
		if v, ok := strings.CutPrefix(c, "fieldhub_toast="); ok {
			text, _ := url.QueryUnescape(strings.SplitN(v, ";", 2)[0])
			return text
		}
	}
	return ""
}

// Main is the page without its frame (the side menu names pages too).
func Main(body string) string {
	if i := strings.Index(body, `<main id="main"`); i >= 0 {
		return body[i:]
	}
	return body
}

// NoRedirects makes the client report redirects instead of following them,
// so that guards and post-redirect-get can be checked.
func (c *Client) NoRedirects() *Client {
	c.HTTP = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return c
}

// Post sends a form as a browser would; headers are name, value pairs.
func (c *Client) Post(tb testing.TB, path, token string, form url.Values, headers ...string) Response {
	tb.Helper()
	return c.Call(tb, "POST", path, token, []byte(form.Encode()),
		append([]string{"Content-Type", "application/x-www-form-urlencoded"}, headers...)...)
}

// WantContains fails the test for each part the body lacks.
func WantContains(tb testing.TB, what string, r Response, parts ...string) {
	tb.Helper()
	for _, p := range parts {
		if !strings.Contains(string(r.Body), p) {
			tb.Errorf("%s: %q missing from %d %.2000s", what, p, r.Status, r.Body)
		}
	}
}

// WantAbsent fails the test for each part the body shows.
func WantAbsent(tb testing.TB, what string, r Response, parts ...string) {
	tb.Helper()
	for _, p := range parts {
		if strings.Contains(string(r.Body), p) {
			tb.Errorf("%s: %q should not be in %d %.2000s", what, p, r.Status, r.Body)
		}
	}
}

// WantRedirect checks a 303 to path with the given query values.
func WantRedirect(tb testing.TB, what string, r Response, path string, query url.Values) {
	tb.Helper()
	if r.Status != http.StatusSeeOther {
		tb.Fatalf("%s: status %d, want 303: %.300s", what, r.Status, r.Body)
	}
	loc, err := url.Parse(r.Header.Get("Location"))
	if err != nil || loc.Path != path || loc.Query().Encode() != query.Encode() {
		tb.Fatalf("%s: redirected to %q, want %s?%s", what, r.Header.Get("Location"), path, query.Encode())
	}
}

// Cookie returns a cookie the response sets, and whether it does.
func (r Response) Cookie(name string) (*http.Cookie, bool) {
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == name {
			return c, true
		}
	}
	return nil, false
}

// ToastText reads the success message a redirect carries in its cookie,
// decoded as the page's script decodes it (decodeURIComponent); "" when
// none.
func (r Response) ToastText(tb testing.TB) string {
	tb.Helper()
	c, ok := r.Cookie("fieldhub_toast")
	if !ok {
		return ""
	}
	raw, err := url.PathUnescape(c.Value)
	if err != nil {
		tb.Fatalf("toast cookie %q: %v", c.Value, err)
	}
	var toast struct{ Level, Text string }
	if err := json.Unmarshal([]byte(raw), &toast); err != nil || toast.Level != "success" {
		tb.Fatalf("toast cookie %q: %v", raw, err)
	}
	return toast.Text
}

// WaitSubject returns the first mail whose subject contains subject, waiting
// up to 15 seconds.
func (in *Inbox) WaitSubject(tb testing.TB, subject string) Mail {
	tb.Helper()
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, m := range in.All() {
			if strings.Contains(m.Subject, subject) {
				return m
			}
		}
	}
	tb.Fatalf("no mail about %q; got %+v", subject, in.All())
	return Mail{}
}

// HTMLTag returns the page's <html ...> start tag.
func HTMLTag(tb testing.TB, r Response) string {
	tb.Helper()
	body := string(r.Body)
	i := strings.Index(body, "<html")
	if i < 0 {
		tb.Fatalf("no <html> tag in %d %.300s", r.Status, body)
	}
	return body[i : i+strings.Index(body[i:], ">")+1]
}
