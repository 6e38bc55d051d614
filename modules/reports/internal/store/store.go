// Package store keeps the reports module's tables: report subscriptions
// and the periods sent.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/reports"
)

// Report loads a report by id.
func Report(ctx context.Context, idb bun.IDB, id int64) (*reports.Report, error) {
	r := new(reports.Report)
	err := idb.NewSelect().Model(r).Where("rep.id = ?", id).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errs.New(errs.NotFound, errs.IDNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("load report %d: %w", id, err)
	}
	return r, nil
}

// CompanyReports lists a company's reports by name.
func CompanyReports(ctx context.Context, idb bun.IDB, company int64) ([]*reports.Report, error) {
	list := []*reports.Report{}
	if err := idb.NewSelect().Model(&list).Where("rep.company_id = ?", company).Order("rep.name", "rep.id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list reports: %w", err)
	}
	return list, nil
}

// All lists every report of every company, for the schedule.
func All(ctx context.Context, idb bun.IDB) ([]*reports.Report, error) {
	var list []*reports.Report
	if err := idb.NewSelect().Model(&list).Order("rep.id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list reports: %w", err)
	}
	return list, nil
}

// Insert adds r.
func Insert(ctx context.Context, idb bun.IDB, r *reports.Report) error {
	now := time.Now().UTC()
	r.CreatedAt, r.UpdatedAt = now, now
	if _, err := idb.NewInsert().Model(r).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert report: %w", err)
	}
	return nil
}

// Update saves r's fields (not its company, creation or last send).
func Update(ctx context.Context, idb bun.IDB, r *reports.Report) error {
	r.UpdatedAt = time.Now().UTC()
	_, err := idb.NewUpdate().Model(r).WherePK().
		Column("name", "type", "tempo", "reference_date", "report_contacts", "node_ids", "report_keys", "resolution", "updated_at").Exec(ctx)
	if err != nil {
		return fmt.Errorf("update report: %w", err)
	}
	return nil
}

// Delete removes a report and its sends.
func Delete(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*reports.Report)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete report: %w", err)
	}
	return nil
}

// MarkSent records when a report was last sent.
func MarkSent(ctx context.Context, idb bun.IDB, id int64, at time.Time) error {
	_, err := idb.NewUpdate().Model((*reports.Report)(nil)).Set("last_sent = ?", at.UTC()).Where("id = ?", id).Exec(ctx)
	return err
}

// Send is a period a report was sent for by the schedule.
type Send struct {
	bun.BaseModel `bun:"table:report_sends"`
	ID            int64     `bun:"id,pk,autoincrement"`
	ReportID      int64     `bun:"report_id"`
	PeriodStart   time.Time `bun:"period_start"`
	PeriodEnd     time.Time `bun:"period_end"`
	SentAt        time.Time `bun:"sent_at"`
}

// Sent reports whether the schedule sent report id for the period that
// starts at start.
func Sent(ctx context.Context, idb bun.IDB, id int64, start time.Time) (bool, error) {
	return idb.NewSelect().Model((*Send)(nil)).Where("report_id = ? AND period_start = ?", id, start.UTC()).Exists(ctx)
}

// Claim records the send of a period in tx; false when it is recorded
// already (another instance sent it), and tx must then queue nothing.
func Claim(ctx context.Context, tx bun.Tx, id int64, p reports.Period, now time.Time) (bool, error) {
	res, err := tx.NewInsert().Model(&Send{ReportID: id, PeriodStart: p.From.UTC(), PeriodEnd: p.To.UTC(), SentAt: now.UTC()}).
		On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("claim report period: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}
