package main

import (
	"context"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/kerneltest/smsfake"
	"github.com/fieldhub/fieldhub/sdk/sms"
	"github.com/fieldhub/fieldhub/sdk/sms/smstest"
)

var creds = map[string]string{"username": "u0a1b2c3d", "password": "secret"}

// TestElks sends through the plugin's real protocol to a double of 46elks'
// published API: accepted, refused number, bad credentials, no
// credentials, no provider.
func TestElks(t *testing.T) {
	ctx := context.Background()
	fake := smsfake.NewElks(t, creds["username"], creds["password"])
	t.Setenv(baseURLEnv, fake.URL())
	c := smstest.InProcess(t, elks{})

	res, err := c.Send(ctx, sms.Request{To: "46700000000", Text: "Freezer 3 is at -12 °C", Sender: "Fieldhub", Credentials: creds, IdempotencyKey: "k1"})
	if err != nil || len(res.ID) != 33 || res.ID[0] != 's' || res.Status != "created" {
		t.Fatalf("send: %+v %v", res, err)
	}
	got := fake.Accepted()
	if len(got) != 1 || got[0].To != "+46700000000" || got[0].From != "Fieldhub" || got[0].Text != "Freezer 3 is at -12 °C" || got[0].ID != res.ID {
		t.Errorf("46elks got %+v", got)
	}

	cases := []struct {
		name        string
		req         sms.Request
		party       sms.Party
		code        string
		notSent, tm bool
	}{
		{"a refused number", sms.Request{To: "0700", Text: "x", Credentials: creds}, sms.PartyProvider, "403", true, false},
		{"bad credentials", sms.Request{To: "46700000000", Text: "x", Credentials: map[string]string{"username": "u", "password": "wrong"}}, sms.PartyProvider, "401", true, false},
		{"no credentials", sms.Request{To: "46700000000", Text: "x"}, sms.PartyPlugin, "", true, false},
	}
	for _, tc := range cases {
		_, err := c.Send(ctx, tc.req)
		se := sms.AsError(err)
		if se == nil || se.Party != tc.party || se.Code != tc.code || se.NotSent != tc.notSent || se.Temporary != tc.tm || se.Message == "" {
			t.Errorf("%s: %#v", tc.name, se)
		}
	}
	if n := len(fake.Accepted()); n != 1 {
		t.Errorf("46elks accepted %d messages, want 1", n)
	}

	t.Setenv(baseURLEnv, "http://127.0.0.1:1") // nothing listens: the request never left
	_, err = c.Send(ctx, sms.Request{To: "46700000000", Text: "x", Credentials: creds})
	if se := sms.AsError(err); se == nil || se.Party != sms.PartyProvider || !se.NotSent || !se.Temporary {
		t.Errorf("no provider: %#v", se)
	}
}

// TestElksBinary runs the built plugin as the portal does, with the base
// URL passed in its environment.
func TestElksBinary(t *testing.T) {
	fake := smsfake.NewElks(t, creds["username"], creds["password"])
	p := smstest.Start(t, smstest.Build(t, "."), baseURLEnv+"="+fake.URL())
	res, err := p.Client.Send(context.Background(), sms.Request{To: "+46700000001", Text: "Hej", Sender: "Acme", Credentials: creds})
	if err != nil || len(fake.Accepted()) != 1 || fake.Accepted()[0].ID != res.ID {
		t.Fatalf("send: %+v %v, 46elks got %+v", res, err, fake.Requests())
	}
}
