package netservers_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/eclipse/paho.golang/paho"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/netservers"
)

// TestJSONDownlinkEncoded: a node whose decoder, imported from the device
// repository fixture, has encodeDownlink gets a JSON downlink encoded when
// it is queued (the bytes beside the object, the codec's port), published
// to ChirpStack as those bytes; an object the encoder refuses is a 400
// naming its errors.
func TestJSONDownlinkEncoded(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newMQTTEnv(t, d)
		if _, err := e.dec.ImportDevices(context.Background(), os.DirFS("../decoders/testdata/devrepo")); err != nil {
			t.Fatal(err)
		}
		cs := newMQTTClient(t, e.broker, "application/"+e.csApp+"/device/+/command/down")
		e.awaitSubscribed(t, cs) // with the raw decoder, which its probe uplinks need
		e.c.Must(t, "PUT", fmt.Sprintf("/api/tag/%s", e.devEUI), e.admin, map[string]any{"decoder": "ttn/acme/door-codec"}, http.StatusOK)

		id := e.queue(t, e.tag, map[string]any{"port": 3, "payload": map[string]any{"buzzer": true, "seconds": 5}, "payloadType": "json"})
		msg := cs.await(t, func(p *paho.Publish) bool { return strings.Contains(string(p.Payload), netservers.DownlinkRef(id)) })
		var body map[string]any
		if err := json.Unmarshal(msg.Payload, &body); err != nil {
			t.Fatalf("body %s: %v", msg.Payload, err)
		}
		if body["data"] != base64.StdEncoding.EncodeToString([]byte{1, 5}) || body["fPort"] != 10.0 {
			t.Errorf("published %v", body)
		}
		dl := e.awaitStatus(t, e.tag, id, "sent")
		if dl["encoded"] != "0105" || dl["port"] != 10.0 || dl["payloadType"] != "json" {
			t.Errorf("downlink %v", dl)
		}

		// The node details page shows the bytes beside the object.
		page := e.c.Page(t, "GET", "/tagdetails/"+e.devEUI, e.admin, nil)
		if page.Status != http.StatusOK || !strings.Contains(page.Body, `<code class="payload">{"buzzer":true,"seconds":5}</code>`) ||
			!strings.Contains(page.Body, `<code class="payload">0105</code>`) {
			t.Errorf("/tagdetails: %d, the object or its bytes missing", page.Status)
		}

		r := e.c.Call(t, "POST", fmt.Sprintf("/api/downlink/%d", e.tag), e.admin, map[string]any{"port": 3, "payload": map[string]any{"seconds": 900}, "payloadType": "json"})
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "seconds must be a number from 0 to 255") {
			t.Errorf("refused object: %d %s", r.Status, r.Body)
		}
	})
}
