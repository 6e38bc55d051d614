package decoders_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

// loopingCodec loops on a payload of 1 and decodes others.
const loopingCodec = "function decodeUplink(i) { if (i.bytes[0] === 1) { while (true) {} } return {data: {level: i.bytes[0]}} }"

// TestDecoderSwitchedOffAfterRepeatedLimitFailures walks the switch-off of
// a company's decoder: three decodes in a row past the time limit switch it
// off, with a log entry of the company naming the node and an event; the
// next uplink is stored raw at once, with the reason; the decoder's answer
// and page, and the node's page, say why; a CompanyAdmin switches it on
// again (another company cannot), and saving a new version switches it on
// too.
func TestDecoderSwitchedOffAfterRepeatedLimitFailures(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		p := kerneltest.Start(t, d, map[string]string{"FIELDHUB_DECODER_SWITCH_OFF_AFTER": "3"}, app.Build)
		e := &env{Devices: kerneltest.NewDevices(t, p.Client, p.App, p.App.Series()), host: p.Host(), dec: p.App.Decoders()}
		switched := kerneltest.Record(e.host.Bus, decoders.DecoderSwitchedOff{}.Topic())
		e.Must(t, "super", "PUT", "/api/companies/{acme}/decoders/limits", map[string]any{"timeMs": 5, "memoryMiB": 16}, http.StatusOK)
		id := e.CreateDecoder(t, "acme", "Spinner", loopingCodec)
		key := decoders.CustomKey(id)
		e.UseDecoder(t, "acme", key)
		decoder := fmt.Sprintf("/api/decoders/%d", id)
		start := time.Now().UTC().Add(-time.Hour).Truncate(time.Millisecond)
		warnings := func(r kerneltest.Response) string { return fmt.Sprint(r.Obj()["warnings"]) }

		// Two decodes past the limit, then one that ends well, start the
		// count over: a codec that loops now and then is not switched off.
		for i, b := range []byte{1, 1, 2, 1, 1} {
			w := warnings(e.Uplink(t, "acme", start.Add(time.Duration(i)*time.Second), 1, []byte{b}))
			if failed := strings.Contains(w, "time limit of 5 ms exceeded"); failed != (b == 1) {
				t.Fatalf("uplink %d of %d: warnings %s", i, b, w)
			}
		}
		if r := e.Must(t, "acmeAdmin", "GET", decoder, nil, http.StatusOK); r.Obj()["switchedOffAt"] != nil {
			t.Fatalf("switched off after two failures in a row: %s", r.Body)
		}
		// The third in a row switches it off.
		e.Uplink(t, "acme", start.Add(5*time.Second), 1, []byte{1})
		r := e.Must(t, "acmeAdmin", "GET", decoder, nil, http.StatusOK)
		if r.Obj()["switchedOffAt"] == nil || !strings.Contains(r.Str("switchedOffReason"), "time limit of 5 ms exceeded") {
			t.Fatalf("not switched off after three failures in a row: %s", r.Body)
		}
		kerneltest.WaitFor(t, 10*time.Second, func() bool { return len(switched.Events()) == 1 }, func() string {
			return fmt.Sprintf("%d DecoderSwitchedOff events", len(switched.Events()))
		})
		if ev := switched.Events()[0].(decoders.DecoderSwitchedOff); ev.CompanyID != e.ID(t, "{acme}") || ev.Key != key || ev.Name != "Spinner" || ev.DecoderID != id {
			t.Errorf("event %+v", ev)
		}

		// Now the decoder does not run: the uplink is stored raw, with why.
		up := e.Uplink(t, "acme", start.Add(6*time.Second), 1, []byte{0xab})
		if w := warnings(up); !strings.Contains(w, "decoder switched off") {
			t.Errorf("uplink of a switched-off decoder: warnings %s", w)
		}
		if p, ok := e.Latest(t, "acme", "raw"); !ok || p.Text != "ab" {
			t.Errorf("payload not kept raw: %v, %v", p, ok)
		}
		if p, ok := e.Latest(t, "acme", ingest.UplinkKey); !ok || !strings.Contains(p.Text, "decoder switched off") {
			t.Errorf("uplink record: %v, %v", p, ok)
		}

		// The company's log says so once, naming the node.
		var entry map[string]any
		kerneltest.WaitFor(t, 10*time.Second, func() bool {
			for _, en := range e.Must(t, "acmeAdmin", "GET", "/api/logs?companyId={acme}&type=ERROR", nil, http.StatusOK).List() {
				if m := en.(map[string]any); m["messageId"] == ingest.IDLogDecoderOff {
					entry = m
					return true
				}
			}
			return false
		}, func() string { return "no log entry of the switch-off" })
		if !strings.Contains(entry["message"].(string), "Spinner") || !strings.EqualFold(entry["deveui"].(string), e.EUI["acmeNode"]) {
			t.Errorf("log entry %v", entry)
		}
		for _, en := range e.Must(t, "betaAdmin", "GET", "/api/logs", nil, http.StatusOK).List() {
			if en.(map[string]any)["messageId"] == ingest.IDLogDecoderOff {
				t.Errorf("beta sees %v", en)
			}
		}

		// The node's page says why its values stopped, and where to go.
		node := e.Client.Page(t, "GET", "/tagdetails/"+e.EUI["acmeNode"], e.Tokens["acmeAdmin"], nil)
		if node.Status != http.StatusOK || !strings.Contains(node.Body, `id="decoder-off"`) || !strings.Contains(node.Body, "Spinner") ||
			!strings.Contains(node.Body, "time limit of 5 ms exceeded") || !strings.Contains(node.Body, fmt.Sprintf(`href="/decoders/%d"`, id)) {
			t.Errorf("node page: %d %s", node.Status, kerneltest.Main(node.Body))
		}
		page := e.Client.Page(t, "GET", fmt.Sprintf("/decoders/%d", id), e.Tokens["acmeAdmin"], nil)
		if !strings.Contains(page.Body, `id="decoder-off"`) || !strings.Contains(page.Body, fmt.Sprintf(`action="/decoders/%d/switch-on"`, id)) {
			t.Errorf("decoder page: %s", kerneltest.Main(page.Body))
		}

		// Another company cannot switch it on; its CompanyAdmin can.
		e.Must(t, "betaAdmin", "POST", decoder+"/switch-on", nil, http.StatusNotFound)
		if r := e.Must(t, "acmeAdmin", "POST", decoder+"/switch-on", nil, http.StatusOK); r.Obj()["switchedOffAt"] != nil {
			t.Errorf("switched on: %s", r.Body)
		}
		node = e.Client.Page(t, "GET", "/tagdetails/"+e.EUI["acmeNode"], e.Tokens["acmeAdmin"], nil)
		if strings.Contains(node.Body, `id="decoder-off"`) {
			t.Error("the node's page still says the decoder is off")
		}
		// It runs again (and fails, and is switched off again after three).
		for i := 7; i < 10; i++ {
			if w := warnings(e.Uplink(t, "acme", start.Add(time.Duration(i)*time.Second), 1, []byte{1})); !strings.Contains(w, "time limit of 5 ms exceeded") {
				t.Errorf("uplink %d after switching on: %s", i, w)
			}
		}
		if r := e.Must(t, "acmeAdmin", "GET", decoder, nil, http.StatusOK); r.Obj()["switchedOffAt"] == nil {
			t.Fatalf("not switched off again: %s", r.Body)
		}
		// Through the page's button too, and by saving a new version.
		sw := e.Client.Page(t, "POST", fmt.Sprintf("/decoders/%d/switch-on", id), e.Tokens["acmeAdmin"], nil)
		if sw.Redirect() != fmt.Sprintf("/decoders/%d", id) {
			t.Errorf("switch-on page: %d %s", sw.Status, sw.Redirect())
		}
		if r := e.Must(t, "acmeAdmin", "GET", decoder, nil, http.StatusOK); r.Obj()["switchedOffAt"] != nil {
			t.Fatalf("the page's button did not switch it on: %s", r.Body)
		}
		for i := 10; i < 13; i++ {
			e.Uplink(t, "acme", start.Add(time.Duration(i)*time.Second), 1, []byte{1})
		}
		e.Must(t, "acmeAdmin", "POST", decoder+"/versions", map[string]any{"source": codecV1}, http.StatusCreated)
		if r := e.Must(t, "acmeAdmin", "GET", decoder, nil, http.StatusOK); r.Obj()["switchedOffAt"] != nil {
			t.Errorf("a new version did not switch it on: %s", r.Body)
		}
		e.Uplink(t, "acme", start.Add(13*time.Second), 1, []byte{9})
		if p, ok := e.Latest(t, "acme", "level"); !ok || p.Value != 9 {
			t.Errorf("the new version decoded %v, %v", p, ok)
		}
		if _, err := e.dec.SwitchedOff(context.Background(), e.ID(t, "{acme}"), key); err != nil {
			t.Error(err)
		}
	})
}

