package inbox

import (
	"context"
	"time"

	"github.com/fieldhub/fieldhub/modules/notifications/internal/store"
)

// The dispatcher announces committed notifications. Rows are stored in the
// caller's transaction, whose commit this module cannot see: it looks for
// rows not yet announced, quickly after rows were stored here (quick), and
// every idlePoll otherwise, which also finds the rows another instance or
// the fieldhub notify command stored, and those of an instance that stopped
// before announcing them. A row of a transaction that rolled back is never
// seen, so never announced.
var quick = []time.Duration{
	20 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond,
	400 * time.Millisecond, 800 * time.Millisecond, 1600 * time.Millisecond,
}

const (
	idlePoll = 3 * time.Second
	// batch is how many rows one pass announces at most; a pass that
	// finds as many goes on at once.
	batch = 500
)

// Run announces notifications until ctx ends.
func (x *Inbox) Run(ctx context.Context) {
	step := len(quick) // no quick schedule under way
	for {
		x.announceAll(ctx)
		wait := idlePoll
		if step < len(quick) {
			wait = quick[step]
			step++
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-x.nudge:
			step = 0
		case <-t.C:
		}
		t.Stop()
	}
}

// announceAll announces every committed row not yet announced.
func (x *Inbox) announceAll(ctx context.Context) {
	for ctx.Err() == nil {
		n, err := x.announce(ctx)
		if err != nil {
			if ctx.Err() == nil {
				x.log.Warn("notifications not announced yet; trying again", "err", err)
			}
			return
		}
		if n < batch {
			return
		}
	}
}

// announce marks up to batch rows announced and tells their users; it
// returns how many rows it found.
func (x *Inbox) announce(ctx context.Context) (int, error) {
	ids, err := store.Unannounced(ctx, x.db, batch)
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	users, err := store.Announce(ctx, x.db, ids)
	if err != nil {
		return 0, err
	}
	if len(users) > 0 {
		x.tell(ctx, users)
	}
	return len(ids), nil
}
