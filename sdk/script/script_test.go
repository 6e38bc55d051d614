package script_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/sdk/script"
)

// TestCallPasses: a read not answered stops the pass with what it needs;
// with the answer the run ends with its result and actions; the per-run
// limits and a refused read stop it with their messages.
func TestCallPasses(t *testing.T) {
	at := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	fn := func(h *script.Host) (any, error) {
		p, ok := h.Latest(3, "temperature")
		if !ok {
			return nil, errors.New("no temperature")
		}
		h.Write(3, map[string]any{"double": p.Value.(float64) * 2}, at)
		return p.Value, nil
	}
	ctx := func(reads map[string]any) string {
		b, _ := json.Marshal(map[string]any{"reads": reads, "answered": len(reads), "maxReads": 50, "maxWrites": 1, "maxSends": 1})
		return string(b)
	}
	out, err := script.Call(fn, ctx(nil))
	if err != nil || strings.Join(toStrings(out.Data["needs"]), ",") != `["latest",3,"temperature"]` {
		t.Fatalf("first pass: %v, %v", out.Data, err)
	}
	out, err = script.Call(fn, ctx(map[string]any{`["latest",3,"temperature"]`: []any{1, 21.5}}))
	if err != nil || out.Data["result"] != 21.5 {
		t.Fatalf("second pass: %v, %v", out.Data, err)
	}
	actions, _ := json.Marshal(out.Data["actions"])
	if string(actions) != `[{"kind":"write","tagId":3,"time":"2026-11-27T12:00:00.000Z","values":{"double":43}}]` {
		t.Errorf("actions: %s", actions)
	}
	flood := func(h *script.Host) (any, error) {
		for {
			h.Log("x")
		}
	}
	if _, err := script.Call(flood, ctx(nil)); err == nil || !strings.Contains(err.Error(), "too many writes") {
		t.Errorf("flood: %v", err)
	}
	refused := map[string]any{`["latest",3,"temperature"]`: map[string]any{"$error": "node 3 is not found"}}
	if _, err := script.Call(fn, ctx(refused)); err == nil || err.Error() != "node 3 is not found" {
		t.Errorf("refused read: %v", err)
	}
}

func toStrings(x any) []string {
	list, _ := x.([]string)
	return list
}
