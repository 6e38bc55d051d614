package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
)

// Evaluation is the latest value of a batch of uplinks for a rule whose
// state the batch left as it was.
type Evaluation struct {
	ID int64
	// Version is the rule's state version the batch read.
	Version int64
	At      time.Time
	Value   float64
}

// chunk bounds the rows of one statement.
const chunk = 500

// SaveEvaluations writes the time and value of each evaluation, one
// statement per few hundred rules, where the rule's state is still the
// version the batch read and no newer value was evaluated. It answers the
// rules it did not write: their state changed meanwhile (on another
// instance), or a newer value came first; the caller evaluates them again
// under their lock, which tells the two apart.
func SaveEvaluations(ctx context.Context, idb bun.IDB, list []Evaluation) (missed []int64, err error) {
	for start := 0; start < len(list); start += chunk {
		part := list[start:min(start+chunk, len(list))]
		rows := make([]string, len(part))
		args := make([]any, 0, 4*len(part))
		for i, ev := range part {
			rows[i] = "(?, " + timeParam(idb) + ", ?, ?)"
			args = append(args, ev.ID, ev.At.UTC(), ev.Value, ev.Version)
		}
		var written []int64
		err := idb.NewRaw(`UPDATE alarms SET evaluated_at = v.column2, last_value = v.column3
			FROM (VALUES `+strings.Join(rows, ", ")+`) AS v
			WHERE alarms.id = v.column1 AND alarms.state_version = v.column4
			  AND (alarms.evaluated_at IS NULL OR alarms.evaluated_at <= v.column2)
			RETURNING alarms.id`, args...).Scan(ctx, &written)
		if err != nil {
			return nil, fmt.Errorf("save the evaluations of %d alarms: %w", len(part), err)
		}
		done := make(map[int64]bool, len(written))
		for _, id := range written {
			done[id] = true
		}
		for _, ev := range part {
			if !done[ev.ID] {
				missed = append(missed, ev.ID)
			}
		}
	}
	return missed, nil
}

// ClearEvents notes, for each open firing of at, when its value came back
// to normal (the earliest such time; a firing cleared already keeps its
// time). It needs no lock: a firing is cleared once.
func ClearEvents(ctx context.Context, idb bun.IDB, at map[int64]time.Time) error {
	rows := make([]string, 0, len(at))
	args := make([]any, 0, 2*len(at))
	for id, t := range at {
		rows = append(rows, "(?, "+timeParam(idb)+")")
		args = append(args, id, t.UTC())
	}
	for start := 0; start < len(rows); start += chunk {
		end := min(start+chunk, len(rows))
		_, err := idb.NewRaw(`UPDATE alarm_events SET cleared_at = v.column2
			FROM (VALUES `+strings.Join(rows[start:end], ", ")+`) AS v
			WHERE alarm_events.id = v.column1 AND alarm_events.cleared_at IS NULL`, args[2*start:2*end]...).Exec(ctx)
		if err != nil {
			return fmt.Errorf("clear %d alarm events: %w", end-start, err)
		}
	}
	return nil
}

// timeParam is a placeholder for a time inside VALUES: PostgreSQL types a
// bare literal there as text, which it will not compare with or assign to a
// timestamp; SQLite keeps times as text and must not cast them.
func timeParam(idb bun.IDB) string {
	if db.DialectOf(idb) == db.Postgres {
		return "CAST(? AS TIMESTAMPTZ)"
	}
	return "?"
}
