package kerneltest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// Client calls a test server's API.
type Client struct {
	Base string
	HTTP *http.Client
}

// NewClient returns a client for the server at base.
func NewClient(base string) *Client { return &Client{Base: base, HTTP: &http.Client{}} }

// Response is a finished call: status, headers and body, with the body also
// decoded when it is JSON.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	JSON   any
}

// Obj returns the body as a JSON object (nil if it is not one).
func (r Response) Obj() map[string]any {
	m, _ := r.JSON.(map[string]any)
	return m
}

// List returns the body as a JSON array (nil if it is not one).
func (r Response) List() []any {
	l, _ := r.JSON.([]any)
	return l
}

// Str returns a top-level string field of the body.
func (r Response) Str(key string) string {
	s, _ := r.Obj()[key].(string)
	return s
}

// Num returns a top-level number field of the body.
func (r Response) Num(key string) int64 {
	f, _ := r.Obj()[key].(float64)
	return int64(f)
}

// FieldError returns the first message of a field in an error answer.
func (r Response) FieldError(field string) string {
	errs, _ := r.Obj()["errors"].(map[string]any)
	list, _ := errs[field].([]any)
	if len(list) == 0 {
		return ""
	}
	s, _ := list[0].(string)
	return s
}

// Call sends a request. body may be nil, a string or []byte (sent as is),
// or any other value (sent as JSON). headers are name, value pairs.
func (c *Client) Call(tb testing.TB, method, path, token string, body any, headers ...string) Response {
	tb.Helper()
	var rd io.Reader
	contentType := ""
	switch b := body.(type) {
	case nil:
	case string:
		rd, contentType = strings.NewReader(b), "application/json"
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			tb.Fatalf("encode body: %v", err)
		}
		rd, contentType = bytes.NewReader(raw), "application/json"
	}
	req, err := http.NewRequest(method, c.Base+path, rd)
	if err != nil {
		tb.Fatalf("request %s %s: %v", method, path, err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		tb.Fatalf("read %s %s: %v", method, path, err)
	}
	out := Response{Status: res.StatusCode, Header: res.Header, Body: raw}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		_ = json.Unmarshal(raw, &out.JSON)
	}
	return out
}

// Must is Call that fails the test unless the answer has status.
func (c *Client) Must(tb testing.TB, method, path, token string, body any, status int, headers ...string) Response {
	tb.Helper()
	r := c.Call(tb, method, path, token, body, headers...)
	if r.Status != status {
		tb.Fatalf("%s %s: %d, want %d: %s", method, path, r.Status, status, r.Body)
	}
	return r
}

// Login authenticates and returns the access token.
func (c *Client) Login(tb testing.TB, email, password string) string {
	tb.Helper()
	r := c.Call(tb, "POST", "/api/users/authenticate", "", map[string]string{"email": email, "password": password})
	if r.Status != http.StatusOK || r.Str("token") == "" {
		tb.Fatalf("login %s: %d %s", email, r.Status, r.Body)
	}
	return r.Str("token")
}
