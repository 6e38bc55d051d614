package ingest_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

// TestManualTagData: POST /api/tag/{id}/tagdata stores a value as an
// uplink's are (series, key, latest data) and announces it with its
// source; bad keys and values are refused with their messages, and only
// those who may edit the node write to it.
func TestManualTagData(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		p := kerneltest.Start(t, d, nil, app.Build)
		e := kerneltest.NewDevices(t, p.Client, p.App, p.App.Series())
		rec := kerneltest.Record(p.Host().Bus, ingest.UplinkReceived{}.Topic())
		path := fmt.Sprintf("/api/tag/%d/tagdata", e.ID(t, "{acmeNode}"))

		at := time.Now().UTC().Add(-time.Minute).Truncate(time.Second)
		e.Uplink(t, "acme", at, 5, []byte{0x01})
		got := e.Must(t, "acmeAdmin", "POST", path, map[string]any{"key": "setpoint", "value": 21.5}, http.StatusCreated).Obj()
		if got["key"] != "setpoint" || got["value"] != 21.5 || got["time"] == nil {
			t.Errorf("answer: %v", got)
		}
		e.Must(t, "acmeAdmin", "POST", path, map[string]any{"key": "open", "value": true, "time": at.Add(-time.Hour).Format(time.RFC3339)}, http.StatusCreated)
		if pt, ok := e.Latest(t, "acme", "setpoint"); !ok || pt.Value != 21.5 {
			t.Errorf("stored setpoint: %v %v", pt, ok)
		}
		if pts := e.Points(t, "acme", "open", at.Add(-2*time.Hour), at); len(pts) != 1 || pts[0].Value != 1 {
			t.Errorf("stored open: %v", pts)
		}
		data := p.Client.TagData(t, e.Tokens["acmeAdmin"], e.ID(t, "{acmeNode}"))
		if data["setpoint"] == nil || data["open"] == nil {
			t.Errorf("keys of the node: %v", data)
		}
		tag := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/tag/%d", e.ID(t, "{acmeNode}")), nil, http.StatusOK).Obj()
		if latest, _ := tag["data"].(map[string]any); latest["setpoint"] != 21.5 || tag["latestTime"] != at.Format(time.RFC3339) {
			t.Errorf("latest data %v at %v: the value joins the data, the time stays the uplink's", tag["data"], tag["latestTime"])
		}
		kerneltest.WaitFor(t, 5*time.Second, func() bool {
			for _, ev := range rec.Events() {
				if u := ev.(ingest.UplinkReceived); u.Source == ingest.SourceManual && u.Data["setpoint"] == 21.5 {
					return true
				}
			}
			return false
		}, func() string { return fmt.Sprintf("events: %v", rec.Events()) })

		for _, c := range []struct {
			name, field, id string
			body            map[string]any
		}{
			{"no key", "key", errs.IDRequired, map[string]any{"value": 1}},
			{"no value", "value", errs.IDRequired, map[string]any{"key": "a"}},
			{"reserved key", "key", ingest.IDValueKeyReserved, map[string]any{"key": "$uplink", "value": "x"}},
			{"malformed key", "key", ingest.IDValueKeyFormat, map[string]any{"key": "a b", "value": 1}},
			{"object value", "value", ingest.IDValueType, map[string]any{"key": "a", "value": map[string]any{"b": 1}}},
			{"list value", "value", ingest.IDValueType, map[string]any{"key": "a", "value": []any{1}}},
			{"bad time", "time", ingest.IDValueTime, map[string]any{"key": "a", "value": 1, "time": "yesterday"}},
			{"future time", "time", ingest.IDValueTime, map[string]any{"key": "a", "value": 1, "time": time.Now().Add(3 * time.Hour).Format(time.RFC3339)}},
		} {
			r := e.Must(t, "acmeAdmin", "POST", path, c.body, http.StatusBadRequest)
			if f := r.FieldError(c.field); f == "" {
				t.Errorf("%s: no message for %s: %s", c.name, c.field, r.Body)
			}
		}
		e.Must(t, "acmeUser", "POST", path, map[string]any{"key": "a", "value": 1}, http.StatusForbidden)
		e.Must(t, "betaAdmin", "POST", path, map[string]any{"key": "a", "value": 1}, http.StatusNotFound)
		e.Must(t, "acmeAdmin", "POST", "/api/tag/999999/tagdata", map[string]any{"key": "a", "value": 1}, http.StatusNotFound)
	})
}
