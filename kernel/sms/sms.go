// Package sms queues text messages in an outbox: a module enqueues a message
// in the same transaction as the fact that caused it (an alarm that fired),
// so a message the portal decided to send survives a crash. Delivery goes
// through the SMS provider plugin that the sender's settings choose.
package sms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Message is one text to one or more phone numbers.
type Message struct {
	// CompanyID is the company whose SMS settings send the message; 0
	// sends it with the installation's global settings.
	CompanyID int64
	// To are phone numbers with country code, digits only (4670xxxxxxx).
	To   []string
	Text string
}

// Sender delivers one message now through the SMS provider that the
// message's company (or the installation) has chosen, and answers the
// provider's id of the accepted message.
type Sender interface {
	Send(ctx context.Context, m Message) (providerID string, err error)
}

// ErrNoProvider is SendNow's answer while no provider can send.
var ErrNoProvider = errors.New("no SMS provider is configured")

// Outbox stores messages for delivery.
type Outbox struct {
	db     *bun.DB
	sender Sender
	wake   chan struct{}
	now    func() time.Time
}

type outboxRow struct {
	bun.BaseModel `bun:"table:sms_outbox"`
	ID            int64        `bun:"id,pk,autoincrement"`
	CompanyID     int64        `bun:"company_id"`
	Recipients    string       `bun:"recipients"`
	Body          string       `bun:"body"`
	Attempts      int          `bun:"attempts"`
	NextAttemptAt time.Time    `bun:"next_attempt_at"`
	LastError     string       `bun:"last_error"`
	SentAt        bun.NullTime `bun:"sent_at"`
	CreatedAt     time.Time    `bun:"created_at"`
}

// NewOutbox returns an outbox on db.
func NewOutbox(db *bun.DB) *Outbox {
	return &Outbox{db: db, wake: make(chan struct{}, 1), now: time.Now}
}

// Enqueue stores m through idb, which may be the caller's transaction: the
// message then goes out only if that transaction commits.
func (o *Outbox) Enqueue(ctx context.Context, idb bun.IDB, m Message) error {
	if len(m.To) == 0 {
		return fmt.Errorf("enqueue sms: no recipient")
	}
	to, _ := json.Marshal(m.To)
	now := o.now().UTC()
	row := &outboxRow{CompanyID: m.CompanyID, Recipients: string(to), Body: m.Text, NextAttemptAt: now, CreatedAt: now}
	if _, err := idb.NewInsert().Model(row).Exec(ctx); err != nil {
		return fmt.Errorf("enqueue sms: %w", err)
	}
	select {
	case o.wake <- struct{}{}:
	default:
	}
	return nil
}

// SetSender sets what delivers messages; the application wires the provider
// plugins' host in before the outbox runs.
func (o *Outbox) SetSender(s Sender) { o.sender = s }

// SendNow sends m at once, outside the outbox, and answers the provider's
// id: for a test message whose sender waits for the outcome.
func (o *Outbox) SendNow(ctx context.Context, m Message) (string, error) {
	if o.sender == nil {
		return "", ErrNoProvider
	}
	return o.sender.Send(ctx, m)
}
