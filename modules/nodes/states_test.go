package nodes_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// TestConcurrentStatesOfSharedTags: batches of states that share tags, in
// any order, written at the same time (as the ingest's committers and other
// instances do), all succeed, and each tag ends with its latest state.
func TestConcurrentStatesOfSharedTags(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		ctx := context.Background()
		e := newEnv(t, d)
		var app struct {
			ID int64 `json:"id"`
		}
		e.MustDo(t, "acmeAdmin", "POST", "/api/applications/{acme}", `{"name":"Shared"}`, 201, &app)
		const tags, writers, rounds = 8, 6, 15
		ids := make([]int64, tags)
		for i := range ids {
			var tag struct {
				ID int64 `json:"id"`
			}
			e.MustDo(t, "acmeAdmin", "POST", fmt.Sprintf("/api/applications/%d/tag", app.ID),
				fmt.Sprintf(`{"name":"T%d","deveui":"00000000000000%02X"}`, i, i), 201, &tag)
			ids[i] = tag.ID
		}
		base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		latest := base.Add(time.Duration(writers*rounds) * time.Minute)
		var wg sync.WaitGroup
		errs := make(chan error, writers)
		for w := range writers {
			wg.Go(func() {
				for r := range rounds {
					at := base.Add(time.Duration(w*rounds+r) * time.Minute)
					if w == writers-1 && r == rounds-1 {
						at = latest
					}
					var states []nodes.TagState
					for _, i := range rand.Perm(tags) {
						battery := float64(w*rounds + r)
						states = append(states, nodes.TagState{TagID: ids[i],
							State: nodes.State{Time: &at, Data: map[string]any{"n": battery}, Battery: &battery}})
					}
					if err := e.nodes.UpdateStates(ctx, states); err != nil {
						errs <- err
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		for _, id := range ids {
			tag, err := e.nodes.Tag(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if tag.LatestTime == nil || !tag.LatestTime.Equal(latest) || tag.Data["n"] != float64(writers*rounds-1) {
				t.Errorf("tag %d ends at %v with %v, want %v", id, tag.LatestTime, tag.Data, latest)
			}
		}
	})
}
