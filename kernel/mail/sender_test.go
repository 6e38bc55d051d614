package mail_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/mail"
)

func TestSMTPSenderDeliversUTF8(t *testing.T) {
	url, inbox := kerneltest.StartSMTP(t)
	s, err := mail.NewSender(url, slog.Default())
	if err != nil {
		t.Fatal(err)
	}
	msg := mail.Message{To: []string{"åsa@example.com"}, Subject: "Återställ lösenord", Text: "Hej Åsa,\nlänk: https://x.example/forgot/1\n"}
	if err := s.Send(context.Background(), "Fieldhub <noreply@example.com>", msg); err != nil {
		t.Fatal(err)
	}
	got := inbox.Wait(t, "åsa@example.com", 5*time.Second)
	if got.Subject != msg.Subject || got.Body != msg.Text || got.From != "noreply@example.com" {
		t.Errorf("got %+v", got)
	}
}

func TestWithoutSMTPMailsAreLogged(t *testing.T) {
	var logged bytes.Buffer
	s, _ := mail.NewSender("", slog.New(slog.NewTextHandler(&logged, nil)))
	if err := s.Send(context.Background(), "a@b.se", mail.Message{To: []string{"c@d.se"}, Subject: "Subj", Text: "Body"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logged.String(), "SMTP_URL is not set") || !strings.Contains(logged.String(), "Subj") {
		t.Errorf("log: %s", logged.String())
	}
}

// TestSMTPSenderDeliversAttachments checks that a message with files goes
// out as multipart/mixed that a mail server reads back byte for byte.
func TestSMTPSenderDeliversAttachments(t *testing.T) {
	url, inbox := kerneltest.StartSMTP(t)
	s, err := mail.NewSender(url, slog.Default())
	if err != nil {
		t.Fatal(err)
	}
	blob := make([]byte, 5000)
	for i := range blob {
		blob[i] = byte(i * 7)
	}
	msg := mail.Message{To: []string{"a@example.com"}, Subject: "Rapport", Text: "Hej,\nbifogad fil.\n", Attachments: []mail.Attachment{
		{Name: "rapport-2026-03-01.xlsx", ContentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", Data: blob},
		{Name: "data.csv", ContentType: "text/csv", Data: []byte("a,b\n1,2\n")},
	}}
	if err := s.Send(context.Background(), "noreply@example.com", msg); err != nil {
		t.Fatal(err)
	}
	got := inbox.Wait(t, "a@example.com", 5*time.Second)
	if got.Body != msg.Text || len(got.Attachments) != 2 {
		t.Fatalf("got body %q and %d attachments", got.Body, len(got.Attachments))
	}
	for i, a := range got.Attachments {
		want := msg.Attachments[i]
		if a.Name != want.Name || a.ContentType != want.ContentType || !bytes.Equal(a.Data, want.Data) {
			t.Errorf("attachment %d: got %s %s (%d bytes)", i, a.Name, a.ContentType, len(a.Data))
		}
	}
}
