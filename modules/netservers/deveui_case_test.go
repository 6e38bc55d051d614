package netservers_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// upperEUI is how every answer spells a DevEUI.
var upperEUI = regexp.MustCompile(`^[0-9A-F]{16}$`)

// deveuiFields finds the DevEUIs of a JSON answer: every string under a key
// named devEui, deveui or tagDeveui, at any depth, with its path.
func deveuiFields(path string, v any, found map[string]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, inner := range v {
			if s, ok := inner.(string); ok && (strings.EqualFold(k, "deveui") || k == "tagDeveui") {
				found[path+"."+k] = s
				continue
			}
			deveuiFields(path+"."+k, inner, found)
		}
	case []any:
		for i, inner := range v {
			deveuiFields(fmt.Sprintf("%s[%d]", path, i), inner, found)
		}
	}
}

// TestAnswersSpellDevEUIsUpperCase sends each ingest route a DevEUI in lower
// case, for a node and for one without (the pool), then reads every API
// that answers with DevEUIs: each DevEUI in each answer is upper case, as
// the interface shows them.
func TestAnswersSpellDevEUIsUpperCase(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		now := time.Now().UTC().Truncate(time.Second).Format(time.RFC3339)
		pooled := func(i int) string { return fmt.Sprintf("a1b2c3d4e5f6a7b%d", i) }
		csUp := func(eui string) []byte {
			return variant(t, "chirpstack_v4_up.json", func(m map[string]any) {
				m["time"] = now
				sub(m, "deviceInfo")["devEui"] = eui
			})
		}
		ttsUp := func(eui string) []byte {
			return variant(t, "tts_v3_uplink.json", func(m map[string]any) {
				m["received_at"] = now
				sub(m, "uplink_message")["received_at"] = now
				sub(m, "end_device_ids")["dev_eui"] = eui
			})
		}
		generic := func(eui string) []byte { return []byte(`{"devEui":"` + eui + `","values":{"t":1},"battery":90}`) }

		ingest := []struct {
			name, path string
			body       []byte
			status     int
			want       string
		}{
			{"ChirpStack, a node", "/api/ingest/chirpstack?event=up", csUp(ttsEUI), http.StatusOK, strings.ToUpper(ttsEUI)},
			{"The Things Stack, a node", "/api/ingest/tts", ttsUp(ttsEUI), http.StatusOK, strings.ToUpper(ttsEUI)},
			{"generic, a node with separators", "/api/ingest/generic", generic("00-04-a3-0b-00-1c-14-52"), http.StatusOK, strings.ToUpper(ttsEUI)},
			{"ChirpStack, the pool", "/api/ingest/chirpstack?event=up", csUp(pooled(1)), http.StatusAccepted, strings.ToUpper(pooled(1))},
			{"The Things Stack, the pool", "/api/ingest/tts", ttsUp(pooled(2)), http.StatusAccepted, strings.ToUpper(pooled(2))},
			{"generic, the pool", "/api/ingest/generic", generic(pooled(3)), http.StatusAccepted, strings.ToUpper(pooled(3))},
		}
		for _, tc := range ingest {
			t.Run("answer of "+tc.name, func(t *testing.T) {
				r := e.post(t, "acme", tc.path, tc.body)
				if r.Status != tc.status || r.Str("devEui") != tc.want {
					t.Fatalf("%d %s; want %d with devEui %s", r.Status, r.Body, tc.status, tc.want)
				}
			})
		}

		acme, tag := e.ID["acme"], e.ID["tts"]
		e.c.Must(t, "POST", fmt.Sprintf("/api/downlink/%d", tag), e.Admin["acme"], map[string]any{"port": 1, "payload": "01", "payloadType": "hex"}, http.StatusCreated)
		// The pool's log entries are written once the bus has them.
		kerneltest.WaitFor(t, 10*time.Second, func() bool {
			r := e.c.Call(t, "GET", "/api/logs?limit=200", e.Admin["acme"], nil)
			return strings.Contains(strings.ToUpper(string(r.Body)), strings.ToUpper(pooled(3)))
		}, func() string { return "no log entry of the pooled DevEUIs" })

		reads := []struct {
			name, path, token string
		}{
			{"tags", "/api/tag", e.Admin["acme"]},
			{"a tag", fmt.Sprintf("/api/tag/%d", tag), e.Admin["acme"]},
			{"the company's tags", fmt.Sprintf("/api/companies/%d/tags", acme), e.Admin["acme"]},
			{"the node pool", "/api/tag/pool", e.Super},
			{"the log", "/api/logs?limit=200", e.Admin["acme"]},
			{"the downlinks of a tag", fmt.Sprintf("/api/downlink/tag/%d", tag), e.Admin["acme"]},
			{"the latest values", fmt.Sprintf("/api/companies/%d/latesttagdata", acme), e.Admin["acme"]},
			{"a tag's values", fmt.Sprintf("/api/tag/meta/%d/tagdata", tag), e.Admin["acme"]},
			{"the tags' activity", fmt.Sprintf("/api/companies/%d/tag/activity", acme), e.Admin["acme"]},
			{"the tags' batteries", fmt.Sprintf("/api/companies/%d/tag/batteries", acme), e.Admin["acme"]},
		}
		for _, tc := range reads {
			t.Run("answer of "+tc.name, func(t *testing.T) {
				r := e.c.Must(t, "GET", tc.path, tc.token, nil, http.StatusOK)
				found := map[string]string{}
				deveuiFields("", r.JSON, found)
				if len(found) == 0 {
					t.Fatalf("no DevEUI in %s", r.Body)
				}
				for path, eui := range found {
					if !upperEUI.MatchString(eui) {
						t.Errorf("%s = %q, not 16 upper-case hexadecimal digits", path, eui)
					}
				}
			})
		}
	})
}
