// Package delivery sends reports by e-mail: on the schedule, once per
// period across instances and restarts, and on demand ("send now").
package delivery

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/kernel/mail"
	"github.com/fieldhub/fieldhub/modules/logs"
	"github.com/fieldhub/fieldhub/modules/reports"
	"github.com/fieldhub/fieldhub/modules/reports/internal/render"
	"github.com/fieldhub/fieldhub/modules/reports/internal/store"
)

// Deliverer makes reports' files and queues their mails.
type Deliverer struct {
	DB       *bun.DB
	Mail     *mail.Outbox
	Render   *render.Renderer
	Accounts reports.Accounts
	Logs     reports.Logs
	Catalogs *i18n.Catalogs
	Log      *slog.Logger
}

// RunDue sends, for every report, the latest period due at now unless it
// was sent; it returns how many it sent. A report that fails is logged and
// the others go on; the next run tries it again.
func (d *Deliverer) RunDue(ctx context.Context, now time.Time) (int, error) {
	list, err := store.All(ctx, d.DB)
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, r := range list {
		ok, err := d.runOne(ctx, r, now)
		if err != nil {
			if ctx.Err() != nil {
				return sent, ctx.Err()
			}
			d.Log.Error("scheduled report failed", "report_id", r.ID, "err", err)
			continue
		}
		if ok {
			sent++
		}
	}
	return sent, nil
}

func (d *Deliverer) runOne(ctx context.Context, r *reports.Report, now time.Time) (bool, error) {
	if len(r.ReportContacts) == 0 || len(r.Nodes) == 0 || len(r.Keys) == 0 {
		return false, nil
	}
	company, err := d.Accounts.Company(ctx, r.CompanyID)
	if err != nil {
		return false, err
	}
	loc := company.Location()
	p := reports.LatestDue(r.Tempo, now, loc)
	if ref, err := time.ParseInLocation(time.DateOnly, r.RefrenceDate, loc); err == nil && !p.To.After(ref) {
		return false, nil // the period ended before the report's first day
	}
	if done, err := store.Sent(ctx, d.DB, r.ID, p.From); err != nil || done {
		return false, err
	}
	return d.send(ctx, r, company.Name, loc, company.Language(), p, true, now)
}

// SendNow sends the last finished period of r at once, beside the
// schedule, and returns it.
func (d *Deliverer) SendNow(ctx context.Context, r *reports.Report, now time.Time) (reports.Period, error) {
	if len(r.ReportContacts) == 0 {
		return reports.Period{}, errs.New(errs.Invalid, reports.IDNoContacts)
	}
	company, err := d.Accounts.Company(ctx, r.CompanyID)
	if err != nil {
		return reports.Period{}, err
	}
	loc := company.Location()
	p := reports.LastFinished(r.Tempo, now, loc)
	_, err = d.send(ctx, r, company.Name, loc, company.Language(), p, false, now)
	return p, err
}

// send makes r's files for p and queues the mail; with claim, only if the
// period is not claimed yet, in the same transaction.
func (d *Deliverer) send(ctx context.Context, r *reports.Report, companyName string, loc *time.Location, lang string, p reports.Period, claim bool, now time.Time) (bool, error) {
	spec := reports.Spec{Company: r.CompanyID, Nodes: r.Nodes, Keys: r.Keys, Type: r.Type, Resolution: r.Resolution, From: p.From, To: p.To, Location: loc}
	periodText := periodText(p, loc)
	args := map[string]any{"name": r.Name, "period": periodText, "company": companyName}
	atts, values, err := d.files(ctx, r, spec, lang, p)
	if err != nil {
		d.record(r, logs.TypeError, reports.IDEntryFailed, args)
		return false, err
	}
	msg := mail.Message{To: r.ReportContacts, Subject: d.Catalogs.T(lang, reports.IDMailSubject, args),
		Text: d.Catalogs.T(lang, reports.IDMailBody, args), Attachments: atts}
	queued := false
	err = d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if claim {
			ok, err := store.Claim(ctx, tx, r.ID, p, now)
			if err != nil || !ok {
				return err
			}
		}
		if err := d.Mail.Enqueue(ctx, tx, msg); err != nil {
			return err
		}
		queued = true
		return store.MarkSent(ctx, tx, r.ID, now)
	})
	if err != nil {
		return false, fmt.Errorf("queue report %d: %w", r.ID, err)
	}
	if queued {
		d.Mail.Wake() // the wake of Enqueue came before the commit
		args["to"] = strings.Join(r.ReportContacts, ", ")
		args["values"] = values
		id := reports.IDEntrySent
		if values == 0 {
			id = reports.IDEntryEmpty
		}
		d.record(r, logs.TypeApp, id, args)
	}
	return queued, nil
}

// files makes the .xlsx and the CSV file of spec, and counts its values.
func (d *Deliverer) files(ctx context.Context, r *reports.Report, spec reports.Spec, lang string, p reports.Period) ([]mail.Attachment, int64, error) {
	var out []mail.Attachment
	var values int64
	for _, format := range []string{reports.FormatXLSX, reports.FormatCSV} {
		name := reports.FileName(r.Name, p.From.In(spec.Location), format)
		f, err := d.Render.Make(ctx, spec, format, r.Name, name, lang)
		if err != nil {
			return nil, 0, err
		}
		data, err := f.Bytes()
		f.Close()
		if err != nil {
			return nil, 0, err
		}
		values = f.Stats.Values()
		ct, _, _ := strings.Cut(f.ContentType, ";")
		out = append(out, mail.Attachment{Name: name, ContentType: ct, Data: data})
	}
	return out, values, nil
}

func (d *Deliverer) record(r *reports.Report, typ, id string, args map[string]any) {
	if d.Logs == nil {
		return
	}
	company := r.CompanyID
	d.Logs.Record(logs.Entry{CompanyID: &company, Type: typ, MessageID: id,
		Message: d.Catalogs.T(i18n.Default, id, args), Data: args})
}

// periodText is the period as people read it: its first and last day.
func periodText(p reports.Period, loc *time.Location) string {
	from, last := p.From.In(loc), p.To.In(loc).AddDate(0, 0, -1)
	if from.Format(time.DateOnly) == last.Format(time.DateOnly) {
		return from.Format(time.DateOnly)
	}
	return from.Format(time.DateOnly) + " – " + last.Format(time.DateOnly)
}
