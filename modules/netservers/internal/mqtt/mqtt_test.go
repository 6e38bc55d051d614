package mqtt

import (
	"context"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/modules/nodes"
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

// fakeApplications counts the lookups of ChirpStack application ids.
type fakeApplications struct {
	apps    map[string][]nodes.Application
	lookups int
}

func (f *fakeApplications) ApplicationsByChirpStackID(_ context.Context, id string) ([]nodes.Application, error) {
	f.lookups++
	return f.apps[id], nil
}

func TestApplicationsAreKeptForAWhile(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	f := &fakeApplications{apps: map[string][]nodes.Application{"known": {{ID: 1, CompanyID: 7}}}}
	c := &Client{deps: Deps{Applications: f}, now: func() time.Time { return now }}
	ask := func(id string, wantApps, wantLookups int) {
		t.Helper()
		apps, err := c.applications(context.Background(), id)
		if err != nil || len(apps) != wantApps || f.lookups != wantLookups {
			t.Fatalf("%s: %v, %v after %d lookups; want %d applications after %d", id, apps, err, f.lookups, wantApps, wantLookups)
		}
	}
	ask("known", 1, 1)
	ask("known", 1, 1) // kept
	// An id no application names is asked for every time, so that an
	// application made for it takes its next event.
	ask("unknown", 0, 2)
	f.apps["unknown"] = []nodes.Application{{ID: 2, CompanyID: 8}}
	ask("unknown", 1, 3)
	now = now.Add(appCacheFor)
	ask("known", 1, 4) // expired
}
