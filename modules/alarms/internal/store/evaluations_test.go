package store_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/store"
)

// TestSaveEvaluationsOnlyOverTheStateRead checks the unlocked write of a
// batch's evaluations: it writes a rule whose state is still the version
// read and whose last evaluation is not newer, and answers the others, on
// both databases (PostgreSQL types the times of the VALUES list by a cast).
func TestSaveEvaluationsOnlyOverTheStateRead(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		p := kerneltest.Start(t, d, nil, app.Build)
		dev := kerneltest.NewDevices(t, p.Client, p.App, p.App.Series())
		rule := map[string]any{"name": "R", "tag": dev.ID(t, "{acmeNode}"), "tagDataKey": "temperature", "limitHigh": 10.0,
			"alarmContacts": []string{"ops@acme.se"}}
		var ids []int64
		for range 3 {
			ids = append(ids, dev.Must(t, "acmeAdmin", "POST", "/api/companies/{acme}/alarm", rule, http.StatusCreated).Num("id"))
		}
		ctx, idb := context.Background(), p.Host().DB
		t0 := time.Now().UTC().Truncate(time.Millisecond)
		// The third rule's state moves (an edit through the API) after the
		// batch read it.
		if err := store.SetActive(ctx, idb, ids[2], true, t0); err != nil {
			t.Fatal(err)
		}
		missed, err := store.SaveEvaluations(ctx, idb, []store.Evaluation{
			{ID: ids[0], Version: 0, At: t0, Value: 1.5},
			{ID: ids[1], Version: 0, At: t0, Value: 2},
			{ID: ids[2], Version: 0, At: t0, Value: 3},
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(missed, []int64{ids[2]}) {
			t.Errorf("missed %v, want only the rule whose state moved, %d", missed, ids[2])
		}
		// An older value than the one evaluated is not written.
		missed, err = store.SaveEvaluations(ctx, idb, []store.Evaluation{{ID: ids[0], Version: 0, At: t0.Add(-time.Second), Value: 9}})
		if err != nil || !slices.Equal(missed, []int64{ids[0]}) {
			t.Errorf("an older value: missed %v, err %v", missed, err)
		}
		a, err := store.Get(ctx, idb, ids[0])
		if err != nil {
			t.Fatal(err)
		}
		if a.LastValue == nil || *a.LastValue != 1.5 || a.EvaluatedAt == nil || !a.EvaluatedAt.Equal(t0) {
			t.Errorf("rule %d: last value %v at %v, want 1.5 at %s", ids[0], a.LastValue, a.EvaluatedAt, t0)
		}
	})
}
