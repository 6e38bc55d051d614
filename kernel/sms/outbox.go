package sms

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/outbox"
)

// Outbox stores messages for delivery and delivers them (Run).
type Outbox struct {
	db     *bun.DB
	sender Sender
	bus    events.Bus
	log    *slog.Logger
	wake   chan struct{}
	now    func() time.Time
	// crashAfterAccept, in tests, makes deliverOne stop right after the
	// provider accepted a recipient, before recording it, as a process
	// killed there would.
	crashAfterAccept func() bool
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
	DedupeKey     string       `bun:"dedupe_key"`
	ProviderIDs   string       `bun:"provider_ids"`
	SendingSince  bun.NullTime `bun:"sending_since"`
	Unsure        int          `bun:"unsure"`
	FailedAt      bun.NullTime `bun:"failed_at"`
}

// Delivery's limits.
const (
	// MaxAttempts bounds retries: about two days of backoff.
	MaxAttempts = 20
	// lease is how long a claimed message is left to its instance before
	// another takes it for crashed; each recipient's send renews it.
	lease = 3 * time.Minute
	// sendTimeout bounds one recipient's send, a plugin restart included.
	sendTimeout = 90 * time.Second
)

// Backoff is the wait after the given number of failed attempts: 15 s,
// 30 s, 1 min, ... doubling up to about 17 hours.
func Backoff(failed int) time.Duration {
	return time.Duration(1<<min(max(failed-1, 0), 12)) * 15 * time.Second
}

