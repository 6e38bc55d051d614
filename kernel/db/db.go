// Package db opens the SQL database (SQLite by default, PostgreSQL for
// production) behind Bun, applies the embedded migrations, and translates the
// drivers' error codes in one place.
package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/driver/sqliteshim"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Dialect names the SQL flavour behind a DB.
type Dialect string

// The supported dialects.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// DialectOf reports which dialect db speaks.
func DialectOf(db bun.IDB) Dialect {
	if db.Dialect().Name().String() == "pg" {
		return Postgres
	}
	return SQLite
}

// Open connects to a postgres:// URL or opens (creating) a SQLite file.
func Open(ctx context.Context, url string) (*bun.DB, error) {
	if strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://") {
		return openPostgres(ctx, url)
	}
	return openSQLite(ctx, url)
}

func openPostgres(ctx context.Context, url string) (*bun.DB, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	// Bun writes each query's values into its text, so nearly every query
	// is new to the driver: pgx's default, which prepares and caches each
	// new text, prepared every one and then deallocated it to make room
	// (a tenth of the server's CPU with triggered scripts, and as many
	// extra round trips). The extended protocol without a cache sends a
	// query in one round trip. A URL that names a mode keeps it.
	if !strings.Contains(url, "default_query_exec_mode") {
		cfg.DefaultQueryExecMode = pgx.QueryExecModeExec
	}
	sqldb := stdlib.OpenDB(*cfg)
	sqldb.SetMaxOpenConns(32)
	sqldb.SetMaxIdleConns(32)
	if err := sqldb.PingContext(ctx); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("connect to postgres: %w", err)
	}
	return bun.NewDB(sqldb, pgdialect.New()), nil
}

func openSQLite(ctx context.Context, path string) (*bun.DB, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("create database folder: %w", err)
		}
	}
	// WAL lets readers run beside the one writer; busy_timeout makes a second
	// writer wait instead of failing; foreign keys are off by default in SQLite.
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	sqldb, err := sql.Open(sqliteshim.ShimName, dsn)
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	sqldb.SetMaxOpenConns(8)
	sqldb.SetMaxIdleConns(8)
	if err := sqldb.PingContext(ctx); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	return bun.NewDB(sqldb, sqlitedialect.New()), nil
}

// IsUniqueViolation reports whether err is a unique-constraint violation, in
// either dialect.
func IsUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "23505"
	}
	var sqliteErr *sqlite.Error
	if errors.As(err, &sqliteErr) {
		return sqliteErr.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || sqliteErr.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// IsDeadlock reports whether PostgreSQL ended err's transaction to break a
// deadlock (SQLSTATE 40P01): doing it again may succeed.
func IsDeadlock(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "40P01"
}

// IsLockTimeout reports whether a PostgreSQL statement gave up waiting for
// a lock after lock_timeout (SQLSTATE 55P03).
func IsLockTimeout(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "55P03"
}

// IsNoRows reports whether err means a query found nothing.
func IsNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
