package ingest_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

// Two versions of a company's own decoder: the second decodes the same
// payload to other values and a new key.
const (
	codecV1 = "function decodeUplink(input) { return {data: {level: input.bytes[0]}} }"
	codecV2 = "function decodeUplink(input) { return {data: {level: input.bytes[0] * 10, version: 2}} }"
)

// decoderEnv is a running portal (app.Build) for the tests of decoding
// again, with the companies of kerneltest.Devices: acme and beta, each with
// a CompanyAdmin, an application with a node, and an integration token;
// acme also has a User. The companies make their own decoders.
type decoderEnv struct {
	*kerneltest.Devices
}

func newDecoderEnv(t *testing.T, d db.Dialect) *decoderEnv {
	t.Helper()
	p := kerneltest.Start(t, d, nil, app.Build)
	return &decoderEnv{kerneltest.NewDevices(t, p.Client, p.App, p.App.Series())}
}

// TestUplinkRecord checks that every uplink with a payload is kept as it
// came under ingest.UplinkKey, with its port, radio values and decode
// errors, and that the record is not one of the node's keys.
func TestUplinkRecord(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newDecoderEnv(t, d)
		at := time.Now().UTC().Add(-time.Hour).Truncate(time.Millisecond)
		e.UseDecoder(t, "acme", "elsys")
		e.Uplink(t, "acme", at, 5, []byte{0x01, 0x00, 0xe2, 0x02, 0x29})
		e.Uplink(t, "acme", at.Add(time.Second), 5, []byte{0x01, 0x00}) // cut short: elsys reports an error
		pts := e.Points(t, "acme", ingest.UplinkKey, at, at.Add(time.Minute))
		if len(pts) != 2 {
			t.Fatalf("records: %v", pts)
		}
		first, err := ingest.ParseUplinkRecord(pts[0].Text)
		if err != nil || first.Payload != "0100e20229" || first.FPort != 5 || *first.RSSI != -80 || *first.SNR != 7.25 || first.Errors != nil {
			t.Errorf("first record: %+v, %v (%s)", first, err, pts[0].Text)
		}
		second, _ := ingest.ParseUplinkRecord(pts[1].Text)
		if second.Payload != "0100" || len(second.Errors) == 0 {
			t.Errorf("second record: %s", pts[1].Text)
		}
		if p, ok := e.Latest(t, "acme", "temperature"); !ok || p.Value != 22.6 {
			t.Errorf("temperature: %v, %v", p, ok)
		}
		keys := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/tag/%d/keys", e.ID(t, "{acmeNode}")), nil, http.StatusOK)
		if strings.Contains(string(keys.Body), ingest.UplinkKey) {
			t.Errorf("the record is a key of the node: %s", keys.Body)
		}
		tag := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/tag/%d", e.ID(t, "{acmeNode}")), nil, http.StatusOK)
		if strings.Contains(string(tag.Body), ingest.UplinkKey) {
			t.Errorf("the record is in the node's data: %s", tag.Body)
		}
	})
}

