package main

import (
	"context"
	"os"
	"testing"

	"github.com/fieldhub/fieldhub/sdk/sms"
	"github.com/fieldhub/fieldhub/sdk/sms/smstest"
)

// TestFolderProvider runs the example through the real plugin protocol: a
// message becomes one file, the same idempotency key none more.
func TestFolderProvider(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	c := smstest.InProcess(t, folderProvider{})
	req := sms.Request{To: "+46700000000", Text: "Hej", Sender: "Fieldhub", Credentials: map[string]string{"folder": dir}, IdempotencyKey: "msg-1-0"}
	first, err := c.Send(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.Send(ctx, req)
	if err != nil || again.ID != first.ID || again.Status != "duplicate" {
		t.Errorf("resend: %+v %v", again, err)
	}
	if files, _ := os.ReadDir(dir); len(files) != 1 {
		t.Errorf("%d files, want 1", len(files))
	}
	if info, err := c.Info(ctx); err != nil || !info.Idempotent {
		t.Errorf("info: %+v %v", info, err)
	}
	_, err = c.Send(ctx, sms.Request{To: "+46700000000", Text: "Hej"})
	if se := sms.AsError(err); se == nil || se.Party != sms.PartyPlugin || !se.NotSent {
		t.Errorf("no folder: %#v", se)
	}
}
