// Package client calls the Fieldhub REST API: sign in, then read and change
// users and companies with the field names of the portal's API.
//
// A Client is safe for concurrent use. It keeps the access and refresh
// tokens of its session and renews them once when a call answers 401; it
// never keeps a password.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
)

// Client is a session with one portal.
type Client struct {
	base string
	http *http.Client

	mu      sync.Mutex
	access  string
	refresh string
}

// New returns a client for the portal at baseURL (such as
// https://portal.example.com); httpClient may be nil for http.DefaultClient.
func New(baseURL string, httpClient *http.Client) *Client {
	if httpClient == nil {
		httpClient = http.DefaultClient
	}
	return &Client{base: strings.TrimRight(baseURL, "/"), http: httpClient}
}

// APIError is an answer of 400 or above.
type APIError struct {
	Status  int                 `json:"status"`
	ID      string              `json:"id"`
	Message string              `json:"message"`
	Errors  map[string][]string `json:"errors"`
}

func (e *APIError) Error() string {
	return fmt.Sprintf("fieldhub: %d %s: %s", e.Status, e.ID, e.Message)
}

// IsStatus reports whether err is an APIError with the given status.
func IsStatus(err error, status int) bool {
	var e *APIError
	return errors.As(err, &e) && e.Status == status
}

// Session is what Login returns.
type Session struct {
	Token        string `json:"token"`
	Role         string `json:"role"`
	RefreshToken string `json:"refreshToken"`
	UserID       int64  `json:"userId"`
	CompanyID    *int64 `json:"companyId"`
}

// Login signs in and keeps the session's tokens.
func (c *Client) Login(ctx context.Context, email, password string) (*Session, error) {
	var s Session
	if err := c.do(ctx, http.MethodPost, "/api/users/authenticate", map[string]string{"email": email, "password": password}, &s, false); err != nil {
		return nil, err
	}
	c.SetTokens(s.Token, s.RefreshToken)
	return &s, nil
}

// Tokens returns the current access and refresh tokens, for a program that
// resumes its session after a restart.
func (c *Client) Tokens() (access, refresh string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.access, c.refresh
}

// SetTokens resumes a session.
func (c *Client) SetTokens(access, refresh string) {
	c.mu.Lock()
	c.access, c.refresh = access, refresh
	c.mu.Unlock()
}

// renew exchanges the refresh token for new tokens.
func (c *Client) renew(ctx context.Context) error {
	_, refresh := c.Tokens()
	if refresh == "" {
		return errors.New("fieldhub: session expired and no refresh token")
	}
	var s Session
	if err := c.do(ctx, http.MethodPost, "/api/users/refresh", map[string]string{"refreshToken": refresh}, &s, false); err != nil {
		return err
	}
	if s.RefreshToken == "" { // another goroutine rotated it a moment ago
		s.RefreshToken = refresh
	}
	c.SetTokens(s.Token, s.RefreshToken)
	return nil
}

// Do sends a request to path (under /api) with body as JSON and decodes the
// answer into out (nil to discard it). It is the way to reach endpoints this
// package has no method for.
func (c *Client) Do(ctx context.Context, method, path string, body, out any) error {
	err := c.do(ctx, method, path, body, out, true)
	if IsStatus(err, http.StatusUnauthorized) {
		if rerr := c.renew(ctx); rerr != nil {
			return err
		}
		err = c.do(ctx, method, path, body, out, true)
	}
	return err
}

func (c *Client) do(ctx context.Context, method, path string, body, out any, withToken bool) error {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("fieldhub: encode %s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return fmt.Errorf("fieldhub: %s %s: %w", method, path, err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if access, _ := c.Tokens(); withToken && access != "" {
		req.Header.Set("Authorization", "Bearer "+access)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("fieldhub: %s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return fmt.Errorf("fieldhub: read %s %s: %w", method, path, err)
	}
	if res.StatusCode >= 400 {
		apiErr := &APIError{Status: res.StatusCode}
		if json.Unmarshal(raw, apiErr) != nil || apiErr.Message == "" {
			apiErr.Message = strings.TrimSpace(string(raw))
		}
		apiErr.Status = res.StatusCode
		return apiErr
	}
	if out == nil || len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("fieldhub: decode %s %s: %w", method, path, err)
	}
	return nil
}
