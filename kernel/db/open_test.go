package db_test

import (
	"context"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestPostgresQueriesLeaveNoPreparedStatements: Bun writes values into
// the query's text, so a driver that prepared each new text would prepare
// (and later deallocate) a statement per query; the connection must keep
// none.
func TestPostgresQueriesLeaveNoPreparedStatements(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	bdb, err := db.Open(ctx, kerneltest.DatabaseURL(t, db.Postgres))
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	conn, err := bdb.Conn(ctx) // one session: pg_prepared_statements is per session
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for i := range 20 {
		var got int
		if err := conn.NewRaw("SELECT ?::int + 1", i).Scan(ctx, &got); err != nil || got != i+1 {
			t.Fatalf("query %d: %v %d", i, err, got)
		}
		if _, err := conn.Conn.ExecContext(ctx, "SELECT $1::bigint", int64(i)); err != nil { // past Bun, as the batch statements are
			t.Fatalf("query with a parameter: %v", err)
		}
	}
	var prepared int
	if err := conn.NewRaw("SELECT count(*) FROM pg_prepared_statements").Scan(ctx, &prepared); err != nil {
		t.Fatal(err)
	}
	if prepared != 0 {
		t.Errorf("the session keeps %d prepared statements", prepared)
	}
}
