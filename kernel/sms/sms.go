// Package sms queues text messages in an outbox: a module enqueues a message
// in the same transaction as the fact that caused it (an alarm that fired),
// so a message the portal decided to send survives a crash. Delivery goes
// through the SMS provider plugin that the sender's settings choose.
package sms

import (
	"context"
	"encoding/json"
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

// Outbox stores messages for delivery.
type Outbox struct {
	db   *bun.DB
	wake chan struct{}
	now  func() time.Time
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
