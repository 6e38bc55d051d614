package main

import (
	"context"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/kerneltest/smsfake"
	"github.com/fieldhub/fieldhub/sdk/sms"
	"github.com/fieldhub/fieldhub/sdk/sms/smstest"
)

const sid = "AC0123456789abcdef0123456789abcdef"

var creds = map[string]string{"account_sid": sid, "auth_token": "token"}

// TestTwilio sends through the plugin's real protocol to a double of
// Twilio's published API: created, refused number, bad credentials, no
// credentials, no provider.
func TestTwilio(t *testing.T) {
	ctx := context.Background()
	fake := smsfake.NewTwilio(t, sid, "token")
	t.Setenv(baseURLEnv, fake.URL())
	c := smstest.InProcess(t, twilio{})

	res, err := c.Send(ctx, sms.Request{To: "46700000000", Text: "Water leak in room 2", Sender: "46761042247", Credentials: creds, IdempotencyKey: "k1"})
	if err != nil || !strings.HasPrefix(res.ID, "SM") || len(res.ID) != 34 || res.Status != "queued" {
		t.Fatalf("send: %+v %v", res, err)
	}
	got := fake.Accepted()
	if len(got) != 1 || got[0].To != "+46700000000" || got[0].From != "+46761042247" || got[0].Text != "Water leak in room 2" || got[0].ID != res.ID {
		t.Errorf("Twilio got %+v", got)
	}

	cases := []struct {
		name        string
		req         sms.Request
		party       sms.Party
		code        string
		notSent, tm bool
	}{
		{"a refused number", sms.Request{To: "0700", Text: "x", Sender: "46761042247", Credentials: creds}, sms.PartyProvider, "21211", true, false},
		{"bad credentials", sms.Request{To: "46700000000", Text: "x", Sender: "46761042247", Credentials: map[string]string{"account_sid": sid, "auth_token": "wrong"}}, sms.PartyProvider, "20003", true, false},
		{"no credentials", sms.Request{To: "46700000000", Text: "x", Sender: "46761042247"}, sms.PartyPlugin, "", true, false},
		{"no sending number", sms.Request{To: "46700000000", Text: "x", Credentials: creds}, sms.PartyPlugin, "", true, false},
	}
	for _, tc := range cases {
		_, err := c.Send(ctx, tc.req)
		se := sms.AsError(err)
		if se == nil || se.Party != tc.party || se.Code != tc.code || se.NotSent != tc.notSent || se.Temporary != tc.tm || se.Message == "" {
			t.Errorf("%s: %#v", tc.name, se)
		}
	}
	if n := len(fake.Accepted()); n != 1 {
		t.Errorf("Twilio accepted %d messages, want 1", n)
	}

	t.Setenv(baseURLEnv, "http://127.0.0.1:1")
	_, err = c.Send(ctx, sms.Request{To: "46700000000", Text: "x", Sender: "46761042247", Credentials: creds})
	if se := sms.AsError(err); se == nil || se.Party != sms.PartyProvider || !se.NotSent || !se.Temporary {
		t.Errorf("no provider: %#v", se)
	}
}
