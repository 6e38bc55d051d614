package runner

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/modules/scripts"
	"github.com/fieldhub/fieldhub/modules/scripts/internal/store"
)

// The record of runs. Each run updates its script (last run, result,
// error, failures) and adds a row to its history: a transaction, and so a
// commit that waits for the disk, per run. At a thousand triggered runs a
// second those commits were most of the database's work and queued the
// runs behind them, so the recorder gathers the runs of up to
// recordEvery, or recordBatch of them, and records them in one
// transaction. A run someone asked for (a function button, "run now") is
// recorded before its answer: the history shows it when the answer
// arrives.

// The history keeps the newest scripts.MaxRuns runs of a script (the
// history route reads no more). A script's older runs are deleted once it
// has run MaxRuns times since its last trim, so that a trim deletes many
// rows for its lookups, and each flush trims at most trimBatch scripts, so
// that the deletes are spread rather than made for every script at once.
const (
	recordEvery = 200 * time.Millisecond
	recordBatch = 500
	trimBatch   = 100
)

// pendingRun is a run waiting to be recorded.
type pendingRun struct {
	script *scripts.Script
	store.Finished
	// done, when set, is closed once the run is recorded.
	done chan struct{}
	// err is the recording's error, set before done is closed.
	err error
}

// recorder records runs in batches.
type recorder struct {
	db  bun.IDB
	log *slog.Logger
	// switchedOff is told of each script a batch switched off, with the
	// error of its last run.
	switchedOff func(ctx context.Context, s *scripts.Script, lastError string)
	// changed, when set, is called after a batch switched scripts off.
	changed func()

	mu      sync.Mutex
	pending []*pendingRun
	// ran counts the runs recorded of each script since its last trim.
	ran map[int64]int
	// running is set while the loop runs; without it a run is recorded
	// at once, in its caller.
	running bool
	kick    chan struct{}
	stopped chan struct{}
	cancel  context.CancelFunc
}

func newRecorder(idb bun.IDB, log *slog.Logger, switchedOff func(context.Context, *scripts.Script, string)) *recorder {
	return &recorder{db: idb, log: log, switchedOff: switchedOff, kick: make(chan struct{}, 1), ran: map[int64]int{}}
}

// start records the gathered runs every recordEvery until stop.
func (rc *recorder) start() {
	ctx, cancel := context.WithCancel(context.Background())
	rc.mu.Lock()
	rc.running, rc.cancel, rc.stopped = true, cancel, make(chan struct{})
	rc.mu.Unlock()
	go func() {
		defer close(rc.stopped)
		t := time.NewTicker(recordEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				rc.flush(true)
				return
			case <-t.C:
			case <-rc.kick:
			}
			rc.flush(false)
		}
	}()
}

// stop records what is gathered and ends the loop; later runs are
// recorded in their callers.
func (rc *recorder) stop() {
	rc.mu.Lock()
	running, cancel, stopped := rc.running, rc.cancel, rc.stopped
	rc.running = false
	rc.mu.Unlock()
	if running {
		cancel()
		<-stopped
	}
}

// record records run of s (failed: the script's failure); with wait it
// returns once the run is recorded, with the recording's error.
func (rc *recorder) record(s *scripts.Script, run *scripts.Run, failed, wait bool) error {
	p := &pendingRun{script: s, Finished: store.Finished{Run: run, Failed: failed}}
	if wait {
		p.done = make(chan struct{})
	}
	rc.mu.Lock()
	if !rc.running {
		rc.mu.Unlock()
		rc.write([]*pendingRun{p})
		rc.trim(0, -1)
		return p.err
	}
	rc.pending = append(rc.pending, p)
	full := len(rc.pending) >= recordBatch
	rc.mu.Unlock()
	if wait || full {
		select {
		case rc.kick <- struct{}{}:
		default:
		}
	}
	if wait {
		<-p.done
	}
	return p.err
}

// flush records the gathered runs and trims the histories of up to
// trimBatch scripts, or of all when the loop ends.
func (rc *recorder) flush(final bool) {
	for {
		rc.mu.Lock()
		batch := rc.pending
		if len(batch) > recordBatch {
			batch = batch[:recordBatch]
		}
		rc.pending = rc.pending[len(batch):]
		rc.mu.Unlock()
		if len(batch) == 0 {
			break
		}
		rc.write(batch)
	}
	if final {
		rc.trim(0, -1)
	} else {
		rc.trim(scripts.MaxRuns, trimBatch)
	}
}

// trim trims the histories of up to most (all, when negative) of the
// scripts that ran at least runs times since their last trim.
func (rc *recorder) trim(runs, most int) {
	rc.mu.Lock()
	var ids []int64
	for id, n := range rc.ran {
		if len(ids) == most {
			break
		}
		if n >= runs {
			ids = append(ids, id)
			delete(rc.ran, id)
		}
	}
	rc.mu.Unlock()
	slices.Sort(ids)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for part := range slices.Chunk(ids, trimBatch) {
		if err := store.Trim(ctx, rc.db, part); err != nil {
			rc.log.Error("trim the history of scripts", "scripts", len(part), "err", err)
		}
	}
}

// write records a batch and tells of the scripts it switched off.
func (rc *recorder) write(batch []*pendingRun) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	runs := make([]store.Finished, len(batch))
	for i, p := range batch {
		runs[i] = p.Finished
	}
	off, err := store.Finish(ctx, rc.db, runs, scripts.FailuresToSwitchOff)
	if err != nil {
		rc.log.Error("record the runs of scripts", "runs", len(batch), "err", err)
	}
	rc.mu.Lock()
	for _, p := range batch {
		rc.ran[p.Run.ScriptID]++
	}
	rc.mu.Unlock()
	for _, id := range off {
		// The last run of the script in the batch is the one that
		// switched it off.
		for i := len(batch) - 1; i >= 0; i-- {
			if p := batch[i]; p.script.ID == id {
				rc.switchedOff(ctx, p.script, p.Run.Error)
				break
			}
		}
	}
	if len(off) > 0 && rc.changed != nil {
		rc.changed()
	}
	for _, p := range batch {
		p.err = err
		if p.done != nil {
			close(p.done)
		}
	}
}
