package scheduler_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/scheduler"
)

// TestRunNow checks that a nudge runs a job long before its interval, and
// that an unknown job is an error.
func TestRunNow(t *testing.T) {
	ctx := context.Background()
	bdb, err := db.Open(ctx, kerneltest.DatabaseURL(t, db.SQLite))
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	s, err := scheduler.New(bdb, quiet())
	if err != nil {
		t.Fatal(err)
	}
	var runs atomic.Int32
	if err := s.Every("test", "rare", time.Hour, true, func(context.Context) error { runs.Add(1); return nil }); err != nil {
		t.Fatal(err)
	}
	s.Start()
	defer s.Stop()
	if err := s.RunNow("test", "rare"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runs.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if runs.Load() != 1 {
		t.Errorf("the job ran %d times after RunNow", runs.Load())
	}
	if err := s.RunNow("test", "nothing"); err == nil {
		t.Error("RunNow of an unknown job succeeded")
	}
}
