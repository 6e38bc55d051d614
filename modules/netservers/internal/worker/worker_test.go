package worker

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/egress"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/mqtt"
)

func TestTTSDownlinkURL(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, pattern, want string }{
		{"default device id", "https://eu1.cloud.thethings.network/api/v3/as/applications/app1/webhooks/fh/devices/{devId}/down/push",
			"https://eu1.cloud.thethings.network/api/v3/as/applications/app1/webhooks/fh/devices/eui-70b3d57ed005a1b2/down/push"},
		{"DevEUI", "https://tts.example.com/api/v3/as/applications/app1/webhooks/fh/devices/node-{devEui}/down/push",
			"https://tts.example.com/api/v3/as/applications/app1/webhooks/fh/devices/node-70b3d57ed005a1b2/down/push"},
		{"one device, as it is", "https://tts.example.com/api/v3/as/applications/app1/webhooks/fh/devices/door/down/push",
			"https://tts.example.com/api/v3/as/applications/app1/webhooks/fh/devices/door/down/push"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := ttsDownlinkURL(tc.pattern, "70B3D57ED005A1B2"); got != tc.want {
				t.Errorf("got %s", got)
			}
		})
	}
}

func TestTTSReason(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, body, want string }{
		{"an error of The Things Stack", `{"code":7,"message":"error:pkg/auth/rights:no_application_rights (no rights)","details":[]}`,
			": error:pkg/auth/rights:no_application_rights (no rights)"},
		{"a proxy's page", "<html>Bad Gateway</html>", ": <html>Bad Gateway</html>"},
		{"empty", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := ttsReason([]byte(tc.body)); got != tc.want {
				t.Errorf("got %q", got)
			}
		})
	}
}

func TestRetryDelay(t *testing.T) {
	t.Parallel()
	var got []time.Duration
	for n := range 6 {
		got = append(got, mqtt.RetryDelay(n, firstRetry, lastRetry))
	}
	want := []time.Duration{15 * time.Second, 30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 5 * time.Minute}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("delays %v, want %v", got, want)
			break
		}
	}
}

// TestUnreachableReasons: a request to The Things Stack that got no answer
// is told to the company by kind, and the whole error kept for the log.
func TestUnreachableReasons(t *testing.T) {
	t.Parallel()
	refused := &url.Error{Op: "Post", URL: "https://tts.example.com/down/push",
		Err: &net.OpError{Op: "dial", Net: "tcp", Err: &egress.RefusedError{Addr: netip.MustParseAddr("10.1.2.3"), Kind: "a private address"}}}
	cases := []struct {
		name   string
		err    error
		id     string
		final  bool
		logged string // what the whole error, for the log, keeps
	}{
		{"a name not found", &url.Error{Op: "Post", URL: "https://x.invalid", Err: &net.OpError{Op: "dial", Net: "tcp",
			Err: &net.DNSError{Err: "no such host", Name: "x.invalid", Server: "10.0.0.53:53", IsNotFound: true}}}, netservers.IDFailUnknownHost, false, "10.0.0.53:53"},
		{"a resolver that times out", &net.DNSError{Err: "i/o timeout", Name: "x", IsTimeout: true}, netservers.IDFailTimeout, false, "i/o timeout"},
		{"a deadline", fmt.Errorf("post: %w", context.DeadlineExceeded), netservers.IDFailTimeout, false, "deadline"},
		{"a refused connection", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, netservers.IDFailUnreachable, false, "refused"},
		{"a private address", refused, netservers.IDFailPrivateAddress, true, "10.1.2.3 is a private address"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := reasonOf(unreachable(tc.err))
			if f.id != tc.id || f.final != tc.final || !strings.Contains(f.Error(), tc.logged) {
				t.Errorf("got %s (final %v): %v; want %s", f.id, f.final, f.err, tc.id)
			}
		})
	}
	if f := reasonOf(errors.New("something else")); f.id != netservers.IDFailInternal || f.final {
		t.Errorf("an error of no kind: %+v", f)
	}
}

// TestTTSErrorName: only The Things Stack's own error names reach the
// company; another server's answer does not.
func TestTTSErrorName(t *testing.T) {
	t.Parallel()
	cases := []struct{ body, want string }{
		{`{"code":7,"message":"error:pkg/auth/rights:no_application_rights (no rights)","details":[]}`, "error:pkg/auth/rights:no_application_rights (no rights)"},
		{`{"code":5,"message":"error:pkg/networkserver:device_not_found"}`, "error:pkg/networkserver:device_not_found"},
		{`{"message":"internal admin panel: user root, password hunter2"}`, ""},
		{`<html>Bad Gateway</html>`, ""},
		{``, ""},
	}
	for _, tc := range cases {
		if got := ttsErrorName([]byte(tc.body)); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.body, got, tc.want)
		}
	}
}
