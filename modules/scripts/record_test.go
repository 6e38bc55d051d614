package scripts_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/scripts"
	"github.com/fieldhub/fieldhub/modules/scripts/internal/store"
)

// TestRunsRecordedTogether: runs recorded in one batch, in order, count
// failures in a row as runs recorded one by one do, switch a script off
// once and drop the runs of a script deleted meanwhile; the trim keeps the
// newest MaxRuns runs of each script.
func TestRunsRecordedTogether(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		good := e.create(t, "acme", map[string]any{"name": "Good", "type": scripts.TypeInvoked, "enabled": true, "content": "return 1;"})
		bad := e.create(t, "acme", map[string]any{"name": "Bad", "type": scripts.TypeInvoked, "enabled": true, "content": "throw 1;"})
		gone := e.create(t, "acme", map[string]any{"name": "Gone", "type": scripts.TypeInvoked, "enabled": true, "content": "return 1;"})
		idb := e.p.App.Kernel().Host().DB
		ctx := context.Background()
		if err := store.Delete(ctx, idb, gone); err != nil {
			t.Fatal(err)
		}
		start := time.Now().UTC().Truncate(time.Millisecond)
		var runs []store.Finished
		add := func(id int64, failed bool, n int) {
			for range n {
				r := &scripts.Run{ScriptID: id, CompanyID: e.ID(t, "{acme}"), StartedAt: start.Add(time.Duration(len(runs)) * time.Millisecond), Cause: scripts.CauseTrigger}
				if failed {
					r.Error = "boom"
				}
				runs = append(runs, store.Finished{Run: r, Failed: failed})
			}
		}
		add(bad, true, scripts.FailuresToSwitchOff-1)
		add(bad, false, 1) // a success starts the count over
		add(good, false, scripts.MaxRuns+10)
		add(gone, false, 3)
		add(bad, true, scripts.FailuresToSwitchOff+2)
		off, err := store.Finish(ctx, idb, runs, scripts.FailuresToSwitchOff)
		if err != nil {
			t.Fatal(err)
		}
		if err := store.Trim(ctx, idb, []int64{good, bad, gone}); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(off, []int64{bad}) {
			t.Errorf("switched off %v, want [%d]", off, bad)
		}
		for _, c := range []struct {
			id       int64
			enabled  bool
			failures int
			history  int
		}{
			{good, true, 0, scripts.MaxRuns},
			{bad, false, scripts.FailuresToSwitchOff + 2, scripts.FailuresToSwitchOff + 2 + scripts.FailuresToSwitchOff},
		} {
			s, err := store.Get(ctx, idb, c.id)
			if err != nil {
				t.Fatal(err)
			}
			if s.Enabled != c.enabled || s.Failures != c.failures || s.LastRun == nil {
				t.Errorf("script %d: enabled %v failures %d last run %v", c.id, s.Enabled, s.Failures, s.LastRun)
			}
			h, err := store.Runs(ctx, idb, c.id)
			if err != nil {
				t.Fatal(err)
			}
			if len(h) != c.history {
				t.Errorf("script %d keeps %d runs, want %d", c.id, len(h), c.history)
			}
			if len(h) > 0 && !h[0].StartedAt.Equal(*s.LastRun) {
				t.Errorf("script %d: newest run %v, last run %v", c.id, h[0].StartedAt, s.LastRun)
			}
		}
		if h, _ := store.Runs(ctx, idb, gone); len(h) != 0 {
			t.Errorf("runs of a deleted script: %d", len(h))
		}
	})
}
