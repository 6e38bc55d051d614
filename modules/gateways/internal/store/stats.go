package store

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/modules/gateways"
)

// Window is how far back the uplink counts and the medians reach.
const Window = 24 * time.Hour

// UnknownWindow is how long a gateway heard but not registered stays in
// the list of unknown gateways.
const UnknownWindow = 7 * 24 * time.Hour

// Key names a gateway as one company's uplinks heard it.
type Key struct {
	CompanyID int64
	EUI       string
}

// RingSize is how many of a gateway's latest receptions its medians are
// taken over (the slots of gateway_samples).
const RingSize = 32

// Seen is when an instance first and last heard a gateway since its last
// flush, and how many samples of it the flush writes.
type Seen struct {
	Key
	First, Last time.Time
	Samples     int
}

// Count is the uplinks a gateway heard in one clock hour (Bucket).
type Count struct {
	Key
	Bucket  time.Time
	Uplinks int64
}

// Sample is one reception for the medians, to be written to a slot of the
// gateway's ring. Slot counts the gateway's samples of one batch from 0
// (oldest first); AddBatch places them after the ring's last written slot.
type Sample struct {
	Key
	Slot      int
	At        time.Time
	RSSI, SNR *float64
}

// Batch is what an instance adds to the statistics at one flush.
type Batch struct {
	Seen    []Seen
	Counts  []Count
	Samples []Sample
}

// Empty reports whether the batch holds nothing.
func (b *Batch) Empty() bool { return len(b.Seen) == 0 && len(b.Counts) == 0 && len(b.Samples) == 0 }

// rowsPerStatement bounds a multi-row statement (SQLite allows 32766
// parameters; 6 per row at most).
const rowsPerStatement = 500

// AddBatch adds b to the statistics in one transaction: last seen times
// only move forward and counts add up, so that several instances may add
// theirs. Rows of a company deleted meanwhile are skipped.
func AddBatch(ctx context.Context, bdb *bun.DB, b *Batch) error {
	if err := dropGoneCompanies(ctx, bdb, b); err != nil {
		return err
	}
	return bdb.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		// The ring position each gateway's samples start at: the upsert
		// moves next_slot past them under the row's lock, so that another
		// instance's flush takes the slots after these.
		start := make(map[Key]int, len(b.Seen))
		for part := range slices.Chunk(b.Seen, rowsPerStatement) {
			args := make([]any, 0, len(part)*5)
			for _, s := range part {
				args = append(args, s.CompanyID, s.EUI, s.First.UTC(), s.Last.UTC(), s.Samples%RingSize)
			}
			q := "INSERT INTO gateway_seen (company_id, eui, first_seen, last_seen, next_slot) VALUES " + values(len(part), 5) +
				" ON CONFLICT (company_id, eui) DO UPDATE SET last_seen = CASE WHEN excluded.last_seen > gateway_seen.last_seen " +
				"THEN excluded.last_seen ELSE gateway_seen.last_seen END, " +
				fmt.Sprintf("next_slot = (gateway_seen.next_slot + excluded.next_slot) %% %d", RingSize) +
				" RETURNING company_id, eui, next_slot"
			rows, err := tx.QueryContext(ctx, q, args...)
			if err != nil {
				return fmt.Errorf("add gateways' last seen: %w", err)
			}
			ends := map[Key]int{}
			for rows.Next() {
				var k Key
				var next int
				if err := rows.Scan(&k.CompanyID, &k.EUI, &next); err != nil {
					rows.Close()
					return fmt.Errorf("read gateways' ring slots: %w", err)
				}
				ends[k] = next
			}
			if err := errors.Join(rows.Err(), rows.Close()); err != nil {
				return fmt.Errorf("read gateways' ring slots: %w", err)
			}
			for _, s := range part {
				start[s.Key] = ((ends[s.Key]-s.Samples)%RingSize + RingSize) % RingSize
			}
		}
		for part := range slices.Chunk(b.Counts, rowsPerStatement) {
			args := make([]any, 0, len(part)*4)
			for _, c := range part {
				args = append(args, c.CompanyID, c.EUI, c.Bucket.UTC(), c.Uplinks)
			}
			q := "INSERT INTO gateway_uplinks (company_id, eui, bucket, uplinks) VALUES " + values(len(part), 4) +
				" ON CONFLICT (company_id, eui, bucket) DO UPDATE SET uplinks = gateway_uplinks.uplinks + excluded.uplinks"
			if _, err := tx.ExecContext(ctx, q, args...); err != nil {
				return fmt.Errorf("add gateways' uplink counts: %w", err)
			}
		}
		for part := range slices.Chunk(b.Samples, rowsPerStatement) {
			args := make([]any, 0, len(part)*6)
			for _, s := range part {
				args = append(args, s.CompanyID, s.EUI, (start[s.Key]+s.Slot)%RingSize, s.At.UTC(), s.RSSI, s.SNR)
			}
			q := "INSERT INTO gateway_samples (company_id, eui, slot, at, rssi, snr) VALUES " + values(len(part), 6) +
				" ON CONFLICT (company_id, eui, slot) DO UPDATE SET at = excluded.at, rssi = excluded.rssi, snr = excluded.snr"
			if _, err := tx.ExecContext(ctx, q, args...); err != nil {
				return fmt.Errorf("add gateways' signal samples: %w", err)
			}
		}
		return nil
	})
}

