// Package bridge calls the portal's REST routes in process for an RPC, as
// its caller: with the RPC's Authorization, Accept-Language and forwarding
// headers and its peer's address, so that the route authenticates, scopes
// and validates exactly as it does for REST, and turns a REST error into a
// Connect error with the catalog's message.
package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"connectrpc.com/connect"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/modules/partnerapi"
)

// forwarded are the request headers an in-process call takes from its
// RPC: the credentials, the language of messages, and what the trusted
// proxies say of the client.
var forwarded = []string{"Authorization", "Accept-Language", "X-Forwarded-For", "X-Real-Ip"}

// Client calls the portal's routes.
type Client struct{ portal partnerapi.Portal }

// New returns a client of portal.
func New(portal partnerapi.Portal) *Client { return &Client{portal: portal} }

// Call is one REST call: Body, when not nil, is sent as JSON (raw bytes
// as they are).
type Call struct {
	Method string
	Path   string
	Query  url.Values
	Body   any
}

// RPC is what a call takes from the RPC it answers: its request headers
// and its peer's address.
type RPC struct {
	Header http.Header
	Addr   string
}

// Of is the RPC of a unary or server-streaming request.
func Of(req connect.AnyRequest) RPC { return RPC{Header: req.Header(), Addr: req.Peer().Addr} }

// Do makes call for rpc and decodes a 2xx answer's JSON into out (unless
// out is nil or the answer has no body); another answer is a
// *connect.Error.
func (c *Client) Do(ctx context.Context, rpc RPC, call Call, out any) error {
	var body io.Reader
	switch b := call.Body.(type) {
	case nil:
	case []byte:
		body = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			return connect.NewError(connect.CodeInternal, err)
		}
		body = bytes.NewReader(raw)
	}
	target := call.Path
	if len(call.Query) > 0 {
		target += "?" + call.Query.Encode()
	}
	// The route authenticates the call by its headers alone, as a REST
	// request: the RPC's caller does not ride along in the context.
	ctx = auth.WithCaller(ctx, auth.Caller{Role: auth.Guest})
	req, err := http.NewRequestWithContext(ctx, call.Method, "http://portal"+target, body)
	if err != nil {
		return connect.NewError(connect.CodeInternal, err)
	}
	for _, h := range forwarded {
		if v := rpc.Header.Values(h); len(v) > 0 {
			req.Header[h] = slices.Clone(v)
		}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.RemoteAddr = rpc.Addr
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	c.portal.ServeHTTP(rec, req)
	if rec.status >= 300 {
		return problem(rec.status, rec.body.Bytes())
	}
	if out == nil || rec.body.Len() == 0 {
		return nil
	}
	if err := json.Unmarshal(rec.body.Bytes(), out); err != nil {
		return connect.NewError(connect.CodeInternal, fmt.Errorf("read the answer of %s %s: %w", call.Method, call.Path, err))
	}
	return nil
}

// problem turns a REST error answer into a Connect error: the code of its
// status, the catalog's message with the fields' messages, and the
// message's id as metadata.
func problem(status int, body []byte) error {
	var p struct {
		ID      string              `json:"id"`
		Message string              `json:"message"`
		Errors  map[string][]string `json:"errors"`
	}
	if err := json.Unmarshal(body, &p); err != nil || p.Message == "" {
		return connect.NewError(partnerapi.ErrorCode(status), errors.New(http.StatusText(status)))
	}
	msg := p.Message
	if len(p.Errors) > 0 {
		fields := make([]string, 0, len(p.Errors))
		for f, texts := range p.Errors {
			fields = append(fields, f+": "+strings.Join(texts, " "))
		}
		slices.Sort(fields)
		msg += " (" + strings.Join(fields, "; ") + ")"
	}
	e := connect.NewError(partnerapi.ErrorCode(status), errors.New(msg))
	if p.ID != "" {
		e.Meta().Set(partnerapi.ErrorIDHeader, p.ID)
	}
	return e
}

// recorder holds a route's answer.
type recorder struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.body.Write(b)
}
