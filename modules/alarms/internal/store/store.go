// Package store holds the alarms module's tables: the rules with their
// evaluation state (alarms), their firings (alarm_events) and the
// inactivity job's notices.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/alarms"
)

func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return errs.New(errs.NotFound, errs.IDNotFound)
	}
	return err
}

// ruleColumns are the columns people set; an update writes only these and
// resets the evaluation state.
var ruleColumns = []string{"name", "priority", "alarm_delay", "active", "tag_data_key", "tag_id", "message", "limit_high", "limit_low",
	"contact_type", "alarm_contacts", "active_days", "signal_type", "digital_trigger", "trigger_high", "trigger_low", "advanced",
	"hysteresis", "renotify_interval", "escalate_after", "escalation_contacts", "pending_since", "armed", "digital_state", "updated_at"}

// bumpVersion counts a write of a rule's evaluation state (the migration
// 20270111000000 says why).
const bumpVersion = "state_version = state_version + 1"

// Insert stores a new rule.
func Insert(ctx context.Context, idb bun.IDB, a *alarms.Alarm) error {
	if _, err := idb.NewInsert().Model(a).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert alarm: %w", err)
	}
	return nil
}

// Update writes the rule's settings and starts its evaluation afresh (an
// open firing stays open).
func Update(ctx context.Context, idb bun.IDB, a *alarms.Alarm) error {
	a.PendingSince, a.Armed, a.DigitalState = nil, true, nil
	if _, err := idb.NewUpdate().Model(a).Column(ruleColumns...).Set(bumpVersion).WherePK().Exec(ctx); err != nil {
		return fmt.Errorf("update alarm %d: %w", a.ID, err)
	}
	return nil
}

// SetActive switches a rule on or off; a rule switched on starts its
// evaluation afresh.
func SetActive(ctx context.Context, idb bun.IDB, id int64, active bool, now time.Time) error {
	_, err := idb.NewUpdate().Model((*alarms.Alarm)(nil)).Set("active = ?", active).Set("updated_at = ?", now).
		Set("pending_since = NULL").Set("armed = ?", true).Set("digital_state = NULL").Set(bumpVersion).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("set alarm %d active: %w", id, err)
	}
	return nil
}

// Delete removes a rule with its history.
func Delete(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*alarms.Alarm)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete alarm %d: %w", id, err)
	}
	return nil
}

// Get loads a rule; an unknown id is errs.NotFound.
func Get(ctx context.Context, idb bun.IDB, id int64) (*alarms.Alarm, error) {
	a := new(alarms.Alarm)
	if err := idb.NewSelect().Model(a).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err)
	}
	return a, nil
}

// Lock loads a rule for an evaluation in tx: on PostgreSQL its row stays
// locked until tx ends, so that instances evaluate one rule in turn; on
// SQLite the transaction itself is the one writer.
func Lock(ctx context.Context, tx bun.Tx, id int64) (*alarms.Alarm, error) {
	a := new(alarms.Alarm)
	q := tx.NewSelect().Model(a).Where("id = ?", id)
	if db.DialectOf(tx) == db.Postgres {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		return nil, notFound(err)
	}
	return a, nil
}

// SaveState writes a rule's evaluation state.
func SaveState(ctx context.Context, idb bun.IDB, a *alarms.Alarm) error {
	a.StateVersion++
	_, err := idb.NewUpdate().Model(a).Column("pending_since", "armed", "open_event_id", "digital_state", "evaluated_at", "last_value", "state_version").
		WherePK().Exec(ctx)
	if err != nil {
		return fmt.Errorf("save state of alarm %d: %w", a.ID, err)
	}
	return nil
}

// Company lists a company's rules by name.
func Company(ctx context.Context, idb bun.IDB, companyID int64) ([]*alarms.Alarm, error) {
	list := []*alarms.Alarm{}
	if err := idb.NewSelect().Model(&list).Where("company_id = ?", companyID).OrderExpr("name, id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list alarms: %w", err)
	}
	return list, nil
}

