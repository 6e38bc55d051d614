package mail

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/outbox"
	"github.com/fieldhub/fieldhub/migrations"
)

type flakySender struct {
	fails int
	sent  []Message
}

func (f *flakySender) Send(_ context.Context, _ string, m Message) error {
	if f.fails > 0 {
		f.fails--
		return errors.New("connection refused")
	}
	f.sent = append(f.sent, m)
	return nil
}

// announced collects the outbox's announcements.
type announced struct{ got []outbox.Attempt }

func (a *announced) Publish(_ context.Context, e events.Event) {
	a.got = append(a.got, e.(outbox.Attempt))
}
func (a *announced) Subscribe(string, events.Handler)                {}
func (a *announced) SubscribeBatch(string, int, events.BatchHandler) {}

// TestOutboxRetriesUntilSent checks that a mail the server refuses stays in
// the outbox and goes out on a later attempt.
func TestOutboxRetriesUntilSent(t *testing.T) {
	ctx := context.Background()
	bdb, err := db.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	if _, err := db.Migrate(ctx, bdb, migrations.FS, migrations.Order); err != nil {
		t.Fatal(err)
	}
	sender := &flakySender{fails: 2}
	o := NewOutbox(bdb, sender, "Fieldhub <noreply@example.com>", slog.New(slog.NewTextHandler(io.Discard, nil)))
	clock := time.Now()
	o.now = func() time.Time { return clock }
	bus := &announced{}
	o.SetBus(bus)
	if err := o.Enqueue(ctx, bdb, Message{CompanyID: 4, To: []string{"a@example.com"}, Subject: "Hej", Text: "Body"}); err != nil {
		t.Fatal(err)
	}
	for attempt := 1; attempt <= 2; attempt++ {
		if o.deliverOne(ctx) {
			t.Fatalf("attempt %d reported success", attempt)
		}
		var row outboxRow
		if err := bdb.NewSelect().Model(&row).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		if row.Attempts != attempt || !row.SentAt.IsZero() || row.LastError == "" {
			t.Fatalf("after attempt %d: %+v", attempt, row)
		}
		if o.deliverOne(ctx) {
			t.Fatalf("retried before its backoff")
		}
		clock = clock.Add(time.Hour)
	}
	if !o.deliverOne(ctx) || len(sender.sent) != 1 || sender.sent[0].Subject != "Hej" {
		t.Fatalf("third attempt: sent %+v", sender.sent)
	}
	if o.deliverOne(ctx) || len(sender.sent) != 1 {
		t.Errorf("a sent mail went out again")
	}
	// Each attempt was announced, with the mail's company.
	var outcomes []outbox.Outcome
	for _, a := range bus.got {
		if a.CompanyID != 4 || a.Channel != outbox.ChannelMail || a.MessageID == 0 {
			t.Errorf("announced %+v", a)
		}
		outcomes = append(outcomes, a.Outcome)
	}
	if len(outcomes) != 3 || outcomes[0] != outbox.Retry || outcomes[1] != outbox.Retry || outcomes[2] != outbox.Sent {
		t.Errorf("announced %v", outcomes)
	}
}

// TestOutboxKeepsAttachmentsUntilSent checks that a queued mail's files go
// out with it and are deleted once it is sent.
func TestOutboxKeepsAttachmentsUntilSent(t *testing.T) {
	ctx := context.Background()
	bdb, err := db.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	if _, err := db.Migrate(ctx, bdb, migrations.FS, migrations.Order); err != nil {
		t.Fatal(err)
	}
	sender := &flakySender{fails: 1}
	o := NewOutbox(bdb, sender, "noreply@example.com", slog.New(slog.NewTextHandler(io.Discard, nil)))
	clock := time.Now()
	o.now = func() time.Time { return clock }
	files := []Attachment{{Name: "a.xlsx", ContentType: "application/zip", Data: []byte{1, 2, 3}}, {Name: "b.csv", Data: []byte("x")}}
	if err := o.Enqueue(ctx, bdb, Message{To: []string{"a@example.com"}, Subject: "Report", Text: "Body", Attachments: files}); err != nil {
		t.Fatal(err)
	}
	o.deliverOne(ctx) // refused: the files stay
	if n, _ := bdb.NewSelect().Model((*attachmentRow)(nil)).Count(ctx); n != 2 {
		t.Fatalf("after a refused attempt %d attachments are kept", n)
	}
	clock = clock.Add(time.Hour)
	if !o.deliverOne(ctx) || len(sender.sent) != 1 {
		t.Fatal("not sent on the second attempt")
	}
	got := sender.sent[0].Attachments
	if len(got) != 2 || got[0].Name != "a.xlsx" || string(got[0].Data) != "\x01\x02\x03" || got[1].Name != "b.csv" {
		t.Errorf("sent attachments %+v", got)
	}
	if n, _ := bdb.NewSelect().Model((*attachmentRow)(nil)).Count(ctx); n != 0 {
		t.Errorf("%d attachments kept after the mail was sent", n)
	}
}
