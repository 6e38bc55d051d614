package decoders_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

// maxLoRaWANPayload is the largest application payload of a LoRaWAN uplink
// (242 bytes at the fastest data rates, regional parameters).
const maxLoRaWANPayload = 242

// FuzzBuiltinDecoders decodes arbitrary payloads on arbitrary ports with
// every built-in decoder, through Decode and ingest.Flatten: the raw-bytes
// path of an uplink. The first argument picks the decoder; the seeds are
// the documentation vectors. A decoder may answer errors, never fail to
// run, never give up on its time limit (a second here) and never return
// values the ingest cannot store from a frame a LoRaWAN uplink can carry.
//
//	go test ./modules/decoders -run '^$' -fuzz FuzzBuiltinDecoders -fuzztime 1m
func FuzzBuiltinDecoders(f *testing.F) {
	m := started(f, sandbox.Limits{Time: time.Second})
	list, err := m.Catalog(context.Background(), 0)
	if err != nil {
		f.Fatal(err)
	}
	keys := make([]string, len(list))
	index := map[string]uint16{}
	for i, e := range list {
		keys[i] = e.Key
		index[e.Key] = uint16(i)
	}
	codecs, err := loadVectors()
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range codecs {
		for _, v := range c.vectors {
			if b, err := hex.DecodeString(v.Bytes); err == nil {
				f.Add(index[c.key], uint8(v.FPort), b)
			}
		}
	}
	f.Add(index[decoders.Raw], uint8(1), []byte{0xff})
	recv := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, which uint16, fPort uint8, payload []byte) {
		if len(payload) > ingest.MaxPayload {
			return
		}
		key := keys[int(which)%len(keys)]
		out, err := m.Decode(context.Background(), key, decoders.Input{FPort: int(fPort), Bytes: payload, RecvTime: recv})
		if err != nil {
			t.Fatalf("%s, fPort %d, payload %x: %v", key, fPort, payload, err)
		}
		if out.Data == nil {
			if len(out.Errors) == 0 {
				t.Fatalf("%s, fPort %d, payload %x: no data and no errors", key, fPort, payload)
			}
			for _, e := range out.Errors {
				if len(e) > 16 && e[:16] == "decoder failed (" {
					t.Fatalf("%s, fPort %d, payload %x: %s", key, fPort, payload, e)
				}
			}
			return
		}
		if _, err := json.Marshal(out.Data); err != nil {
			t.Fatalf("%s, fPort %d, payload %x: data %v: %v", key, fPort, payload, out.Data, err)
		}
		// A frame longer than LoRaWAN carries cannot come from these
		// devices; a decoder may then give more values than an uplink may
		// hold (a history of hundreds of samples), which the ingest answers
		// by keeping the payload raw. Real frames must always be storable.
		if _, err := ingest.Flatten(out.Data); err != nil && len(payload) <= maxLoRaWANPayload {
			t.Fatalf("%s, fPort %d, payload %x: data the ingest cannot store: %v", key, fPort, payload, err)
		}
	})
}
