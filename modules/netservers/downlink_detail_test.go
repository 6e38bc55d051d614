package netservers_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/config"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/netservers"
)

// serverLog is the portal's log as a test reads it.
type serverLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *serverLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *serverLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// TestDownlinkFailuresShowAGenericReason: when the worker cannot hand a
// downlink to The Things Stack, the company sees a reason in general terms
// from the catalog, in the downlink's detail and its log entry, never the
// portal's resolver or the address a name resolved to; the server log
// keeps the whole error.
func TestDownlinkFailuresShowAGenericReason(t *testing.T) {
	t.Parallel()
	logged := &serverLog{}
	cfg := kerneltest.Config(t, db.SQLite, nil)
	p := kerneltest.StartConfig(t, cfg, func(ctx context.Context, cfg *config.Config, _ *slog.Logger) (*app.App, error) {
		return app.Build(ctx, cfg, slog.New(slog.NewTextHandler(logged, nil)))
	})
	s := kerneltest.Companies(t, p.Client, p.App, kerneltest.CompanySpec{Key: "acme"})
	catalogs := p.Host().Catalogs
	tts := newFakeTTS(t)
	cases := []struct {
		name, url string
		status    string // after the first try
		id        string // the reason's message id
		args      map[string]any
		logged    string // what the server log keeps
	}{
		{"a name that resolves to no address", "https://fieldhub-test-nowhere.invalid/api/v3/as/applications/a/webhooks/f/devices/{devId}/down/push",
			"queued", netservers.IDFailUnknownHost, nil, "fieldhub-test-nowhere.invalid"},
		{"a loopback address", tts.URL + "/api/v3/as/applications/a/webhooks/f/devices/{devId}/down/push",
			"failed", netservers.IDFailPrivateAddress, nil, "127.0.0.1 is a loopback address"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			app := s.Must(t, "acmeAdmin", "POST", "/api/applications/{acme}", map[string]any{"name": fmt.Sprintf("Stable %d", i), "networkServer": "tts",
				"ttsApiKey": fakeTTSKey, "ttsDownlinkUrl": "https://eu1.cloud.thethings.network/api/v3/as/applications/a/webhooks/f/devices/{devId}/down/push"},
				http.StatusCreated).Num("id")
			// Saved past the check of the form, as an application saved
			// before it, or a name that resolves there later, would be.
			if _, err := p.Host().DB.NewRaw("UPDATE applications SET tts_downlink_url = ? WHERE id = ?", tc.url, app).Exec(context.Background()); err != nil {
				t.Fatal(err)
			}
			tag := s.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/applications/%d/tag", app), map[string]any{"name": "Gate", "deveui": randomHex(8)},
				http.StatusCreated).Num("id")
			id := s.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/downlink/%d", tag), map[string]any{"port": 1, "payload": "01", "payloadType": "hex"},
				http.StatusCreated).Num("id")
			var dl map[string]any
			kerneltest.WaitFor(t, waitLimit, func() bool {
				for _, d := range s.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/downlink/tag/%d", tag), nil, http.StatusOK).List() {
					if d.(map[string]any)["id"] == float64(id) {
						dl = d.(map[string]any)
					}
				}
				return dl["attempts"] == 1.0
			}, func() string { return fmt.Sprint(dl) })
			reason := catalogs.T(i18n.Default, tc.id, tc.args)
			want := reason
			if tc.status == "queued" {
				want = catalogs.T(i18n.Default, netservers.IDFailAttempt, map[string]any{"reason": reason, "attempt": 1, "max": 5})
			}
			if dl["status"] != tc.status || dl["detail"] != want {
				t.Errorf("downlink %v; want %s with the detail %q", dl, tc.status, want)
			}
			for _, leak := range []string{"lookup", ":53", "127.0.0.1", "no such host", "FIELDHUB_OUTBOUND_PRIVATE", "dial tcp"} {
				if strings.Contains(fmt.Sprint(dl["detail"]), leak) {
					t.Errorf("the detail names %q: %v", leak, dl["detail"])
				}
			}
			kerneltest.WaitFor(t, waitLimit, func() bool { return strings.Contains(logged.String(), tc.logged) },
				func() string { return "the server log lacks " + tc.logged })
		})
	}
	tts.mu.Lock()
	defer tts.mu.Unlock()
	if len(tts.reqs) != 0 {
		t.Errorf("the server on 127.0.0.1 got %d requests", len(tts.reqs))
	}
}