// NewOutbox returns an outbox on db.
func NewOutbox(db *bun.DB) *Outbox {
	return &Outbox{db: db, wake: make(chan struct{}, 1), now: time.Now, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// Enqueue stores m through idb, which may be the caller's transaction: the
// message then goes out only if that transaction commits.
func (o *Outbox) Enqueue(ctx context.Context, idb bun.IDB, m Message) error {
	if len(m.To) == 0 {
		return fmt.Errorf("enqueue sms: no recipient")
	}
	to, _ := json.Marshal(m.To)
	now := o.now().UTC()
	row := &outboxRow{CompanyID: m.CompanyID, Recipients: string(to), Body: m.Text, NextAttemptAt: now, CreatedAt: now,
		DedupeKey: newKey(), ProviderIDs: "{}"}
	if _, err := idb.NewInsert().Model(row).Exec(ctx); err != nil {
		return fmt.Errorf("enqueue sms: %w", err)
	}
	select {
	case o.wake <- struct{}{}:
	default:
	}
	return nil
}

// newKey is a message's idempotency key: random, so that two installations
// (or a restored backup) never share one at a provider.
func newKey() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "fh-" + hex.EncodeToString(b)
}

// SetSender sets what delivers messages; the application wires the provider
// plugins' host in before the outbox runs.
func (o *Outbox) SetSender(s Sender) { o.sender = s }

// SetBus sets where the outbox announces its attempts, and its logger.
func (o *Outbox) SetBus(bus events.Bus, log *slog.Logger) { o.bus, o.log = bus, log }

// SendNow sends m at once, outside the outbox, and answers the provider's
// id: for a test message whose sender waits for the outcome. It is
// announced as an outbox.Attempt with MessageID 0.
func (o *Outbox) SendNow(ctx context.Context, m Message) (string, error) {
	if o.sender == nil {
		return "", ErrNoProvider
	}
	id, err := o.sender.Send(ctx, m)
	a := outbox.Attempt{Channel: outbox.ChannelSMS, CompanyID: m.CompanyID, To: m.To, Number: 1, Outcome: outbox.Sent, ProviderID: id, At: o.now().UTC()}
	if err != nil {
		a.Outcome, a.Error = outbox.GaveUp, err.Error()
	}
	o.announce(context.WithoutCancel(ctx), a)
	return id, err
}

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

// Run delivers due messages until ctx is done. Several instances may run it
// on one database: each message is claimed by one.
func (o *Outbox) Run(ctx context.Context) error {
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	for {
		for o.sender != nil && o.deliverOne(ctx) {
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		case <-o.wake:
		}
	}
}

// deliverOne claims the oldest due message, sends it to each recipient the
// provider has not accepted yet, and records the outcome. It reports
// whether there may be more to send.
func (o *Outbox) deliverOne(ctx context.Context) bool {
	now := o.now().UTC()
	var row outboxRow
	err := o.db.NewSelect().Model(&row).
		Where("sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= ?", now).
		Order("id").Limit(1).Scan(ctx)
	if err != nil {
		return false
	}
	// The claim pushes the next attempt past the lease, so that another
	// instance skips the message, and marks it in flight.
	res, err := o.db.NewUpdate().Model((*outboxRow)(nil)).
		Set("next_attempt_at = ?", now.Add(lease)).Set("sending_since = ?", now).
		Where("id = ? AND next_attempt_at = ?", row.ID, row.NextAttemptAt).Exec(ctx)
	if err != nil {
		return false // a shutdown or a busy database: try again later
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return true // another instance claimed it
	}
	var to []string
	_ = json.Unmarshal([]byte(row.Recipients), &to)
	accepted := map[string]string{}
	_ = json.Unmarshal([]byte(row.ProviderIDs), &accepted)
	attempt := outbox.Attempt{Channel: outbox.ChannelSMS, MessageID: row.ID, CompanyID: row.CompanyID, To: to, Number: row.Attempts + 1}
	bg := context.WithoutCancel(ctx)

	if !row.SendingSince.IsZero() && !o.resume(ctx, &row, attempt) {
		return true
	}
	var sendErr error
	for i, number := range to {
		if _, done := accepted[number]; done {
			continue
		}
		sendCtx, cancel := context.WithTimeout(ctx, sendTimeout)
		id, err := o.sender.Send(sendCtx, Message{CompanyID: row.CompanyID, To: []string{number}, Text: row.Body,
			IdempotencyKey: fmt.Sprintf("%s-%d", row.DedupeKey, i)})
		cancel()
		if err != nil {
			sendErr = err
			break
		}
		if o.crashAfterAccept != nil && o.crashAfterAccept() {
			return false
		}
		// Record each acceptance at once: a crash later in the loop must
		// not send this recipient the message again.
		accepted[number] = id
		ids, _ := json.Marshal(accepted)
		if _, err := o.db.NewUpdate().Model((*outboxRow)(nil)).Where("id = ?", row.ID).
			Set("provider_ids = ?", string(ids)).Set("next_attempt_at = ?", o.now().UTC().Add(lease)).Exec(bg); err != nil {
			o.log.Error("record an accepted sms", "sms_id", row.ID, "err", err)
		}
	}

	q := o.db.NewUpdate().Model((*outboxRow)(nil)).Where("id = ?", row.ID).
		Set("attempts = attempts + 1").Set("sending_since = NULL")
	at := o.now().UTC()
	attempt.At = at
	switch {
	case sendErr == nil:
		q = q.Set("sent_at = ?", at).Set("last_error = ''")
		attempt.Outcome, attempt.ProviderID = outbox.Sent, joinIDs(to, accepted)
	case row.Attempts+1 >= MaxAttempts:
		q = q.Set("failed_at = ?", at).Set("last_error = ?", sendErr.Error())
		attempt.Outcome, attempt.Error = outbox.GaveUp, sendErr.Error()
		o.log.Error("sms not delivered, giving up", "sms_id", row.ID, "attempts", row.Attempts+1, "err", sendErr)
	default:
		q = q.Set("next_attempt_at = ?", at.Add(Backoff(row.Attempts+1))).Set("last_error = ?", sendErr.Error())
		attempt.Outcome, attempt.Error = outbox.Retry, sendErr.Error()
		o.log.Warn("sms delivery failed, will retry", "sms_id", row.ID, "attempt", row.Attempts+1, "err", sendErr)
	}
	if _, err := q.Exec(bg); err != nil {
		o.log.Error("record sms delivery", "sms_id", row.ID, "err", err)
	}
	o.announce(bg, attempt)
	return sendErr == nil
}

// resume handles a message whose last attempt a crash interrupted: the
// provider may have accepted it. With a provider that drops a repeated
// idempotency key it is sent again (safely); otherwise it is sent again
// once, and given up when that attempt is interrupted too. It reports
// whether to send.
func (o *Outbox) resume(ctx context.Context, row *outboxRow, attempt outbox.Attempt) bool {
	bg := context.WithoutCancel(ctx)
	dedupes := false
	if d, ok := o.sender.(Deduper); ok {
		var err error
		if dedupes, err = d.Dedupes(ctx, row.CompanyID); err != nil {
			o.log.Warn("ask whether the sms provider dedupes", "sms_id", row.ID, "err", err)
		}
	}
	attempt.At = o.now().UTC()
	if !dedupes && row.Unsure >= 1 {
		const why = "two attempts were interrupted without knowing whether the provider accepted the message; it is not sent a third time"
		if _, err := o.db.NewUpdate().Model((*outboxRow)(nil)).Where("id = ?", row.ID).
			Set("failed_at = ?", attempt.At).Set("sending_since = NULL").Set("last_error = ?", why).Exec(bg); err != nil {
			o.log.Error("record sms delivery", "sms_id", row.ID, "err", err)
		}
		attempt.Outcome, attempt.Error = outbox.GaveUp, why
		o.announce(bg, attempt)
		return false
	}
	if _, err := o.db.NewUpdate().Model((*outboxRow)(nil)).Where("id = ?", row.ID).Set("unsure = unsure + 1").Exec(bg); err != nil {
		o.log.Error("record sms delivery", "sms_id", row.ID, "err", err)
	}
	attempt.Outcome = outbox.Resumed
	o.announce(bg, attempt)
	return true
}

func (o *Outbox) announce(ctx context.Context, a outbox.Attempt) {
	if o.bus != nil {
		o.bus.Publish(ctx, a)
	}
}

// joinIDs lists the provider's ids in the order of the recipients.
func joinIDs(to []string, ids map[string]string) string {
	out := make([]string, 0, len(to))
	for _, n := range to {
		out = append(out, ids[n])
	}
	return strings.Join(out, ",")
}
