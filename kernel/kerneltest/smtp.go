package kerneltest

import (
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/textproto"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Mail is one message the test SMTP server received.
type Mail struct {
	From    string
	To      []string
	Subject string
	Body    string
	// Attachments are the files of a multipart/mixed message, in order.
	Attachments []MailAttachment
}

// MailAttachment is one file of a received message, decoded.
type MailAttachment struct {
	Name        string
	ContentType string
	Data        []byte
}

// Inbox collects what the test SMTP server receives.
type Inbox struct {
	mu    sync.Mutex
	mails []Mail
	added chan struct{}
}

// Wait returns the first message to addr that arrives within timeout.
func (in *Inbox) Wait(tb testing.TB, to string, timeout time.Duration) Mail {
	tb.Helper()
	deadline := time.After(timeout)
	for {
		in.mu.Lock()
		for _, m := range in.mails {
			for _, rcpt := range m.To {
				if strings.EqualFold(rcpt, to) {
					in.mu.Unlock()
					return m
				}
			}
		}
		in.mu.Unlock()
		select {
		case <-in.added:
		case <-deadline:
			tb.Fatalf("no mail to %s within %s", to, timeout)
		}
	}
}

// All returns every message received so far.
func (in *Inbox) All() []Mail {
	in.mu.Lock()
	defer in.mu.Unlock()
	return append([]Mail(nil), in.mails...)
}

// StartSMTP runs a real SMTP server on loopback for the test and returns
// its SMTP_URL and inbox.
func StartSMTP(tb testing.TB) (string, *Inbox) {
	tb.Helper()
	in := &Inbox{added: make(chan struct{}, 100)}
	s := smtp.NewServer(backend{in})
	s.Domain = "localhost"
	s.AllowInsecureAuth = true
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("listen smtp: %v", err)
	}
	go s.Serve(ln)
	tb.Cleanup(func() { s.Close() })
	return "smtp://" + ln.Addr().String(), in
}

type backend struct{ in *Inbox }

func (b backend) NewSession(*smtp.Conn) (smtp.Session, error) { return &smtpSession{in: b.in}, nil }

type smtpSession struct {
	in   *Inbox
	from string
	to   []string
}

func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error { s.from = from; return nil }
func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error   { s.to = append(s.to, to); return nil }
func (s *smtpSession) Reset()                                      { s.from, s.to = "", nil }
func (s *smtpSession) Logout() error                               { return nil }

func (s *smtpSession) Data(r io.Reader) error {
	msg, err := mail.ReadMessage(r)
	if err != nil {
		return err
	}
	subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	m := Mail{From: s.from, To: s.to, Subject: subject}
	if err := readBody(&m, textproto.MIMEHeader(msg.Header), msg.Body); err != nil {
		return err
	}
	s.in.mu.Lock()
	s.in.mails = append(s.in.mails, m)
	s.in.mu.Unlock()
	select {
	case s.in.added <- struct{}{}:
	default:
	}
	return nil
}

// readBody decodes a part into m: a text/plain part (the first) is the
// body, a multipart one is read part by part, and any other is an
// attachment.
func readBody(m *Mail, h textproto.MIMEHeader, r io.Reader) error {
	mediaType, params, _ := mime.ParseMediaType(h.Get("Content-Type"))
	if strings.HasPrefix(mediaType, "multipart/") {
		mr := multipart.NewReader(r, params["boundary"])
		for {
			p, err := mr.NextRawPart()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if err := readBody(m, p.Header, p); err != nil {
				return err
			}
		}
	}
	var data []byte
	var err error
	switch strings.ToLower(h.Get("Content-Transfer-Encoding")) {
	case "quoted-printable":
		data, err = io.ReadAll(quotedprintable.NewReader(r))
	case "base64":
		data, err = io.ReadAll(base64.NewDecoder(base64.StdEncoding, r)) // it skips the line breaks
	default:
		data, err = io.ReadAll(r)
	}
	if err != nil {
		return err
	}
	_, disp, _ := mime.ParseMediaType(h.Get("Content-Disposition"))
	if disp["filename"] == "" && (mediaType == "" || mediaType == "text/plain") && m.Body == "" {
		m.Body = strings.ReplaceAll(string(data), "\r\n", "\n")
		return nil
	}
	name, _ := new(mime.WordDecoder).DecodeHeader(disp["filename"])
	m.Attachments = append(m.Attachments, MailAttachment{Name: name, ContentType: mediaType, Data: data})
	return nil
}
