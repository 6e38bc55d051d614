package mail

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/outbox"
)

// Outbox stores messages and delivers them in the background.
type Outbox struct {
	db     *bun.DB
	sender Sender
	from   string
	log    *slog.Logger
	bus    events.Bus
	wake   chan struct{}
	now    func() time.Time
}

type outboxRow struct {
	bun.BaseModel `bun:"table:mail_outbox"`
	ID            int64        `bun:"id,pk,autoincrement"`
	CompanyID     int64        `bun:"company_id"`
	Recipients    string       `bun:"recipients"`
	Subject       string       `bun:"subject"`
	Body          string       `bun:"body"`
	Attempts      int          `bun:"attempts"`
	NextAttemptAt time.Time    `bun:"next_attempt_at"`
	LastError     string       `bun:"last_error"`
	SentAt        bun.NullTime `bun:"sent_at"`
	CreatedAt     time.Time    `bun:"created_at"`
}

// maxAttempts bounds retries: about two days of backoff.
const maxAttempts = 20

// NewOutbox returns an outbox that sends through sender as from.
func NewOutbox(db *bun.DB, sender Sender, from string, log *slog.Logger) *Outbox {
	return &Outbox{db: db, sender: sender, from: from, log: log, wake: make(chan struct{}, 1), now: time.Now}
}

// Enqueue stores m through idb, which may be the caller's transaction: the
// mail then goes out only if that transaction commits.
func (o *Outbox) Enqueue(ctx context.Context, idb bun.IDB, m Message) error {
	to, _ := json.Marshal(m.To)
	now := o.now().UTC()
	row := &outboxRow{CompanyID: m.CompanyID, Recipients: string(to), Subject: m.Subject, Body: m.Text, NextAttemptAt: now, CreatedAt: now}
	if _, err := idb.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("enqueue mail: %w", err)
	}
	if err := saveAttachments(ctx, idb, row.ID, m.Attachments); err != nil {
		return err
	}
	select {
	case o.wake <- struct{}{}:
	default:
	}
	return nil
}

// SetBus sets where the outbox announces each attempt and its outcome
// (outbox.Attempt).
func (o *Outbox) SetBus(bus events.Bus) { o.bus = bus }

// Wake makes Run look for due messages now. Enqueue wakes it too, but
// inside the caller's transaction that wake may come before the commit, so
// that Run finds nothing and the message waits for the next tick (5 s): a
// caller that enqueues in a transaction calls Wake after the commit.
func (o *Outbox) Wake() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// Run delivers due mail until ctx is done.
func (o *Outbox) Run(ctx context.Context) error {
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	for {
		for o.deliverOne(ctx) {
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		case <-o.wake:
		}
	}
}

// deliverOne claims the oldest due message by pushing its next attempt into
// the future (so that another instance skips it), sends it, and records the
// outcome. It reports whether there may be more to send.
func (o *Outbox) deliverOne(ctx context.Context) bool {
	now := o.now().UTC()
	var row outboxRow
	err := o.db.NewSelect().Model(&row).
		Where("sent_at IS NULL AND attempts < ? AND next_attempt_at <= ?", maxAttempts, now).
		Order("id").Limit(1).Scan(ctx)
	if err != nil {
		return false
	}
	res, err := o.db.NewUpdate().Model((*outboxRow)(nil)).
		Set("next_attempt_at = ?", now.Add(2*time.Minute)).
		Where("id = ? AND next_attempt_at = ?", row.ID, row.NextAttemptAt).Exec(ctx)
	if err != nil {
		// res is nil then (a shutdown or a busy database): try again later.
		return false
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return true // another instance claimed it
	}
	var to []string
	_ = json.Unmarshal([]byte(row.Recipients), &to)
	atts, err := loadAttachments(ctx, o.db, row.ID)
	if err != nil {
		o.log.Error("mail delivery", "mail_id", row.ID, "err", err)
		return false // the claim lapses and the next attempt retries
	}
	sendCtx, cancel := context.WithTimeout(ctx, time.Minute)
	sendErr := o.sender.Send(sendCtx, o.from, Message{To: to, Subject: row.Subject, Text: row.Body, Attachments: atts})
	cancel()
	q := o.db.NewUpdate().Model((*outboxRow)(nil)).Where("id = ?", row.ID).Set("attempts = attempts + 1")
	attempt := outbox.Attempt{Channel: outbox.ChannelMail, MessageID: row.ID, CompanyID: row.CompanyID, To: to, Number: row.Attempts + 1, At: o.now().UTC()}
	switch {
	case sendErr == nil:
		attempt.Outcome = outbox.Sent
	case row.Attempts+1 >= maxAttempts:
		attempt.Outcome, attempt.Error = outbox.GaveUp, sendErr.Error()
	default:
		attempt.Outcome, attempt.Error = outbox.Retry, sendErr.Error()
	}
	if sendErr == nil {
		q = q.Set("sent_at = ?", o.now().UTC()).Set("last_error = ''")
	} else {
		backoff := time.Duration(1<<min(row.Attempts, 12)) * 15 * time.Second
		q = q.Set("next_attempt_at = ?", o.now().UTC().Add(backoff)).Set("last_error = ?", sendErr.Error())
		o.log.Warn("mail delivery failed, will retry", "mail_id", row.ID, "attempt", row.Attempts+1, "err", sendErr)
	}
	if _, err := q.Exec(context.WithoutCancel(ctx)); err != nil {
		o.log.Error("record mail delivery", "mail_id", row.ID, "err", err)
	}
	if sendErr == nil && len(atts) > 0 {
		if err := dropAttachments(context.WithoutCancel(ctx), o.db, row.ID); err != nil {
			o.log.Warn("delete sent mail's attachments", "mail_id", row.ID, "err", err)
		}
	}
	if o.bus != nil {
		o.bus.Publish(context.WithoutCancel(ctx), attempt)
	}
	return sendErr == nil
}

// SendNow sends m at once, outside the outbox, and answers what the mail
// server said: for a test message whose sender waits for the outcome.
// It is announced as an outbox.Attempt with MessageID 0.
func (o *Outbox) SendNow(ctx context.Context, m Message) error {
	err := o.sender.Send(ctx, o.from, m)
	if o.bus != nil {
		a := outbox.Attempt{Channel: outbox.ChannelMail, CompanyID: m.CompanyID, To: m.To, Number: 1, Outcome: outbox.Sent, At: o.now().UTC()}
		if err != nil {
			a.Outcome, a.Error = outbox.GaveUp, err.Error()
		}
		o.bus.Publish(context.WithoutCancel(ctx), a)
	}
	return err
}
