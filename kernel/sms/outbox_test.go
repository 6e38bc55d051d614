package sms_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	kdb "github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/outbox"
	"github.com/fieldhub/fieldhub/kernel/sms"
	"github.com/fieldhub/fieldhub/migrations"
)

// provider is a Sender that remembers what it accepted: a provider that
// drops a repeated idempotency key when dedupe is set, and fails the
// first fails sends.
type provider struct {
	mu       sync.Mutex
	dedupe   bool
	fails    int
	requests []sms.Message // every send that reached it
	byKey    map[string]string
	next     int
}

func (p *provider) Send(_ context.Context, m sms.Message) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fails > 0 {
		p.fails--
		return "", errors.New("provider unavailable")
	}
	if p.byKey == nil {
		p.byKey = map[string]string{}
	}
	if id, ok := p.byKey[m.IdempotencyKey]; ok && p.dedupe {
		return id, nil // a repeat: the provider sends nothing
	}
	p.requests = append(p.requests, m)
	p.next++
	id := fmt.Sprintf("id-%d", p.next)
	p.byKey[m.IdempotencyKey] = id
	return id, nil
}

func (p *provider) Dedupes(context.Context, int64) (bool, error) { return p.dedupe, nil }

func (p *provider) sent() []sms.Message {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]sms.Message(nil), p.requests...)
}

// attempts collects the outbox's announcements.
type attempts struct {
	mu  sync.Mutex
	got []outbox.Attempt
}

func (a *attempts) Publish(_ context.Context, e events.Event) {
	a.mu.Lock()
	a.got = append(a.got, e.(outbox.Attempt))
	a.mu.Unlock()
}
func (a *attempts) Subscribe(string, events.Handler)                {}
func (a *attempts) SubscribeBatch(string, int, events.BatchHandler) {}

func (a *attempts) outcomes() []outbox.Outcome {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []outbox.Outcome
	for _, at := range a.got {
		out = append(out, at.Outcome)
	}
	return out
}

func openDB(t *testing.T, url string) *bun.DB {
	t.Helper()
	bdb, err := kdb.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bdb.Close() })
	if _, err := kdb.Migrate(context.Background(), bdb, migrations.FS, migrations.Order); err != nil {
		t.Fatal(err)
	}
	return bdb
}

// newOutbox is an outbox on bdb with a clock the test moves.
func newOutbox(bdb *bun.DB, p sms.Sender, clock *time.Time, bus events.Bus) *sms.Outbox {
	o := sms.NewOutbox(bdb)
	o.SetSender(p)
	o.SetClock(func() time.Time { return *clock })
	if bus != nil {
		o.SetBus(bus, kerneltest.Logger(nil))
	}
	return o
}

type state struct {
	Attempts    int          `bun:"attempts"`
	SentAt      bun.NullTime `bun:"sent_at"`
	FailedAt    bun.NullTime `bun:"failed_at"`
	ProviderIDs string       `bun:"provider_ids"`
	LastError   string       `bun:"last_error"`
}

func rowState(t *testing.T, bdb *bun.DB) state {
	t.Helper()
	var s state
	if err := bdb.NewSelect().Table("sms_outbox").Column("attempts", "sent_at", "failed_at", "provider_ids", "last_error").Limit(1).Scan(context.Background(), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

var msg = sms.Message{CompanyID: 7, To: []string{"46700000001", "46700000002"}, Text: "Freezer 3 is warm"}

// TestRolledBackMessageIsNeverSent: a message enqueued in a transaction
// that rolls back does not exist for the outbox.
func TestRolledBackMessageIsNeverSent(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d kdb.Dialect) {
		ctx := context.Background()
		bdb := openDB(t, kerneltest.DatabaseURL(t, d))
		p := &provider{}
		clock := time.Now()
		o := newOutbox(bdb, p, &clock, nil)
		err := bdb.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if err := o.Enqueue(ctx, tx, msg); err != nil {
				return err
			}
			return errors.New("the alarm's own write failed")
		})
		if err == nil {
			t.Fatal("the transaction committed")
		}
		if o.DeliverOne(ctx) || len(p.sent()) != 0 {
			t.Fatalf("a rolled-back message was sent: %+v", p.sent())
		}
		// The same in a transaction that commits goes out, to each recipient.
		if err := bdb.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return o.Enqueue(ctx, tx, msg) }); err != nil {
			t.Fatal(err)
		}
		if !o.DeliverOne(ctx) || len(p.sent()) != 2 || p.sent()[1].To[0] != "46700000002" || p.sent()[0].CompanyID != 7 {
			t.Fatalf("sent %+v", p.sent())
		}
		if s := rowState(t, bdb); s.SentAt.IsZero() || s.ProviderIDs != `{"46700000001":"id-1","46700000002":"id-2"}` {
			t.Errorf("row %+v", s)
		}
	})
}

