// Package runner runs scripts for real or as a test: the engine's run,
// then (for real) the actions it asked for, within the per-run limits the
// engine enforces and the per-minute limits of the script and its company
// across instances (limits.go),
// and the record of the run on the script and in its history, switching
// off a script that keeps failing.
package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/mail"
	"github.com/fieldhub/fieldhub/kernel/sms"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/logs"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/notifications"
	"github.com/fieldhub/fieldhub/modules/scripts"
	"github.com/fieldhub/fieldhub/modules/scripts/internal/engine"
)

// Deps are what the actions and reads of scripts reach.
type Deps struct {
	Tags      scripts.Tags
	Series    scripts.Series
	Values    scripts.Values
	Downlinks scripts.Downlinks // optional
	Notifier  scripts.Notifier  // optional
	Logs      scripts.Logs      // optional
}

// Runner runs scripts.
type Runner struct {
	host   *kernel.Host
	db     *bun.DB
	deps   Deps
	Engine *engine.Engine
	limits *limiter
	runs   *recorder
	log    *slog.Logger
}

// New returns a runner; its Engine must be started.
func New(host *kernel.Host, deps Deps) *Runner {
	log := host.Logger("scripts")
	r := &Runner{host: host, db: host.DB, deps: deps, limits: newLimiter(host.DB, log), log: log}
	r.Engine = engine.New(reader{deps}, r.log)
	r.runs = newRecorder(host.DB, log, r.switchedOff)
	return r
}

// Run runs s for real and records the run. The outcome's error is the
// script's; the returned error is the portal's.
func (r *Runner) Run(ctx context.Context, s *scripts.Script, cause string, trig *engine.Trigger) (scripts.Outcome, error) {
	started := time.Now().UTC()
	res, err := r.Engine.Run(ctx, engine.Request{Company: s.CompanyID, Content: s.Content, Module: s.Module, Trigger: trig})
	if err != nil {
		return scripts.Outcome{}, err
	}
	done, failed := 0, res.Failed()
	if !failed {
		done, err = r.apply(ctx, s, res.Actions)
		var ref *refusal
		switch {
		case errors.As(err, &ref):
			res.Error, failed = ref.msg, ref.own
			if !ref.own {
				res.Log = append(res.Log, ref.msg)
				if ref.first {
					r.refusedByCeiling(s, ref.kind)
				}
			}
		case err != nil:
			if errs.KindOf(err) == errs.Internal {
				r.log.Error("a script's action failed", "script", s.ID, "err", err)
			}
			res.Error, failed = actionError(err), true
		}
	}
	out := outcome(res)
	run := &scripts.Run{ScriptID: s.ID, CompanyID: s.CompanyID, StartedAt: started, DurationMS: time.Since(started).Milliseconds(),
		Cause: cause, Result: ResultText(res.Value), Error: out.Error, Actions: done}
	if run.Error != "" && out.Line > 0 {
		run.Error = fmt.Sprintf("%s (line %d)", out.Error, out.Line)
	}
	// A run someone asked for is in the history before its answer; the
	// others are recorded with the runs around them (record.go).
	return out, r.runs.record(s, run, failed, cause == scripts.CauseInvoke)
}

// Start records the runs in batches until Stop; before, each run is
// recorded alone.
func (r *Runner) Start() { r.runs.start() }

// Stop records the runs not recorded yet; later runs are recorded alone.
func (r *Runner) Stop() { r.runs.stop() }

// Test runs content once against the company's real data without side
// effects: the actions are answered, not done.
func (r *Runner) Test(ctx context.Context, company int64, content string, module []byte, trig *engine.Trigger) (scripts.Outcome, error) {
	res, err := r.Engine.Run(ctx, engine.Request{Company: company, Content: content, Module: module, Trigger: trig})
	if err != nil {
		return scripts.Outcome{}, err
	}
	return outcome(res), nil
}

// TriggerOf is the trigger a test of a triggered script sees: the bound
// node's latest uplink.
func (r *Runner) TriggerOf(ctx context.Context, company, tagID int64) (*engine.Trigger, error) {
	t, err := r.deps.Tags.Tag(ctx, tagID)
	if err != nil {
		return nil, err
	}
	if t.CompanyID != company {
		return nil, errs.New(errs.NotFound, errs.IDNotFound)
	}
	trig := &engine.Trigger{TagID: t.ID, DevEUI: t.DevEUI, Name: t.Name, Values: t.Data}
	if t.LatestTime != nil {
		trig.Time = *t.LatestTime
	}
	if trig.Values == nil {
		trig.Values = map[string]any{}
	}
	return trig, nil
}

