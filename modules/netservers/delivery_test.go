package netservers_test

import (
	"context"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// TestDownlinkDelivery covers what the downlink worker asks of the nodes
// module and of the queue: the applications of a ChirpStack application
// id, the DownlinkCreated nudge, and the attempts it records.
func TestDownlinkDelivery(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const csID = "5c1e0f3a-8d6b-4c1f-9a2e-0b7d3e4f5a6b"
	queued := func(t *testing.T, e *queueEnv) map[int64]netservers.Downlink {
		t.Helper()
		list, err := e.queue.Queued(ctx, 100)
		if err != nil {
			t.Fatal(err)
		}
		out := map[int64]netservers.Downlink{}
		for _, d := range list {
			out[d.ID] = d
		}
		return out
	}
	steps := append(tagSteps[:len(tagSteps):len(tagSteps)], []step{
		{Name: "Acme names a ChirpStack application", As: "acmeAdmin", Method: "POST", Path: "/api/applications/{acme}",
			Body: `{"name":"Barn","networkServer":"chirpstack","chirpstackApplicationId":"` + csID + `"}`, Status: 201, Save: map[string]string{"{cs}": "id"}},
		{Name: "so does Beta, later", As: "betaAdmin", Method: "POST", Path: "/api/applications/{beta}",
			Body: `{"name":"Copy","networkServer":"chirpstack","chirpstackApplicationId":"5C1E0F3A-8D6B-4C1F-9A2E-0B7D3E4F5A6B"}`, Status: 201,
			Save: map[string]string{"{betaCs}": "id"},
			Then: func(t *testing.T, e *queueEnv, _ any) {
				cases := []struct {
					name, id string
					want     []int64
				}{
					{"lower case", csID, []int64{e.ID(t, "{cs}"), e.ID(t, "{betaCs}")}},
					{"upper case, padded", " 5C1E0F3A-8D6B-4C1F-9A2E-0B7D3E4F5A6B ", []int64{e.ID(t, "{cs}"), e.ID(t, "{betaCs}")}},
					{"unknown", "00000000-0000-4000-8000-000000000000", nil},
					{"empty", "", nil},
				}
				for _, tc := range cases {
					t.Run(tc.name, func(t *testing.T) {
						list, err := e.nodes.ApplicationsByChirpStackID(ctx, tc.id)
						if err != nil || len(list) != len(tc.want) {
							t.Fatalf("%+v, %v; want ids %v", list, err, tc.want)
						}
						for i, a := range list {
							if a.ID != tc.want[i] || a.ChirpStackApplicationID != csID || a.NetworkServer != nodes.NetworkChirpStack {
								t.Errorf("item %d: %+v", i, a)
							}
						}
						if len(list) == 2 && (list[0].CompanyID != e.ID(t, "{acme}") || list[1].CompanyID != e.ID(t, "{beta}")) {
							t.Errorf("companies %d, %d", list[0].CompanyID, list[1].CompanyID)
						}
					})
				}
			}},
		{Name: "queue one", As: "acmeAdmin", Method: "POST", Path: "/api/downlink/{tag}", Body: `{"port":10,"payload":"01","payloadType":"hex"}`,
			Status: 201, Want: map[string]any{"attempts": 0.0, "retryAt": nil}, Save: map[string]string{"{dl}": "id"},
			Then: func(t *testing.T, e *queueEnv, _ any) {
				id := e.ID(t, "{dl}")
				kerneltest.WaitFor(t, 10*time.Second, func() bool {
					for _, ev := range e.events.Events() {
						if c, ok := ev.(netservers.DownlinkCreated); ok && c.DownlinkID == id {
							return c.TagID == e.ID(t, "{tag}") && c.CompanyID == e.ID(t, "{acme}") && c.ApplicationID == e.ID(t, "{app}")
						}
					}
					return false
				}, func() string { return "no DownlinkCreated" })
				if _, ok := queued(t, e)[id]; !ok {
					t.Fatal("a new downlink is not due")
				}
				for _, tc := range []struct {
					servers []string
					want    bool
				}{{[]string{nodes.NetworkChirpStack, nodes.NetworkTTS}, false}, {[]string{nodes.NetworkGeneric}, true}} {
					list, err := e.queue.Queued(ctx, 10, tc.servers...)
					if err != nil || (len(list) == 1 && list[0].ID == id) != tc.want {
						t.Errorf("Queued for %v: %+v, %v", tc.servers, list, err)
					}
				}
			}},
		{Name: "a failed try waits for its retry", As: "acmeUser", Method: "GET", Path: "/api/downlink/tag/{tag}", Status: 200, List: true, Items: 1,
			Before: func(t *testing.T, e *queueEnv) {
				err := e.queue.RecordDownlinkAttempt(ctx, e.ID(t, "{dl}"), netservers.DownlinkAttempt{Status: netservers.DownlinkQueued,
					Detail: "broker unreachable", RetryAt: time.Now().Add(time.Hour)})
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := queued(t, e)[e.ID(t, "{dl}")]; ok {
					t.Error("due before its retry time")
				}
			},
			Then: func(t *testing.T, e *queueEnv, got any) {
				d := got.([]any)[0].(map[string]any)
				if d["status"] != "queued" || d["attempts"] != 1.0 || d["detail"] != "broker unreachable" || d["retryAt"] == nil {
					t.Errorf("downlink %v", d)
				}
			}},
		{Name: "due again, then sent", As: "acmeUser", Method: "GET", Path: "/api/downlink/tag/{tag}", Status: 200, List: true, Items: 1,
			Before: func(t *testing.T, e *queueEnv) {
				id := e.ID(t, "{dl}")
				err := e.queue.RecordDownlinkAttempt(ctx, id, netservers.DownlinkAttempt{Status: netservers.DownlinkQueued, Detail: "timeout", RetryAt: time.Now().Add(-time.Second)})
				if err != nil {
					t.Fatal(err)
				}
				if d, ok := queued(t, e)[id]; !ok || d.Attempts != 2 || d.Detail != "timeout" {
					t.Errorf("due: %+v, %v", d, ok)
				}
				if err := e.queue.RecordDownlinkAttempt(ctx, id, netservers.DownlinkAttempt{Status: netservers.DownlinkSent}); err != nil {
					t.Fatal(err)
				}
			},
			Then: func(t *testing.T, e *queueEnv, got any) {
				d := got.([]any)[0].(map[string]any)
				if d["status"] != "sent" || d["attempts"] != 3.0 || d["detail"] != "" || d["retryAt"] != nil {
					t.Errorf("downlink %v", d)
				}
			}},
		{Name: "a later try does not undo a report", As: "acmeUser", Method: "GET", Path: "/api/downlink/tag/{tag}", Status: 200, List: true, Items: 1,
			Before: func(t *testing.T, e *queueEnv) {
				id := e.ID(t, "{dl}")
				if err := e.queue.SetDownlinkStatus(ctx, id, netservers.DownlinkAcknowledged, ""); err != nil {
					t.Fatal(err)
				}
				if err := e.queue.RecordDownlinkAttempt(ctx, id, netservers.DownlinkAttempt{Status: netservers.DownlinkFailed, Detail: "late"}); err != nil {
					t.Fatal(err)
				}
				if err := e.queue.RecordDownlinkAttempt(ctx, id, netservers.DownlinkAttempt{Status: netservers.DownlinkAcknowledged}); errs.KindOf(err) != errs.Invalid {
					t.Errorf("the worker may not acknowledge: %v", err)
				}
				if err := e.queue.RecordDownlinkAttempt(ctx, 999999, netservers.DownlinkAttempt{Status: netservers.DownlinkSent}); errs.KindOf(err) != errs.NotFound {
					t.Errorf("unknown downlink: %v", err)
				}
			},
			Want: nil,
			Then: func(t *testing.T, e *queueEnv, got any) {
				d := got.([]any)[0].(map[string]any)
				if d["status"] != "acknowledged" || d["attempts"] != 4.0 || d["detail"] != "" {
					t.Errorf("downlink %v", d)
				}
			}},
		{Name: "queued again starts over", As: "acmeUser", Method: "GET", Path: "/api/downlink/tag/{tag}", Status: 200, List: true, Items: 1,
			Before: func(t *testing.T, e *queueEnv) {
				id := e.ID(t, "{dl}")
				if err := e.queue.SetDownlinkStatus(ctx, id, netservers.DownlinkQueued, ""); err != nil {
					t.Fatal(err)
				}
				if d, ok := queued(t, e)[id]; !ok || d.Attempts != 0 || d.RetryAt != nil {
					t.Errorf("requeued: %+v, %v", d, ok)
				}
			}},
	}...)
	run(t, steps)
}
