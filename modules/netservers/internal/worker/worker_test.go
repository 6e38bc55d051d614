package worker

import (
	"testing"
	"time"

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