// stepColumns are what stepping a rule through a value reads: its
// condition and its state, not its texts and contacts (JSON, costly to
// read for every batch of uplinks).
var stepColumns = []string{"id", "tag_id", "tag_data_key", "active", "limit_high", "limit_low", "signal_type", "digital_trigger",
	"trigger_high", "trigger_low", "advanced", "hysteresis", "alarm_delay", "pending_since", "armed", "open_event_id", "digital_state",
	"evaluated_at", "last_value", "state_version"}

// ActiveRules lists every active rule with its condition and state only
// (stepColumns): a rule that moves is read again whole, under its lock.
func ActiveRules(ctx context.Context, idb bun.IDB) ([]*alarms.Alarm, error) {
	list := []*alarms.Alarm{}
	if err := idb.NewSelect().Model(&list).Column(stepColumns...).Where("active").OrderExpr("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list active alarms: %w", err)
	}
	return list, nil
}

// Active lists every active rule (the catch-up after a start).
func Active(ctx context.Context, idb bun.IDB) ([]*alarms.Alarm, error) {
	list := []*alarms.Alarm{}
	if err := idb.NewSelect().Model(&list).Where("active").OrderExpr("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list active alarms: %w", err)
	}
	return list, nil
}

// Pending lists the ids of the rules whose condition holds and waits for
// its delay.
func Pending(ctx context.Context, idb bun.IDB) ([]int64, error) {
	var ids []int64
	err := idb.NewSelect().Model((*alarms.Alarm)(nil)).Column("id").
		Where("active AND armed AND open_event_id IS NULL AND pending_since IS NOT NULL").OrderExpr("id").Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("list pending alarms: %w", err)
	}
	return ids, nil
}

// InsertEvent stores a firing.
func InsertEvent(ctx context.Context, idb bun.IDB, ev *alarms.Event) error {
	if _, err := idb.NewInsert().Model(ev).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert alarm event: %w", err)
	}
	return nil
}

// ClearEvent notes when the value of an open firing came back to normal.
func ClearEvent(ctx context.Context, idb bun.IDB, id int64, at time.Time) error {
	_, err := idb.NewUpdate().Model((*alarms.Event)(nil)).Set("cleared_at = ?", at.UTC()).
		Where("id = ? AND cleared_at IS NULL", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("clear alarm event %d: %w", id, err)
	}
	return nil
}

// Event loads a firing; an unknown id is errs.NotFound.
func Event(ctx context.Context, idb bun.IDB, id int64) (*alarms.Event, error) {
	ev := new(alarms.Event)
	if err := idb.NewSelect().Model(ev).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err)
	}
	return ev, nil
}

// EventFilter selects firings: of a company (0: every company), of a rule
// (0: every rule), only open ones, at most Limit, newest first.
type EventFilter struct {
	CompanyID, AlarmID int64
	Open               bool
	Limit              int
}

// Events lists firings.
func Events(ctx context.Context, idb bun.IDB, f EventFilter) ([]*alarms.Event, error) {
	list := []*alarms.Event{}
	q := idb.NewSelect().Model(&list).OrderExpr("triggered_at DESC, id DESC")
	if f.CompanyID != 0 {
		q = q.Where("company_id = ?", f.CompanyID)
	}
	if f.AlarmID != 0 {
		q = q.Where("alarm_id = ?", f.AlarmID)
	}
	if f.Open {
		q = q.Where("reset_at IS NULL")
	}
	if f.Limit > 0 {
		q = q.Limit(int64(f.Limit))
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("list alarm events: %w", err)
	}
	return list, nil
}

// Reset acknowledges an open firing and frees its rule to fire again once
// its value has been normal. It reports false when the firing was reset
// already (by someone else, perhaps on another instance).
func Reset(ctx context.Context, tx bun.Tx, ev *alarms.Event, userID int64, userName string, at time.Time) (bool, error) {
	res, err := tx.NewUpdate().Model((*alarms.Event)(nil)).Set("reset_at = ?", at.UTC()).Set("reset_by = ?", userID).
		Set("reset_by_name = ?", userName).Where("id = ? AND reset_at IS NULL", ev.ID).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("reset alarm event %d: %w", ev.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	_, err = tx.NewUpdate().Model((*alarms.Alarm)(nil)).Set("open_event_id = NULL").Set(bumpVersion).
		Where("id = ? AND open_event_id = ?", ev.AlarmID, ev.ID).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("free alarm %d: %w", ev.AlarmID, err)
	}
	return true, nil
}

