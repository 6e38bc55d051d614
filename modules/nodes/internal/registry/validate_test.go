package registry

import "testing"

func TestPublicHost(t *testing.T) {
	cases := []struct {
		url  string
		want bool
	}{
		{"https://eu1.cloud.thethings.network/api/v3/as/applications/a/webhooks/w/devices/{devId}/down/push", true},
		{"https://203.0.114.7/push", true},
		{"http://[2a00:1450:4001:82a::200e]:8080/push", true},
		{"http://127.0.0.1:8080/push", false},
		{"http://localhost/push", false},
		{"http://LOCALHOST./push", false},
		{"http://tts.localhost/push", false},
		{"http://10.0.0.5/push", false},
		{"http://192.168.1.20/push", false},
		{"http://169.254.169.254/latest/meta-data", false},
		{"http://[::1]/push", false},
		{"http://[::ffff:127.0.0.1]/push", false},
		{"http://[fe80::1%25eth0]/push", false},
		// A name is resolved and checked at each delivery instead.
		{"http://tts.internal.example/push", true},
	}
	for _, tc := range cases {
		if got := publicHost(tc.url); got != tc.want {
			t.Errorf("publicHost(%q) = %v, want %v", tc.url, got, tc.want)
		}
	}
}