// TestBuiltinDecodersAreNeverSwitchedOff: a built-in decoder has no
// switch-off, and another company's key tells nothing.
func TestBuiltinDecodersAreNeverSwitchedOff(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite)
	ctx := context.Background()
	id := e.CreateDecoder(t, "acme", "Spinner", codecV1)
	for _, tc := range []struct {
		company int64
		key     string
	}{{e.ID(t, "{acme}"), "elsys"}, {e.ID(t, "{acme}"), decoders.Raw}, {e.ID(t, "{beta}"), decoders.CustomKey(id)}, {0, decoders.CustomKey(id)}} {
		if off, err := e.dec.SwitchedOff(ctx, tc.company, tc.key); off != nil || err != nil {
			t.Errorf("%d %s: %+v, %v", tc.company, tc.key, off, err)
		}
	}
}

// TestDecodesThatWaitedDoNotRunASwitchedOffDecoder: decodes of one company
// that wait their turn behind a looping decoder's (one at a time here) do
// not run it once it is switched off: a backlog of its uplinks, such as
// an MQTT session delivers, would otherwise run it to the limit one after
// the other, long after the switch-off.
func TestDecodesThatWaitedDoNotRunASwitchedOffDecoder(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		p := kerneltest.Start(t, d, map[string]string{"FIELDHUB_DECODER_SWITCH_OFF_AFTER": "3",
			"FIELDHUB_DECODE_CONCURRENCY": "1", "FIELDHUB_DECODE_TIME_PER_SECOND": "1h"}, app.Build)
		e := &env{Devices: kerneltest.NewDevices(t, p.Client, p.App, p.App.Series()), host: p.Host(), dec: p.App.Decoders()}
		e.Must(t, "super", "PUT", "/api/companies/{acme}/decoders/limits", map[string]any{"timeMs": 20, "memoryMiB": 16}, http.StatusOK)
		key := decoders.CustomKey(e.CreateDecoder(t, "acme", "Spinner", loopingCodec))
		in := decoders.Input{Company: e.ID(t, "{acme}"), FPort: 1, Bytes: []byte{1}, RecvTime: time.Now()}
		const n = 12
		outs := make(chan decoders.Output, n)
		for range n {
			go func() {
				out, err := e.dec.Decode(t.Context(), key, in)
				if err != nil {
					t.Error(err)
				}
				outs <- out
			}()
		}
		ran, off := 0, 0
		for range n {
			out := <-outs
			switch errors := fmt.Sprint(out.Errors); {
			case strings.Contains(errors, "decoder switched off"): // since ... (time limit of 20 ms exceeded)
				off++
			case strings.Contains(errors, "time limit of 20 ms exceeded"):
				ran++
			default:
				t.Errorf("errors %s", errors)
			}
		}
		if ran != 3 || off != n-3 {
			t.Errorf("the looping decoder ran %d times and answered switched off %d times; want 3 and %d", ran, off, n-3)
		}
	})
}