// Renotified claims a re-notification of an open firing: it moves the
// firing's notified time from was to at, and reports false when another
// run (or instance) did so first.
func Renotified(ctx context.Context, idb bun.IDB, id int64, was, at time.Time) (bool, error) {
	res, err := idb.NewUpdate().Model((*alarms.Event)(nil)).Set("notified_at = ?", at.UTC()).Set("notify_count = notify_count + 1").
		Where("id = ? AND reset_at IS NULL AND notified_at = ?", id, was.UTC()).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("renotify alarm event %d: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// Escalated claims the escalation of an open firing, once.
func Escalated(ctx context.Context, idb bun.IDB, id int64, at time.Time) (bool, error) {
	res, err := idb.NewUpdate().Model((*alarms.Event)(nil)).Set("escalated_at = ?", at.UTC()).
		Where("id = ? AND reset_at IS NULL AND escalated_at IS NULL", id).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("escalate alarm event %d: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// OpenTags answers which of tagIDs have open firings.
func OpenTags(ctx context.Context, idb bun.IDB, tagIDs []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	if len(tagIDs) == 0 {
		return out, nil
	}
	// In chunks, within the databases' limits of parameters.
	for start := 0; start < len(tagIDs); start += 5000 {
		chunk := tagIDs[start:min(start+5000, len(tagIDs))]
		var ids []int64
		err := idb.NewSelect().Model((*alarms.Event)(nil)).ColumnExpr("DISTINCT tag_id").
			Where("reset_at IS NULL AND tag_id IN (?)", bun.In(chunk)).Scan(ctx, &ids)
		if err != nil {
			return nil, fmt.Errorf("open alarms of tags: %w", err)
		}
		for _, id := range ids {
			out[id] = true
		}
	}
	return out, nil
}

// FollowUps lists the open firings whose rules ask for reminders or an
// escalation not yet made (advanced rules only), oldest first.
func FollowUps(ctx context.Context, idb bun.IDB) ([]*alarms.Event, error) {
	list := []*alarms.Event{}
	err := idb.NewSelect().Model(&list).
		Join("JOIN alarms AS al ON al.id = ev.alarm_id").
		Where("ev.reset_at IS NULL AND al.advanced").
		Where("(al.renotify_interval > 0 OR (al.escalate_after > 0 AND ev.escalated_at IS NULL))").
		OrderExpr("ev.id").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("list alarm follow-ups: %w", err)
	}
	return list, nil
}

// States answers the state of those of ids that are rules of the company:
// active or not, and the open firing (the newest, should there be several).
func States(ctx context.Context, idb bun.IDB, companyID int64, ids []int64) (map[int64]alarms.State, error) {
	out := map[int64]alarms.State{}
	if len(ids) == 0 {
		return out, nil
	}
	var rules []*alarms.Alarm
	err := idb.NewSelect().Model(&rules).Column("id", "active").
		Where("company_id = ? AND id IN (?)", companyID, bun.In(ids)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("alarm states: %w", err)
	}
	if len(rules) == 0 {
		return out, nil
	}
	var open []*alarms.Event
	err = idb.NewSelect().Model(&open).Where("company_id = ? AND reset_at IS NULL AND alarm_id IN (?)", companyID, bun.In(ids)).
		OrderExpr("triggered_at ASC, id ASC").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("open firings of alarms: %w", err)
	}
	for _, a := range rules {
		out[a.ID] = alarms.State{Active: a.Active}
	}
	for _, ev := range open {
		if st, ok := out[ev.AlarmID]; ok {
			st.Open = ev
			out[ev.AlarmID] = st
		}
	}
	return out, nil
}
