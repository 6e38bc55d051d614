package smstest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/fieldhub/fieldhub/sdk/sms"
	"github.com/fieldhub/fieldhub/sdk/sms/smstest"
)

// recorder accepts messages and remembers what it was asked; it refuses
// the number +46000000000 and panics on the text "panic".
type recorder struct{ got []sms.Request }

func (r *recorder) Send(ctx context.Context, req sms.Request) (sms.Response, error) {
	r.got = append(r.got, req)
	switch {
	case req.Text == "panic":
		panic("boom")
	case req.To == "+46000000000":
		return sms.Response{}, sms.ProviderRefused("403", "Invalid to number", false)
	case req.Text == "plain error":
		return sms.Response{}, errors.New("something broke")
	}
	return sms.Response{ID: "s1", Status: "created"}, nil
}

func (r *recorder) Idempotent() bool { return true }

// TestInProcess sends through the real gRPC transport and checks that the
// request arrives whole and each kind of failure keeps its meaning.
func TestInProcess(t *testing.T) {
	ctx := context.Background()
	rec := &recorder{}
	c := smstest.InProcess(t, rec)
	req := sms.Request{To: "+46700000000", Text: "Hej ö", Sender: "Fieldhub", Credentials: map[string]string{"username": "u", "password": "p"}, IdempotencyKey: "k-1"}
	res, err := c.Send(ctx, req)
	if err != nil || res.ID != "s1" || res.Status != "created" {
		t.Fatalf("send: %+v %v", res, err)
	}
	got := rec.got[0]
	if got.To != req.To || got.Text != req.Text || got.Sender != req.Sender || got.Credentials["password"] != "p" || got.IdempotencyKey != "k-1" {
		t.Errorf("the plugin got %+v", got)
	}

	_, err = c.Send(ctx, sms.Request{To: "+46000000000", Text: "x"})
	var se *sms.Error
	if !errors.As(err, &se) || se.Party != sms.PartyProvider || se.Code != "403" || !se.NotSent || se.Temporary {
		t.Errorf("refusal: %#v", err)
	}
	_, err = c.Send(ctx, sms.Request{To: "+46700000000", Text: "panic"})
	if !errors.As(err, &se) || se.Party != sms.PartyPlugin || se.NotSent {
		t.Errorf("panic: %#v", err)
	}
	_, err = c.Send(ctx, sms.Request{To: "+46700000000", Text: "plain error"})
	if !errors.As(err, &se) || se.Party != sms.PartyPlugin || se.Message != "something broke" {
		t.Errorf("plain error: %#v", err)
	}
	info, err := c.Info(ctx)
	if err != nil || !info.Idempotent || info.Protocol != sms.ProtocolVersion {
		t.Errorf("info: %+v %v", info, err)
	}
}

// TestBinary builds a plugin and runs it as Fieldhub does; killing it
// turns a send into the plugin's failure with the outcome unknown.
func TestBinary(t *testing.T) {
	ctx := context.Background()
	p := smstest.Start(t, smstest.Build(t, "./testdata/echo"))
	res, err := p.Client.Send(ctx, sms.Request{To: "+46700000000", Text: "Hej", IdempotencyKey: "abc"})
	if err != nil || res.ID != "echo-abc" {
		t.Fatalf("send: %+v %v", res, err)
	}
	_, err = p.Client.Send(ctx, sms.Request{To: "+46000000000", Text: "Hej"})
	if se := sms.AsError(err); se == nil || se.Party != sms.PartyProvider || !se.NotSent {
		t.Errorf("refusal: %#v", err)
	}
	if info, err := p.Client.Info(ctx); err != nil || info.Idempotent {
		t.Errorf("info: %+v %v", info, err)
	}
	p.Process.Kill()
	_, err = p.Client.Send(ctx, sms.Request{To: "+46700000000", Text: "Hej"})
	if se := sms.AsError(err); se == nil || se.Party != sms.PartyPlugin || se.NotSent {
		t.Errorf("after kill: %#v", err)
	}
}
