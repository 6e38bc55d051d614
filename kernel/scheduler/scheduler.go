// Package scheduler runs the modules' periodic jobs on gocron v2. Every job is
// named, tagged with its module and runs in singleton mode; on PostgreSQL a
// job that must run once across instances takes an advisory lock.
package scheduler

import (
	"context"
	"database/sql"
	"fmt"
	"hash/fnv"
	"log/slog"
	"sync"
	"time"

	"github.com/go-co-op/gocron/v2"
	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
)

// Scheduler wraps a gocron scheduler.
type Scheduler struct {
	s      gocron.Scheduler
	locker gocron.Locker
	log    *slog.Logger
	mu     sync.Mutex
	jobs   map[string]gocron.Job // by module.name
}

// New returns a scheduler; with PostgreSQL, cluster-wide jobs lock through it.
func New(bdb *bun.DB, log *slog.Logger) (*Scheduler, error) {
	s, err := gocron.NewScheduler(gocron.WithLogger(gocronLogger{log}))
	if err != nil {
		return nil, fmt.Errorf("create scheduler: %w", err)
	}
	sch := &Scheduler{s: s, log: log, jobs: map[string]gocron.Job{}}
	if db.DialectOf(bdb) == db.Postgres {
		sch.locker = &pgLocker{db: bdb.DB}
	}
	return sch, nil
}

// Job is a unit of periodic work. It should return when ctx is done.
type Job func(ctx context.Context) error

// Every runs job every interval. With once set, only one instance in a
// cluster runs each occurrence.
func (s *Scheduler) Every(module, name string, interval time.Duration, once bool, job Job) error {
	return s.add(module, name, gocron.DurationJob(interval), once, job)
}

// Daily runs job every day at hh:mm local time.
func (s *Scheduler) Daily(module, name string, hh, mm uint, once bool, job Job) error {
	return s.add(module, name, gocron.DailyJob(1, gocron.NewAtTimes(gocron.NewAtTime(hh, mm, 0))), once, job)
}

func (s *Scheduler) add(module, name string, def gocron.JobDefinition, once bool, job Job) error {
	opts := []gocron.JobOption{
		gocron.WithName(module + "." + name),
		gocron.WithTags(module),
		gocron.WithSingletonMode(gocron.LimitModeReschedule),
	}
	if once && s.locker != nil {
		opts = append(opts, gocron.WithDistributedJobLocker(s.locker))
	}
	log := s.log.With("job", module+"."+name)
	task := gocron.NewTask(func(ctx context.Context) {
		if err := job(ctx); err != nil && ctx.Err() == nil {
			log.Error("job failed", "err", err)
		}
	})
	j, err := s.s.NewJob(def, task, opts...)
	if err != nil {
		return fmt.Errorf("schedule %s.%s: %w", module, name, err)
	}
	s.mu.Lock()
	s.jobs[module+"."+name] = j
	s.mu.Unlock()
	return nil
}

// RunNow runs a job added with Every or Daily once more, now, under the same
// singleton mode and cluster lock as its scheduled runs: a nudge that there
// is work. It does not wait for the run. An error means the run did not
// start (the scheduler is not running, or the job runs already here or on
// another instance); the schedule then picks the work up.
func (s *Scheduler) RunNow(module, name string) error {
	s.mu.Lock()
	j := s.jobs[module+"."+name]
	s.mu.Unlock()
	if j == nil {
		return fmt.Errorf("run %s.%s now: no such job", module, name)
	}
	if err := j.RunNow(); err != nil {
		return fmt.Errorf("run %s.%s now: %w", module, name, err)
	}
	return nil
}

// Start begins running jobs.
func (s *Scheduler) Start() { s.s.Start() }

// Stop waits for running jobs and stops.
func (s *Scheduler) Stop() error { return s.s.Shutdown() }

// pgLocker holds a session-level advisory lock on its own connection for the
// length of one job run.
type pgLocker struct{ db *sql.DB }

func (l *pgLocker) Lock(ctx context.Context, key string) (gocron.Lock, error) {
	conn, err := l.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	h := fnv.New64a()
	h.Write([]byte(key))
	id := int64(h.Sum64())
	var got bool
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", id).Scan(&got); err != nil || !got {
		conn.Close()
		if err == nil {
			err = fmt.Errorf("job %s runs on another instance", key)
		}
		return nil, err
	}
	return &pgLock{conn: conn, id: id}, nil
}

type pgLock struct {
	conn *sql.Conn
	id   int64
}

func (l *pgLock) Unlock(ctx context.Context) error {
	defer l.conn.Close()
	_, err := l.conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", l.id)
	return err
}

type gocronLogger struct{ l *slog.Logger }

func (g gocronLogger) Debug(msg string, args ...any) { g.l.Debug(msg, args...) }
func (g gocronLogger) Info(msg string, args ...any)  { g.l.Debug(msg, args...) }
func (g gocronLogger) Warn(msg string, args ...any)  { g.l.Warn(msg, args...) }
func (g gocronLogger) Error(msg string, args ...any) { g.l.Error(msg, args...) }
