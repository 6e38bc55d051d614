package mail

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"strings"

	"github.com/uptrace/bun"
)

// Attachment is a file sent with a message: a report's spreadsheet, say.
type Attachment struct {
	// Name is the file name the recipient sees.
	Name string
	// ContentType is its MIME type; "" is application/octet-stream.
	ContentType string
	Data        []byte
}

// attachmentRow keeps an attachment of a queued message until it is sent.
// The bytes are stored, not regenerated at send time (docs/decisions.md,
// "Report files in the mail outbox"): a retried mail carries the file it
// was queued with, and the outbox needs no way back into the module that
// made it. They are deleted once the message is sent.
type attachmentRow struct {
	bun.BaseModel `bun:"table:mail_attachments"`
	ID            int64  `bun:"id,pk,autoincrement"`
	MailID        int64  `bun:"mail_id"`
	Position      int    `bun:"position"`
	Name          string `bun:"name"`
	ContentType   string `bun:"content_type"`
	Data          []byte `bun:"data"`
}

// saveAttachments stores the attachments of the queued message mailID
// through idb (the enqueuing transaction).
func saveAttachments(ctx context.Context, idb bun.IDB, mailID int64, atts []Attachment) error {
	for i, a := range atts {
		row := &attachmentRow{MailID: mailID, Position: i, Name: a.Name, ContentType: a.ContentType, Data: a.Data}
		if row.Data == nil {
			row.Data = []byte{}
		}
		if _, err := idb.NewInsert().Model(row).Exec(ctx); err != nil {
			return fmt.Errorf("enqueue mail attachment %q: %w", a.Name, err)
		}
	}
	return nil
}

// loadAttachments reads the attachments of a queued message, in order.
func loadAttachments(ctx context.Context, idb bun.IDB, mailID int64) ([]Attachment, error) {
	var rows []attachmentRow
	if err := idb.NewSelect().Model(&rows).Where("mail_id = ?", mailID).Order("position").Scan(ctx); err != nil {
		return nil, fmt.Errorf("load mail attachments: %w", err)
	}
	out := make([]Attachment, len(rows))
	for i, r := range rows {
		out[i] = Attachment{Name: r.Name, ContentType: r.ContentType, Data: r.Data}
	}
	return out, nil
}

// dropAttachments deletes the bytes of a sent message's attachments.
func dropAttachments(ctx context.Context, idb bun.IDB, mailID int64) error {
	_, err := idb.NewDelete().Model((*attachmentRow)(nil)).Where("mail_id = ?", mailID).Exec(ctx)
	return err
}

// composeMixed renders the body and attachments of m as a multipart/mixed
// body: the text as a quoted-printable part, each file as a base64 part.
// It writes the Content-Type header line and the body after the headers
// compose wrote.
func composeMixed(b *strings.Builder, m Message) {
	boundary := newBoundary()
	fmt.Fprintf(b, "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=%q\r\n\r\n", boundary)
	b.WriteString("This is a multi-part message in MIME format.\r\n")
	fmt.Fprintf(b, "--%s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n", boundary)
	qp := quotedprintable.NewWriter(b)
	qp.Write([]byte(strings.ReplaceAll(m.Text, "\n", "\r\n")))
	qp.Close()
	b.WriteString("\r\n")
	for _, a := range m.Attachments {
		ct := a.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		name := mime.QEncoding.Encode("utf-8", a.Name)
		fmt.Fprintf(b, "--%s\r\nContent-Type: %s; name=%q\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename=%q\r\n\r\n",
			boundary, ct, name, name)
		writeBase64Lines(b, a.Data)
	}
	fmt.Fprintf(b, "--%s--\r\n", boundary)
}

// writeBase64Lines writes data in base64 lines of 76 characters (RFC 2045).
func writeBase64Lines(b *strings.Builder, data []byte) {
	enc := base64.StdEncoding.EncodeToString(data)
	for len(enc) > 76 {
		b.WriteString(enc[:76])
		b.WriteString("\r\n")
		enc = enc[76:]
	}
	b.WriteString(enc)
	b.WriteString("\r\n")
}

// newBoundary is a random multipart boundary, which base64 and
// quoted-printable text cannot contain ("=_" starts no line of either).
func newBoundary() string {
	var r [12]byte
	_, _ = rand.Read(r[:])
	return "=_fieldhub_" + hex.EncodeToString(r[:])
}
