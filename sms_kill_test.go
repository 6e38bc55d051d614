package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/kerneltest/smsfake"
	"github.com/fieldhub/fieldhub/kernel/sms"
	"github.com/fieldhub/fieldhub/migrations"
	"github.com/fieldhub/fieldhub/sdk/sms/smstest"
)

// TestSMSAfterKillBetweenAcceptanceAndRecord runs the real binary with the
// real 46elks plugin against a double of 46elks, and SIGKILLs the portal
// while the provider holds the SMS's request; the provider then accepts
// it, unrecorded. After the restart (and the claim's lease, moved to the
// past here rather than waited for) the message goes out once more and is
// recorded as sent: no message lost, and, 46elks taking no idempotency
// key, at most one more send (docs/decisions.md).
func TestSMSAfterKillBetweenAcceptanceAndRecord(t *testing.T) {
	bin := fieldhubBinary(t)
	plugins := t.TempDir()
	if err := os.Rename(smstest.Build(t, "./plugins/sms-46elks"), filepath.Join(plugins, "sms-46elks")); err != nil {
		t.Fatal(err)
	}
	fake := smsfake.NewElks(t, "u0123", "elks-secret")
	arrived, release := make(chan struct{}), make(chan struct{})
	fake.BeforeAnswer = func(n int) {
		if n == 1 {
			close(arrived)
			<-release
		}
	}
	data := t.TempDir()
	env := binaryEnv("FIELDHUB_DATA="+data, "FIELDHUB_ADDR=127.0.0.1:0", "FIELDHUB_ACCESS_LOG=false",
		"FIELDHUB_PLUGIN_DIR="+plugins, "SMS_46ELKS_URL="+fake.URL())
	first := startBinary(t, bin, env)
	m := regexp.MustCompile(`e-mail:\s+(\S+)\s+password:\s+(\S+)`).FindStringSubmatch(first.out.String())
	if m == nil {
		t.Fatalf("no SuperAdmin printed:\n%s", first.out.String())
	}
	c := kerneltest.NewClient(first.base)
	token := c.Login(t, m[1], m[2])
	if r := c.Call(t, "POST", "/api/settings/global", token, map[string]any{"SMS_PROVIDER": "46elks",
		"ELKS_USERNAME": "u0123", "ELKS_PASSWORD": "elks-secret", "ELKS_SENDER": "Fieldhub"}); r.Status != 200 {
		t.Fatalf("global settings: %d %s", r.Status, r.Body)
	}

	// A module's transaction enqueues the SMS (the same database file).
	ctx := context.Background()
	bdb, err := db.Open(ctx, filepath.Join(data, "fieldhub.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	if _, err := db.Migrate(ctx, bdb, migrations.FS, migrations.Order); err != nil {
		t.Fatal(err)
	}
	if err := bdb.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return sms.NewOutbox(bdb).Enqueue(ctx, tx, sms.Message{To: []string{"46700000001"}, Text: "Freezer 3 is warm"})
	}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-arrived:
	case <-time.After(60 * time.Second):
		t.Fatalf("the SMS did not reach the provider:\n%s", first.out.String())
	}
	first.kill()
	close(release)
	if got := fake.WaitAccepted(1, 10*time.Second); len(got) != 1 {
		t.Fatalf("the provider did not accept the first request: %+v", fake.Requests())
	}

	// The claim's lease lapses (3 minutes in production).
	if _, err := bdb.NewUpdate().Table("sms_outbox").Set("next_attempt_at = ?", time.Now().UTC().Add(-time.Second)).
		Where("sent_at IS NULL").Exec(ctx); err != nil {
		t.Fatal(err)
	}
	second := startBinary(t, bin, env)
	got := fake.WaitAccepted(2, 60*time.Second)
	if len(got) != 2 {
		t.Fatalf("after the restart the provider accepted %d messages, want 2:\n%s", len(got), second.out.String())
	}
	var row struct {
		SentAt      bun.NullTime `bun:"sent_at"`
		Unsure      int          `bun:"unsure"`
		ProviderIDs string       `bun:"provider_ids"`
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if err := bdb.NewSelect().Table("sms_outbox").Column("sent_at", "unsure", "provider_ids").Limit(1).Scan(ctx, &row); err != nil {
			t.Fatal(err)
		}
		if !row.SentAt.IsZero() || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if row.SentAt.IsZero() || row.Unsure != 1 || row.ProviderIDs != `{"46700000001":"`+got[1].ID+`"}` {
		t.Errorf("row %+v", row)
	}
	if n := len(fake.Requests()); n != 2 {
		t.Errorf("the provider got %d requests, want 2", n)
	}
}
