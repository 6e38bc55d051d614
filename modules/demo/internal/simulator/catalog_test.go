package simulator

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/demo"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// TestCatalogModels runs every node's model over two simulated days: its
// uplinks carry exactly the keys the catalog names, as finite numbers the
// ingest accepts, and they vary.
func TestCatalogModels(t *testing.T) {
	seen := map[string]bool{}
	start := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC) // a Monday
	for i, n := range demo.Nodes() {
		if seen[n.DevEUI] || !tsdb.ValidDevEUI(strings.ToLower(n.DevEUI)) {
			t.Errorf("%s: DevEUI %q is not unique or not valid", n.Name, n.DevEUI)
		}
		seen[n.DevEUI] = true
		if models[n.DevEUI] == nil {
			t.Fatalf("%s: no model makes its uplinks", n.Name)
		}
		s := newSimNode(n, int64(i+1), int64(i+1), start)
		distinct := map[string]map[float64]bool{}
		for now := start.Add(n.Every); now.Before(start.Add(48 * time.Hour)); now = now.Add(n.Every) {
			body := s.uplink(now)
			values, err := ingest.Flatten(body["values"].(map[string]any))
			if err != nil {
				t.Fatalf("%s: %v", n.Name, err)
			}
			var keys []string
			for k, v := range values {
				keys = append(keys, k)
				f, ok := v.(float64)
				if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
					t.Fatalf("%s: %s = %v", n.Name, k, v)
				}
				if distinct[k] == nil {
					distinct[k] = map[float64]bool{}
				}
				distinct[k][f] = true
			}
			slices.Sort(keys)
			want := slices.Sorted(slices.Values(append(slices.Clone(n.Keys), "batteryVoltage")))
			if !slices.Equal(keys, want) {
				t.Fatalf("%s: keys %v, want %v", n.Name, keys, want)
			}
			// The node's battery as the portal reads it: volts always, a
			// percent only where the device reports one.
			percent, volts := nodes.BatteryOf(values)
			if volts == nil || *volts < 2.2 || *volts > 3.6 {
				t.Fatalf("%s: battery voltage %v", n.Name, volts)
			}
			if has := slices.Contains(n.Keys, "batteryLevel"); has != (percent != nil) || (has && (*percent < 0 || *percent > 100)) {
				t.Fatalf("%s: battery percent %v", n.Name, percent)
			}
		}
		for k, vs := range distinct {
			if len(vs) < 2 {
				t.Errorf("%s: %s never changes", n.Name, k)
			}
		}
	}
	if len(seen) < 12 {
		t.Errorf("%d demo nodes, want a dozen", len(seen))
	}
	if len(models) != len(seen) {
		t.Errorf("%d models for %d demo nodes", len(models), len(seen))
	}
}