// dropGoneCompanies leaves out of b the rows of companies that no longer
// exist, whose rows the foreign keys would refuse.
func dropGoneCompanies(ctx context.Context, idb bun.IDB, b *Batch) error {
	ids := map[int64]bool{}
	for _, s := range b.Seen {
		ids[s.CompanyID] = false
	}
	if len(ids) == 0 {
		return nil
	}
	var exist []int64
	if err := idb.NewSelect().Table("companies").Column("id").Where("id IN (?)", bun.In(slices.Collect(maps.Keys(ids)))).Scan(ctx, &exist); err != nil {
		return fmt.Errorf("check the companies of gateway statistics: %w", err)
	}
	if len(exist) == len(ids) {
		return nil
	}
	for _, id := range exist {
		ids[id] = true
	}
	b.Seen = slices.DeleteFunc(b.Seen, func(s Seen) bool { return !ids[s.CompanyID] })
	b.Counts = slices.DeleteFunc(b.Counts, func(c Count) bool { return !ids[c.CompanyID] })
	b.Samples = slices.DeleteFunc(b.Samples, func(s Sample) bool { return !ids[s.CompanyID] })
	return nil
}

// values is the VALUES list of rows placeholders of cols columns.
func values(rows, cols int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", cols), ", ") + ")"
	return strings.TrimSuffix(strings.Repeat(row+", ", rows), ", ")
}

