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
