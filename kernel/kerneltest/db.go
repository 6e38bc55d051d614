// Package kerneltest builds real kernels for tests: on a fresh SQLite file and
// on a fresh PostgreSQL database cloned from a migrated template, so that
// every store and API test runs the same cases on both.
package kerneltest

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/migrations"
)

// PostgresEnv names the variable with the server tests use; its default is
// the local server of the development and CI machines.
const PostgresEnv = "FIELDHUB_TEST_POSTGRES"

const defaultPostgres = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// Dialects are the databases every store test runs on.
var Dialects = []db.Dialect{db.SQLite, db.Postgres}

// ForEachDialect runs f as a subtest per dialect.
func ForEachDialect(t *testing.T, f func(t *testing.T, d db.Dialect)) {
	t.Helper()
	for _, d := range Dialects {
		t.Run(string(d), func(t *testing.T) { f(t, d) })
	}
}

// DatabaseURL returns the address of a fresh, migrated, empty database of
// dialect d that is dropped when the test ends.
func DatabaseURL(tb testing.TB, d db.Dialect) string {
	tb.Helper()
	if d == db.SQLite {
		return filepath.Join(tb.TempDir(), "fieldhub.db")
	}
	return freshPostgres(tb)
}

func adminURL() string {
	if u := os.Getenv(PostgresEnv); u != "" {
		return u
	}
	return defaultPostgres
}

var (
	templateOnce sync.Once
	templateName string
	templateErr  error
)

// freshPostgres clones a template database that holds every migration; the
// template's name carries the migrations' fingerprint, so a changed migration
// makes a new one. Cloning takes tens of milliseconds, migrating from scratch
// far longer.
func freshPostgres(tb testing.TB) string {
	ctx := context.Background()
	admin, err := sql.Open("pgx", adminURL())
	if err != nil {
		tb.Fatalf("open postgres: %v", err)
	}
	defer admin.Close()
	if err := admin.PingContext(ctx); err != nil {
		tb.Fatalf("PostgreSQL is required for the tests and is not reachable at %s (set %s): %v", adminURL(), PostgresEnv, err)
	}
	templateOnce.Do(func() { templateName, templateErr = ensureTemplate(ctx, admin) })
	if templateErr != nil {
		tb.Fatalf("prepare template database: %v", templateErr)
	}
	name := fmt.Sprintf("fieldhub_test_%d_%s", os.Getpid(), strings.ToLower(randomSuffix()))
	if _, err := admin.ExecContext(ctx, fmt.Sprintf(`CREATE DATABASE %q TEMPLATE %q`, name, templateName)); err != nil {
		tb.Fatalf("create test database: %v", err)
	}
	tb.Cleanup(func() {
		c, err := sql.Open("pgx", adminURL())
		if err != nil {
			return
		}
		defer c.Close()
		_, _ = c.ExecContext(context.Background(), fmt.Sprintf(`DROP DATABASE IF EXISTS %q WITH (FORCE)`, name))
	})
	return withDatabase(adminURL(), name)
}

func ensureTemplate(ctx context.Context, admin *sql.DB) (string, error) {
	ms, err := db.Collect(migrations.FS, migrations.Order, db.Postgres)
	if err != nil {
		return "", err
	}
	name := "fieldhub_tpl_" + db.Fingerprint(ms)
	// Test packages run in parallel processes: one builds the template while
	// the others wait on the lock.
	conn, err := admin.Conn(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(7236412)"); err != nil {
		return "", err
	}
	defer conn.ExecContext(context.Background(), "SELECT pg_advisory_unlock(7236412)")
	var exists bool
	if err := conn.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", err
	}
	if exists {
		return name, nil
	}
	building := name + "_building"
	_, _ = conn.ExecContext(ctx, fmt.Sprintf(`DROP DATABASE IF EXISTS %q WITH (FORCE)`, building))
	if _, err := conn.ExecContext(ctx, fmt.Sprintf(`CREATE DATABASE %q`, building)); err != nil {
		return "", err
	}
	bdb, err := db.Open(ctx, withDatabase(adminURL(), building))
	if err != nil {
		return "", err
	}
	_, err = db.Migrate(ctx, bdb, migrations.FS, migrations.Order)
	bdb.Close()
	if err != nil {
		return "", err
	}
	// Templates of other migration sets are left alone: a test run from
	// another working tree may be cloning one right now. `just clean-test-dbs`
	// removes them.
	if _, err := conn.ExecContext(ctx, fmt.Sprintf(`ALTER DATABASE %q RENAME TO %q`, building, name)); err != nil {
		return "", err
	}
	return name, nil
}

func withDatabase(base, name string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	u.Path = "/" + name
	return u.String()
}