// TestRetriesWithBackoff: a failed send waits its backoff, doubling, and a
// message that keeps failing is given up after sms.MaxAttempts.
func TestRetriesWithBackoff(t *testing.T) {
	ctx := context.Background()
	bdb := openDB(t, kerneltest.DatabaseURL(t, kdb.SQLite))
	p := &provider{fails: 3}
	clock := time.Now()
	bus := &attempts{}
	o := newOutbox(bdb, p, &clock, bus)
	if err := o.Enqueue(ctx, bdb, sms.Message{To: []string{"46700000001"}, Text: "x"}); err != nil {
		t.Fatal(err)
	}
	for failed := 1; failed <= 3; failed++ {
		if o.DeliverOne(ctx) {
			t.Fatalf("attempt %d reported success", failed)
		}
		if s := rowState(t, bdb); s.Attempts != failed || s.LastError == "" {
			t.Fatalf("after attempt %d: %+v", failed, s)
		}
		wait := sms.Backoff(failed)
		clock = clock.Add(wait - time.Second)
		if o.DeliverOne(ctx) {
			t.Fatalf("retried before its backoff of %s", wait)
		}
		clock = clock.Add(time.Second)
	}
	if sms.Backoff(2) != 2*sms.Backoff(1) || sms.Backoff(3) != 2*sms.Backoff(2) {
		t.Errorf("backoff does not double: %s %s %s", sms.Backoff(1), sms.Backoff(2), sms.Backoff(3))
	}
	if !o.DeliverOne(ctx) || len(p.sent()) != 1 {
		t.Fatalf("the fourth attempt: sent %+v", p.sent())
	}
	want := []outbox.Outcome{outbox.Retry, outbox.Retry, outbox.Retry, outbox.Sent}
	if got := bus.outcomes(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("announced %v, want %v", got, want)
	}

	// A message that never goes out is given up after MaxAttempts.
	p.fails = sms.MaxAttempts + 5
	if err := o.Enqueue(ctx, bdb, sms.Message{To: []string{"46700000009"}, Text: "y"}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < sms.MaxAttempts+3; i++ {
		o.DeliverOne(ctx)
		clock = clock.Add(24 * time.Hour)
	}
	if got := bus.outcomes(); got[len(got)-1] != outbox.GaveUp || len(got) != 4+sms.MaxAttempts {
		t.Errorf("announced %v", got)
	}
}

// TestTwoOutboxesSendOnce: two instances on one PostgreSQL deliver each
// message once.
func TestTwoOutboxesSendOnce(t *testing.T) {
	ctx := context.Background()
	url := kerneltest.DatabaseURL(t, kdb.Postgres)
	dbA, dbB := openDB(t, url), openDB(t, url)
	p := &provider{}
	clock := time.Now()
	a, b := newOutbox(dbA, p, &clock, nil), newOutbox(dbB, p, &clock, nil)
	const n = 40
	for i := range n {
		if err := a.Enqueue(ctx, dbA, sms.Message{To: []string{fmt.Sprintf("4670000%04d", i)}, Text: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for _, o := range []*sms.Outbox{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for o.DeliverOne(ctx) {
			}
		}()
	}
	wg.Wait()
	// Whatever one instance skipped while the other claimed it goes now.
	for a.DeliverOne(ctx) {
	}
	seen := map[string]int{}
	for _, m := range p.sent() {
		seen[m.To[0]]++
	}
	if len(seen) != n || len(p.sent()) != n {
		t.Fatalf("%d sends to %d numbers, want %d once each", len(p.sent()), len(seen), n)
	}
}

// TestCrashAfterAcceptance: the process dies after the provider accepted a
// recipient and before the outbox recorded it. A provider that drops a
// repeated idempotency key gets the message again and sends nothing more;
// one that does not gets it at most once more: the outbox resends once,
// and gives up when that attempt is interrupted too.
func TestCrashAfterAcceptance(t *testing.T) {
	for _, dedupe := range []bool{true, false} {
		t.Run(fmt.Sprintf("dedupe=%v", dedupe), func(t *testing.T) {
			ctx := context.Background()
			bdb := openDB(t, kerneltest.DatabaseURL(t, kdb.SQLite))
			p := &provider{dedupe: dedupe}
			clock := time.Now()
			bus := &attempts{}
			crashed := newOutbox(bdb, p, &clock, bus)
			crashed.CrashAfterAccept(func() bool { return true })
			one := sms.Message{CompanyID: 3, To: []string{"46700000001"}, Text: "Water leak"}
			if err := crashed.Enqueue(ctx, bdb, one); err != nil {
				t.Fatal(err)
			}
			crashed.DeliverOne(ctx) // accepted by the provider, then the process "dies"
			if len(p.sent()) != 1 {
				t.Fatalf("first attempt: %+v", p.sent())
			}

			// The restarted portal takes the message once the claim lapsed.
			restarted := newOutbox(bdb, p, &clock, bus)
			if restarted.DeliverOne(ctx) {
				t.Fatal("took a message still claimed by the crashed instance")
			}
			clock = clock.Add(10 * time.Minute)
			if dedupe {
				if !restarted.DeliverOne(ctx) || len(p.sent()) != 1 {
					t.Fatalf("the provider sent %d messages, want 1", len(p.sent()))
				}
				if s := rowState(t, bdb); s.SentAt.IsZero() || s.ProviderIDs != `{"46700000001":"id-1"}` {
					t.Errorf("row %+v", s)
				}
				if got := bus.outcomes(); fmt.Sprint(got) != fmt.Sprint([]outbox.Outcome{outbox.Resumed, outbox.Sent}) {
					t.Errorf("announced %v", got)
				}
				return
			}
			// Without dedupe: once more, and that one crashes too.
			restarted.CrashAfterAccept(func() bool { return true })
			restarted.DeliverOne(ctx)
			if len(p.sent()) != 2 {
				t.Fatalf("the provider got %d messages, want 2", len(p.sent()))
			}
			clock = clock.Add(10 * time.Minute)
			third := newOutbox(bdb, p, &clock, bus)
			third.DeliverOne(ctx)
			clock = clock.Add(48 * time.Hour)
			third.DeliverOne(ctx)
			if len(p.sent()) != 2 {
				t.Fatalf("the provider got %d messages, want at most one more than the first", len(p.sent()))
			}
			if s := rowState(t, bdb); s.FailedAt.IsZero() || !s.SentAt.IsZero() || s.LastError == "" {
				t.Errorf("row %+v", s)
			}
			if got := bus.outcomes(); fmt.Sprint(got) != fmt.Sprint([]outbox.Outcome{outbox.Resumed, outbox.GaveUp}) {
				t.Errorf("announced %v", got)
			}
		})
	}
}

// TestRecordedRecipientsAreNotSentAgain: a crash in the middle of a
// message to several recipients sends the rest, not the ones accepted.
func TestRecordedRecipientsAreNotSentAgain(t *testing.T) {
	ctx := context.Background()
	bdb := openDB(t, kerneltest.DatabaseURL(t, kdb.SQLite))
	p := &provider{fails: 0}
	clock := time.Now()
	o := newOutbox(bdb, p, &clock, nil)
	if err := o.Enqueue(ctx, bdb, msg); err != nil {
		t.Fatal(err)
	}
	p.fails = 0
	// The first recipient is accepted and recorded, the second fails.
	failing := &failSecond{provider: p}
	o.SetSender(failing)
	if o.DeliverOne(ctx) {
		t.Fatal("reported success")
	}
	clock = clock.Add(time.Hour)
	o.SetSender(p)
	if !o.DeliverOne(ctx) {
		t.Fatal("the retry failed")
	}
	count := map[string]int{}
	for _, m := range p.sent() {
		count[m.To[0]]++
	}
	if count["46700000001"] != 1 || count["46700000002"] != 1 {
		t.Errorf("sends per recipient: %v", count)
	}
}

// failSecond refuses the second recipient.
type failSecond struct{ *provider }

func (f *failSecond) Send(ctx context.Context, m sms.Message) (string, error) {
	if m.To[0] == "46700000002" {
		return "", errors.New("refused")
	}
	return f.provider.Send(ctx, m)
}
