package config

import (
	"fmt"
	"strings"
	"testing"
)

// TestTrustedProxies checks FIELDHUB_TRUSTED_PROXIES: none by default,
// addresses and ranges accepted, anything else refused with the option's
// name.
func TestTrustedProxies(t *testing.T) {
	cases := []struct {
		name, value, want string
		bad               bool
	}{
		{name: "none by default", want: "[]"},
		{name: "an address and a range", value: "127.0.0.1, 10.1.2.3/8,::1", want: "[127.0.0.1/32 10.0.0.0/8 ::1/128]"},
		{name: "a host name", value: "proxy.example", bad: true},
		{name: "a bad range", value: "10.0.0.0/33", bad: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"FIELDHUB_TRUSTED_PROXIES": tc.value}
			c, err := Load(func(k string) string { return env[k] }, nil, nil)
			if tc.bad {
				if err == nil || !strings.Contains(err.Error(), "FIELDHUB_TRUSTED_PROXIES") {
					t.Fatalf("got %v, want an error naming FIELDHUB_TRUSTED_PROXIES", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(c.TrustedProxies); got != tc.want {
				t.Errorf("trusted proxies %s, want %s", got, tc.want)
			}
		})
	}
}