// CompanyStats returns the statistics of every gateway the company's
// uplinks named, by EUI, as of now; offlineAfter is the silence after
// which a gateway is offline.
func CompanyStats(ctx context.Context, idb bun.IDB, companyID int64, now time.Time, offlineAfter time.Duration) (map[string]*gateways.Stats, error) {
	out := map[string]*gateways.Stats{}
	var seen []struct {
		EUI      string    `bun:"eui"`
		LastSeen time.Time `bun:"last_seen"`
	}
	if err := idb.NewSelect().Table("gateway_seen").Column("eui", "last_seen").Where("company_id = ?", companyID).Scan(ctx, &seen); err != nil {
		return nil, fmt.Errorf("read gateways' last seen of company %d: %w", companyID, err)
	}
	for _, s := range seen {
		last := s.LastSeen.UTC()
		st := &gateways.Stats{LastSeen: &last, State: gateways.StateOffline}
		if now.Sub(last) < offlineAfter {
			st.State = gateways.StateOnline
		}
		out[s.EUI] = st
	}
	var counts []struct {
		EUI     string `bun:"eui"`
		Uplinks int64  `bun:"uplinks"`
	}
	if err := idb.NewSelect().Table("gateway_uplinks").ColumnExpr("eui, SUM(uplinks) AS uplinks").Where("company_id = ?", companyID).
		Where("bucket >= ?", HourOf(now.Add(-Window))).Group("eui").Scan(ctx, &counts); err != nil {
		return nil, fmt.Errorf("count gateways' uplinks of company %d: %w", companyID, err)
	}
	for _, c := range counts {
		if st := out[c.EUI]; st != nil {
			st.Uplinks24h = c.Uplinks
		}
	}
	var samples []struct {
		EUI  string   `bun:"eui"`
		RSSI *float64 `bun:"rssi"`
		SNR  *float64 `bun:"snr"`
	}
	if err := idb.NewSelect().Table("gateway_samples").Column("eui", "rssi", "snr").Where("company_id = ?", companyID).
		Where("at >= ?", now.Add(-Window).UTC()).Scan(ctx, &samples); err != nil {
		return nil, fmt.Errorf("read gateways' signal samples of company %d: %w", companyID, err)
	}
	rssi, snr := map[string][]float64{}, map[string][]float64{}
	for _, s := range samples {
		if s.RSSI != nil {
			rssi[s.EUI] = append(rssi[s.EUI], *s.RSSI)
		}
		if s.SNR != nil {
			snr[s.EUI] = append(snr[s.EUI], *s.SNR)
		}
	}
	for eui, st := range out {
		st.MedianRSSI = Median(rssi[eui])
		st.MedianSNR = Median(snr[eui])
	}
	return out, nil
}

// HourOf is the clock hour (UTC) that t falls in: the bucket of its count.
func HourOf(t time.Time) time.Time { return t.UTC().Truncate(time.Hour) }

// Median is the median of vs (the mean of the middle two for an even
// count), nil for none. It sorts vs.
func Median(vs []float64) *float64 {
	if len(vs) == 0 {
		return nil
	}
	slices.Sort(vs)
	m := vs[len(vs)/2]
	if len(vs)%2 == 0 {
		m = (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2
	}
	m = math.Round(m*100) / 100 // readings have one decimal at most; the mean of two, two
	return &m
}

// Unknown lists the gateways the company's uplinks named in the last
// UnknownWindow that it has not registered, last heard first.
func Unknown(ctx context.Context, idb bun.IDB, companyID int64, now time.Time) ([]string, error) {
	var euis []string
	err := idb.NewSelect().Table("gateway_seen").Column("eui").Where("company_id = ?", companyID).
		Where("last_seen >= ?", now.Add(-UnknownWindow).UTC()).
		Where("NOT EXISTS (SELECT 1 FROM gateways g WHERE g.company_id = gateway_seen.company_id AND g.mac_address = gateway_seen.eui)").
		OrderExpr("last_seen DESC, eui").Scan(ctx, &euis)
	if err != nil {
		return nil, fmt.Errorf("list unknown gateways of company %d: %w", companyID, err)
	}
	return euis, nil
}

// Prune deletes the statistics no list shows any more: uplink hours and
// samples older than the window, and last-seen rows of gateways nobody
// registered that were not heard within UnknownWindow.
func Prune(ctx context.Context, idb bun.IDB, now time.Time) error {
	if _, err := idb.NewDelete().Table("gateway_uplinks").Where("bucket < ?", HourOf(now.Add(-Window))).Exec(ctx); err != nil {
		return fmt.Errorf("prune gateways' uplink counts: %w", err)
	}
	if _, err := idb.NewDelete().Table("gateway_samples").Where("at < ?", now.Add(-Window).UTC()).Exec(ctx); err != nil {
		return fmt.Errorf("prune gateways' signal samples: %w", err)
	}
	if _, err := idb.NewDelete().Table("gateway_seen").Where("last_seen < ?", now.Add(-UnknownWindow).UTC()).
		Where("NOT EXISTS (SELECT 1 FROM gateways g WHERE g.company_id = gateway_seen.company_id AND g.mac_address = gateway_seen.eui)").
		Exec(ctx); err != nil {
		return fmt.Errorf("prune unknown gateways: %w", err)
	}
	return nil
}
