// Package store keeps the signal tests and their points in the SQL
// database. The averages of a test are computed from its points whenever
// a test is read, so they always equal what the points say.
package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/signaltests"
)

// testRow is a row of signal_tests with its points' aggregates.
type testRow struct {
	bun.BaseModel `bun:"table:signal_tests,alias:t"`

	ID           int64      `bun:"id,pk,autoincrement"`
	CompanyID    int64      `bun:"company_id"`
	TagID        int64      `bun:"tag_id"`
	DevEUI       string     `bun:"deveui"`
	TagName      string     `bun:"tag_name"`
	Description  string     `bun:"description"`
	LatitudeKey  string     `bun:"latitude_key"`
	LongitudeKey string     `bun:"longitude_key"`
	StartedAt    time.Time  `bun:"started_at"`
	EndedAt      *time.Time `bun:"ended_at"`
	Active       bool       `bun:"active"`
	AverageRSSI  *float64   `bun:"average_rssi,scanonly"`
	AverageSNR   *float64   `bun:"average_snr,scanonly"`
	PointCount   int64      `bun:"point_count,scanonly"`
}

func (r *testRow) test() *signaltests.Test {
	t := &signaltests.Test{ID: r.ID, CompanyID: r.CompanyID, TagID: r.TagID, DevEUI: r.DevEUI, TagName: r.TagName,
		Description: r.Description, LatitudeKey: r.LatitudeKey, LongitudeKey: r.LongitudeKey, Start: r.StartedAt.UTC(),
		Active: r.Active, AverageRSSI: r.AverageRSSI, AverageSNR: r.AverageSNR, PointCount: r.PointCount}
	if r.EndedAt != nil {
		end := r.EndedAt.UTC()
		t.End = &end
	}
	return t
}

// pointRow is a row of signal_test_points.
type pointRow struct {
	bun.BaseModel `bun:"table:signal_test_points,alias:p"`

	ID              int64     `bun:"id,pk,autoincrement"`
	TestID          int64     `bun:"test_id"`
	RSSI            *float64  `bun:"rssi"`
	SNR             *float64  `bun:"snr"`
	Lat             *float64  `bun:"lat"`
	Lng             *float64  `bun:"lng"`
	GatewayID       string    `bun:"gateway_id"`
	SpreadingFactor int       `bun:"spreading_factor"`
	FCnt            int64     `bun:"fcnt"`
	Receptions      string    `bun:"receptions"`
	CreatedAt       time.Time `bun:"created_at"`
}

func notFound() error { return errs.New(errs.NotFound, errs.IDNotFound) }

// selectTests is the query of tests with their aggregates.
func selectTests(idb bun.IDB, rows *[]testRow) *bun.SelectQuery {
	return idb.NewSelect().Model(rows).
		ColumnExpr("t.*").
		ColumnExpr("AVG(p.rssi) AS average_rssi").
		ColumnExpr("AVG(p.snr) AS average_snr").
		ColumnExpr("COUNT(p.id) AS point_count").
		Join("LEFT JOIN signal_test_points AS p ON p.test_id = t.id").
		Group("t.id")
}

// Start adds an active test; a node that has one already is a conflict.
func Start(ctx context.Context, idb bun.IDB, t *signaltests.Test) error {
	row := &testRow{CompanyID: t.CompanyID, TagID: t.TagID, DevEUI: t.DevEUI, TagName: t.TagName, Description: t.Description,
		LatitudeKey: t.LatitudeKey, LongitudeKey: t.LongitudeKey, StartedAt: t.Start, Active: true}
	if _, err := idb.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		if db.IsUniqueViolation(err) {
			return errs.New(errs.Conflict, signaltests.IDActive).Wrap(err)
		}
		return fmt.Errorf("insert signal test: %w", err)
	}
	t.ID, t.Active = row.ID, true
	return nil
}

// List returns a company's tests, newest first, without points.
func List(ctx context.Context, idb bun.IDB, companyID int64) ([]signaltests.Test, error) {
	var rows []testRow
	if err := selectTests(idb, &rows).Where("t.company_id = ?", companyID).OrderExpr("t.started_at DESC, t.id DESC").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list signal tests: %w", err)
	}
	out := make([]signaltests.Test, len(rows))
	for i := range rows {
		out[i] = *rows[i].test()
	}
	return out, nil
}

// Get returns a test without points; not found when there is none.
func Get(ctx context.Context, idb bun.IDB, id int64) (*signaltests.Test, error) {
	var rows []testRow
	if err := selectTests(idb, &rows).Where("t.id = ?", id).Scan(ctx); err != nil {
		return nil, fmt.Errorf("read signal test %d: %w", id, err)
	}
	if len(rows) == 0 {
		return nil, notFound()
	}
	return rows[0].test(), nil
}

