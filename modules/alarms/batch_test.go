package alarms_test

import (
	"context"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

// TestBatchOfUplinks checks the evaluation of uplinks that queue together
// (the engine takes them as one batch): a burst on the bus with a rule's
// value normal, then above its limit past its delay, then normal again,
// fires the rule once, clears the firing at the first normal value, and
// leaves both rules of the node with the last time and value; a rule whose
// values never move its state is written without its lock.
func TestBatchOfUplinks(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		hot := e.create(t, rule("Hot", nil)) // temperature above 10 for 2 minutes
		wet := e.create(t, rule("Wet", map[string]any{"tagDataKey": "humidity", "limitHigh": 99.0}))
		bus, tag := e.p.Host().Bus, e.ID(t, "{acmeNode}")
		t0 := recent(1)
		at := func(i int) time.Time { return t0.Add(time.Duration(i) * 30 * time.Second) }
		// 0-99 normal, 100-119 above (fires at 104, 2 minutes after 100),
		// 120-299 normal: the first normal value, 120, clears the firing.
		const n = 300
		for i := range n {
			temp := 5.0
			if i >= 100 && i < 120 {
				temp = 20.0
			}
			bus.Publish(context.Background(), ingest.UplinkReceived{CompanyID: e.ID(t, "{acme}"), TagID: tag, DevEUI: e.eui["acmeNode"],
				Name: "Node acme", Time: at(i), Data: map[string]any{"temperature": temp, "humidity": float64(i % 50)}})
		}
		e.evaluated(t, hot, at(n-1))
		e.evaluated(t, wet, at(n-1))
		h := e.history(t, hot, 1)
		if len(h) != 1 || h[0]["value"] != 20.0 {
			t.Fatalf("history %v, want one firing at 20", h)
		}
		if got := parseTime(t, h[0]["triggered"]); !got.Equal(at(104)) {
			t.Errorf("fired at %s, want %s (two minutes above the limit)", got, at(104))
		}
		if got := parseTime(t, h[0]["cleared"]); !got.Equal(at(120)) {
			t.Errorf("cleared at %s, want %s (the first normal value)", got, at(120))
		}
		var last []float64
		if err := e.p.Host().DB.NewSelect().Table("alarms").Column("last_value").Where("id IN (?, ?)", hot, wet).OrderExpr("id").
			Scan(context.Background(), &last); err != nil {
			t.Fatal(err)
		}
		if len(last) != 2 || last[0] != 5 || last[1] != float64((n-1)%50) {
			t.Errorf("last values %v, want [5 %d]", last, (n-1)%50)
		}
		if n := e.count(t, "alarm_events", "alarm_id = ?", wet); n != 0 {
			t.Errorf("the humidity rule fired %d times", n)
		}
	})
}

func parseTime(t *testing.T, v any) time.Time {
	t.Helper()
	s, _ := v.(string)
	got, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("time %v: %v", v, err)
	}
	return got
}
