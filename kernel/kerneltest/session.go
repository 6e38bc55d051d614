package kerneltest

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// Session is a portal's API as the named callers of a test see it: their
// access tokens by name ("super", "acmeAdmin") and the ids the test made by
// placeholder ("{acme}"), which it writes into paths and bodies. Tests that
// call the API as several people over many steps name them once here
// instead of carrying tokens and ids around; Companies makes one with its
// people, RunSteps keeps it up to date.
type Session struct {
	// Client calls the portal.
	Client *Client
	// Tokens are the callers' access tokens by name; a caller without one
	// calls as a visitor.
	Tokens map[string]string
	// IDs are the values of placeholders such as "{acme}": ids, or other
	// values a step saved.
	IDs map[string]string
}

// NewSession returns a session of c's portal without callers or ids.
func NewSession(c *Client) *Session {
	return &Session{Client: c, Tokens: map[string]string{}, IDs: map[string]string{}}
}

// SignIn authenticates email and keeps the token as who's.
func (s *Session) SignIn(tb testing.TB, who, email, password string) {
	tb.Helper()
	s.Tokens[who] = s.Client.Login(tb, email, password)
}

// Fill writes the values of the placeholders into text.
func (s *Session) Fill(text string) string {
	pairs := make([]string, 0, 2*len(s.IDs))
	for k, v := range s.IDs {
		pairs = append(pairs, k, v)
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

// ID returns the id a placeholder stands for, and fails the test when it
// stands for none.
func (s *Session) ID(tb testing.TB, placeholder string) int64 {
	tb.Helper()
	id, err := strconv.ParseInt(s.IDs[placeholder], 10, 64)
	if err != nil {
		tb.Fatalf("no id for %s", placeholder)
	}
	return id
}

// Send calls the API as who with a body as it is and its content type
// (both may be empty), in the language lang ("" for the default), and
// returns the status, headers and body of the answer. The placeholders in
// path are filled.
func (s *Session) Send(tb testing.TB, who, method, path string, body []byte, contentType, lang string) (int, http.Header, []byte) {
	tb.Helper()
	var headers []string
	if contentType != "" {
		headers = append(headers, "Content-Type", contentType)
	}
	if lang != "" {
		headers = append(headers, "Accept-Language", lang)
	}
	r := s.Client.Call(tb, method, s.Fill(path), s.Tokens[who], body, headers...)
	return r.Status, r.Header, r.Body
}

// Do calls the API as who with a JSON body ("" for none) in the language
// lang, both with their placeholders filled, and returns the status and
// the body of the answer.
func (s *Session) Do(tb testing.TB, who, method, path, body, lang string) (int, []byte) {
	tb.Helper()
	var raw []byte
	if body != "" {
		raw = []byte(s.Fill(body))
	}
	status, _, answer := s.Send(tb, who, method, path, raw, "application/json", lang)
	return status, answer
}

// MustDo is Do that fails the test unless the answer has status, and
// decodes the answer into out unless out is nil.
func (s *Session) MustDo(tb testing.TB, who, method, path, body string, status int, out any) {
	tb.Helper()
	got, raw := s.Do(tb, who, method, path, body, "")
	if got != status {
		tb.Fatalf("%s %s: status %d, want %d: %s", method, s.Fill(path), got, status, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			tb.Fatalf("%s %s: decode %s: %v", method, path, raw, err)
		}
	}
}

// Call is Client.Call as who (a name in Tokens, "" for a visitor); the
// placeholders in path are filled.
func (s *Session) Call(tb testing.TB, who, method, path string, body any, headers ...string) Response {
	tb.Helper()
	return s.Client.Call(tb, method, s.Fill(path), s.Tokens[who], body, headers...)
}

// Must is Call that fails the test unless the answer has status.
func (s *Session) Must(tb testing.TB, who, method, path string, body any, status int, headers ...string) Response {
	tb.Helper()
	r := s.Call(tb, who, method, path, body, headers...)
	if r.Status != status {
		tb.Fatalf("%s %s as %s: %d, want %d: %s", method, path, who, r.Status, status, r.Body)
	}
	return r
}