// TestRedecode decodes a node's kept uplinks again after its decoder got a
// new version: the job's progress reaches done, the values are replaced and
// the new keys registered.
func TestRedecode(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newDecoderEnv(t, d)
		id := e.CreateDecoder(t, "acme", "Tank", codecV1)
		key := decoders.CustomKey(id)
		e.UseDecoder(t, "acme", key)
		start := time.Now().UTC().Add(-2 * time.Hour).Truncate(time.Millisecond)
		const n = 7
		for i := range n {
			e.Uplink(t, "acme", start.Add(time.Duration(i)*time.Minute), 3, []byte{byte(i + 1)})
		}
		// An uplink outside the window stays as it was.
		e.Uplink(t, "acme", start.Add(-time.Hour), 3, []byte{9})
		e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/decoders/%d/versions", id), map[string]any{"source": codecV2}, http.StatusCreated)

		jobs := fmt.Sprintf("/api/companies/%d/redecode", e.ID(t, "{acme}"))
		for _, bad := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"from": start, "to": start.Add(time.Hour)}, "decoder"},
			{map[string]any{"decoder": "nope", "from": start, "to": start.Add(time.Hour)}, "decoder"},
			{map[string]any{"decoder": "elsys", "from": start, "to": start.Add(time.Hour)}, "decoder"}, // no node uses it
			{map[string]any{"decoder": key, "tagId": e.ID(t, "{betaNode}"), "from": start, "to": start.Add(time.Hour)}, "tagId"},
			{map[string]any{"decoder": key, "from": start.Add(time.Hour), "to": start}, "to"},
			{map[string]any{"decoder": key, "to": start}, "from"},
		} {
			if r := e.Call(t, "acmeAdmin", "POST", jobs, bad.body); r.Status != http.StatusBadRequest || r.FieldError(bad.field) == "" {
				t.Errorf("job %v: %d %s", bad.body, r.Status, r.Body)
			} else if strings.ContainsAny(r.FieldError(bad.field), "{}") {
				t.Errorf("job %v: a placeholder is left in %q", bad.body, r.FieldError(bad.field))
			}
		}
		if r := e.Call(t, "acmeAdmin", "POST", jobs, map[string]any{"decoder": "nope", "from": start, "to": start.Add(time.Hour)}); r.FieldError("decoder") != "There is no decoder nope" {
			t.Errorf("unknown decoder: %s", r.Body)
		}
		r := e.Must(t, "acmeAdmin", "POST", jobs, map[string]any{"decoder": key, "tagId": e.ID(t, "{acmeNode}"),
			"from": start, "to": start.Add(time.Hour)}, http.StatusCreated)
		if r.Str("status") != "queued" || r.Num("nodes") != 1 {
			t.Errorf("queued job: %s", r.Body)
		}
		job := waitJob(t, e, r.Num("id"))
		if job["status"] != "done" || job["uplinks"] != float64(n) || job["failed"] != 0.0 || job["progress"] != 1.0 {
			t.Errorf("finished job: %v", job)
		}
		pts := e.Points(t, "acme", "level", start.Add(-2*time.Hour), start.Add(time.Hour))
		if len(pts) != n+1 || pts[0].Value != 9 {
			t.Fatalf("levels: %v", pts)
		}
		for i, p := range pts[1:] {
			if p.Value != float64((i+1)*10) {
				t.Errorf("level %d: %v, want %d", i, p.Value, (i+1)*10)
			}
		}
		if got := e.Points(t, "acme", "version", start.Add(-2*time.Hour), start.Add(time.Hour)); len(got) != n {
			t.Errorf("the new key: %v", got)
		}
		keys := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/tag/%d/keys", e.ID(t, "{acmeNode}")), nil, http.StatusOK)
		if !strings.Contains(string(keys.Body), `"version"`) {
			t.Errorf("the new key is not registered: %s", keys.Body)
		}
		tag := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/tag/%d", e.ID(t, "{acmeNode}")), nil, http.StatusOK).Obj()
		if data := tag["data"].(map[string]any); data["level"] != float64(n*10) || data["version"] != 2.0 {
			t.Errorf("the node's state: %v", data)
		}
		list := e.Must(t, "acmeAdmin", "GET", jobs+"?decoder="+key, nil, http.StatusOK).List()
		if len(list) != 1 {
			t.Errorf("jobs: %v", list)
		}
		// Cancelling a finished job leaves it done.
		if r := e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/redecode/%d/cancel", r.Num("id")), nil, http.StatusOK); r.Str("status") != "done" {
			t.Errorf("cancel a finished job: %s", r.Body)
		}
		e.Must(t, "betaAdmin", "GET", fmt.Sprintf("/api/redecode/%d", r.Num("id")), nil, http.StatusNotFound)
	})
}

// waitJob polls a re-decode job until it is no longer queued or running.
func waitJob(t *testing.T, e *decoderEnv, id int64) map[string]any {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		job := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/redecode/%d", id), nil, http.StatusOK).Obj()
		if s := job["status"]; s != "queued" && s != "running" {
			return job
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %d did not finish: %v", id, job)
		}
	}
}

// hostile are codecs that attack the sandbox, each with what its uplink's
// kept decode error says.
var hostile = []struct {
	name, source, want string
}{
	{"an endless loop", "function decodeUplink(i) { for (;;) {} }", "time_limit"},
	{"a memory bomb", "function decodeUplink(i) { var a = []; for (;;) a.push(new Array(1e5).fill(i.fPort)) }", "_limit"},
	{"deep recursion", "function down(n) { return down(n + 1) + 1 } function decodeUplink(i) { return {data: {n: down(0)}} }", "_limit"},
	{"a 100 MB string", "function decodeUplink(i) { return {data: {s: 'x'.repeat(100 * 1000 * 1000)}} }", "memory_limit"},
	{"prototype tampering", "function decodeUplink(i) { if (({}).toJSON) throw new Error('polluted by an earlier call'); " +
		"Object.prototype.toJSON = function () { return 'hijacked' }; Array.prototype.push = null; return {data: {ok: 1}} }", "bad_result"},
	{"reaching for host objects", "function decodeUplink(i) { var found = ['require', 'process', 'std', 'os', 'fetch', 'XMLHttpRequest', 'WebAssembly', 'Deno', 'setTimeout']" +
		".filter(function (n) { return typeof globalThis[n] !== 'undefined' }); if (found.length) return {data: {found: found.join()}}; " +
		"return std.loadFile('/etc/passwd') }", "ReferenceError: std is not defined"},
}

