package web_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/config"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// publicDashboard shares a new dashboard of the company of token's owner
// and returns the link's token.
func publicDashboard(t *testing.T, c *kerneltest.Client, token string, company int64) string {
	t.Helper()
	d := c.Must(t, "POST", "/api/dashboards", token, map[string]any{"name": "Shared"}, http.StatusCreated)
	expires := time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339)
	link := c.Must(t, "POST", fmt.Sprintf("/api/dashboards/public/%d/%d/%s", company, d.Num("dashboardId"), expires), token, nil, http.StatusCreated)
	return link.Str("token")
}

// sessionCookies signs worker@acme.example in as a browser does and returns
// the Cookie header of the session.
func sessionCookies(t *testing.T, c *kerneltest.Client, email string) string {
	t.Helper()
	login := c.Must(t, "POST", "/api/users/authenticate", "", map[string]any{"email": email, "password": kerneltest.Password}, http.StatusOK)
	var parts []string
	for _, name := range []string{"fieldhub_token", "fieldhub_refresh"} {
		ck, ok := login.Cookie(name)
		if !ok {
			t.Fatalf("no %s cookie: %v", name, login.Header)
		}
		parts = append(parts, name+"="+ck.Value)
	}
	return strings.Join(parts, "; ")
}

// syncBuffer is a log destination the server's goroutines may share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// logTo is app.Build with its log written to out.
func logTo(out *syncBuffer) kerneltest.Builder[*app.App] {
	return func(ctx context.Context, cfg *config.Config, _ *slog.Logger) (*app.App, error) {
		return app.Build(ctx, cfg, slog.New(slog.NewJSONHandler(out, nil)))
	}
}
