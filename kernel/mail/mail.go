// Package mail sends e-mail through an outbox: a module enqueues a message in
// the same transaction as the change that caused it, and a delivery loop sends
// it through SMTP, retrying until the server takes it. A mail the portal said
// it would send is therefore never lost to a crash or a mail server outage.
package mail

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/url"
	"strings"
	"time"
)

// Message is one e-mail.
type Message struct {
	// CompanyID is the company the mail is sent for (0: the
	// installation), which the log of its delivery names.
	CompanyID int64
	To        []string
	Subject   string
	Text      string
	// Attachments, when any, make the message multipart/mixed (attachments.go).
	Attachments []Attachment
}

// Sender delivers one message now.
type Sender interface {
	Send(ctx context.Context, from string, m Message) error
}

// NewSender returns an SMTP sender for smtpURL, or, when it is empty, a
// sender that writes every mail to the log, so that none vanishes silently.
func NewSender(smtpURL string, log *slog.Logger) (Sender, error) {
	if smtpURL == "" {
		return logSender{log: log}, nil
	}
	u, err := url.Parse(smtpURL)
	if err != nil {
		return nil, fmt.Errorf("parse SMTP_URL: %w", err)
	}
	return &smtpSender{u: u}, nil
}

type logSender struct{ log *slog.Logger }

func (s logSender) Send(_ context.Context, from string, m Message) error {
	s.log.Warn("SMTP_URL is not set: mail written to the log instead of sent",
		"from", from, "to", strings.Join(m.To, ", "), "subject", m.Subject, "body", m.Text, "attachments", len(m.Attachments))
	return nil
}

type smtpSender struct{ u *url.URL }

func (s *smtpSender) Send(ctx context.Context, from string, m Message) error {
	host := s.u.Hostname()
	port := s.u.Port()
	if port == "" {
		port = map[string]string{"smtp": "587", "smtps": "465"}[s.u.Scheme]
	}
	d := net.Dialer{Timeout: 15 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", net.JoinHostPort(host, port))
	if err != nil {
		return fmt.Errorf("connect to mail server: %w", err)
	}
	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(deadline)
	}
	if s.u.Scheme == "smtps" {
		conn = tls.Client(conn, &tls.Config{ServerName: host})
	}
	c, err := smtp.NewClient(conn, host)
	if err != nil {
		conn.Close()
		return fmt.Errorf("greet mail server: %w", err)
	}
	defer c.Close()
	if ok, _ := c.Extension("STARTTLS"); ok && s.u.Scheme == "smtp" {
		if err := c.StartTLS(&tls.Config{ServerName: host}); err != nil {
			return fmt.Errorf("starttls: %w", err)
		}
	}
	if s.u.User != nil {
		pass, _ := s.u.User.Password()
		if err := c.Auth(smtp.PlainAuth("", s.u.User.Username(), pass, host)); err != nil {
			return fmt.Errorf("mail server login: %w", err)
		}
	}
	sender, err := mail.ParseAddress(from)
	if err != nil {
		return fmt.Errorf("sender address: %w", err)
	}
	if err := c.Mail(sender.Address); err != nil {
		return fmt.Errorf("mail from: %w", err)
	}
	for _, to := range m.To {
		if err := c.Rcpt(to); err != nil {
			return fmt.Errorf("rcpt to %s: %w", to, err)
		}
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("data: %w", err)
	}
	if _, err := w.Write(compose(from, m)); err != nil {
		return fmt.Errorf("write message: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("end message: %w", err)
	}
	return c.Quit()
}

// compose renders m as an RFC 5322 message with a quoted-printable UTF-8 body.
func compose(from string, m Message) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\n", from)
	fmt.Fprintf(&b, "To: %s\r\n", strings.Join(m.To, ", "))
	fmt.Fprintf(&b, "Subject: %s\r\n", mime.QEncoding.Encode("utf-8", m.Subject))
	fmt.Fprintf(&b, "Date: %s\r\n", time.Now().UTC().Format(time.RFC1123Z))
	if len(m.Attachments) > 0 {
		composeMixed(&b, m)
		return []byte(b.String())
	}
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n")
	qp := quotedprintable.NewWriter(&b)
	qp.Write([]byte(strings.ReplaceAll(m.Text, "\n", "\r\n")))
	qp.Close()
	return []byte(b.String())
}