// TestHostileCodecsInTheIngest sends uplinks of nodes whose decoders attack
// the sandbox while a stream of normal uplinks of another company's node
// goes on: every hostile uplink is stored with its payload and a decode
// error, every normal one is decoded and stored.
func TestHostileCodecsInTheIngest(t *testing.T) {
	t.Parallel()
	e := newDecoderEnv(t, db.SQLite)
	euis := make([]string, len(hostile))
	for i, h := range hostile {
		euis[i] = fmt.Sprintf("A0B1C2D3E4F500%02X", i)
		id := e.CreateDecoder(t, "acme", h.name, h.source)
		e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/applications/%d/tag", e.ID(t, "{acmeApp}")),
			map[string]any{"name": h.name, "deveui": euis[i], "decoder": decoders.CustomKey(id)}, http.StatusCreated)
	}
	e.UseDecoder(t, "beta", "elsys")
	start := time.Now().UTC().Add(-time.Hour).Truncate(time.Millisecond)

	// The normal stream: beta's node, one uplink after another, until the
	// hostile uplinks are through (and at least 20).
	stop := make(chan struct{})
	var normal []int
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				if i >= 20 {
					return
				}
			default:
			}
			temp := 200 + i
			r := e.PostUplink(t, "beta", start.Add(time.Duration(i)*time.Second), 5, []byte{0x01, byte(temp >> 8), byte(temp)})
			if r.Status != http.StatusOK || r.Obj()["warnings"] != nil {
				t.Errorf("normal uplink %d: %d %s", i, r.Status, r.Body)
			}
			normal = append(normal, temp)
		}
	})
	// Each hostile node sends three uplinks, all at once.
	var hw sync.WaitGroup
	for i := range hostile {
		for k := range 3 {
			hw.Go(func() {
				at := start.Add(time.Duration(k) * time.Second)
				r := e.Client.Call(t, "POST", "/api/ingest/chirpstack?event=up", e.Tokens["acmeIngest"], map[string]any{
					"time": at.Format(time.RFC3339Nano), "deviceInfo": map[string]any{"devEui": strings.ToLower(euis[i])},
					"fPort": 7, "data": []byte{0xde, 0xad, byte(k)},
				})
				if r.Status != http.StatusOK || !strings.Contains(string(r.Body), "failed") {
					t.Errorf("%s, uplink %d: %d %s", hostile[i].name, k, r.Status, r.Body)
				}
			})
		}
	}
	hw.Wait()
	close(stop)
	wg.Wait()

	for i, h := range hostile {
		s := e.Series(t, "acme", ingest.UplinkKey)
		s.DevEUI = strings.ToLower(euis[i])
		pts, err := e.Store.Range(context.Background(), s, start.Add(-time.Second), start.Add(time.Minute), 10)
		if err != nil || len(pts) != 3 {
			t.Errorf("%s: records %v, %v", h.name, pts, err)
			continue
		}
		for _, p := range pts {
			rec, err := ingest.ParseUplinkRecord(p.Text)
			if err != nil || rec.FPort != 7 || !strings.HasPrefix(rec.Payload, "dead") || !strings.Contains(strings.Join(rec.Errors, " "), h.want) {
				t.Errorf("%s: record %s; want an error with %q", h.name, p.Text, h.want)
			}
			if strings.Contains(p.Text, "polluted") {
				t.Errorf("%s: one call saw another's prototypes: %s", h.name, p.Text)
			}
		}
		s.Key = "raw"
		if pts, _ := e.Store.Range(context.Background(), s, start.Add(-time.Second), start.Add(time.Minute), 10); len(pts) != 3 {
			t.Errorf("%s: the payloads were not kept raw: %v", h.name, pts)
		}
	}
	stored := e.Points(t, "beta", "temperature", start.Add(-time.Second), start.Add(time.Hour))
	if len(stored) != len(normal) || len(normal) < 20 {
		t.Fatalf("normal uplinks: %d sent, %d stored", len(normal), len(stored))
	}
	for i, p := range stored {
		if p.Value != float64(normal[i])/10 {
			t.Errorf("normal uplink %d: %v, want %v", i, p.Value, float64(normal[i])/10)
		}
	}
}
