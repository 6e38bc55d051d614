package runner

import (
	"context"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/modules/scripts"
	"github.com/fieldhub/fieldhub/modules/scripts/internal/store"
)

// Looping scripts: the kernel scheduler's job "scripts"/"loop" (once
// across instances) looks for due scripts every Tick; each is claimed by a
// compare-and-swap of its next run before it runs, so that even two
// instances that both ran the job (SQLite files shared by none, a lock
// lost) run it once per interval.

// Tick is how often the looping job looks for due scripts; an interval of
// 0 runs a script at every tick.
const Tick = time.Second

// loopBatch bounds the due scripts one tick takes, and loopWorkers how
// many run at once.
const (
	loopBatch   = 200
	loopWorkers = 4
)

// RunDue runs the looping scripts due at now.
func (r *Runner) RunDue(ctx context.Context, now time.Time) error {
	due, err := store.Due(ctx, r.db, now, loopBatch)
	if err != nil {
		return err
	}
	next := make(chan *scripts.Script)
	var wg sync.WaitGroup
	for range min(loopWorkers, len(due)) {
		wg.Go(func() {
			for s := range next {
				if _, err := r.Run(ctx, s, scripts.CauseLoop, nil); err != nil && ctx.Err() == nil {
					r.log.Error("run a looping script", "script", s.ID, "err", err)
				}
			}
		})
	}
	for i := range due {
		s := &due[i]
		at := now.Add(time.Duration(max(s.Interval, 0)) * time.Second)
		if s.Interval == 0 {
			at = now.Add(Tick / 2)
		}
		ok, err := store.Claim(ctx, r.db, s.ID, s.NextRun, at.UTC().Truncate(time.Microsecond))
		if err != nil {
			r.log.Error("claim a looping script", "script", s.ID, "err", err)
			continue
		}
		if ok {
			next <- s
		}
	}
	close(next)
	wg.Wait()
	return nil
}
