package sqlts

import (
	"context"
	"database/sql"
	"fmt"
	"math"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// CopyNode copies the series of a node to another company; see
// tsdb.Store.
//
// The points are read a batch at a time in time order and written through
// Write under the target company, so that the target's hourly summaries
// (and, on PostgreSQL, the sealing watermarks) are kept as for any other
// write. Series rows are never re-keyed to the other company: every
// instance keeps their ids in its series cache.
func (s *Store) CopyNode(ctx context.Context, from, to int64, devEUI string) (int64, error) {
	if err := tsdb.ValidateCopy(from, to, devEUI); err != nil {
		return 0, err
	}
	type source struct {
		id  int64
		key string
	}
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT id, tag_key FROM tsdb_series WHERE company_id = ? AND deveui = ? ORDER BY id`), from, devEUI)
	if err != nil {
		return 0, fmt.Errorf("copy node %s: %w", devEUI, err)
	}
	var sources []source
	for rows.Next() {
		var src source
		if err := rows.Scan(&src.id, &src.key); err != nil {
			rows.Close()
			return 0, fmt.Errorf("copy node %s: %w", devEUI, err)
		}
		sources = append(sources, src)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("copy node %s: %w", devEUI, err)
	}
	var copied int64
	for _, src := range sources {
		target := tsdb.Series{Company: to, DevEUI: devEUI, Key: src.key}
		after := int64(math.MinInt64)
		for {
			pts, last, err := s.pointsAfter(ctx, src.id, target, after)
			if err != nil {
				return copied, fmt.Errorf("copy node %s: %w", devEUI, err)
			}
			if len(pts) == 0 {
				break
			}
			if err := s.Write(ctx, pts); err != nil {
				return copied, fmt.Errorf("copy node %s: %w", devEUI, err)
			}
			copied += int64(len(pts))
			if len(pts) < s.copyBatch {
				break
			}
			after = last
		}
	}
	return copied, nil
}

// pointsAfter reads up to a copy batch of the points of series id after
// the time after (Unix microseconds), oldest first, as points of target,
// and the time of the last one.
func (s *Store) pointsAfter(ctx context.Context, id int64, target tsdb.Series, after int64) ([]tsdb.Point, int64, error) {
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT ts, value, text_value FROM tsdb_points
		WHERE series_id = ? AND ts > ? ORDER BY ts LIMIT ?`), id, after, s.copyBatch)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var pts []tsdb.Point
	var ts int64
	for rows.Next() {
		var v sql.NullFloat64
		var text sql.NullString
		if err := rows.Scan(&ts, &v, &text); err != nil {
			return nil, 0, err
		}
		pts = append(pts, point(target, ts, v, text))
	}
	return pts, ts, rows.Err()
}
