// Package store holds the notifications module's queries on its table,
// notifications. Each function takes the bun.IDB to run on.
package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/modules/notifications"
)

// Insert stores rows in one statement.
func Insert(ctx context.Context, db bun.IDB, rows []notifications.Notification) error {
	if len(rows) == 0 {
		return nil
	}
	if _, err := db.NewInsert().Model(&rows).Exec(ctx); err != nil {
		return fmt.Errorf("insert %d notifications: %w", len(rows), err)
	}
	return nil
}

// List returns the user's notifications, newest first: the unread ones, or
// with all every one, at most limit.
func List(ctx context.Context, db bun.IDB, userID int64, all bool, limit int) ([]notifications.Notification, error) {
	out := []notifications.Notification{}
	q := db.NewSelect().Model(&out).Where("n.user_id = ?", userID)
	if !all {
		q = q.Where("n.read = ?", false)
	}
	if err := q.OrderExpr("n.created_at DESC, n.id DESC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("list notifications of user %d: %w", userID, err)
	}
	return out, nil
}

// CountUnread counts the user's unread notifications.
func CountUnread(ctx context.Context, db bun.IDB, userID int64) (int, error) {
	n, err := db.NewSelect().Model((*notifications.Notification)(nil)).
		Where("n.user_id = ? AND n.read = ?", userID, false).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("count unread notifications of user %d: %w", userID, err)
	}
	return int(n), nil
}

// MarkRead marks the user's notification id read and reports whether the
// user has it (read already or not).
func MarkRead(ctx context.Context, db bun.IDB, userID, id int64) (bool, error) {
	res, err := db.NewUpdate().Model((*notifications.Notification)(nil)).
		Set("read = ?", true).Where("id = ? AND user_id = ?", id, userID).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("mark notification %d read: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("mark notification %d read: %w", id, err)
	}
	return n > 0, nil
}

// MarkAllRead marks every unread notification of the user read and returns
// how many it marked.
func MarkAllRead(ctx context.Context, db bun.IDB, userID int64) (int64, error) {
	res, err := db.NewUpdate().Model((*notifications.Notification)(nil)).
		Set("read = ?", true).Where("user_id = ? AND read = ?", userID, false).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("mark notifications of user %d read: %w", userID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("mark notifications of user %d read: %w", userID, err)
	}
	return n, nil
}

// Unannounced returns the ids of up to limit committed rows the dispatcher
// has not announced, oldest first. It only reads, so that an idle poll takes
// no write lock (SQLite has one writer).
func Unannounced(ctx context.Context, db bun.IDB, limit int) ([]int64, error) {
	var ids []int64
	err := db.NewSelect().Model((*notifications.Notification)(nil)).Column("id").
		Where("announced = ?", false).Order("id").Limit(int64(limit)).Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("find unannounced notifications: %w", err)
	}
	return ids, nil
}

// Announce marks the rows ids announced and returns the users of those it
// marked. A row another instance marked meanwhile is not returned, so each
// is announced once.
func Announce(ctx context.Context, db bun.IDB, ids []int64) ([]int64, error) {
	var users []int64
	err := db.NewRaw("UPDATE notifications SET announced = ? WHERE announced = ? AND id IN (?) RETURNING user_id",
		true, false, bun.In(ids)).Scan(ctx, &users)
	if err != nil {
		return nil, fmt.Errorf("mark %d notifications announced: %w", len(ids), err)
	}
	return users, nil
}

// PruneRead deletes the read notifications created before cut and returns
// how many it deleted.
func PruneRead(ctx context.Context, db bun.IDB, cut time.Time) (int64, error) {
	res, err := db.NewDelete().Model((*notifications.Notification)(nil)).
		Where("read = ? AND created_at < ?", true, cut).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("delete old read notifications: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("delete old read notifications: %w", err)
	}
	return n, nil
}