func outcome(res engine.Result) scripts.Outcome {
	actions := res.Actions
	if actions == nil {
		actions = []scripts.Action{}
	}
	return scripts.Outcome{Valid: !res.Failed(), Result: res.Value, Error: res.Error, Line: res.Line, Actions: actions, Log: res.Log}
}

// ResultText is a run's return value as the script keeps it: JSON.
func ResultText(v any) string {
	if v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

// actionError is the message of an action that was refused, in English as
// the engine's messages are.
func actionError(err error) string {
	var e *errs.Error
	if errors.As(err, &e) && e.Kind != errs.Internal {
		if len(e.Fields) > 0 {
			return fmt.Sprintf("refused: %s (%s)", e.Fields[0].ID, e.Fields[0].Field)
		}
		return "refused: " + e.ID
	}
	if strings.HasPrefix(err.Error(), "limit:") {
		return strings.TrimPrefix(err.Error(), "limit: ")
	}
	return "an action could not be done"
}

// apply does a run's actions in order and returns how many it did; it
// stops at the first that fails.
func (r *Runner) apply(ctx context.Context, s *scripts.Script, actions []scripts.Action) (int, error) {
	for i, a := range actions {
		if err := r.limits.allow(ctx, s, a.Kind, time.Now()); err != nil {
			return i, err
		}
		if err := r.do(ctx, s, a); err != nil {
			return i, err
		}
	}
	return len(actions), nil
}

func (r *Runner) do(ctx context.Context, s *scripts.Script, a scripts.Action) error {
	switch a.Kind {
	case scripts.ActionWrite:
		var at time.Time
		if a.Time != "" {
			at, _ = time.Parse(time.RFC3339Nano, a.Time)
		}
		_, err := r.deps.Values.WriteValues(ctx, ingest.Write{CompanyID: s.CompanyID, TagID: a.TagID, Time: at, Values: a.Values, Source: ingest.SourceScript})
		return err
	case scripts.ActionDownlink:
		if r.deps.Downlinks == nil {
			return errs.New(errs.Unavailable, errs.IDUnavailable)
		}
		payload, _ := json.Marshal(a.Payload)
		_, err := r.deps.Downlinks.QueueDownlink(ctx, s.CompanyID, a.TagID, netservers.DownlinkRequest{Port: a.Port, Payload: payload, PayloadType: "hex", Confirmed: a.Confirmed})
		return err
	case scripts.ActionNotify:
		if r.deps.Notifier == nil {
			return errs.New(errs.Unavailable, errs.IDUnavailable)
		}
		label := a.Subject
		if label == "" {
			label = s.Name
		}
		return r.deps.Notifier.NotifyCompany(ctx, r.db, s.CompanyID, notifications.New{Label: clip(label, notifications.MaxLabel),
			Message: clip(a.Text, notifications.MaxMessage), Route: fmt.Sprintf("/script/%d", s.ID)})
	case scripts.ActionMail:
		if err := r.host.Mail.Enqueue(ctx, r.db, mail.Message{CompanyID: s.CompanyID, To: a.To, Subject: a.Subject, Text: a.Text}); err != nil {
			return err
		}
		r.host.Mail.Wake()
		return nil
	case scripts.ActionSMS:
		if err := r.host.SMS.Enqueue(ctx, r.db, sms.Message{CompanyID: s.CompanyID, To: a.To, Text: a.Text}); err != nil {
			return err
		}
		r.host.SMS.Wake()
		return nil
	case scripts.ActionLog:
		r.record(s, a.Text)
		return nil
	}
	return fmt.Errorf("limit: unknown action %q", a.Kind)
}

// record writes a script's own log entry.
func (r *Runner) record(s *scripts.Script, text string) {
	if r.deps.Logs == nil {
		return
	}
	c := s.CompanyID
	r.deps.Logs.Record(logs.Entry{CompanyID: &c, Type: logs.TypeApp, Message: clip(s.Name+": "+text, logs.MaxMessage),
		MessageID: scripts.IDLogEntry, Data: map[string]any{"name": s.Name, "text": text, "scriptId": s.ID}})
}

// refusedByCeiling tells the company, once a minute per instance, that its
// scripts reached the company-wide ceiling of writes or sends: the runs
// refused say so too, but nobody reads every run.
func (r *Runner) refusedByCeiling(s *scripts.Script, kind string) {
	id, most := scripts.IDCompanyWrites, scripts.MaxCompanyWritesPerMinute
	msg := "The company's scripts wrote %d times this minute, the most they may together: further writes are refused until the minute is over. No script is switched off for it."
	if isSend(kind) {
		id, most = scripts.IDCompanySends, scripts.MaxCompanySendsPerMinute
		msg = "The company's scripts sent %d messages this minute, the most they may together: further sends are refused until the minute is over. No script is switched off for it."
	}
	r.log.Warn("scripts reached the company's ceiling", "company_id", s.CompanyID, "kind", kind)
	if r.deps.Logs == nil {
		return
	}
	c := s.CompanyID
	r.deps.Logs.Record(logs.Entry{CompanyID: &c, Type: logs.TypeWarning, Message: fmt.Sprintf(msg, most), MessageID: id,
		Data: map[string]any{"max": most, "name": s.Name, "scriptId": s.ID}})
}

// switchedOff tells the company that s was switched off.
func (r *Runner) switchedOff(ctx context.Context, s *scripts.Script, lastError string) {
	args := map[string]any{"name": s.Name, "failures": scripts.FailuresToSwitchOff, "error": lastError}
	msg := fmt.Sprintf("The script %s was switched off after %d failed runs in a row: %s", s.Name, scripts.FailuresToSwitchOff, lastError)
	r.log.Warn("script switched off", "script", s.ID, "company_id", s.CompanyID, "err", lastError)
	if r.deps.Logs != nil {
		c := s.CompanyID
		r.deps.Logs.Record(logs.Entry{CompanyID: &c, Type: logs.TypeError, Message: clip(msg, logs.MaxMessage), MessageID: scripts.IDSwitchedOff, Data: args})
	}
	if r.deps.Notifier != nil {
		err := r.deps.Notifier.NotifyCompany(ctx, r.db, s.CompanyID, notifications.New{Label: "Script switched off", Message: clip(msg, notifications.MaxMessage),
			Route: fmt.Sprintf("/script/%d", s.ID), Roles: []string{"Admin", "CompanyAdmin"}})
		if err != nil {
			r.log.Error("notify of a script switched off", "script", s.ID, "err", err)
		}
	}
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// reader answers the scripts' reads from the time series, for nodes of the
// run's company only.
type reader struct{ deps Deps }

func (rd reader) series(ctx context.Context, company, tagID int64, key string) (tsdb.Series, error) {
	t, err := rd.deps.Tags.Tag(ctx, tagID)
	if err != nil {
		return tsdb.Series{}, err
	}
	if t.CompanyID != company {
		return tsdb.Series{}, errs.New(errs.NotFound, errs.IDNotFound)
	}
	return tsdb.Series{Company: company, DevEUI: strings.ToLower(t.DevEUI), Key: key}, nil
}

func (rd reader) Latest(ctx context.Context, company, tagID int64, key string) ([]any, error) {
	s, err := rd.series(ctx, company, tagID, key)
	if err != nil {
		return nil, err
	}
	p, ok, err := rd.deps.Series.Latest(ctx, s)
	if err != nil || !ok {
		return nil, err
	}
	return pointOf(p), nil
}

func (rd reader) Range(ctx context.Context, company, tagID int64, key string, from, to time.Time, points int) ([][]any, error) {
	s, err := rd.series(ctx, company, tagID, key)
	if err != nil {
		return nil, err
	}
	pts, err := rd.deps.Series.Range(ctx, s, from, to, points)
	if err != nil {
		return nil, err
	}
	out := make([][]any, len(pts))
	for i, p := range pts {
		out[i] = pointOf(p)
	}
	return out, nil
}

func pointOf(p tsdb.Point) []any {
	if p.IsText {
		return []any{p.Time.UnixMilli(), p.Text}
	}
	return []any{p.Time.UnixMilli(), p.Value}
}
