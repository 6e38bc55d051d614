package ingest_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

// TestDecodeErrorInNodeState: an uplink the decoder cannot read becomes the
// node's last decode error (its time, payload, port and reasons) in the
// same state write as its data, marked as the latest uplink until one that
// decodes comes after it; the state also keeps when the latest uplink
// arrived beside the time it carries, and its data points count values
// only.
func TestDecodeErrorInNodeState(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newDecoderEnv(t, d)
		e.UseDecoder(t, "acme", "elsys")
		tag := func() kerneltest.Response {
			t.Helper()
			return e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/tag/%d", e.ID(t, "{acmeNode}")), nil, http.StatusOK)
		}
		at := time.Now().UTC().Add(-time.Hour).Truncate(time.Millisecond)
		e.Uplink(t, "acme", at, 5, []byte{0x01, 0x00, 0xe2, 0x02, 0x29})
		if got := tag().Obj(); got["decodeError"] != nil {
			t.Errorf("a decoded uplink left a decode error: %v", got["decodeError"])
		}

		e.Uplink(t, "acme", at.Add(time.Second), 7, []byte{0x01, 0x00}) // cut short: elsys reports an error
		got := tag().Obj()
		de, _ := got["decodeError"].(map[string]any)
		if de == nil || de["payload"] != "0100" || de["fPort"] != 7.0 || len(de["errors"].([]any)) == 0 {
			t.Fatalf("decode error: %v", got["decodeError"])
		}
		if de["time"] != got["latestTime"] {
			t.Errorf("the failed uplink is the latest: decode error at %v, latest %v", de["time"], got["latestTime"])
		}

		e.Uplink(t, "acme", at.Add(2*time.Second), 5, []byte{0x01, 0x00, 0xe2, 0x02, 0x29})
		got = tag().Obj()
		if de, _ := got["decodeError"].(map[string]any); de == nil || de["time"] == got["latestTime"] {
			t.Errorf("after an uplink that decodes, the last error stays but is not the latest: %v, latest %v", got["decodeError"], got["latestTime"])
		}

		// The node's data points count its values, not the kept uplinks.
		var values int
		for _, k := range got["keys"].([]any) {
			values += len(e.Points(t, "acme", k.(string), at.Add(-time.Minute), at.Add(time.Minute)))
		}
		if kept := e.Points(t, "acme", ingest.UplinkKey, at.Add(-time.Minute), at.Add(time.Minute)); len(kept) != 3 || values == 0 {
			t.Fatalf("%d values and %d kept uplinks stored", values, len(kept))
		}
		if got["dataPoints24h"] != float64(values) {
			t.Errorf("dataPoints24h %v, want the %d values only", got["dataPoints24h"], values)
		}

		// A device whose clock is years off: the time it sent is kept,
		// and when it arrived beside it.
		old := time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC)
		before := time.Now().UTC()
		e.Uplink(t, "beta", old, 5, []byte{0x01, 0x00, 0xe2, 0x02, 0x29})
		b := e.Must(t, "betaAdmin", "GET", fmt.Sprintf("/api/tag/%d", e.ID(t, "{betaNode}")), nil, http.StatusOK).Obj()
		received, err := time.Parse(time.RFC3339Nano, fmt.Sprint(b["latestReceivedAt"]))
		if b["latestTime"] != "2021-03-04T05:06:07Z" || err != nil || received.Before(before.Add(-time.Second)) {
			t.Errorf("latest time %v, received %v (%v)", b["latestTime"], b["latestReceivedAt"], err)
		}
	})
}

// TestRedecodeClearsTheDecodeError: when the latest uplink, which the
// decoder failed on, decodes after the decoder is fixed and the uplinks are
// decoded again, the node's decode error is gone.
func TestRedecodeClearsTheDecodeError(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newDecoderEnv(t, d)
		id := e.CreateDecoder(t, "acme", "Picky", `function decodeUplink(input) { return {errors: ["unknown type 0x" + input.bytes[0].toString(16)]} }`)
		key := decoders.CustomKey(id)
		e.UseDecoder(t, "acme", key)
		at := time.Now().UTC().Add(-time.Hour).Truncate(time.Millisecond)
		e.Uplink(t, "acme", at, 3, []byte{0xaa})
		tag := func() map[string]any {
			t.Helper()
			return e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/tag/%d", e.ID(t, "{acmeNode}")), nil, http.StatusOK).Obj()
		}
		de, _ := tag()["decodeError"].(map[string]any)
		if de == nil || fmt.Sprint(de["errors"]) != "[unknown type 0xaa]" || de["payload"] != "aa" {
			t.Fatalf("decode error: %v", de)
		}
		e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/decoders/%d/versions", id), map[string]any{"source": codecV1}, http.StatusCreated)
		r := e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/companies/%d/redecode", e.ID(t, "{acme}")),
			map[string]any{"decoder": key, "tagId": e.ID(t, "{acmeNode}"), "from": at.Add(-time.Minute), "to": at.Add(time.Minute)}, http.StatusCreated)
		if job := waitJob(t, e, r.Num("id")); job["status"] != "done" || job["failed"] != 0.0 {
			t.Fatalf("job: %v", job)
		}
		if got := tag(); got["decodeError"] != nil {
			t.Errorf("the decode error stayed after the uplink decoded again: %v", got["decodeError"])
		}
	})
}
