package engine_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/modules/scripts/internal/engine"
)

type noReads struct{}

func (noReads) Latest(context.Context, int64, int64, string) ([]any, error) { return nil, nil }
func (noReads) Range(context.Context, int64, int64, string, time.Time, time.Time, int) ([][]any, error) {
	return nil, nil
}

// BenchmarkTriggeredRun is one run of the dew point script of
// bench/scripts on an uplink: the sandbox's share of a triggered run.
func BenchmarkTriggeredRun(b *testing.B) {
	e := engine.New(noReads{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	e.Start(context.Background())
	defer e.Stop()
	content := `var t = trigger.values.temperature, h = trigger.values.humidity;
var g = Math.log(h / 100) + 17.62 * t / (243.12 + t);
write(trigger.tagId, {dew_point: Math.round(243.12 * g / (17.62 - g) * 100) / 100}, trigger.time);`
	trig := &engine.Trigger{TagID: 7, DevEUI: "0011223344556677", Name: "n", Time: time.Now(), Values: map[string]any{"temperature": 21.5, "humidity": 48.0}}
	for b.Loop() {
		res, err := e.Run(context.Background(), engine.Request{Company: 1, Content: content, Trigger: trig})
		if err != nil || res.Failed() || len(res.Actions) != 1 {
			b.Fatalf("run: %v %+v", err, res)
		}
	}
}
