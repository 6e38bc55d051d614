package scheduler_test

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/scheduler"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// TestEveryRunsTheJob checks that a job runs, on both databases, and that
// with once set on PostgreSQL two instances never run it at the same time.
func TestEveryRunsTheJob(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		ctx := context.Background()
		bdb, err := db.Open(ctx, kerneltest.DatabaseURL(t, d))
		if err != nil {
			t.Fatal(err)
		}
		defer bdb.Close()
		var runs, running, overlaps atomic.Int32
		job := func(ctx context.Context) error {
			if running.Add(1) > 1 {
				overlaps.Add(1)
			}
			time.Sleep(30 * time.Millisecond)
			running.Add(-1)
			runs.Add(1)
			return nil
		}
		instances := 1
		if d == db.Postgres {
			instances = 2 // two portals sharing one database
		}
		for i := 0; i < instances; i++ {
			s, err := scheduler.New(bdb, quiet())
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Every("test", "tick", 20*time.Millisecond, true, job); err != nil {
				t.Fatal(err)
			}
			s.Start()
			defer s.Stop()
		}
		deadline := time.Now().Add(10 * time.Second)
		for runs.Load() < 5 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if runs.Load() < 5 {
			t.Fatalf("the job ran %d times", runs.Load())
		}
		if d == db.Postgres && overlaps.Load() > 0 {
			t.Errorf("a cluster-once job ran on two instances at once %d times", overlaps.Load())
		}
	})
}