// Points returns a test's points after the point id after (0: all), in
// the order they were added.
func Points(ctx context.Context, idb bun.IDB, testID, after int64) ([]signaltests.Point, error) {
	var rows []pointRow
	if err := idb.NewSelect().Model(&rows).Where("p.test_id = ? AND p.id > ?", testID, after).OrderExpr("p.id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("read points of signal test %d: %w", testID, err)
	}
	out := make([]signaltests.Point, len(rows))
	for i, r := range rows {
		p := signaltests.Point{ID: r.ID, RSSI: r.RSSI, SNR: r.SNR, Lat: r.Lat, Lng: r.Lng, GatewayID: r.GatewayID,
			SpreadingFactor: r.SpreadingFactor, FCnt: r.FCnt, CreatedAt: r.CreatedAt.UTC(), Receptions: []signaltests.Reception{}}
		if err := json.Unmarshal([]byte(r.Receptions), &p.Receptions); err != nil {
			return nil, fmt.Errorf("receptions of signal test point %d: %w", r.ID, err)
		}
		out[i] = p
	}
	return out, nil
}

// End completes an active test at now; a test that has ended already is a
// conflict.
func End(ctx context.Context, idb bun.IDB, id int64, now time.Time) error {
	res, err := idb.NewUpdate().Model((*testRow)(nil)).Set("active = ?", false).Set("ended_at = ?", now).
		Where("id = ? AND active", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("end signal test %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errs.New(errs.Conflict, signaltests.IDEnded)
	}
	return nil
}

// Delete removes a test and its points.
func Delete(ctx context.Context, idb bun.IDB, id int64) error {
	return idb.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewDelete().Model((*pointRow)(nil)).Where("test_id = ?", id).Exec(ctx); err != nil {
			return fmt.Errorf("delete points of signal test %d: %w", id, err)
		}
		res, err := tx.NewDelete().Model((*testRow)(nil)).Where("id = ?", id).Exec(ctx)
		if err != nil {
			return fmt.Errorf("delete signal test %d: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return notFound()
		}
		return nil
	})
}

// OpenTest is what the collector needs of a test that may still take
// points: an active one, or one completed lately.
type OpenTest struct {
	ID                        int64
	LatitudeKey, LongitudeKey string
	Start                     time.Time
	End                       *time.Time
}

// OpenTests returns, by node id, the tests of those nodes that are active
// or were completed after since, in one query.
func OpenTests(ctx context.Context, idb bun.IDB, tagIDs []int64, since time.Time) (map[int64][]OpenTest, error) {
	var rows []testRow
	if err := idb.NewSelect().Model(&rows).Column("id", "tag_id", "latitude_key", "longitude_key", "started_at", "ended_at").
		Where("tag_id IN (?) AND (active OR ended_at >= ?)", bun.In(tagIDs), since.UTC()).Scan(ctx); err != nil {
		return nil, fmt.Errorf("open signal tests: %w", err)
	}
	out := make(map[int64][]OpenTest, len(rows))
	for _, r := range rows {
		out[r.TagID] = append(out[r.TagID], OpenTest{ID: r.ID, LatitudeKey: r.LatitudeKey, LongitudeKey: r.LongitudeKey, Start: r.StartedAt, End: r.EndedAt})
	}
	return out, nil
}

// AddPoint adds a point to a test while it is active, and to a completed
// test if the network server received the uplink between its start and
// its end (an uplink that the completion overtook on its way to the
// collector); added is false otherwise, or when the test is gone. One
// statement, so that a completion between a check and the write cannot
// let a later uplink in.
func AddPoint(ctx context.Context, idb bun.IDB, testID int64, p signaltests.Point) (added bool, err error) {
	receptions, err := json.Marshal(p.Receptions)
	if err != nil {
		return false, fmt.Errorf("encode receptions: %w", err)
	}
	// A literal in a SELECT list has no type of its own on PostgreSQL:
	// the casts give it the column's.
	at := "?"
	if db.DialectOf(idb) == db.Postgres {
		at = "CAST(? AS TIMESTAMPTZ)"
	}
	res, err := idb.NewRaw(`INSERT INTO signal_test_points (test_id, rssi, snr, lat, lng, gateway_id, spreading_factor, fcnt, receptions, created_at)
		SELECT id, CAST(? AS DOUBLE PRECISION), CAST(? AS DOUBLE PRECISION), CAST(? AS DOUBLE PRECISION), CAST(? AS DOUBLE PRECISION), ?, ?, ?, ?, `+at+`
		FROM signal_tests WHERE id = ? AND (active OR (started_at <= `+at+` AND ended_at >= `+at+`))`,
		p.RSSI, p.SNR, p.Lat, p.Lng, p.GatewayID, p.SpreadingFactor, p.FCnt, string(receptions), p.CreatedAt.UTC(), testID,
		p.CreatedAt.UTC(), p.CreatedAt.UTC()).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("add point to signal test %d: %w", testID, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}
