package networkserver

import (
	"testing"
	"time"
)

func TestSplitEventTopic(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, topic     string
		app, eui, event string
		ok              bool
	}{
		{"up", "application/17c82e96-be03-4f38-aef3-f83d48582d97/device/0101010101010101/event/up",
			"17c82e96-be03-4f38-aef3-f83d48582d97", "0101010101010101", "up", true},
		{"upper-case parts", "application/17C82E96-BE03-4F38-AEF3-F83D48582D97/device/A1A2A3A4A5A6A7A8/event/txack",
			"17c82e96-be03-4f38-aef3-f83d48582d97", "a1a2a3a4a5a6a7a8", "txack", true},
		{"a command", "application/x/device/0101010101010101/command/down", "", "", "", false},
		{"a state topic", "application/x/device/0101010101010101/state/join", "", "", "", false},
		{"short DevEUI", "application/x/device/0101/event/up", "", "", "", false},
		{"no event", "application/x/device/0101010101010101/event/", "", "", "", false},
		{"too deep", "application/x/device/0101010101010101/event/up/more", "", "", "", false},
		{"another tree", "v3/app@ttn/devices/dev1/up", "", "", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			app, eui, event, ok := splitEventTopic(tc.topic)
			if app != tc.app || eui != tc.eui || event != tc.event || ok != tc.ok {
				t.Errorf("got %q %q %q %v", app, eui, event, ok)
			}
		})
	}
}

func TestParseMQTTURL(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, url    string
		server, user string
		password     string
		wantErr      bool
	}{
		{"plain with default port", "mqtt://broker.example.com", "mqtt://broker.example.com:1883", "", "", false},
		{"TLS with default port", "mqtts://u:p%40ss@broker", "mqtts://broker:8883", "u", "p@ss", false},
		{"port and user", "mqtt://chirpstack@127.0.0.1:11883", "mqtt://127.0.0.1:11883", "chirpstack", "", false},
		{"IPv6", "mqtt://[::1]:1883", "mqtt://[::1]:1883", "", "", false},
		{"another scheme", "tcp://broker:1883", "", "", "", true},
		{"no host", "mqtt://:1883", "", "", "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := parseMQTTURL(tc.url, "fieldhub")
			if tc.wantErr {
				if err == nil {
					t.Errorf("accepted: %+v", c)
				}
				return
			}
			if err != nil || c.server.String() != tc.server || c.username != tc.user || string(c.password) != tc.password || c.clientID != "fieldhub" {
				t.Errorf("got %+v, %v", c, err)
			}
		})
	}
}

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
		got = append(got, retryDelay(n, firstRetry, lastRetry))
	}
	want := []time.Duration{15 * time.Second, 30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 5 * time.Minute}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("delays %v, want %v", got, want)
			break
		}
	}
}
